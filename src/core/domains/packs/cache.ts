/**
 * The person's cache of packs, under their AutoSnippet folder (`AUTOSNIPPET_HOME`, else
 * `~/.autosnippet`): `packs/<folder>/<tree key>/` holds the tarball (`pack.tgz`) an npm or tarball
 * pack came as, or the files (`files/`) of a git pack. Entries are addressed by the pinned tree hash and
 * checked against the pin every time they are read, so a changed cache is refused, never loaded.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { userDataDir } from '../../ground/trust';
import type { FetchedPack } from './fetch';
import { integrityOf, readTree, treeHashOf } from './hash';
import { packFolder } from './layout';
import type { PackPin } from './lock';
import { readTarball } from './tar';

export function packsCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userDataDir(env), 'packs');
}

/** The cache folder of a pack's pinned content. */
export function cacheEntryDir(name: string, tree: string, env?: NodeJS.ProcessEnv): string {
  const key = Buffer.from(tree.replace(/^sha512-/, ''), 'base64').toString('hex').slice(0, 32);
  return path.join(packsCacheRoot(env), packFolder(name), key);
}

/** Writes fetched content into the cache (a temporary folder renamed into place) and returns its folder. */
export function storeInCache(name: string, fetched: FetchedPack): string {
  const dir = cacheEntryDir(name, fetched.tree);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  if (fetched.tarball) writeFileSync(path.join(tmp, 'pack.tgz'), fetched.tarball);
  else {
    for (const f of fetched.files) {
      const abs = path.join(tmp, 'files', ...f.path.split('/'));
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, f.data);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}

/** A cheap signature of a cache entry's files (sizes and times), so a change is noticed without hashing. */
export function cacheSignature(name: string, pin: PackPin): string {
  const dir = cacheEntryDir(name, pin.tree);
  const tgz = statSync(path.join(dir, 'pack.tgz'), { throwIfNoEntry: false });
  if (tgz) return `${tgz.size}:${tgz.mtimeMs}`;
  return existsSync(dir) ? treeSignature(path.join(dir, 'files')) : 'missing';
}

/** Sizes and times of every file under a folder, folded into one string. */
export function treeSignature(dir: string): string {
  if (!existsSync(dir)) return 'missing';
  let n = 0;
  let sum = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else {
        const st = statSync(abs, { throwIfNoEntry: false });
        n++;
        if (st) sum = (sum * 31 + st.size + st.mtimeMs) % 1e15;
      }
    }
  };
  walk(dir);
  return `${n}:${sum}`;
}

function tampered(name: string, dir: string, what: string, pinned: string, found: string): AutoSnippetError {
  return new AutoSnippetError(
    'PACK_TAMPERED',
    `Pack ${name}: the cached ${what} in ${dir} does not match its pin: .autosnippet/packs.json pins ${pinned}, the cache holds ${found}. Nothing is loaded from it.`,
    `If you did not change it, remove ${dir} and run autosnippet packs install to fetch it again; to take a new version on purpose, run autosnippet packs update ${name}.`,
    { pack: name, pinned, found, cache: dir },
  );
}

/** The pinned content of a pack from the cache, checked against its pin (tarball integrity, then the tree hash). */
export function readCached(name: string, pin: PackPin): { path: string; data: Buffer }[] {
  const dir = cacheEntryDir(name, pin.tree);
  const tgz = path.join(dir, 'pack.tgz');
  let files: { path: string; data: Buffer }[];
  if (pin.kind !== 'git' && existsSync(tgz)) {
    const data = readFileSync(tgz);
    const integrity = integrityOf(data);
    if (integrity !== pin.integrity) throw tampered(name, dir, 'tarball', pin.integrity!, integrity);
    files = readTarball(data, tgz);
  } else if (pin.kind === 'git' && existsSync(path.join(dir, 'files'))) {
    files = readTree(path.join(dir, 'files'), `the cache of ${name}`);
  } else {
    throw new AutoSnippetError(
      'PACK_NOT_CACHED',
      `Pack ${name}@${pin.version} is pinned in .autosnippet/packs.json but not in this machine's cache (${dir}); it is not loaded.`,
      'Run autosnippet packs install to fetch the pinned packs and check them against their pins.',
      { pack: name },
    );
  }
  const tree = treeHashOf(files);
  if (tree !== pin.tree) throw tampered(name, dir, 'content', pin.tree, tree);
  return files;
}
