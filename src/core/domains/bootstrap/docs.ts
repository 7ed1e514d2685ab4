import type { Definition } from './symbols';
import type { AnalysisContext } from './types';

/** Files that document the project for its users; change logs name internals too, so they do not count. */
const DOC_FILE = /\.(md|mdx|markdown|rst|adoc)$/i;
const NOT_DOCS = /(^|\/)(CHANGELOG|CHANGES|HISTORY|RELEASE[\w-]*|NEWS)[^/]*$|(^|\/)(test|tests|__tests__|fixtures?)\//i;
const MAX_DOC_FILES = 400;

/** Where the project's documentation names an identifier: the first doc file that does, per name. */
export interface DocIndex {
  /** The doc file that names `name` as a word, if any. */
  mention(name: string): string | undefined;
  files: number;
}

const cache = new WeakMap<AnalysisContext, Promise<DocIndex>>();

/**
 * An index of the identifiers the documentation shows as code (README, docs folders; doc comments
 * in the sources do not count): a name it shows is public API its users read about, not an internal
 * helper only the code knows. Built once per analysis, from the first 400 doc files (shallowest first).
 */
export function docIndex(ctx: AnalysisContext): Promise<DocIndex> {
  let p = cache.get(ctx);
  if (!p) {
    p = build(ctx);
    cache.set(ctx, p);
  }
  return p;
}

async function build(ctx: AnalysisContext): Promise<DocIndex> {
  const files = ctx.listing
    .filter((f) => DOC_FILE.test(f) && !NOT_DOCS.test(f))
    .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))
    .slice(0, MAX_DOC_FILES);
  const first = new Map<string, string>();
  for (const f of files) {
    const text = await ctx.read(f);
    if (!text) continue;
    for (const word of codeWords(text)) if (!first.has(word)) first.set(word, f);
  }
  return { mention: (name) => first.get(name), files: files.length };
}

/**
 * The identifiers a Markdown text shows as code: in fenced blocks and inline code spans (prose words
 * such as "observable" are not API names), not after a `.`. File paths and file names name files.
 */
function codeWords(text: string): string[] {
  const code = [...text.matchAll(/^\s*(```|~~~)[^\n]*\n([\s\S]*?)^\s*\1/gm)].map((m) => m[2]);
  const spans = [...text.replace(/^\s*(```|~~~)[^\n]*\n[\s\S]*?^\s*\1/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) =>
    m[1]
  );
  const all = [...code, ...spans].join('\n').replace(/\S*\/\S*/g, ' ').replace(
    /\b[\w-]+\.(swift|mm?|h|kts?|java|[cm]?[jt]sx?|py|go|rs|rb|cc?|cpp)\b/g,
    ' ',
  );
  // `String.format(…)` is a member of another type, not the project's `format()`.
  return all.match(/(?<![\w$.])[A-Za-z_$][\w$]{3,}/g) ?? [];
}

/** What a definition is for, from the first sentence of its doc comment (or Python docstring). */
export async function purposeOf(def: Definition, ctx: AnalysisContext): Promise<string | undefined> {
  const text = await ctx.read(def.path);
  if (!text) return undefined;
  const lines = text.split('\n');
  const doc: string[] = [];
  if (def.family === 'python') {
    for (let i = def.line; i < Math.min(lines.length, def.line + 4); i++) {
      const m = /^\s*(?:r|u)?("""|''')\s*(.*)$/.exec(lines[i]);
      if (m) {
        doc.push(m[2].replace(/("""|''').*$/, ''));
        for (let j = i + 1; j < lines.length && !m[2].includes(m[1]) && doc.join(' ').length < 200; j++) {
          if (lines[j].includes(m[1])) {
            doc.push(lines[j].replace(/("""|''').*$/, ''));
            break;
          }
          doc.push(lines[j]);
        }
        break;
      }
    }
  } else {
    // The comment block right above the declaration (attributes and annotations in between are skipped).
    let i = def.line - 2;
    while (i >= 0 && /^\s*(@|#\[|\[)/.test(lines[i]) && !/^\s*\/[/*]/.test(lines[i])) i--;
    const end = i;
    if (end >= 0 && /^\s*\*\/\s*$|\*\/\s*$/.test(lines[end])) {
      while (i >= 0 && i > end - 80 && !/^\s*\/\*/.test(lines[i])) i--;
      for (let k = Math.max(0, i); k <= end; k++) {
        doc.push(lines[k].trim().replace(/^\/\*\*?|\*\/$/g, '').replace(/^\*\s?/, ''));
      }
    } else {
      while (i >= 0 && /^\s*\/\/\/?/.test(lines[i]) && i > end - 40) i--;
      for (let k = i + 1; k <= end; k++) doc.push(lines[k].trim().replace(/^\/\/\/?\s?/, ''));
    }
  }
  const sentence = doc
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('@') && !/^-+$/.test(l))
    .join(' ')
    .replace(/\[`?([^\]]+?)`?\]\([^)]*\)/g, '$1')
    // KDoc and rustdoc links: `[Locale.US]` reads as `Locale.US`.
    .replace(/\[`?([\w.:#]+)`?\]/g, '$1')
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s/)[0]
    ?.trim();
  // A URL, a heading or a fragment is not a purpose.
  if (!sentence || sentence.length < 12 || /https?:\/\/|^#|^[^A-Za-z`]/.test(sentence) || !/\s/.test(sentence)) {
    return undefined;
  }
  // Go doc comments open with the name itself ("UpdateCounts updates precalculated counts"): the rest is the purpose.
  const rest = def.family === 'go' && sentence.startsWith(`${def.name} `) ? sentence.slice(def.name.length + 1) : '';
  const named = rest.length >= 12 && /\s/.test(rest) ? rest : sentence;
  const lower = /^[A-Z](?:[a-z]|\s)/.test(named) ? named[0].toLowerCase() + named.slice(1) : named;
  return lower.replace(/\.$/, '').replace(/`/g, '');
}
