/**
 * Loading the pinned packs into a workspace: each pin's content is read from the person's cache and
 * checked against the pin, then copied (minus the items the project switched off) into the git-ignored
 * `.autosnippet/state/packs/<folder>/`, where the recipe index, the guard and the skills registry read
 * it as they read the project's own files. A pack that fails its check is removed from there and
 * reported; the others load. Runs again only when the pins, the cache or the copies change.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJson } from '../../ground/files';
import { isAutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { cacheSignature, readCached, treeSignature } from './cache';
import { readTree, treeHashOf } from './hash';
import { PACK_FOLDERS, PACK_MANIFEST, packFolder, PACKS_FILE, PACKS_STATE_DIR } from './layout';
import { emptyPacksFile, type PackPin, type PacksFile, readPacksFile } from './lock';

export interface LoadedPack {
  name: string;
  version: string;
  /** Its folder under `.autosnippet/state/packs/`. */
  folder: string;
}

export interface PackProblem {
  /** The pack, or `.autosnippet/packs.json` when the pins themselves cannot be read. */
  pack: string;
  code: string;
  message: string;
  hint?: string;
}

export interface PacksState {
  pins: PacksFile;
  loaded: LoadedPack[];
  problems: PackProblem[];
  /** Changes whenever what is loaded changes: a cheap key for caches. */
  key: string;
}

interface Memo {
  signature: string;
  state: PacksState;
  checkedAt: number;
}

/**
 * The pins, the cache and the copies are compared with the last load at most this often: the guard
 * asks on every check as you type, and comparing stats every file of every pack (5 ms for a pack of
 * 200 recipes on the 2-core machine). A change made through this process is seen at once.
 */
const RECHECK_MS = 1000;

const NONE: PacksState = { pins: emptyPacksFile(), loaded: [], problems: [], key: '' };

/** The packs loaded into the workspace, brought in line with the pins and the cache first. */
export function loadPacks(ws: Workspace): PacksState {
  const memo = ws.service('packs.loaded', (): Memo => ({ signature: '', state: NONE, checkedAt: 0 }));
  const now = Date.now();
  if (memo.signature && now - memo.checkedAt < RECHECK_MS) return memo.state;
  memo.checkedAt = now;
  const signature = signatureOf(ws);
  if (signature === memo.signature) return memo.state;
  memo.state = load(ws);
  memo.signature = signatureOf(ws); // the load itself wrote the copies
  return memo.state;
}

/** Forgets what was loaded, so the next use loads again (after the pins were written). */
export function forgetLoadedPacks(ws: Workspace): void {
  const memo = ws.service('packs.loaded', (): Memo => ({ signature: '', state: NONE, checkedAt: 0 }));
  memo.signature = '';
}

function statKey(abs: string): string {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeMs}` : 'missing';
}

/** Sizes and times of the pins, each pinned pack's cache entry and the copies in the workspace. */
function signatureOf(ws: Workspace): string {
  const pinsKey = statKey(ws.path(PACKS_FILE));
  const stateDir = ws.path(PACKS_STATE_DIR);
  if (pinsKey === 'missing' && !statSync(stateDir, { throwIfNoEntry: false })) return 'none';
  let pins: PacksFile;
  try {
    pins = readPacksFile(ws.root);
  } catch {
    return `${pinsKey}|unreadable`;
  }
  const parts = [pinsKey];
  for (const [name, pin] of Object.entries(pins.packs)) parts.push(`${name}=${cacheSignature(name, pin)}`);
  parts.push(treeSignature(stateDir));
  return parts.join('|');
}

function load(ws: Workspace): PacksState {
  let pins: PacksFile;
  try {
    pins = readPacksFile(ws.root);
  } catch (e) {
    const problem = { pack: PACKS_FILE, code: 'INVALID_INPUT', message: (e as Error).message };
    ws.log.warn(`packs: ${problem.message}`);
    removeCopies(ws, new Set());
    return { pins: emptyPacksFile(), loaded: [], problems: [problem], key: `bad:${Date.now()}` };
  }
  const loaded: LoadedPack[] = [];
  const problems: PackProblem[] = [];
  const disabled = new Set(pins.disabled);
  for (const [name, pin] of Object.entries(pins.packs)) {
    const folder = packFolder(name);
    try {
      const files = readCached(name, pin);
      materialize(ws, folder, copiedFiles(files, pin, disabled));
      loaded.push({ name, version: pin.version, folder });
    } catch (e) {
      if (!isAutoSnippetError(e)) throw e;
      rmSync(ws.path(PACKS_STATE_DIR, folder), { recursive: true, force: true }); // nothing from it is read
      problems.push({ pack: name, code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) });
      ws.log.warn(`packs: ${e.message}`);
    }
  }
  removeCopies(ws, new Set(loaded.map((p) => p.folder)));
  const key = loaded.map((p) => `${p.name}@${p.version}:${pins.packs[p.name].tree}`).join(',')
    + `|${[...disabled].sort().join(',')}`;
  return { pins, loaded, problems, key };
}

/** The files of a pack the workspace reads: its manifest and folders, less the items switched off. */
function copiedFiles(
  files: { path: string; data: Buffer }[],
  pin: PackPin,
  disabled: Set<string>,
): { path: string; data: Buffer }[] {
  const offRecipeFiles = new Set(
    Object.entries(pin.items.recipes).filter(([id]) => disabled.has(id)).map(([, r]) => r.file),
  );
  const out: { path: string; data: Buffer }[] = [];
  for (const f of files) {
    const top = f.path.split('/')[0];
    if (f.path !== PACK_MANIFEST && !(PACK_FOLDERS as readonly string[]).includes(top)) continue;
    if (offRecipeFiles.has(f.path)) continue;
    const skill = /^skills\/([^/]+)\//.exec(f.path);
    if (skill && disabled.has(skill[1])) continue;
    if (/^guard\/[^/]+\.json$/.test(f.path) && pin.items.rules.some((r) => disabled.has(r))) {
      out.push({ path: f.path, data: withoutRules(f.data, disabled) });
      continue;
    }
    out.push(f);
  }
  return out;
}

/** A guard rule file without the rules switched off (unchanged when it does not parse: the guard reports it). */
function withoutRules(data: Buffer, disabled: Set<string>): Buffer {
  const parsed = parseJson(data.toString('utf8'), { subject: 'guard rules' });
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') return data;
  const file = parsed.value as { rules?: { id?: string }[] };
  if (!Array.isArray(file.rules)) return data;
  const rules = file.rules.filter((r) => !(typeof r?.id === 'string' && disabled.has(r.id)));
  return Buffer.from(JSON.stringify({ ...file, rules }, null, 2) + '\n');
}

/** Writes a pack's copy unless it already holds exactly these files. */
function materialize(ws: Workspace, folder: string, files: { path: string; data: Buffer }[]): void {
  const dir = ws.path(PACKS_STATE_DIR, folder);
  const want = treeHashOf(files);
  let have = '';
  try {
    have = treeHashOf(readTree(dir, dir));
  } catch {
    // missing, or holding a link: written again below
  }
  if (have === want) return;
  ws.ensureDataDir(); // its .gitignore keeps state/ out of git
  rmSync(dir, { recursive: true, force: true });
  for (const f of files) {
    const abs = path.join(dir, ...f.path.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, f.data);
  }
  mkdirSync(dir, { recursive: true });
}

/** Removes the copies of packs no longer pinned or no longer loading. */
function removeCopies(ws: Workspace, keep: Set<string>): void {
  let names: string[];
  try {
    names = readdirSync(ws.path(PACKS_STATE_DIR));
  } catch {
    return;
  }
  for (const n of names) if (!keep.has(n)) rmSync(ws.path(PACKS_STATE_DIR, n), { recursive: true, force: true });
}

/** The pack (name and version) a workspace-relative file comes from, when it is inside a loaded pack's copy. */
export function packOf(ws: Workspace, file: string): { name: string; version: string } | undefined {
  if (!file.startsWith(PACKS_STATE_DIR + '/')) return undefined;
  const folder = file.slice(PACKS_STATE_DIR.length + 1).split('/')[0];
  const p = loadPacks(ws).loaded.find((l) => l.folder === folder);
  return p && { name: p.name, version: p.version };
}
