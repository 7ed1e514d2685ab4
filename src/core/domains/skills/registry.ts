import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { readRepoFileSync } from '../../ground/files';
import { type Logger, silentLogger } from '../../ground/kernel/log';
import { PACKS_STATE_DIR } from '../packs/layout';
import { loadPacks } from '../packs/load';
import { userDataDir } from '../../ground/trust';
import type { Workspace } from '../../ground/workspace';
import { scanSkillRoot, type PassedOver } from './discover';
import { closestNames } from '../../ground/kernel/names';
import { parseSkill, slugOf, type ParsedSkill } from './parse';
import type { ShadowedSkill, Skill, SkillSource, SkippedSkill } from './types';

/** The workspace folders skills are read from, highest precedence first; the bundled skills come last. */
export const WORKSPACE_SKILL_FOLDERS: readonly { id: SkillSource['id']; dir: string; label: string }[] = [
  { id: 'project', dir: '.autosnippet/skills', label: 'Project' },
  { id: 'github', dir: '.github/skills', label: 'GitHub' },
  { id: 'claude', dir: '.claude/skills', label: 'Claude' },
  { id: 'agents', dir: '.agents/skills', label: 'Agents' },
];

const RESOURCE_FOLDERS = ['scripts', 'references', 'assets'];

export interface SkillRegistryOptions {
  /** Workspace root; its skill folders are read when given. */
  root?: string;
  /** Folder of the bundled skills (lowest precedence). */
  bundledDir?: string;
  /** The person's own skills (`~/.autosnippet/skills`): below every workspace folder, above the bundled ones. */
  personalDir?: string;
  /** The verified copies of the workspace's knowledge packs (`<pack>/skills/<name>/SKILL.md`): below personal, above bundled. */
  packsDir?: string;
  /** Called before each look at the folders: brings the packs' copies in line with their pins. */
  prepare?: () => void;
  log?: Logger;
  /** How often to look for changes on disk while someone listens to `onDidChange`. */
  pollMs?: number;
  /**
   * How long a check of every SKILL.md is trusted before the next one (default 1 s, as the workspace
   * file listing); 30 s once a host's file watcher calls `invalidate` (`setWatched`).
   */
  freshMs?: number;
}

/** With a watcher, every SKILL.md is still compared this often: watchers drop events. */
const WATCHED_FRESH_MS = 30_000;
/**
 * A folder changed this recently may change again within the same clock tick of the file system and
 * keep its modification time: it is not trusted until it is older (git's "racy" entries).
 */
const RACY_MS = 100;

export interface SkillsChange {
  version: number;
  added: string[];
  removed: string[];
  changed: string[];
}

interface Snapshot {
  skills: Skill[];
  byKey: Map<string, Skill>;
  shadowed: ShadowedSkill[];
  skipped: SkippedSkill[];
  /** name → stat key of its SKILL.md, to tell what changed. */
  keys: Map<string, string>;
  /** Every skill file (shadowed and skipped included) and its stat key when scanned. */
  files: Map<string, string>;
  /** The folders the scan listed (and the source roots), with their modification time then ('' when absent or racy). */
  folders: Map<string, string>;
}

interface Candidate {
  source: SkillSource;
  dir: string;
  folderName: string;
  file: string;
  statKey: string;
  /** Set when the skill file is not named exactly SKILL.md. */
  warning?: string;
}

/** The registry of a workspace, created on first use and disposed with the workspace. */
export function skillRegistry(ws: Workspace): SkillRegistry {
  return ws.service('skills', (w) =>
    new SkillRegistry({
      root: w.root,
      bundledDir: w.bundledSkillsDir,
      personalDir: path.join(userDataDir(), 'skills'),
      packsDir: w.path(PACKS_STATE_DIR),
      prepare: () => void loadPacks(w),
      log: w.log,
    }));
}

/**
 * Every skill the workspace can see, by precedence, kept current without a watcher and without
 * checking every file on every call:
 * - each access stats the folders the last scan listed (the source roots and the folders above the
 *   skill folders: a handful), so a skill folder added, removed or renamed is seen by the next call;
 * - `get`/`require` (loading one skill) also stat that skill's file, so an edit to it is seen at once;
 * - every SKILL.md is compared (one stat each) at most once per `freshMs` (1 s), or at once after
 *   `invalidate()` or `refresh()`; a host with a file watcher calls `invalidate` and `setWatched`.
 * Only files whose stat changed are parsed again.
 */
export class SkillRegistry {
  readonly sources: SkillSource[];
  private readonly log: Logger;
  private readonly prepare: (() => void) | undefined;
  private readonly pollMs: number;
  private readonly freshMs: number;
  private watched = false;
  /** When every skill file was last compared with the disk (0: due now). */
  private checkedAt = 0;
  private snapshot: Snapshot | undefined;
  private signature = '';
  private readonly parsed = new Map<string, { statKey: string; result: ParsedSkill }>();
  private readonly listeners = new Set<(change: SkillsChange) => void>();
  private timer: NodeJS.Timeout | undefined;
  private versionCounter = 0;
  private folderKeys = new Map<string, string>();

  /** Workspace skills are read only from inside the workspace (a skill folder linked to elsewhere is skipped). */
  private readonly root: string | undefined;

  constructor(options: SkillRegistryOptions) {
    this.root = options.root;
    this.log = options.log ?? silentLogger;
    this.pollMs = options.pollMs ?? 2000;
    this.freshMs = options.freshMs ?? 1000;
    this.sources = defaultSources(options.root, options.bundledDir, options.personalDir, options.packsDir);
    this.prepare = options.prepare;
  }

  /** Increases every time the set of skills or one of their files changes. */
  get version(): number {
    this.current();
    return this.versionCounter;
  }

  /** The skills in effect (shadowed ones excluded), by source precedence, then name. */
  list(): Skill[] {
    return this.current().skills;
  }

  /** The skill of that name (or its lowercase or slug form), as its file is on disk now. */
  get(name: string): Skill | undefined {
    const found = this.lookup(this.current(), name);
    // One stat keeps the skill being loaded exact; a miss looks again, in case it was just written.
    if (found && statKeyOf(found.file) === this.snapshot?.files.get(found.file)) return found;
    return this.lookup(this.current(true), name);
  }

  private lookup(snap: Snapshot, name: string): Skill | undefined {
    return snap.byKey.get(name) ?? snap.byKey.get(name.toLowerCase()) ?? snap.byKey.get(slugOf(name));
  }

  /** The skill, or SKILL_NOT_FOUND listing the names that exist, closest first. */
  require(name: string): Skill {
    const skill = this.get(name);
    if (skill) return skill;
    const names = this.list().map((s) => s.name);
    const available = closestNames(name.slice(0, 128), names, 5);
    throw new AutoSnippetError(
      'SKILL_NOT_FOUND',
      `No skill named "${name}".${available.length ? ` Closest: ${available.join(', ')}.` : ' No skills are installed.'}`,
      'Call list_skills (or search_skills with the task in words) and use a name it returns.',
      { name, available },
    );
  }

  shadowed(): ShadowedSkill[] {
    return this.current().shadowed;
  }

  skipped(): SkippedSkill[] {
    return this.current().skipped;
  }

  /** Whether the skills were read in this process (the first `list`, `get` or `counts` reads every skill file). */
  get read(): boolean {
    return this.snapshot !== undefined;
  }

  /** How many skills there are, shadowed and skipped, from one look at the disk. */
  counts(): { skills: number; shadowed: number; skipped: number } {
    const s = this.current();
    return { skills: s.skills.length, shadowed: s.shadowed.length, skipped: s.skipped.length };
  }

  /** Looks at the disk now; returns true when something changed (and tells the listeners). */
  refresh(): boolean {
    const before = this.versionCounter;
    this.current(true);
    return this.versionCounter !== before;
  }

  /** A file watcher saw a change under a skills folder: the next access compares every skill file. */
  invalidate(): void {
    this.checkedAt = 0;
  }

  /** A host whose file watcher calls `invalidate` turns this on: every file is then compared only every 30 s. */
  setWatched(watched: boolean): void {
    this.watched = watched;
  }

  /** Called after skills change on disk; polling starts with the first listener and stops with the last. */
  onDidChange(listener: (change: SkillsChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    this.current();
    if (!this.timer) {
      this.folderKeys = this.folderSignatures();
      this.timer = setInterval(() => this.poll(), this.pollMs);
      this.timer.unref();
    }
    return {
      dispose: () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0 && this.timer) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
      },
    };
  }

  dispose(): void {
    this.listeners.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A refresh that also notices files added to or removed from a skill's folders (for resource lists). */
  private poll(): void {
    // Not forced: the poll compares every file only when freshMs has passed, as a request would.
    const before = this.versionCounter;
    this.current();
    if (this.versionCounter !== before) {
      this.folderKeys = this.folderSignatures();
      return;
    }
    const now = this.folderSignatures();
    const changed = [...now.keys()].filter((name) => this.folderKeys.has(name) && this.folderKeys.get(name) !== now.get(name));
    this.folderKeys = now;
    if (changed.length === 0) return;
    this.versionCounter++;
    this.notify({ version: this.versionCounter, added: [], removed: [], changed });
  }

  private folderSignatures(): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of this.current().skills) {
      const parts = [s.dir, ...RESOURCE_FOLDERS.map((f) => path.join(s.dir, f))].map((p) => {
        const st = statSync(p, { throwIfNoEntry: false });
        return st ? String(st.mtimeMs) : '-';
      });
      out.set(s.name, parts.join(':'));
    }
    return out;
  }

  private current(force = false): Snapshot {
    this.prepare?.();
    const now = Date.now();
    if (this.snapshot && !force) {
      const due = now - this.checkedAt >= (this.watched ? WATCHED_FRESH_MS : this.freshMs);
      if (!this.foldersChanged(this.snapshot) && (!due || !this.filesChanged(this.snapshot))) {
        if (due) this.checkedAt = now;
        return this.snapshot;
      }
    }
    this.checkedAt = now;
    const { candidates, passedOver, listed } = this.scan();
    const signature = [...candidates.map((c) => `${c.file}|${c.statKey}`), ...passedOver.map((p) => `${p.path}|${p.reason}`)].join('\n');
    const folders = folderKeys(listed, now);
    if (this.snapshot && signature === this.signature) {
      this.snapshot.folders = folders;
      return this.snapshot;
    }
    const previous = this.snapshot;
    this.signature = signature;
    this.snapshot = { ...this.build(candidates, passedOver), files: new Map(candidates.map((c) => [c.file, c.statKey])), folders };
    this.versionCounter++;
    if (previous) this.emit(previous, this.snapshot);
    return this.snapshot;
  }

  /** True when a folder the last scan listed (or a source root) was changed, created or removed since. */
  private foldersChanged(snap: Snapshot): boolean {
    for (const [dir, key] of snap.folders) if (key === '' || folderKeyOf(dir) !== key) return true;
    return false;
  }

  /** True when a skill file's stat differs from the scan's (edited in place, replaced or removed). */
  private filesChanged(snap: Snapshot): boolean {
    for (const [file, key] of snap.files) if (statKeyOf(file) !== key) return true;
    return false;
  }

  /** Skill folders of every source (a bounded recursive scan), what was passed over with its reason, and the folders listed. */
  private scan(): { candidates: Candidate[]; passedOver: (PassedOver & { source: SkillSource })[]; listed: string[] } {
    const candidates: Candidate[] = [];
    const passedOver: (PassedOver & { source: SkillSource })[] = [];
    const listed: string[] = [];
    for (const source of this.sources) {
      const scan = scanSkillRoot(source.dir, undefined, this.readableRoot(source));
      for (const f of scan.found) {
        candidates.push({ source, dir: f.dir, folderName: f.folderName, file: f.file, statKey: statKey(f.stats), warning: f.warning });
      }
      for (const p of scan.passedOver) passedOver.push({ ...p, source });
      // The root is watched even when absent, so a skills folder created later is seen.
      listed.push(source.dir, ...scan.listed.filter((d) => d !== source.dir));
    }
    return { candidates, passedOver, listed };
  }

  private build(candidates: Candidate[], passedOver: (PassedOver & { source: SkillSource })[]): Omit<Snapshot, 'files' | 'folders'> {
    const seenFiles = new Set<string>();
    const skills: Skill[] = [];
    const skipped: SkippedSkill[] = passedOver.map((p) => ({ dir: p.path, file: p.path, source: p.source, reason: p.reason, problems: [], folder: true }));
    for (const c of candidates) {
      seenFiles.add(c.file);
      const result = this.parseCached(c);
      if (result.ok) skills.push(result.skill);
      else skipped.push({ dir: c.dir, file: c.file, source: c.source, reason: result.reason, problems: result.problems });
    }
    for (const file of this.parsed.keys()) if (!seenFiles.has(file)) this.parsed.delete(file);

    // Precedence: source rank, then a folder that matches its name, then folder order.
    const ordered = skills
      .map((s, i) => ({ s, i }))
      .sort((a, b) => a.s.source.rank - b.s.source.rank || Number(b.s.folderName === b.s.name) - Number(a.s.folderName === a.s.name) || a.i - b.i)
      .map((x) => x.s);
    const winners = new Map<string, Skill>();
    const shadowed: ShadowedSkill[] = [];
    for (const s of ordered) {
      const key = s.name.toLowerCase();
      const winner = winners.get(key);
      if (winner) shadowed.push({ skill: s, shadowedBy: { name: winner.name, source: winner.source.id, dir: winner.dir } });
      else winners.set(key, s);
    }
    for (const sh of shadowed) {
      this.log.info(`skill "${sh.skill.name}" in ${sh.skill.dir} is shadowed by the one in ${sh.shadowedBy.dir}`);
    }
    const effective = [...winners.values()].sort((a, b) => a.source.rank - b.source.rank || a.name.localeCompare(b.name));
    const byKey = new Map<string, Skill>();
    for (const s of effective) {
      byKey.set(s.name, s);
      if (!byKey.has(s.name.toLowerCase())) byKey.set(s.name.toLowerCase(), s);
      if (!byKey.has(slugOf(s.name))) byKey.set(slugOf(s.name), s);
    }
    const keys = new Map<string, string>();
    for (const c of candidates) {
      const r = this.parsed.get(c.file)?.result;
      if (r?.ok && winners.get(r.skill.name.toLowerCase()) === r.skill) keys.set(r.skill.name, c.statKey);
    }
    return { skills: effective, byKey, shadowed, skipped, keys };
  }

  /**
   * Where a source's files may be read from: a workspace folder's skills only from inside the
   * workspace; the bundled and the person's own folders only from inside themselves.
   */
  private readableRoot(source: SkillSource): string {
    return source.id === 'bundled' || source.id === 'personal' || !this.root ? source.dir : this.root;
  }

  private parseCached(c: Candidate): ParsedSkill {
    const hit = this.parsed.get(c.file);
    if (hit && hit.statKey === c.statKey && hit.result.ok === true && hit.result.skill.source === c.source) return hit.result;
    if (hit && hit.statKey === c.statKey && !hit.result.ok) return hit.result;
    let result: ParsedSkill;
    try {
      const within = this.readableRoot(c.source);
      result = parseSkill({ text: readRepoFileSync(within, c.file, { kind: 'skill' }).text, file: c.file, dir: c.dir, folderName: c.folderName, source: c.source });
      if (c.warning && result.ok) result.skill.problems.unshift({ severity: 'warning', rule: 'skill-file-name', message: c.warning, line: 1 });
    } catch (e) {
      result = { ok: false, reason: `SKILL.md was not read: ${(e as Error).message}`, problems: [] };
    }
    this.parsed.set(c.file, { statKey: c.statKey, result });
    return result;
  }

  private emit(before: Snapshot, after: Snapshot): void {
    if (this.listeners.size === 0) return;
    const added = [...after.keys.keys()].filter((n) => !before.keys.has(n));
    const removed = [...before.keys.keys()].filter((n) => !after.keys.has(n));
    const changed = [...after.keys.keys()].filter((n) => before.keys.has(n) && before.keys.get(n) !== after.keys.get(n));
    this.notify({ version: this.versionCounter, added, removed, changed });
  }

  private notify(change: SkillsChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch (e) {
        this.log.warn('a skills change listener failed', e);
      }
    }
  }
}

function statKey(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The stat key of a skill file now ('' when it is gone or not a file). */
function statKeyOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st?.isFile() ? statKey(st) : '';
}

/** A folder's modification time now ('-' when absent), through links as the scan follows them. */
function folderKeyOf(dir: string): string {
  const st = statSync(dir, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.mtimeMs}` : '-';
}

/** The folders' keys as of `now`; a folder changed within RACY_MS gets '' (not trusted: looked at again next time). */
function folderKeys(dirs: string[], now: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of dirs) {
    const st = statSync(dir, { throwIfNoEntry: false });
    out.set(dir, !st ? '-' : now - st.mtimeMs < RACY_MS ? '' : `${st.ino}:${st.mtimeMs}`);
  }
  return out;
}

export function defaultSources(
  root: string | undefined,
  bundledDir: string | undefined,
  personalDir?: string,
  packsDir?: string,
): SkillSource[] {
  const out: SkillSource[] = [];
  if (root) {
    WORKSPACE_SKILL_FOLDERS.forEach((f, i) =>
      out.push({ id: f.id, label: `${f.label} (${f.dir})`, dir: path.join(root, ...f.dir.split('/')), rank: i })
    );
  }
  const next = WORKSPACE_SKILL_FOLDERS.length;
  if (personalDir) out.push({ id: 'personal', label: `Personal (${personalDir})`, dir: personalDir, rank: next });
  if (packsDir) out.push({ id: 'pack', label: 'Knowledge packs (.autosnippet/packs.json)', dir: packsDir, rank: next + 1 });
  if (bundledDir) out.push({ id: 'bundled', label: 'Bundled with AutoSnippet', dir: bundledDir, rank: next + 2 });
  return out;
}
