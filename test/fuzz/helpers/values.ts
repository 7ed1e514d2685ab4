/**
 * Hostile values: strings that break parsers, regexes, SQL, terminals and path checks; path forms
 * that try to leave the workspace; numbers at and past their bounds; deep and wide structures.
 */
import path from 'node:path';
import type { Random } from './random';

/** Short strings that have broken something somewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\t\r\n\v\f',
  '\u001b[31mred\u001b[0m\u0007',
  '\r\n\r\n',
  '\u2028\u2029',
  '\ufeffbom',
  '\u202eevil\u202c',
  'e\u0301\u0301\u0301\u0301\u0301',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͕',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  '\ud800',
  '\udfff\ud800',
  '中文查询：如何处理网络请求',
  'ｆｅｔｃｈ（）',
  '𝕒𝕓𝕔',
  'İıŉǅ',
  'null',
  'undefined',
  'NaN',
  'true',
  '0',
  '-1',
  '1e309',
  '{}',
  '[]',
  '{"a":',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  "'; DROP TABLE recipes; --",
  '" OR 1=1 --',
  '%',
  '%%%%%%%%%%%%%%%%%%%%',
  '_%_%_%_%',
  '*',
  '?*[]{}()',
  '[a-',
  '(a+)+$',
  '((((((((((((((((((((((((((((((',
  '\\',
  '\\\\\\\\',
  '$(rm -rf /)',
  '`id`',
  '${process.exit(1)}',
  '{{constructor.constructor("return process")()}}',
  '%s%s%s%n',
  '<script>alert(1)</script>',
  '<chunk id="x">',
  '---\ntitle: x\n---',
  '# heading\n## sub',
  '```\n```',
  'NEAR OR AND NOT "',
  'MATCH ^ " * :',
  '^$',
  '@',
  '@@@@',
  'file:',
  'recipe:',
  'target:',
  'skill://x/SKILL.md',
  'http://127.0.0.1:1/',
  'con',
  'nul.txt',
  'aux',
];

/** Path forms that try to leave the workspace, given the outside folder's real path. */
export function pathAttacks(outsideFiles: readonly string[]): string[] {
  const abs = outsideFiles.flatMap((f) => [f, f + '/', f.replace(/\//g, '\\'), `file://${f}`, `${f}\u0000.ts`]);
  return [
    ...abs,
    '..',
    '../',
    '../outside/secret.ts',
    '../outside',
    '../outside/skill/SKILL.md',
    '../../outside/secret.ts',
    '../../../../../../../../etc/passwd',
    '/etc/passwd',
    '/etc',
    '/',
    '/proc/self/environ',
    '/proc/self/cwd/../outside/secret.ts',
    '/dev/zero',
    '/dev/stdin',
    '/dev/fd/0',
    '~',
    '~/.ssh/id_rsa',
    './../outside/secret.ts',
    'src/../../outside/secret.ts',
    'src/./../../outside/secret.ts',
    'src//..//..//outside//secret.ts',
    '..\\outside\\secret.ts',
    '..\\..\\..\\etc\\passwd',
    'src\\..\\..\\outside\\secret.ts',
    'C:\\Windows\\win.ini',
    'c:/windows/win.ini',
    '\\\\server\\share\\x',
    '\\\\?\\C:\\x',
    '%2e%2e/outside/secret.ts',
    '%2e%2e%2foutside%2fsecret.ts',
    '..%2foutside%2fsecret.ts',
    '..%5coutside%5csecret.ts',
    '%252e%252e%252foutside',
    '%c0%ae%c0%ae/outside',
    '..%00/outside/secret.ts',
    '.%2e/outside/secret.ts',
    '．．/outside/secret.ts',
    '..／outside／secret.ts',
    '..\u2215outside\u2215secret.ts',
    '.. /outside/secret.ts',
    '... /outside',
    '....//....//outside/secret.ts',
    'src/linked-secret.ts',
    'src/linked-dir',
    'src/linked-dir/secret.ts',
    'src/linked-dir/nested/deeper/file.ts',
    'src/linked-dir/../project/src/index.ts',
    'src/relative-secret.ts',
    'src/passwd.ts',
    'src/zero.ts',
    'src/urandom.ts',
    'src/pipe.ts',
    'src/socket.ts',
    'src/loop-a',
    'src/loop-a/x.ts',
    'src/dangling.ts',
    'packages/outside-pkg',
    'packages/outside-pkg/package.json',
    'drafts/linked-draft.md',
    '.autosnippet/recipes/leak/linked.md',
    '.autosnippet/guard/linked.json',
    '.autosnippet/skills/outsider/SKILL.md',
    '.autosnippet/skills/leaky/references/secret.md',
    '.autosnippet/skills/leaky/references/outside-dir/secret.ts',
    '.autosnippet/skills/leaky/references/relative-up.md',
    '.autosnippet/skills/leaky/references/pipe.md',
    '.autosnippet/autosnippet.db',
    '.autosnippet/audit/audit.jsonl',
    '.git/config',
    'references/secret.md',
    'references/outside-dir',
    'references/outside-dir/secret.ts',
    'references/outside-dir/nested/deeper/file.ts',
    'references/relative-up.md',
    'references/pipe.md',
    'references/../../../../../outside/secret.ts',
    'references/../SKILL.md',
    'scripts/evil.sh',
    'scripts/zero.sh',
    'scripts/pipe.sh',
    'scripts/../../../../../outside/evil.sh',
    'evil.sh',
    'zero.sh',
    'pipe.sh',
    '../leaky/SKILL.md',
    '../../../outside/evil.sh',
    path.join('..', 'outside', 'evil.sh'),
  ];
}

/** The attack forms of a skill or recipe name, which some tools turn into a folder or file path. */
export const NAME_ATTACKS: readonly string[] = [
  '..',
  '../outside/skill',
  '../../outside/skill',
  'outsider',
  'outsider-relative',
  'leaky/../outsider',
  '../skills/outsider',
  '%2e%2e',
  '..\\..\\outside',
  '/etc',
  '.',
  './leaky',
  'leaky/',
  'LEAKY',
  'leaky\u0000',
  '.autosnippet',
];

/** A string of `length` characters, built by one of several shapes (one line, many lines, multi-byte, NULs…). */
export function longString(rnd: Random, length: number): string {
  if (length <= 0) return '';
  const unit = rnd.pick([
    'a',
    'ab ',
    'word ',
    'line\n',
    '\u0000',
    '中',
    '😀',
    '\\',
    '%',
    '{"a":[',
    '(',
    '.',
    '/',
    '../',
    '<',
    'é',
    ' ',
    '\n',
  ]);
  let s = unit.repeat(Math.ceil(length / unit.length));
  // Count UTF-16 units the way JSON Schema's maxLength does not: trim by code points.
  const points = Array.from(s);
  if (points.length > length) s = points.slice(0, length).join('');
  return s;
}

/** Exactly `length` code points of plain text (for boundary lengths, where the count must be exact). */
export function exactLength(rnd: Random, length: number): string {
  const ch = rnd.pick(['x', 'é', '中', '😀', ' ', '\u0000']);
  return ch.repeat(Math.max(0, length));
}

export const NASTY_NUMBERS: readonly unknown[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1.5,
  2 ** 31,
  -(2 ** 31),
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  99_999_999_999,
];

/** A value `depth` levels deep (arrays or objects), as an agent gone wrong might send. */
export function deepValue(rnd: Random, depth: number): unknown {
  const arrays = rnd.chance(0.5);
  let v: unknown = rnd.pick([1, 'leaf', null, true]);
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
}

/** An object with `n` keys (a wide input). */
export function wideObject(n: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) o[`k${i}`] = i;
  return o;
}

/** Spellings of a tool name an agent might use: camelCase, kebab-case, dotted, prefixed, shouted, padded. */
export function nameVariants(name: string): string[] {
  const camel = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return [
    `autosnippet_${name}`,
    name,
    camel,
    camel[0].toUpperCase() + camel.slice(1),
    name.replace(/_/g, '-'),
    `autosnippet.${name}`,
    `autosnippet-${name.replace(/_/g, '-')}`,
    `autosnippet_autosnippet_${name}`,
    name.toUpperCase(),
    ` ${name} `,
    `${name}\u0000`,
    `${name}\n`,
    `AutoSnippet_${camel}`,
    `mcp__autosnippet__${name}`,
    `functions.${name}`,
  ];
}

/** Names that are no tool, or look like one to a person but not to a computer. */
export const UNKNOWN_NAMES: readonly string[] = [
  '',
  ' ',
  'x',
  'autosnippet_',
  'autosnippet',
  'tools/list',
  '../health',
  'hеalth',
  'he\u200balth',
  'approve_candidates',
  'aprove_candidate',
  'approve',
  'delete',
  'admin',
  '__proto__',
  'constructor',
  'toString',
  'autosnippet___proto__',
];
