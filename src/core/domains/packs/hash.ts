/**
 * The integrity of a pack, as npm states a tarball's (`sha512-<base64>`), and a tree hash over its
 * files (each path with the sha512 of its content, in path order), which a git pack and the cache of
 * every pack are checked against: a file added, removed or changed gives another hash.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { MAX_PACK_BYTES, MAX_PACK_FILES } from './tar';

export function integrityOf(data: Buffer): string {
  return `sha512-${createHash('sha512').update(data).digest('base64')}`;
}

/** The tree hash of files given as (path, content) pairs. */
export function treeHashOf(files: { path: string; data: Buffer }[]): string {
  const h = createHash('sha512');
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    h.update(`${f.path}\0${createHash('sha512').update(f.data).digest('hex')}\n`);
  }
  return `sha512-${h.digest('base64')}`;
}

/**
 * The regular files under a folder (posix paths relative to it), `.git` left out. A link is refused:
 * a pack's files are copied where the workspace reads them, and a link could point anywhere.
 */
export function readTree(dir: string, what: string): { path: string; data: Buffer }[] {
  const out: { path: string; data: Buffer }[] = [];
  let bytes = 0;
  const walk = (abs: string, rel: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const child = path.join(abs, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(child, childRel);
        continue;
      }
      if (e.isSymbolicLink()) {
        throw new AutoSnippetError(
          ErrorCode.InvalidInput,
          `${what}: ${childRel} is a symbolic link; a pack holds regular files only.`,
          'Replace the link by the file it points to.',
        );
      }
      if (!e.isFile()) continue;
      bytes += lstatSync(child).size;
      if (out.length >= MAX_PACK_FILES || bytes > MAX_PACK_BYTES) {
        throw new AutoSnippetError(
          ErrorCode.InvalidInput,
          `${what} holds more than ${MAX_PACK_FILES} files or ${MAX_PACK_BYTES} bytes.`,
          'A pack is Markdown and JSON; leave build output and assets out of it.',
        );
      }
      out.push({ path: childRel, data: readFileSync(child) });
    }
  };
  walk(dir, '');
  return out;
}
