/**
 * Paths the repository itself declares are not its own code, whatever their names: a git submodule
 * (`.gitmodules` `path = …`) is another project's source checked out inside this one, and the
 * `.gitattributes` attributes `linguist-vendored` and `linguist-generated` are how a repository tells
 * code hosts to leave vendored and generated files out of its language statistics. Folder-name
 * conventions (vendor/, third_party/) miss both when the folder is named after the library.
 */
import picomatch from 'picomatch';
import { readRepoFileSync } from './read';

export type DeclaredKind = 'vendored' | 'generated';

export interface DeclaredKinds {
  /** The kind the repository declares for a workspace-relative path, if any. */
  kindOf(path: string): DeclaredKind | undefined;
}

interface AttributeRule {
  match: (path: string) => boolean;
  /** true: set, false: unset (`-attr`, `attr=false`); absent: the line does not mention it. */
  vendored?: boolean;
  generated?: boolean;
}

const NONE: DeclaredKinds = { kindOf: () => undefined };

export function declaredKinds(root: string): DeclaredKinds {
  const submodules = submodulePaths(readOptional(root, '.gitmodules'));
  const rules = attributeRules(readOptional(root, '.gitattributes'));
  if (!submodules.length && !rules.length) return NONE;
  return {
    kindOf(path) {
      if (submodules.some((s) => path === s || path.startsWith(s + '/'))) return 'vendored';
      let vendored = false;
      let generated = false;
      // Later lines override earlier ones, attribute by attribute, as git applies them.
      for (const r of rules) {
        if (!r.match(path)) continue;
        if (r.vendored !== undefined) vendored = r.vendored;
        if (r.generated !== undefined) generated = r.generated;
      }
      return generated ? 'generated' : vendored ? 'vendored' : undefined;
    },
  };
}

function readOptional(root: string, file: string): string {
  try {
    return readRepoFileSync(root, file, { kind: 'config' }).text;
  } catch {
    return '';
  }
}

function submodulePaths(text: string): string[] {
  return [...text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((m) => m[1].replace(/^\.?\//, '').replace(/\/+$/, ''))
    .filter(Boolean);
}

function attributeRules(text: string): AttributeRule[] {
  const rules: AttributeRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [pattern, ...attrs] = line.split(/\s+/);
    const rule: AttributeRule = { match: matcher(pattern) };
    for (const a of attrs) {
      const m = /^([-!]?)(linguist-vendored|linguist-generated)(?:=(\w+))?$/.exec(a);
      if (!m) continue;
      const on = m[1] === '' && m[3] !== 'false';
      if (m[2] === 'linguist-vendored') rule.vendored = on;
      else rule.generated = on;
    }
    if (rule.vendored !== undefined || rule.generated !== undefined) rules.push(rule);
  }
  return rules;
}

/** gitattributes patterns: without a slash they match a name at any depth; with one, from the root. A folder's pattern covers what is inside. */
function matcher(pattern: string): (path: string) => boolean {
  const anchored = pattern.replace(/^\//, '').replace(/\/$/, '');
  const glob = pattern.includes('/') ? anchored : `**/${anchored}`;
  const m = picomatch([glob, `${glob}/**`], { dot: true });
  return (path) => m(path);
}
