// Rust's module tree as files: `mod x;` declares x.rs or x/mod.rs beside the declaring module, and a
// `use crate::a::b::C` path names the file of the deepest module it reaches. Gives Rust files an
// import graph the way relative imports give one to other languages.
import path from 'node:path';

const ROOTS = ['lib.rs', 'main.rs', 'mod.rs'];

/** The folder that holds a file's child modules: its own folder for a crate root or a mod.rs, else `<folder>/<stem>`. */
function moduleDir(file: string): string {
  const dir = path.posix.dirname(file);
  const base = path.posix.basename(file);
  return ROOTS.includes(base) ? dir : path.posix.join(dir, base.replace(/\.rs$/, ''));
}

/** The folder of the crate root above a file: the nearest one holding lib.rs or main.rs. */
function crateDir(file: string, files: ReadonlySet<string>): string | undefined {
  for (let dir = path.posix.dirname(file);; dir = path.posix.dirname(dir)) {
    const d = dir === '.' ? '' : dir;
    if (files.has(path.posix.join(d, 'lib.rs')) || files.has(path.posix.join(d, 'main.rs'))) return d;
    if (!d) return undefined;
  }
}

function moduleFile(dir: string, segments: readonly string[], files: ReadonlySet<string>): string | undefined {
  // The deepest module the path reaches: `a::b::C` is the item C of a/b.rs when there is no a/b/C.rs.
  for (let k = segments.length; k > 0; k--) {
    const rel = path.posix.join(dir, ...segments.slice(0, k));
    for (const c of [`${rel}.rs`, `${rel}/mod.rs`]) if (files.has(c)) return c;
  }
  return undefined;
}

/**
 * The file a Rust `use` path or `mod` declaration of `from` refers to, or the crate (a target) it
 * names: `crate::`, `self::` and `super::` paths inside the crate; another crate by its name, where
 * Cargo's `-` is written `_`.
 */
export function resolveRust(
  from: string,
  imp: { spec: string; module?: boolean; names?: { imported: string }[] },
  files: ReadonlySet<string>,
  crates: ReadonlyMap<string, string>,
): { file?: string; target?: string } | undefined {
  if (imp.module) {
    const file = moduleFile(moduleDir(from), [imp.spec], files);
    return file ? { file } : undefined;
  }
  const segments = imp.spec.split('::').filter(Boolean);
  // `use crate::{a, b::C}`: the path stops at the brace; the first name listed continues it.
  if (imp.spec.endsWith('::') && imp.names?.length) segments.push(imp.names[0].imported);
  const [head, ...rest] = segments;
  let dir: string | undefined;
  if (head === 'crate') dir = crateDir(from, files);
  else if (head === 'self') dir = moduleDir(from);
  else if (head === 'super') {
    let d = path.posix.dirname(moduleDir(from));
    while (rest[0] === 'super') {
      rest.shift();
      d = path.posix.dirname(d);
    }
    dir = d === '.' ? '' : d;
  } else {
    const target = crates.get(head) ?? crates.get(head.replace(/_/g, '-'));
    return target ? { target } : undefined;
  }
  if (dir === undefined || rest.length === 0) return undefined;
  const file = moduleFile(dir, rest, files);
  return file && file !== from ? { file } : undefined;
}
