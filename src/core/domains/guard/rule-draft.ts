import path from 'node:path';
import { lexFamily, lineCommentOf, normalizeLanguage } from '../../ground/kernel/languages';
import type { RuleSeed, SeedConstruct } from '../knowledge/rule-seed';
import type { GuardPattern } from '../knowledge/types';

/**
 * Drafts a guard rule, in the one rule format of a recipe's `constraints.guards`, from the structured
 * seed a card carries. The examples come from the repository: good ones are the cited lines that
 * follow the rule; bad ones are those lines rewritten the way the rule forbids (the logger call as a
 * print, the helper as the standard call it wraps), so the self-test at load proves the rule tells
 * the two apart. Controls join the good examples: the bad line in a comment and in a string, which a
 * rule on code must leave alone. The draft is not trusted by being drafted: guard/rule-draft-check.ts
 * vets it, runs its examples and reports what it finds in the repository today.
 */

/** What the drafter may read and what the card says. */
export interface DraftContext {
  /** A workspace file's text (the safe reader), or undefined when it cannot be read. */
  read(rel: string): string | undefined;
  /** The card's summary: the rule's `why`. */
  why?: string;
}

export type DraftOutcome = { guard: GuardPattern } | { problem: string };

/** Direct output per lexical family: the calls a `no-direct-output` rule forbids, and one to write a bad example with. */
const OUTPUT_CALLS: Partial<Record<string, { pattern: string; call: string; languages: string[] }>> = {
  js: {
    pattern: String.raw`(?<![\w$.])console\.(?:log|info|debug|warn|error|trace)\s*\(`,
    call: 'console.log',
    languages: ['typescript', 'javascript'],
  },
  python: { pattern: String.raw`(?<![\w.])print\s*\(`, call: 'print', languages: ['python'] },
  go: { pattern: String.raw`(?<![\w.])fmt\.Print(?:ln|f)?\s*\(`, call: 'fmt.Println', languages: ['go'] },
  rust: { pattern: String.raw`(?<![\w:])e?print(?:ln)?!\s*\(`, call: 'println!', languages: ['rust'] },
  java: {
    pattern: String.raw`(?<![\w.])System\.(?:out|err)\.print(?:ln|f)?\s*\(`,
    call: 'System.out.println',
    languages: ['java'],
  },
  kotlin: { pattern: String.raw`(?<![\w.])println\s*\(`, call: 'println', languages: ['kotlin'] },
  swift: { pattern: String.raw`(?<![\w.])print\s*\(`, call: 'print', languages: ['swift'] },
};

/** Constructs a `forbid-construct` seed names: the pattern, a bad line, and the words of the message. */
const CONSTRUCTS: Record<SeedConstruct, { languages: string[]; pattern: string; bad: string; message: string }> = {
  'explicit-any': {
    languages: ['typescript'],
    // `: any`, `as any`, `<any>`, `, any>`, `| any`: the type, not a variable that happens to be named any.
    pattern: String.raw`(?:(?<![\w$?]):|\bas\b|<|,|\|)\s*any(?![\w$])`,
    bad: 'function parse(input: any) {',
    message: 'Avoid `any`: the project types its values (use `unknown` and narrow it, or the precise type).',
  },
  'default-export': {
    languages: ['typescript', 'javascript'],
    pattern: String.raw`(?<![\w$.])export\s+default\b`,
    bad: 'export default function handler() {}',
    message: 'Use a named export: the project does not use default exports.',
  },
  'dispatch-main-async': {
    languages: ['swift'],
    pattern: String.raw`\bDispatchQueue\.main\.async\b`,
    bad: 'DispatchQueue.main.async { self.reload() }',
    message: 'Isolate UI work with `@MainActor` instead of `DispatchQueue.main.async`.',
  },
};

/**
 * The patterns a seed drafts whatever the repository holds: the ones that take no name from it. Their
 * safety verdicts are worked out once per analyser version (template-verdicts.ts), not per draft.
 */
export function fixedDraftPatterns(): { template: string; pattern: string; flags: string }[] {
  return [
    ...Object.entries(OUTPUT_CALLS).map(([family, o]) => ({
      template: `no-direct-output/${family}`,
      pattern: o!.pattern,
      flags: '',
    })),
    ...Object.entries(CONSTRUCTS).map(([construct, c]) => ({
      template: `forbid-construct/${construct}`,
      pattern: c.pattern,
      flags: '',
    })),
  ];
}

export function draftRuleFromSeed(seed: RuleSeed, ctx: DraftContext): DraftOutcome {
  const language = normalizeLanguage(seed.language);
  if (!language) return { problem: `guard has no rules for the language "${seed.language}".` };
  const good = goodLines(seed.goodAt ?? [], ctx);
  switch (seed.kind) {
    case 'no-direct-output':
      return noDirectOutput(seed, language, good, ctx);
    case 'prefer-helper':
      return preferHelper(seed, language, good, ctx);
    case 'forbid-import':
      return forbidImport(seed, language, good, ctx);
    case 'forbid-construct':
      return forbidConstruct(seed, language, good, ctx);
    case 'require-annotation':
      return requireAnnotation(seed, language, ctx);
  }
}

function noDirectOutput(
  seed: Extract<RuleSeed, { kind: 'no-direct-output' }>,
  language: string,
  good: string[],
  ctx: DraftContext,
): DraftOutcome {
  const out = OUTPUT_CALLS[lexFamily(language)];
  if (!out) return { problem: `no direct output calls are known for ${language}.` };
  const logged = good.filter((l) => !new RegExp(out.pattern).test(l));
  const bad = uniq(logged.map((l) => replaceFirstCall(l, /log/i, out.call)).filter((l): l is string => !!l));
  if (!bad.length) bad.push(`${out.call}(result)`);
  return finish({
    id: 'no-direct-output',
    message: `Log through ${seed.instead}; library code does not print to stdout.`,
    pattern: out.pattern,
    languages: out.languages,
    good: logged,
    bad,
    language,
    ctx,
  });
}

function preferHelper(
  seed: Extract<RuleSeed, { kind: 'prefer-helper' }>,
  language: string,
  good: string[],
  ctx: DraftContext,
): DraftOutcome {
  const calls = seed.standard.map((s) => s.trim()).filter((s) => /^[\w$]+(?:\.[\w$]+)*!?$/.test(s));
  if (!calls.length || !/^[\w$]+(?:\.[\w$]+)*$/.test(seed.helper)) {
    return {
      problem: 'the standard calls and the helper must be names as the code writes them (`fetch`, `time.Now`).',
    };
  }
  const pattern = `(?<![\\w$.])(?:${calls.map(escapeRegex).join('|')})\\s*\\(`;
  const using = good.filter((l) => l.includes(seed.helper) && !new RegExp(pattern).test(l));
  const helperName = new RegExp(`(?<![\\w$])${escapeRegex(seed.helper)}(?=\\s*\\()`);
  const bad = uniq(using.map((l) => l.replace(helperName, calls[0])).filter((l) => new RegExp(pattern).test(l)));
  if (!bad.length) bad.push(`${calls[0]}(input)`);
  return finish({
    id: `prefer-${kebab(seed.helper)}`,
    message: `Use the project's \`${seed.helper}\` instead of \`${calls.join('`, `')}\`.`,
    pattern,
    languages: familyLanguages(language),
    good: using,
    bad,
    language,
    ctx,
    ...(seed.definedIn ? { exclude: [seed.definedIn] } : {}),
  });
}

function forbidImport(
  seed: Extract<RuleSeed, { kind: 'forbid-import' }>,
  language: string,
  good: string[],
  ctx: DraftContext,
): DraftOutcome {
  const files = trimDir(seed.files);
  const modules = seed.modules.map(trimDir).filter((m) => m && m !== files && !isUnderDir(files, m));
  if (!modules.length) return { problem: 'no folder to forbid.' };
  const family = lexFamily(language);
  const names = modules.map((m) => path.posix.basename(m));
  const common = {
    id: `no-import-${kebab(names.join('-'))}`.slice(0, 80),
    message: `\`${files}\` does not import ${
      names.map((n) => `\`${n}\``).join(', ')
    }: shared code does not reach up into its users.`,
    language,
    ctx,
    include: [`${files}/**`],
  };
  if (family === 'js') {
    // Relative imports from anywhere under `files`: the path from the folder to the module, after any number of `../`.
    const rel = modules.map((m) => path.posix.relative(files, m)).filter((r) => r.startsWith('../'));
    if (!rel.length) return { problem: 'the folders are not reached by a relative import.' };
    const pattern = `(?<=['"\`])(?:\\.\\./)*(?:${rel.map(escapeRegex).join('|')})(?=[/'"\`])`;
    return finish({
      ...common,
      pattern,
      in: 'strings',
      languages: ['typescript', 'javascript'],
      good: good.filter((l) => !new RegExp(pattern).test(l)),
      bad: [`import { value } from '${rel[0]}/index';`],
    });
  }
  if (family === 'python') {
    const dotted = modules.map(pythonModule).filter((m): m is string => !!m);
    if (!dotted.length) return { problem: 'the folders are not Python packages.' };
    const alt = dotted.map(escapeRegex).join('|');
    const pattern = `^[ \\t]*(?:from[ \\t]+(?:${alt})(?=[ \\t.])|import[ \\t]+(?:${alt})(?![\\w]))`;
    return finish({
      ...common,
      pattern,
      flags: 'm',
      languages: ['python'],
      good: good.filter((l) => !new RegExp(pattern, 'm').test(l)),
      bad: [`from ${dotted[0]} import value`, `import ${dotted[0]}`],
    });
  }
  if (family === 'go') {
    const mod = /^module\s+(\S+)/m.exec(ctx.read('go.mod') ?? '')?.[1];
    if (!mod) return { problem: 'go.mod names no module path.' };
    const paths = modules.map((m) => `${mod}/${m}`);
    const pattern = `(?<=")(?:${paths.map(escapeRegex).join('|')})(?=["/])`;
    return finish({
      ...common,
      pattern,
      in: 'strings',
      languages: ['go'],
      good: good.filter((l) => !new RegExp(pattern).test(l)),
      bad: [`import "${paths[0]}"`],
    });
  }
  if (family === 'rust') {
    // A folder of a crate is the module path after the crate's `src/`: `crates/x/src/a/b` is `crate::a::b`.
    const paths = modules.map(rustModule).filter((m): m is string => !!m);
    if (!paths.length) return { problem: 'the folders are not modules of a crate.' };
    const pattern = `(?<![\\w:])crate::(?:${paths.map(escapeRegex).join('|')})(?![\\w])`;
    return finish({
      ...common,
      pattern,
      languages: ['rust'],
      good: good.filter((l) => !new RegExp(pattern).test(l)),
      bad: [`use crate::${paths[0]}::Value;`],
    });
  }
  if (family === 'java' || family === 'kotlin') {
    const packages = modules.map(jvmPackage).filter((m): m is string => !!m);
    if (!packages.length) return { problem: 'the folders are not under a java/ or kotlin/ source root.' };
    const pattern = `^[ \\t]*import[ \\t]+(?:static[ \\t]+)?(?:${packages.map(escapeRegex).join('|')})\\.`;
    return finish({
      ...common,
      pattern,
      flags: 'm',
      languages: ['java', 'kotlin'],
      good: good.filter((l) => !new RegExp(pattern, 'm').test(l)),
      bad: [`import ${packages[0]}.Value${family === 'java' ? ';' : ''}`],
    });
  }
  return { problem: `imports are not drafted as rules for ${language}.` };
}

/** A crate's folder as a module path: what follows the last `src/` (`crates/x/src/a/b` → `a::b`). */
function rustModule(dir: string): string | undefined {
  const parts = dir.split('/');
  const src = parts.lastIndexOf('src');
  const rest = src >= 0 ? parts.slice(src + 1) : [];
  return rest.length && rest.every((p) => /^[a-z_]\w*$/.test(p)) ? rest.join('::') : undefined;
}

/** A folder under a `java/` or `kotlin/` source root as its package (`src/main/java/com/x/y` → `com.x.y`). */
function jvmPackage(dir: string): string | undefined {
  const parts = dir.split('/');
  const root = Math.max(parts.lastIndexOf('java'), parts.lastIndexOf('kotlin'));
  const rest = root >= 0 ? parts.slice(root + 1) : [];
  return rest.length && rest.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? rest.join('.') : undefined;
}

function forbidConstruct(
  seed: Extract<RuleSeed, { kind: 'forbid-construct' }>,
  language: string,
  good: string[],
  ctx: DraftContext,
): DraftOutcome {
  const c = CONSTRUCTS[seed.construct];
  if (!c) return { problem: `the construct "${seed.construct}" is not known.` };
  if (!c.languages.some((l) => familyLanguages(language).includes(l))) {
    return { problem: `${seed.construct} is a construct of ${c.languages.join(', ')}, not ${language}.` };
  }
  return finish({
    id: `no-${seed.construct}`,
    message: c.message,
    pattern: c.pattern,
    languages: c.languages,
    good: good.filter((l) => !new RegExp(c.pattern).test(l)),
    bad: [c.bad],
    language,
    ctx,
  });
}

/**
 * How a public top-level declaration and its annotations are written, per lexical family: the
 * visibility keyword, one annotation of the rule (`ann`), and any annotation (`any`).
 */
const ANNOTATED: Partial<
  Record<string, { visibility: string; ann: (name: string) => string | undefined; any: string; at: string }>
> = {
  rust: {
    visibility: 'pub',
    ann: (name) => {
      const derived = /^derive\((\w+)\)$/.exec(name);
      if (derived) return String.raw`#\[derive\([^\]]*\b${derived[1]}\b[^\]]*\]`;
      return /^\w+(?:::\w+)*$/.test(name) ? String.raw`#\[${escapeRegex(name)}\b[^\]]*\]` : undefined;
    },
    any: String.raw`#\[[^\]]*\]`,
    at: '#[',
  },
  java: { visibility: 'public', ann: atAnnotation, any: String.raw`@[\w.]+(?:\([^)]*\))?`, at: '@' },
  swift: { visibility: '(?:public|open)', ann: atAnnotation, any: String.raw`@[\w.]+(?:\([^)]*\))?`, at: '@' },
};

function atAnnotation(name: string): string | undefined {
  return /^\w+(?:\.\w+)*$/.test(name) ? String.raw`@${escapeRegex(name)}(?![\w.])(?:\([^)]*\))?` : undefined;
}

/**
 * A public top-level declaration of the keyword (at the start of a line) whose attribute block, the
 * annotation lines right above it and those on its line, lacks the annotation. The good examples are
 * real annotated declarations with their block; the bad ones are the declarations that lack it today.
 */
function requireAnnotation(
  seed: Extract<RuleSeed, { kind: 'require-annotation' }>,
  language: string,
  ctx: DraftContext,
): DraftOutcome {
  const fam = ANNOTATED[lexFamily(language)];
  const ann = fam?.ann(seed.annotation);
  if (!fam || !ann) return { problem: `no annotation rule is drafted for ${language}.` };
  if (!/^\w+$/.test(seed.declaration)) return { problem: 'the declaration must be a keyword (`struct`, `class`).' };
  // `^` first: the look-behind runs at line starts only, not at every position of the file.
  const pattern =
    `^(?<!${ann}(?:\\s|${fam.any})*)(?:(?!${ann})${fam.any}\\s*)*${fam.visibility}[ \\t]+(?:[a-z]+[ \\t]+)*${seed.declaration}[ \\t]+[A-Za-z_]`;
  const re = new RegExp(pattern, 'm');
  const good = (seed.goodAt ?? []).map((r) => declBlock(r, fam.at, ctx)).filter((b): b is string => !!b && !re.test(b));
  if (!good.length) return { problem: 'no cited declaration carries the annotation.' };
  const real = (seed.badAt ?? []).map((r) => declBlock(r, fam.at, ctx)).filter((b): b is string => !!b && re.test(b));
  // Without an exception today, the bad example is a good one with its annotation taken off.
  const bad = real.length ? real : good.map((g) => withoutAnnotation(g, new RegExp(ann))).filter((b) => re.test(b));
  if (!bad.length) return { problem: 'no declaration without the annotation could be written.' };
  const written = fam.at === '#[' ? `#[${seed.annotation}]` : `@${seed.annotation}`;
  return finish({
    id: `${seed.declaration}-carries-${kebab(seed.annotation)}`.slice(0, 80),
    message:
      `Give a public \`${seed.declaration}\` \`${written}\`, as the project's other public ${seed.declaration} declarations have.`,
    pattern,
    flags: 'm',
    languages: [language],
    good,
    bad,
    language,
    ctx,
  });
}

/** A cited declaration line with the annotation lines right above it, trimmed. */
function declBlock(ref: string, at: string, ctx: DraftContext): string | undefined {
  const m = /^(.+):(\d+)$/.exec(ref.trim());
  const lines = m ? ctx.read(m[1])?.split('\n') : undefined;
  if (!m || !lines) return undefined;
  const end = Number(m[2]) - 1;
  let start = end;
  while (start > 0 && end - start < 6 && lines[start - 1].trimStart().startsWith(at)) start--;
  const block = lines.slice(start, end + 1).map((l) => l.trimEnd());
  return block.every((l) => l.length <= 160) && block.length ? block.join('\n') : undefined;
}

/** The block with the annotation taken off: out of a derive list, or the whole annotation. */
function withoutAnnotation(block: string, ann: RegExp): string {
  const derived = /^#\[derive\(/.test(block.match(ann)?.[0] ?? '');
  if (derived) {
    const name = /\\b(\w+)\\b/.exec(ann.source)?.[1];
    return block.replace(ann, (a) => {
      const rest = a.slice('#[derive('.length, -2).split(',').map((t) => t.trim()).filter((t) => t && t !== name);
      return rest.length ? `#[derive(${rest.join(', ')})]` : '';
    }).replace(/^\s*\n/, '');
  }
  return block.replace(ann, '').replace(/^[ \t]*\n/m, '').replace(/^[ \t]+/, '');
}

interface Parts {
  id: string;
  message: string;
  pattern: string;
  flags?: string;
  in?: 'code' | 'strings';
  languages: string[];
  good: string[];
  bad: string[];
  language: string;
  ctx: DraftContext;
  include?: string[];
  exclude?: string[];
}

/** The rule with its examples and the controls a code rule must leave alone. */
function finish(p: Parts): DraftOutcome {
  const bad = p.bad.slice(0, 3);
  // Every line of a multi-line example commented out.
  const controls = [bad[0].split('\n').map((l) => `${lineCommentOf(p.language)} ${l}`).join('\n')];
  // A rule on code must not fire on the same text inside a string; a rule on strings must not on code.
  if ((p.in ?? 'code') === 'code') controls.push(`message = ${JSON.stringify(bad[0])}`);
  const guard: GuardPattern = {
    id: p.id,
    message: p.message,
    severity: 'warning',
    languages: p.languages,
    pattern: p.pattern,
    ...(p.flags ? { flags: p.flags } : {}),
    ...(p.in && p.in !== 'code' ? { in: p.in } : {}),
    ...(p.include ? { include: p.include } : {}),
    ...(p.exclude ? { exclude: p.exclude } : {}),
    ...(p.ctx.why ? { why: p.ctx.why } : {}),
    examples: { bad, good: uniq([...p.good.slice(0, 3), ...controls]) },
  };
  return { guard };
}

/** The cited lines, trimmed, each once; lines that cannot be read are left out. */
function goodLines(refs: readonly string[], ctx: DraftContext): string[] {
  const out: string[] = [];
  const texts = new Map<string, string[] | undefined>();
  for (const ref of refs.slice(0, 8)) {
    const m = /^(.+):(\d+)$/.exec(ref.trim());
    if (!m) continue;
    if (!texts.has(m[1])) texts.set(m[1], ctx.read(m[1])?.split('\n'));
    const line = texts.get(m[1])?.[Number(m[2]) - 1]?.trim();
    // One statement on a line of its own: a multi-line call's first line would not parse as an example.
    if (line && line.length <= 160 && balanced(line)) out.push(line);
  }
  return uniq(out);
}

/** Replaces the first call whose callee matches `callee` with `call`, keeping the arguments. */
function replaceFirstCall(line: string, callee: RegExp, call: string): string | undefined {
  for (const m of line.matchAll(/(?<![\w$.])([\w$]+(?:\s*\.\s*[\w$]+)*!?)\s*\(/g)) {
    if (callee.test(m[1])) return line.slice(0, m.index) + `${call}(` + line.slice(m.index + m[0].length);
  }
  return undefined;
}

function balanced(line: string): boolean {
  let depth = 0;
  for (const ch of line) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** A package folder as Python imports it: `src/` and `lib/` layouts drop their first folder. */
function pythonModule(dir: string): string | undefined {
  const parts = dir.split('/').filter(Boolean);
  if (parts.length > 1 && (parts[0] === 'src' || parts[0] === 'lib')) parts.shift();
  return parts.length && parts.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? parts.join('.') : undefined;
}

/** The languages one rule covers: TypeScript and JavaScript share their constructs. */
function familyLanguages(language: string): string[] {
  return lexFamily(language) === 'js' ? ['typescript', 'javascript'] : [language];
}

function trimDir(d: string): string {
  return d.trim().replace(/\\/g, '/').replace(/^\.\/|\/+$/g, '');
}

function isUnderDir(parent: string, child: string): boolean {
  return child.startsWith(`${parent}/`);
}

function kebab(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
