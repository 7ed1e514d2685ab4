import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, promises as fsp, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Actor, Channel } from '../../ground/kernel/actors';

/** One Gateway decision and, once the call finished, its outcome. */
export interface AuditEntry {
  id: string;
  time: string;
  actor: Actor;
  channel: Channel;
  action: string;
  /** The name the caller used, when it was not the tool's own (`approveCandidate` for approve_candidate). */
  requested?: string;
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
  /** Lines of derived writes made while the data folder did not exist, written with the next line that is not. */
  private pending: string[] = [];

  /** `prepare` runs before the first line is written (the workspace creates `.autosnippet/` there). */
  constructor(
    readonly dir: string,
    private readonly prepare: () => void = () => undefined,
  ) {}

  private get file(): string {
    return path.join(this.dir, 'audit.jsonl');
  }

  /**
   * Appends one line. `deferrable`: the audited write is derived (kept in memory by the store while
   * nothing is on disk), so while the data folder (`dir`'s parent) does not exist the line waits in
   * memory with it instead of creating the folder; it is written before the next line that must be.
   */
  async append(
    record: Partial<AuditEntry> & { id: string; phase: 'decision' | 'outcome' },
    options: { deferrable?: boolean } = {},
  ): Promise<void> {
    const line = JSON.stringify(record) + '\n';
    if (options.deferrable && !existsSync(path.dirname(this.dir))) {
      this.pending.push(line);
      return;
    }
    this.prepare();
    mkdirSync(this.dir, { recursive: true });
    await this.rotateIfLarge();
    const waiting = this.pending.length;
    await fsp.appendFile(this.file, this.pending.slice(0, waiting).join('') + line);
    this.pending.splice(0, waiting);
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
    const texts = files.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8'));
    for (const text of [...texts, this.pending.join('')]) {
      for (const line of text.split('\n')) {
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
  const hash = createHash('sha256');
  hashCanonical(hash, input, 0);
  return hash.digest('hex').slice(0, 16);
}

/** Past this depth a value is hashed as a marker: refused inputs can be 50,000 levels deep. */
const DIGEST_DEPTH = 32;

function hashCanonical(hash: ReturnType<typeof createHash>, v: unknown, depth: number): void {
  if (depth > DIGEST_DEPTH) {
    hash.update('"<deeper>"');
  } else if (Array.isArray(v)) {
    hash.update('[');
    v.forEach((x, i) => (i && hash.update(','), hashCanonical(hash, x, depth + 1)));
    hash.update(']');
  } else if (v && typeof v === 'object') {
    hash.update('{');
    Object.keys(v).sort().forEach((k, i) => {
      if (i) hash.update(',');
      hash.update(JSON.stringify(k) + ':');
      hashCanonical(hash, (v as Record<string, unknown>)[k], depth + 1);
    });
    hash.update('}');
  } else {
    hash.update(JSON.stringify(v) ?? 'null');
  }
}
