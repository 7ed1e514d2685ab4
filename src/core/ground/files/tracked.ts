/**
 * The files git tracks, read from the repository's index (`.git/index`), so that a tracked file
 * stays listed when an ignore file matches it, as it does for git: a package's `.gitignore` may say
 * `**\/package.json` while the package's own package.json is committed. Read lazily (only when
 * an ignored file is met), again only when the index changes, never written. A missing, unreadable,
 * oversized or damaged index leaves the ignore files alone in charge.
 */
import fs from 'node:fs';
import path from 'node:path';

/** An index larger than this is not read (about a million tracked files). */
const MAX_INDEX_BYTES = 128 * 1024 * 1024;

const cache = new Map<string, { key: string; files: ReadonlySet<string> | undefined }>();

/** The tracked files of the repository at `root` (paths relative to it), or undefined when there is no usable index. */
export function trackedFiles(root: string): ReadonlySet<string> | undefined {
  const index = indexPath(root);
  if (!index) return undefined;
  let key: string;
  try {
    const st = fs.statSync(index);
    if (!st.isFile() || st.size > MAX_INDEX_BYTES) return undefined;
    key = `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return undefined;
  }
  const cached = cache.get(root);
  if (cached?.key === key) return cached.files;
  let files: ReadonlySet<string> | undefined;
  try {
    files = parseIndex(fs.readFileSync(index));
  } catch {
    files = undefined;
  }
  cache.set(root, { key, files });
  return files;
}

/** `.git/index`, or the index of the git directory a `.git` file points to (a worktree or submodule). */
function indexPath(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  try {
    const st = fs.statSync(dotGit);
    if (st.isDirectory()) return path.join(dotGit, 'index');
    if (!st.isFile() || st.size > 4096) return undefined;
    const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1];
    return gitdir ? path.join(path.resolve(root, gitdir), 'index') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The paths of a git index file (versions 2, 3 and 4; see git's Documentation/gitformat-index).
 * Throws on anything that is not one, so the caller can fall back to the ignore files alone.
 */
export function parseIndex(buf: Buffer): Set<string> {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') throw new Error('not a git index');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`git index version ${version}`);
  const count = buf.readUInt32BE(8);
  const out = new Set<string>();
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 62 > buf.length) throw new Error('truncated git index');
    const flags = buf.readUInt16BE(at + 60);
    at += 62;
    if (version >= 3 && flags & 0x4000) at += 2;
    let name: Buffer;
    if (version === 4) {
      // The path is the previous one without its last `strip` bytes, then the bytes up to a NUL.
      let byte = buf[at++];
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = buf[at++];
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = buf.indexOf(0, at);
      if (end < 0 || strip > previous.length) throw new Error('damaged git index');
      name = Buffer.concat([previous.subarray(0, previous.length - strip), buf.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end < 0) throw new Error('damaged git index');
      name = buf.subarray(at, end);
      // Entries are padded with NULs to a multiple of eight bytes.
      at = start + ((end - start + 8) & ~7);
    }
    previous = name;
    out.add(name.toString('utf8'));
  }
  return out;
}
