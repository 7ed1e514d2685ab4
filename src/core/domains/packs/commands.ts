/**
 * What a person does with packs: add one (fetch, check, pin, cache), update one (fetch what its pin
 * follows, say what changed, pin it), remove one, install the pinned ones on a new machine, list them.
 * Every change of the pins is a person's explicit command: nothing here runs on its own.
 */
import path from 'node:path';
import { AutoSnippetError, isAutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { cacheEntryDir, readCached, storeInCache } from './cache';
import { type FetchedPack, fetchPack, type PackSpec, parsePackSpec } from './fetch';
import { describeChanges, diffItems, type ItemChanges, readItems, readManifest } from './items';
import { forgetLoadedPacks, loadPacks, type PackProblem } from './load';
import { type PackPin, readPacksFile, writePacksFile } from './lock';

export interface PackSummary {
  name: string;
  version: string;
  kind: PackPin['kind'];
  source: string;
  wanted?: string;
  integrity?: string;
  commit?: string;
  tree: string;
  recipes: number;
  skills: number;
  rules: number;
}

function summary(name: string, pin: PackPin): PackSummary {
  return {
    name,
    version: pin.version,
    kind: pin.kind,
    source: pin.source,
    ...(pin.wanted ? { wanted: pin.wanted } : {}),
    ...(pin.integrity ? { integrity: pin.integrity } : {}),
    ...(pin.commit ? { commit: pin.commit } : {}),
    tree: pin.tree,
    recipes: Object.keys(pin.items.recipes).length,
    skills: pin.items.skills.length,
    rules: pin.items.rules.length,
  };
}

/** A tarball or folder inside the workspace is pinned by its relative path, so a clone elsewhere finds it. */
function pinnedSource(ws: Workspace, spec: PackSpec): string {
  if (spec.kind === 'npm' || !path.isAbsolute(spec.source)) return spec.source;
  const rel = path.relative(ws.root, spec.source);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : spec.source;
}

/** The spec a pin follows, its relative paths resolved against the workspace. */
function specOfPin(ws: Workspace, pin: PackPin): PackSpec {
  const local = pin.kind === 'tarball' || (pin.kind === 'git' && !/^[a-z+]+:\/\/|^git@/.test(pin.source));
  return {
    kind: pin.kind,
    source: local ? path.resolve(ws.root, pin.source) : pin.source,
    ...(pin.wanted ? { wanted: pin.wanted } : {}),
  };
}

function pinOf(ws: Workspace, fetched: FetchedPack, version: string, addedAt: string): PackPin {
  const { items } = readItems(fetched.files, fetched.spec.source);
  return {
    kind: fetched.spec.kind,
    source: pinnedSource(ws, fetched.spec),
    ...(fetched.spec.wanted ? { wanted: fetched.spec.wanted } : {}),
    version,
    ...(fetched.integrity ? { integrity: fetched.integrity } : {}),
    ...(fetched.commit ? { commit: fetched.commit } : {}),
    tree: fetched.tree,
    items,
    addedAt,
  };
}

/** Pins written, then loaded: a pack that does not load after all is reported by the caller's answer. */
function commit(ws: Workspace, pins: ReturnType<typeof readPacksFile>): PackProblem[] {
  ws.ensureDataDir();
  writePacksFile(ws.root, pins);
  forgetLoadedPacks(ws);
  return loadPacks(ws).problems;
}

export interface AddResult {
  pack: PackSummary;
  cache: string;
  /** Pack files that could not be read as recipes (they are not loaded). */
  warnings: string[];
  problems: PackProblem[];
}

export async function addPack(
  ws: Workspace,
  specText: string,
  cwd: string,
  signal?: AbortSignal,
): Promise<AddResult> {
  const spec = parsePackSpec(specText, cwd);
  const pins = readPacksFile(ws.root);
  const fetched = await fetchPack(spec, undefined, signal);
  const manifest = readManifest(fetched.files, spec.source);
  const had = pins.packs[manifest.name];
  if (had) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `Pack ${manifest.name} is already added (version ${had.version}).`,
      `Run autosnippet packs update ${manifest.name}${
        spec.kind === 'npm' && !spec.wanted ? '' : ` ${specText}`
      } to move it to this version and see what changes.`,
    );
  }
  const cache = storeInCache(manifest.name, fetched);
  const pin = pinOf(ws, fetched, manifest.version, new Date().toISOString());
  pins.packs[manifest.name] = pin;
  const problems = commit(ws, pins);
  return {
    pack: summary(manifest.name, pin),
    cache,
    warnings: readItems(fetched.files, spec.source).problems,
    problems,
  };
}

export interface UpdateResult {
  name: string;
  from: string;
  to: string;
  changed: boolean;
  changes: ItemChanges;
  /** One line per kind of item that changed: "recipes: +a, -b, ~c". */
  summary: string[];
}

/**
 * Fetches what each pin follows (its npm tag or range, its git branch, its tarball; or `specText` for
 * one pack) and pins the new content, saying what changed. `dryRun` pins nothing.
 */
export async function updatePacks(
  ws: Workspace,
  opts: { name?: string; spec?: string; cwd: string; dryRun?: boolean; signal?: AbortSignal },
): Promise<{ updates: UpdateResult[]; problems: PackProblem[] }> {
  const pins = readPacksFile(ws.root);
  const names = opts.name ? [opts.name] : Object.keys(pins.packs).sort();
  if (opts.spec && !opts.name) throw new AutoSnippetError('INVALID_INPUT', 'Name the pack the new source is for.');
  for (const n of names) {
    if (!pins.packs[n]) {
      throw new AutoSnippetError(
        'NOT_FOUND',
        `No pack named ${n} is added to this workspace.`,
        `Added: ${
          Object.keys(pins.packs).join(', ') || 'none'
        }. autosnippet packs add <name|tarball|git-url> adds one.`,
      );
    }
  }
  const updates: UpdateResult[] = [];
  for (const name of names) {
    const pin = pins.packs[name];
    const spec = opts.spec ? parsePackSpec(opts.spec, opts.cwd) : specOfPin(ws, pin);
    const fetched = await fetchPack(spec, undefined, opts.signal);
    const manifest = readManifest(fetched.files, spec.source);
    if (manifest.name !== name) {
      throw new AutoSnippetError(
        'INVALID_INPUT',
        `${spec.source} holds pack ${manifest.name}, not ${name}; nothing was changed.`,
        `Add it as a pack of its own (autosnippet packs add), or give the source of ${name}.`,
      );
    }
    const next = pinOf(ws, fetched, manifest.version, pin.addedAt);
    const changes = diffItems(pin.items, next.items);
    const changed = next.tree !== pin.tree;
    updates.push({ name, from: pin.version, to: next.version, changed, changes, summary: describeChanges(changes) });
    if (changed && !opts.dryRun) {
      storeInCache(name, fetched);
      pins.packs[name] = next;
    }
  }
  const problems = opts.dryRun || !updates.some((u) => u.changed) ? loadPacks(ws).problems : commit(ws, pins);
  return { updates, problems };
}

export function removePack(ws: Workspace, name: string): { removed: PackSummary; problems: PackProblem[] } {
  const pins = readPacksFile(ws.root);
  const pin = pins.packs[name];
  if (!pin) {
    throw new AutoSnippetError(
      'NOT_FOUND',
      `No pack named ${name} is added to this workspace.`,
      `Added: ${Object.keys(pins.packs).join(', ') || 'none'}.`,
    );
  }
  delete pins.packs[name];
  return { removed: summary(name, pin), problems: commit(ws, pins) };
}

/**
 * Makes every pinned pack available on this machine: a pack missing from the cache, or whose cache no
 * longer matches its pin, is fetched again at exactly its pinned version and commit, and refused
 * unless the fetched content hashes to the pin.
 */
export async function installPacks(
  ws: Workspace,
): Promise<
  { installed: { name: string; version: string; action: 'cached' | 'fetched' | 'replaced' }[]; problems: PackProblem[] }
> {
  const pins = readPacksFile(ws.root);
  const installed: { name: string; version: string; action: 'cached' | 'fetched' | 'replaced' }[] = [];
  for (const [name, pin] of Object.entries(pins.packs)) {
    let action: 'cached' | 'fetched' | 'replaced' = 'cached';
    try {
      readCached(name, pin);
    } catch (e) {
      if (!isAutoSnippetError(e) || (e.code !== 'PACK_NOT_CACHED' && e.code !== 'PACK_TAMPERED')) throw e;
      action = e.code === 'PACK_TAMPERED' ? 'replaced' : 'fetched';
      const spec = specOfPin(ws, pin);
      const exact = spec.kind === 'npm' ? { ...spec, wanted: pin.version } : spec;
      const fetched = await fetchPack(exact, pin.commit);
      const found = pin.kind === 'git' ? fetched.tree : fetched.integrity;
      const pinned = pin.kind === 'git' ? pin.tree : pin.integrity;
      if (found !== pinned || fetched.tree !== pin.tree) {
        throw new AutoSnippetError(
          'PACK_TAMPERED',
          `Pack ${name}@${pin.version} fetched from ${spec.source} does not match its pin: .autosnippet/packs.json pins ${pinned}, the source gave ${found}. Nothing was cached or loaded.`,
          `The published content changed under the same version. If you expect that, run autosnippet packs update ${name} to review and pin it.`,
          { pack: name, pinned, found },
        );
      }
      storeInCache(name, fetched);
    }
    installed.push({ name, version: pin.version, action });
  }
  forgetLoadedPacks(ws);
  return { installed, problems: loadPacks(ws).problems };
}

export interface PackListEntry extends PackSummary {
  loaded: boolean;
  cache: string;
}

export function listPacks(ws: Workspace): { packs: PackListEntry[]; disabled: string[]; problems: PackProblem[] } {
  const state = loadPacks(ws);
  const loaded = new Set(state.loaded.map((p) => p.name));
  return {
    packs: Object.entries(state.pins.packs).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, pin]) => ({
      ...summary(name, pin),
      loaded: loaded.has(name),
      cache: cacheEntryDir(name, pin.tree),
    })),
    disabled: state.pins.disabled,
    problems: state.problems,
  };
}

/** Switches a pack item (recipe id, skill name, guard rule id) off or back on for this project. */
export function setItemDisabled(
  ws: Workspace,
  id: string,
  off: boolean,
): { disabled: string[]; packs: string[]; problems: PackProblem[] } {
  const pins = readPacksFile(ws.root);
  const packs = Object.entries(pins.packs).filter(([, p]) =>
    p.items.recipes[id] || p.items.skills.includes(id) || p.items.rules.includes(id)
  ).map(([n]) => n);
  if (off && packs.length === 0) {
    throw new AutoSnippetError(
      'NOT_FOUND',
      `No added pack has an item with the id ${id}.`,
      'Give a recipe id, a skill name or a guard rule id of a pack; autosnippet packs list shows the packs.',
    );
  }
  pins.disabled = off ? [...new Set([...pins.disabled, id])] : pins.disabled.filter((d) => d !== id);
  return { disabled: pins.disabled, packs, problems: commit(ws, pins) };
}
