import { createHash, randomUUID } from 'node:crypto';
import { promises as fsp, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Actor, ToolContext } from '../tools/types';

/** One Gateway decision and, once the call finished, its outcome. */
export interface AuditEntry {
  id: string;
  time: string;
  actor: Actor;
  channel: ToolContext['channel'];
  action: string;
  resource?: string;
  argsDigest: string;
  decision: 'allowed' | 'denied';
  result?: 'ok' | 'error' | 'denied';
  error?: string;
  durationMs?: number;
}

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const KEPT_FILES = 3;

/**
 * The audit log: JSON lines in `.autosnippet/audit/`, outside the database so the image stays lean,
 * rotated at 2 MB with the last three files kept. Appends are whole lines in one write, so several
 * processes can share it.
 */
export class AuditLog {
  /** `prepare` runs before the first line is written (the workspace creates `.autosnippet/` there). */
  constructor(
    readonly dir: string,
    private readonly prepare: () => void = () => undefined,
  ) {}

  private get file(): string {
    return path.join(this.dir, 'audit.jsonl');
  }

  async append(record: Partial<AuditEntry> & { id: string; phase: 'decision' | 'outcome' }): Promise<void> {
    this.prepare();
    mkdirSync(this.dir, { recursive: true });
    await this.rotateIfLarge();
    await fsp.appendFile(this.file, JSON.stringify(record) + '\n');
  }

  private async rotateIfLarge(): Promise<void> {
    let size = 0;
    try {
      size = statSync(this.file).size;
    } catch {
      return;
    }
    if (size < MAX_FILE_BYTES) return;
    for (let i = KEPT_FILES - 1; i >= 1; i--) {
      const from = i === 1 ? this.file : path.join(this.dir, `audit.${i - 1}.jsonl`);
      await fsp.rename(from, path.join(this.dir, `audit.${i}.jsonl`)).catch(() => undefined);
    }
  }

  /** Entries newest first; decision and outcome lines are merged by id. */
  read(): AuditEntry[] {
    const files = [path.join(this.dir, `audit.${KEPT_FILES - 1}.jsonl`)];
    for (let i = KEPT_FILES - 2; i >= 1; i--) files.push(path.join(this.dir, `audit.${i}.jsonl`));
    files.push(this.file);
    const byId = new Map<string, AuditEntry>();
    for (const f of files) {
      if (!existsSync(f)) continue;
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        if (!line) continue;
        try {
          const { phase: _phase, ...rec } = JSON.parse(line) as AuditEntry & { phase: string };
          byId.set(rec.id, { ...byId.get(rec.id), ...rec } as AuditEntry);
        } catch {
          // A torn last line of a crashed process: skip it.
        }
      }
    }
    return [...byId.values()].reverse();
  }
}

export function newAuditId(): string {
  return randomUUID();
}

/** A stable digest of the arguments: enough to match calls without storing their content. */
export function digestArgs(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex').slice(0, 16);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonicalJson((v as Record<string, unknown>)[k])).join(',') + '}';
  }
  return JSON.stringify(v) ?? 'null';
}
