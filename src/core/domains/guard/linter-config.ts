/**
 * Rules a project turned off in the configuration of the linters it already runs: ESLint (flat and
 * legacy configs), Biome, SwiftLint, Ruff / flake8 / pylint, golangci-lint, detekt and Clippy
 * (`[lints.clippy]` in Cargo.toml). A team that switched `@typescript-eslint/no-explicit-any` off has
 * decided about `any`; guard's equivalent rule follows that decision instead of reopening it.
 *
 * The configurations are read as text, never run (an `eslint.config.js` is code): what is found is
 * a rule name set to off, and the `files` globs of the block it sits in. Only the workspace root's
 * files are read.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { GuardRule, Severity } from './rule';
import type { RuleExclusion } from './runner';

export interface LinterSetting {
  /** `off`: the project switched the rule off; `on`: it switched on a rule linters leave off by default. */
  state: 'off' | 'on';
  /** The tool, as in rule equivalents: eslint, biome, swiftlint, noqa, pylint, nolint, suppress, clippy. */
  tool: string;
  /** Lower case. */
  name: string;
  /** Workspace-relative globs the setting is limited to; undefined for every file. */
  files?: string[];
  /** The file that says so, workspace-relative. */
  source: string;
}

const MAX_CONFIG_BYTES = 512 * 1024;

function read(root: string, rel: string): string | undefined {
  try {
    const abs = path.join(root, rel);
    const st = statSync(abs);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
    return readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every rule the workspace's linter configurations turn off. */
export function readLinterSettings(root: string): LinterSetting[] {
  const out: LinterSetting[] = [];
  for (const rel of [
    'eslint.config.js',
    'eslint.config.mjs',
    'eslint.config.cjs',
    'eslint.config.ts',
    'eslint.config.mts',
    '.eslintrc',
    '.eslintrc.json',
    '.eslintrc.js',
    '.eslintrc.cjs',
    '.eslintrc.yml',
    '.eslintrc.yaml',
  ]) {
    const text = read(root, rel);
    if (text !== undefined) out.push(...eslintSettings(text, rel));
  }
  const pkg = read(root, 'package.json');
  if (pkg?.includes('"eslintConfig"')) out.push(...eslintSettings(pkg, 'package.json'));
  for (const rel of ['biome.json', 'biome.jsonc']) {
    const text = read(root, rel);
    if (!text) continue;
    for (const m of text.matchAll(/"(no[A-Z]\w*|use[A-Z]\w*)"\s*:\s*(?:"off"|\{\s*"level"\s*:\s*"off")/g)) {
      out.push({ state: 'off', tool: 'biome', name: m[1].toLowerCase(), source: rel });
    }
    // Biome lints with its recommended rules unless told not to.
    if (!/"recommended"\s*:\s*false/.test(text)) {
      for (const name of BIOME_RECOMMENDED) out.push({ state: 'on', tool: 'biome', name, source: rel });
    }
  }
  const swiftlint = read(root, '.swiftlint.yml') ?? read(root, '.swiftlint.yaml');
  if (swiftlint) {
    for (const name of yamlList(swiftlint, 'disabled_rules')) {
      out.push({ state: 'off', tool: 'swiftlint', name, source: '.swiftlint.yml' });
    }
    for (const name of yamlList(swiftlint, 'opt_in_rules')) {
      out.push({ state: 'on', tool: 'swiftlint', name, source: '.swiftlint.yml' });
    }
  }
  out.push(...pythonOffs(root));
  const golangci = ['.golangci.yml', '.golangci.yaml'].map((rel) => [rel, read(root, rel)] as const).find(([, t]) => t);
  if (golangci) {
    for (const name of yamlList(golangci[1]!, 'disable')) {
      out.push({ state: 'off', tool: 'nolint', name, source: golangci[0] });
    }
    for (const name of yamlList(golangci[1]!, 'enable')) {
      out.push({ state: 'on', tool: 'nolint', name, source: golangci[0] });
    }
    // errcheck reports errors assigned to `_` only with this setting (and gosec's G104 is excluded by golangci's defaults).
    if (/^\s*check-blank:\s*true\b/m.test(golangci[1]!)) {
      out.push({ state: 'on', tool: 'nolint', name: 'errcheck.check-blank', source: golangci[0] });
    }
  }
  for (const rel of ['detekt.yml', 'config/detekt/detekt.yml', 'config/detekt.yml', 'detekt-config.yml']) {
    const text = read(root, rel);
    if (text) {
      for (const m of text.matchAll(/^[ \t]+([A-Z]\w+):[ \t]*\n[ \t]+active:[ \t]*false/gm)) {
        out.push({ state: 'off', tool: 'suppress', name: m[1].toLowerCase(), source: rel });
      }
    }
  }
  const cargo = read(root, 'Cargo.toml');
  if (cargo) {
    const section = /^\[(?:workspace\.)?lints\.clippy\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(cargo)?.[1] ?? '';
    for (const m of section.matchAll(/^\s*([\w-]+)\s*=\s*(?:"(\w+)"|\{[^}\n]*level\s*=\s*"(\w+)")/gm)) {
      const level = m[2] ?? m[3];
      out.push({
        state: level === 'allow' ? 'off' : 'on',
        tool: 'clippy',
        name: m[1].toLowerCase().replace(/-/g, '_'),
        source: 'Cargo.toml',
      });
    }
  }
  return out;
}

/** Rules of Biome's recommended set that guard rules name as equivalents and leave off by default. */
const BIOME_RECOMMENDED = ['noexplicitany'];

/**
 * Rules that presets a configuration extends turn on, for the guard rules that are off by default
 * and follow them: typescript-eslint's recommended, strict and all sets (legacy `plugin:` names and
 * flat `configs.*` of the name the config imports typescript-eslint as) and Next's `next/typescript`
 * include no-explicit-any; its `…-requiring-type-checking` and stylistic sets do not.
 */
function presetRules(text: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  const any = '@typescript-eslint/no-explicit-any';
  for (const m of text.matchAll(
    /["']plugin:@typescript-eslint\/(?:recommended|strict|all)(?:-type-checked)?["']|["']next\/typescript["']/g,
  )) out.push({ name: any, at: m.index! });
  for (const imp of text.matchAll(
    /\bimport\s+(\w+)\s+from\s+["']typescript-eslint["']|\b(\w+)\s*=\s*require\(\s*["']typescript-eslint["']\s*\)/g,
  )) {
    const binding = imp[1] ?? imp[2];
    for (const m of text.matchAll(
      new RegExp(String.raw`\b${binding}\.configs\.(?:recommended|strict|all)(?:TypeChecked)?\b`, 'g'),
    )) out.push({ name: any, at: m.index! });
  }
  return out;
}

/**
 * `'rule-name': 'off'` (or 0, or ['off', …]; `'error'`/`'warn'`/1/2 for on) anywhere in an ESLint
 * configuration, limited to the `files` globs of the innermost object around it that has some; and
 * the rules the presets it extends turn on (`presetRules`).
 */
export function eslintSettings(text: string, source: string): LinterSetting[] {
  const out: LinterSetting[] = presetRules(text).map((p) => ({
    state: 'on',
    tool: 'eslint',
    name: p.name,
    files: filesAround(text, p.at),
    source,
  }));
  const re = /["']?((?:@[\w-]+\/)?[\w-]+(?:\/[\w-]+)*)["']?\s*:\s*(?:\[\s*)?(?:["'](off|warn|error)["']|([012])\b)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const name = m[1];
    if (!/[-/]/.test(name)) continue; // not a rule name (a plain key set to 0)
    const state = m[2] === 'off' || m[3] === '0' ? 'off' : 'on';
    out.push({ state, tool: 'eslint', name: name.toLowerCase(), files: filesAround(text, m.index), source });
  }
  return out;
}

/** The `files: [...]` globs of the innermost enclosing object that declares them. */
function filesAround(text: string, at: number): string[] | undefined {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '}') depth++;
    else if (c === '{') {
      if (depth > 0) {
        depth--;
        continue;
      }
      // An enclosing object: does it (at its own level) declare files before or after `at`?
      const end = matchingBrace(text, i);
      const own = text.slice(i, end);
      const files = /\bfiles["']?\s*:\s*\[([^\]]*)\]/.exec(stripNested(own));
      if (files) {
        const globs = [...files[1].matchAll(/["'`]([^"'`]+)["'`]/g)].map((x) => x[1]);
        return globs.some((g) => /^\*\*\/\*(?:\.\{?[\w,]+\}?)?$/.test(g) || g === '**') ? undefined : globs;
      }
    }
  }
  return undefined;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The object's text with the bodies of nested objects removed, so only its own keys remain. */
function stripNested(obj: string): string {
  let depth = 0;
  let out = '';
  for (const c of obj) {
    if (c === '{') depth++;
    if (depth <= 1) out += c;
    if (c === '}') depth--;
  }
  return out;
}

/** Items of a YAML list under `key:` (block `- x` items or an inline `[a, b]`), comments dropped. */
function yamlList(text: string, key: string): string[] {
  const re = new RegExp(`^([ \\t]*)${key}:[ \\t]*(\\[[^\\]]*\\])?[ \\t]*(?:#.*)?$`, 'm');
  const m = re.exec(text);
  if (!m) return [];
  if (m[2]) {
    return m[2].slice(1, -1).split(',').map((x) => x.trim().replace(/^["']|["']$/g, '').toLowerCase()).filter(Boolean);
  }
  const items: string[] = [];
  for (const line of text.slice(m.index + m[0].length + 1).split('\n')) {
    const item = /^[ \t]*-[ \t]+["']?([\w.-]+)["']?/.exec(line);
    if (item) items.push(item[1].toLowerCase());
    else if (line.trim() && !/^\s*#/.test(line)) break;
  }
  return items;
}

/** Ruff / flake8 `ignore` and `per-file-ignores`, pylint `disable`, from pyproject.toml, ruff.toml, setup.cfg, .flake8, .pylintrc. */
function pythonOffs(root: string): LinterSetting[] {
  const out: LinterSetting[] = [];
  const codes = (list: string) => [...list.matchAll(/["']?([A-Z]+[0-9]*)["']?/g)].map((x) => x[1].toLowerCase());
  for (const rel of ['pyproject.toml', 'ruff.toml', '.ruff.toml']) {
    const text = read(root, rel);
    if (!text) continue;
    for (const m of text.matchAll(/^(?:extend-)?ignore\s*=\s*\[([^\]]*)\]/gm)) {
      for (const name of codes(m[1])) out.push({ state: 'off', tool: 'noqa', name, source: rel });
    }
    const perFile =
      /^\[(?:tool\.ruff\.)?(?:lint\.)?per-file-ignores\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(text)?.[1] ?? '';
    for (const m of perFile.matchAll(/^\s*["']([^"']+)["']\s*=\s*\[([^\]]*)\]/gm)) {
      for (const name of codes(m[2])) {
        out.push({ state: 'off', tool: 'noqa', name, files: [m[1].includes('/') ? m[1] : `**/${m[1]}`], source: rel });
      }
    }
    const pylint = /^\[tool\.pylint[^\]]*\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(text)?.[1] ?? '';
    for (const m of pylint.matchAll(/^\s*disable\s*=\s*\[([^\]]*)\]/gm)) {
      for (const x of m[1].matchAll(/["']([\w-]+)["']/g)) {
        out.push({ state: 'off', tool: 'pylint', name: x[1].toLowerCase(), source: rel });
      }
    }
  }
  for (const rel of ['setup.cfg', '.flake8', 'tox.ini']) {
    const text = read(root, rel);
    const section = text && /^\[flake8\]\s*\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(text)?.[1];
    if (section) {
      for (const m of section.matchAll(/^(?:extend-)?ignore\s*=\s*((?:.*\n?(?:[ \t]+.*\n?)*))/gm)) {
        for (const name of codes(m[1])) out.push({ state: 'off', tool: 'noqa', name, source: rel });
      }
    }
  }
  const pylintrc = read(root, '.pylintrc');
  const disable = pylintrc && /^disable\s*=\s*((?:.*\n?(?:[ \t]+.*\n?)*))/m.exec(pylintrc)?.[1];
  if (disable) {
    for (const x of disable.split(/[\s,]+/).filter(Boolean)) {
      out.push({ state: 'off', tool: 'pylint', name: x.toLowerCase(), source: '.pylintrc' });
    }
  }
  return out;
}

/**
 * The project's own linter configuration decides where it speaks: a rule whose equivalent it
 * switched off is off here too (or off for the files it names), and a rule that is off by default
 * runs when it switched the equivalent on (`unwrap_used = "deny"`). A severity override wins.
 */
export function followLinterSettings(
  st: { rule: GuardRule; active: boolean; reason?: string; severity: Severity },
  linters: LinterSetting[],
  exclusions: RuleExclusion[],
  overrides: Record<string, string>,
): void {
  const equivalents = new Set((st.rule.equivalents ?? []).map((e) => e.toLowerCase()));
  const matching = linters.filter((o) => equivalents.has(`${o.tool}:${o.name}`));
  const tool = (
    o: LinterSetting,
  ) => (o.tool === 'noqa'
    ? 'Ruff/flake8'
    : o.tool === 'nolint'
    ? 'golangci-lint'
    : o.tool === 'suppress'
    ? 'detekt'
    : o.tool);
  const off = matching.filter((o) => o.state === 'off');
  const everywhere = off.find((o) => !o.files);
  if (st.rule.disabledByDefault) {
    const enabledBy = st.rule.enabledBy ?? st.rule.equivalents ?? [];
    const switches = new Set(enabledBy.map((e) => e.toLowerCase()));
    const on = linters.find((o) => o.state === 'on' && !o.files && switches.has(`${o.tool}:${o.name}`));
    if (!on) {
      Object.assign(st, {
        active: false,
        reason: `off by default; turn it on with a severity override${
          enabledBy.length ? ` or by enabling ${enabledBy[0]} in your linter configuration` : ''
        }`,
      });
      return;
    }
    // Turned on by the project's linter; a setting that turns it off by name still wins below, as in
    // the linter itself (a preset includes the rule, a later `'rule': 'off'` removes it).
    if (!everywhere) overrides[st.rule.id] = st.severity; // the runner reads default-off rules as on when they have an override
  } else if (!st.active) return;
  if (everywhere) {
    Object.assign(st, {
      active: false,
      reason: `the project turns ${
        tool(everywhere)
      } rule ${everywhere.name} off in ${everywhere.source}; set a severity override to check it anyway`,
    });
    return;
  }
  for (const o of off) exclusions.push({ rule: st.rule.id, paths: o.files! });
}
