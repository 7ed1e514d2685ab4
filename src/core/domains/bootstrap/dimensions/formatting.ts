import picomatch from 'picomatch';
import { extensionsFor } from '../../../ground/kernel/languages';
import { Blocks } from '../../guard/blocks';
import { maskGradleComments } from '../../structure/ecosystems/gradle-build';
import { commandSources, expandedText, type ProjectCommand } from '../commands';
import { confidence, percent, Tallies } from '../evidence';
import { fit, nameList } from '../form';
import { FAMILY_LABEL, FAMILY_LANGUAGES } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { jsLinter } from './js-linters';
import { sharedWorkflows } from './shared-workflows';
import { dominant, languageOf } from './standards';

/** The indentation each language's own style guide or standard formatter already uses. */
const INDENT_NORM: Partial<Record<Family, string>> = {
  swift: '4-space',
  objc: '4-space',
  python: '4-space',
  rust: '4-space',
  kotlin: '4-space',
  java: '4-space',
  go: 'tabs',
};

/** A formatter the project configures, where, with what settings, and the command that runs it. */
export interface Formatter {
  tool: string;
  families: Family[];
  /** `path:line` of the configuration (and of the command that enforces it). */
  sources: string[];
  settings: string[];
  /** The command that formats the code. */
  command?: string;
  /** The command (a script, a CI step) that checks it. */
  check?: string;
  /** What runs it without anyone asking: a CI step, a hook, a check script. Absent: it is only configured. */
  /** `checks`: the run only reports (`gofmt -l`, `--check`, `--diff`): it checks the formatting, it does not format. */
  /** `autofix`: the CI job commits what the command changes (autofix.ci) rather than failing. */
  enforcedBy?: { command: string; source: string; where: string; checks: boolean; autofix?: boolean };
  /** Configured, but how the code is formatted is not seen (prettier run only on other files): no claim either way. */
  silent?: true;
}

/** The commands that run each formatter (directly or through the tool that hosts it). */
const RUNS: Record<string, RegExp> = {
  rustfmt: /\bcargo\s+(\+\S+\s+)?fmt\b|\brustfmt\b/,
  SwiftFormat: /\bswiftformat\b/i,
  SwiftLint: /\bswiftlint\b/,
  'swift-format': /\bswift-format\b/,
  golangci: /\bgolangci-lint\b|\bgofmt\b|\bgoimports\b|\bgofumpt\b/,
  // `ruff check` lints; only `ruff format` formats.
  ruff: /\bruff\s+format\b/,
  black: /\bblack\b/,
  prettier: /\bprettier\b/,
  // `biome lint` lints; `check`, `ci` and `format` format (zod's CI was said to run `pnpm lint:check`).
  Biome: /\bbiome\s+(check|ci|format)\b/,
  dprint: /\bdprint\b/,
  // Spotless adds spotlessCheck to Gradle's `check` (which `build` runs).
  Spotless:
    /\bspotless(Check|Apply|:check|:apply)?\b|gradlew?\s(.*\s)?(check|build)\b|\bmvnw?\s(.*\s)?(verify|install)\b/,
  'clang-format': /\bclang-format\b/,
};

/**
 * What makes the formatter more than a configuration: a CI step, a git hook, or a check (`--check`)
 * in the project's scripts. A script that only rewrites files is a convenience, not enforcement.
 */
function enforcement(f: Formatter, commands: readonly ProjectCommand[]): Formatter['enforcedBy'] {
  const key = Object.keys(RUNS).find((k) =>
    f.tool.startsWith(k) || f.tool.includes(`via ${k}`) || (k === 'golangci' && /golangci/.test(f.tool))
  );
  if (!key) return undefined;
  const hook = (s: ProjectCommand) =>
    /^(\.pre-commit-config|lefthook|\.husky\/)/.test(s.source) || s.origin === 'build';
  const hits = commands.filter((s) => {
    const text = expandedText(s, commands);
    return RUNS[key].test(withoutFileNames(text)) && (s.job || hook(s) || CHECKS(text));
  });
  // A step that checks beats one that merely names the tool (`rustup toolchain install nightly -c rustfmt`).
  // The command that runs the tool itself before one that reaches it through others (`make default` → `make all` → …).
  const checking = (s: ProjectCommand) => CHECKS(expandedText(s, commands));
  const direct = (s: ProjectCommand) => RUNS[key].test(withoutFileNames(s.text));
  const best = hits.find((s) => s.job && checking(s)) ?? hits.find((s) => s.job) ?? hits.find(hook) ?? hits.find(direct)
    ?? hits[0];
  if (!best) return undefined;
  const text = expandedText(best, commands);
  // `golangci-lint run` reports the code its formatters would change (version 2); with `--fix` it changes it.
  // Gradle's `check` and `build` (Maven's `verify`) run spotlessCheck.
  const checks =
    (/--check\b|--diff\b|\s-l\b|--list-different|\bspotlessCheck\b|\bbiome\s+(check|ci)\b|\bgolangci-lint\s+run\b/.test(
      text,
    ) || (key === 'Spotless' && /gradlew?\s(.*\s)?(check|build)\b|\bmvnw?\s(.*\s)?verify\b/.test(text)))
    && !/--write\b|--fix\b|\bspotlessApply\b/.test(text);
  return {
    command: best.job ? best.command : best.text.replace(/^[\w:-]+:\s*/, ''),
    source: best.source,
    where: best.job
      ? 'CI'
      : best.origin === 'build'
      ? 'an Xcode build phase'
      : hook(best)
      ? 'a git hook'
      : `\`${best.command}\``,
    checks,
  };
}

/**
 * A command with its configuration-file names blanked: a dotfile (`.swift-format`, `.prettierrc`, also
 * at the end of a URL) or a config file (`rustfmt.toml`, `prettier.config.js`) names the tool without
 * running it, as a step that downloads or compares a config does.
 */
function withoutFileNames(text: string): string {
  return text
    .replace(/(^|[\s'"=/])\.[\w.-]+/g, '$1')
    .replace(/\b[\w-]+(?:\.[\w-]+)*\.(?:toml|json|jsonc|ya?ml|[cm]?js|ts|xml|cfg|ini)\b/g, '');
}

const CHECKS = (t: string) =>
  /--check\b|--diff\b|\s-l\b/.test(t) || (/\bbiome\s+(check|ci|format)\b/.test(t) && !/--write\b|--fix\b/.test(t))
  || (/--list-different/.test(t) && !/--write/.test(t)) || /\bspotlessCheck\b|\bspotless:check\b|\blint\b/.test(t);

/**
 * Formatting as the project enforces it. A formatter the project configures (rustfmt.toml,
 * .swiftformat, prettier, ruff, golangci's gofmt, Spotless/ktlint, clang-format, .editorconfig) is
 * proposed with its settings and the command to run; indentation kept by hand only when the
 * project departs from its language's norm, or for JS/TS (no norm), and only after looking for
 * every formatter configuration of the ecosystem (the counter-evidence).
 */
export class FormattingAnalyzer implements Analyzer {
  private readonly indent = new Tallies(4);
  private readonly quotes = new Tallies(4);
  private readonly semicolons = new Tallies(4);

  visit(file: SourceFile): void {
    if (file.kind !== 'production' || file.family === 'other') return;
    const i = indentation(file.lines);
    if (i) this.indent.get(`${file.family}|${i.style}`).add(file, i.line);
    if (file.family === 'jsts') {
      const imp = /^[ \t]*import\b[^\n]*?\bfrom[ \t]*(['"])[^\n]*$|^[ \t]*import[ \t]*(['"])[^\n]*$/m.exec(file.text);
      if (imp) {
        const line = file.text.slice(0, imp.index).split('\n').length;
        this.quotes.get((imp[1] ?? imp[2]) === "'" ? 'single' : 'double').add(file, line);
        this.semicolons.get(/;\s*$/.test(imp[0]) ? 'yes' : 'no').add(file, line);
      }
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const formatters = await findFormatters(ctx);
    const families = [...new Set(this.indent.entries().map(([k]) => k.split('|')[0] as Family))];
    const out: CandidateDraft[] = [];
    const linter = families.includes('jsts') ? await jsLinter(ctx) : undefined;
    const shared = await sharedWorkflows(ctx);
    for (const f of formatters) {
      if (f.silent) continue;
      // Of the languages it formats, the one with the most files first (Spotless said of Java, 97 % of the code, then Kotlin).
      const size = (x: Family) => dominant(this.indent, `${x}|`)?.total ?? 0;
      const present = f.families.filter((x) => families.includes(x)).sort((a, b) => size(b) - size(a));
      const fam = present[0] ?? (f.families.length === 1 ? f.families[0] : undefined);
      if (!fam || !families.includes(fam)) continue;
      const langs = present.length > 1
        ? `${present.slice(0, -1).map((x) => FAMILY_LABEL[x]).join(', ')} and ${
          FAMILY_LABEL[present[present.length - 1]]
        }`
        : FAMILY_LABEL[fam];
      const measured = dominant(this.indent, `${fam}|`);
      if (f.tool === '.editorconfig') {
        // Most of the code not following it says the project does not keep to it.
        if (!measured || measured.ratio >= 0.8) {
          out.push(editorConfigCandidate(f, fam, measured, ctx, fam === 'jsts' ? linter : undefined));
        }
        continue;
      }
      if (f.tool === 'SwiftLint') {
        out.push(linterCandidate(f, fam, measured, ctx));
        continue;
      }
      // The command says "via golangci-lint" already (else a title is cut before its command).
      const titled = (tool: string) =>
        `${langs} formatting is ${f.enforcedBy ? 'enforced by' : 'configured with'} ${
          f.command?.startsWith('golangci-lint') ? tool.replace(/ \(via golangci-lint\)$/, '') : tool
        }${f.command ? `: run \`${f.command}\`` : ''}`;
      out.push({
        // The tool with its formatters, or the tool alone when that does not fit (Spotless with google-java-format and ktlint).
        title: fit(
          [f.tool, f.tool.replace(/ with .*$/, '')].map(titled).find((t) => t.length <= 100) ?? titled(f.tool),
          100,
        ),
        knowledgeType: 'code-style',
        dimension: 'code-standard',
        language: languageOf(fam, ctx),
        category: 'formatting',
        // How much of the code follows it is said only when nothing enforces it: next to a tool that
        // enforces the format, a share of files says nothing.
        summary: `${f.tool} is configured in the repository${
          f.settings.length ? ` (${f.settings.slice(0, 4).join(', ')})` : ''
        }${f.command ? `; \`${f.command}\` formats` : ''}${
          f.enforcedBy
            ? `; ${enforcedSentence(f.enforcedBy)}${
              f.enforcedBy.autofix ? ' and commits what it changes (autofix.ci)' : ''
            }`
            : f.check
            ? `, \`${f.check}\` checks`
            : shared.length
            ? `; no script or hook of the repository runs it, and its CI calls shared workflows (${
              nameList([...new Set(shared.map((w) => w.name))], 50)
            }) whose steps are not in the repository`
            : '; no CI step, script or hook runs it'
        }. Format changed files with it instead of by hand${
          measured && !f.enforcedBy
            ? `; the code follows it (${
              measured.key === 'tabs' ? 'tabs' : measured.key.replace('-space', '-space indentation')
            }, ${percent(measured.tally.count, measured.total)} of files)`
            : ''
        }.`,
        code: '',
        reasoning: {
          whyStandard: `The project's own configuration of ${f.tool}${
            f.enforcedBy ? `, run by ${f.enforcedBy.where === 'CI' ? 'CI' : f.enforcedBy.where}` : ''
          }: it decides the formatting, so code written by hand or by an agent must pass through it.`,
          sources: [
            ...new Set([
              ...f.sources,
              ...(f.enforcedBy ? [f.enforcedBy.source] : !f.check && shared.length ? [shared[0].source] : []),
            ]),
          ].slice(0, 6),
          confidence: f.enforcedBy ? 0.9 : 0.8,
        },
        tags: ['formatting', fam, f.tool.toLowerCase().replace(/[^a-z0-9]+/g, '-')],
        trigger: `format-${fam}`,
      });
    }
    for (const fam of families) {
      if (formatters.some((f) => f.families.includes(fam))) continue;
      // A configured linter may set the layout (its shared configuration is not read here), so
      // "no formatter, keep it by hand" would be a claim of absence the scan cannot back.
      if (fam === 'jsts' && linter) continue;
      const measured = dominant(this.indent, `${fam}|`);
      if (!measured || measured.total < 8 || measured.ratio < 0.85) continue;
      const norm = INDENT_NORM[fam];
      if (norm === measured.key) continue;
      const bits = [`${measured.key === 'tabs' ? 'tab' : measured.key} indentation`];
      let ratio = measured.ratio;
      if (fam === 'jsts') {
        const q = dominant(this.quotes, '');
        const semi = dominant(this.semicolons, '');
        if (q && q.total >= 5 && q.ratio >= 0.85) {
          bits.push(`${q.key} quotes`);
          ratio = Math.min(ratio, q.ratio);
        }
        if (semi && semi.total >= 5 && semi.ratio >= 0.85) {
          bits.push(semi.key === 'yes' ? 'semicolons' : 'no semicolons');
          ratio = Math.min(ratio, semi.ratio);
        }
      }
      const lang = FAMILY_LABEL[fam];
      out.push({
        title: `${lang} code uses ${bits.join(', ')}${norm ? `, not the usual ${norm}` : ''}`,
        knowledgeType: 'code-style',
        dimension: 'code-standard',
        language: languageOf(fam, ctx),
        category: 'formatting',
        summary: `${
          percent(measured.tally.count, measured.total)
        } of ${measured.total} production ${lang} files indent with ${
          measured.key === 'tabs' ? 'tabs' : measured.key.replace('-space', ' spaces')
        }. No formatter configuration was found (${CHECKED[fam] ?? 'none known'}), so keep it by hand.`,
        code: '',
        reasoning: {
          whyStandard: `Measured on the first indented line of every scanned production file; looked for ${
            CHECKED[fam] ?? 'formatter configurations'
          } and found none.`,
          sources: measured.tally.sources(4),
          confidence: confidence(ratio, measured.total),
        },
        tags: ['formatting', fam],
      });
    }
    return out;
  }
}

/**
 * `.editorconfig` is not a formatter: editors apply its indentation as people type, and nothing checks
 * it. Said as the indentation the project asks for, with what was looked for and not found.
 */
function editorConfigCandidate(
  f: Formatter,
  fam: Family,
  measured: ReturnType<typeof dominant>,
  ctx: AnalysisContext,
  linter?: { tool: string; source: string },
): CandidateDraft {
  const lang = FAMILY_LABEL[fam];
  // With a linter configured, what checks the layout is not known here: the card says what is set, no more.
  const checked = linter
    ? `Editors apply it as you type; ${linter.tool} is configured as well, so run it before committing.`
    : `Editors apply it as you type; no formatter checks it (looked for ${
      (CHECKED[fam] ?? 'formatter configurations').replace(/, \.editorconfig/, '')
    }), so keep new code to it.`;
  const follows = measured
    ? `; ${percent(measured.tally.count, measured.total)} of the production ${lang} files follow it (${
      measured.key === 'tabs' ? 'tabs' : measured.key.replace('-space', '-space indentation')
    })`
    : '';
  return {
    title: fit(`${lang} indentation follows .editorconfig (${f.settings.join(', ')})`, 100),
    knowledgeType: 'code-style',
    dimension: 'code-standard',
    language: languageOf(fam, ctx),
    category: 'formatting',
    summary: `.editorconfig sets ${f.settings.join(', ')}${follows}. ${checked}`,
    code: '',
    reasoning: {
      whyStandard: linter
        ? "The repository's .editorconfig states the indentation."
        : "The repository's .editorconfig states the indentation; no formatter or linter configuration for the language was found.",
      sources: linter ? [...f.sources, linter.source] : f.sources,
      confidence: measured && measured.ratio >= 0.85 ? 0.8 : 0.6,
    },
    tags: ['formatting', fam, 'editorconfig'],
    trigger: `format-${fam}`,
  };
}

/**
 * "CI checks with `cargo fmt -- --check`", "`bun run format` checks it": a command too long to read in a
 * summary (prettier with long globs) is left to the cited line, and a script is not followed by what it runs.
 */
function enforcedSentence(e: NonNullable<Formatter['enforcedBy']>): string {
  if (e.where.startsWith('`')) return `${e.where} ${e.checks ? 'checks' : 'runs'} it`;
  // Its first words (`./gradlew check …`): the cited line has the rest.
  let shown = '';
  for (const word of e.command.split(/\s+/)) {
    if (shown && shown.length + word.length + 1 > 40) {
      shown += ' …';
      break;
    }
    shown = shown ? `${shown} ${word}` : word;
  }
  return `${e.where} ${e.checks ? 'checks with' : 'runs'} \`${shown}\``;
}

/**
 * A linter that checks style where no formatter is configured (SwiftLint): what CI runs and how
 * strictly, the command that corrects what it can, and the indentation the code keeps.
 */
function linterCandidate(
  f: Formatter,
  fam: Family,
  measured: ReturnType<typeof dominant>,
  ctx: AnalysisContext,
): CandidateDraft {
  const lang = FAMILY_LABEL[fam];
  const run = f.enforcedBy?.command ?? f.check;
  const strict = run && /--strict\b/.test(run);
  const indent = measured && measured.ratio >= 0.8
    ? ` The code is indented with ${measured.key === 'tabs' ? 'tabs' : measured.key.replace('-space', ' spaces')} (${
      percent(measured.tally.count, measured.total)
    } of files).`
    : '';
  return {
    title: fit(
      `${lang} code must pass ${f.tool}${
        run
          ? ` (${f.enforcedBy?.where === 'CI' ? 'CI runs' : 'checked by'} \`${
            run.replace(/\s+--reporter[= ]\S+/, '')
          }\`)`
          : ''
      }`,
      100,
    ),
    knowledgeType: 'code-style',
    dimension: 'code-standard',
    language: languageOf(fam, ctx),
    category: 'formatting',
    summary: `${f.tool} is configured in ${f.sources[0].replace(/:\d+$/, '')}${
      run
        ? `; ${
          f.enforcedBy?.where === 'CI' || f.enforcedBy?.where === 'an Xcode build phase'
            ? f.enforcedBy.where
            : 'the project'
        } runs \`${run}\`${strict ? ', so any warning fails the build' : ''}`
        : '; nothing runs it yet'
    }. Run it on changed files before committing; \`${f.command}\` corrects what it can.${indent}`,
    code: '',
    reasoning: {
      whyStandard: `The project's ${f.tool} configuration${
        f.enforcedBy ? `, run by ${f.enforcedBy.where}` : ''
      }: code that does not pass it does not merge.`,
      sources: [...new Set([...f.sources, ...(f.enforcedBy ? [f.enforcedBy.source] : [])])].slice(0, 6),
      confidence: f.enforcedBy ? 0.9 : 0.7,
    },
    tags: ['formatting', 'lint', fam, f.tool.toLowerCase()],
    trigger: `lint-${fam}`,
  };
}

/** What the scan looks for before it says there is no formatter, per language. */
const CHECKED: Partial<Record<Family, string>> = {
  jsts: 'prettier, biome, dprint, .editorconfig, a format script',
  python: 'ruff, black, yapf, autopep8 in pyproject/setup.cfg/scripts, .editorconfig',
  go: 'golangci formatters, gofmt/goimports in a Makefile or CI',
  rust: 'rustfmt.toml, cargo fmt in CI',
  swift: '.swiftformat, .swift-format, .swiftlint.yml',
  objc: '.clang-format, .editorconfig',
  kotlin: 'Spotless, ktlint, ktfmt, .editorconfig',
  java: 'Spotless, google-java-format, checkstyle, .editorconfig',
};

/** Every formatter configuration of the workspace, with its settings and its command. */
export async function findFormatters(ctx: AnalysisContext): Promise<Formatter[]> {
  const out: Formatter[] = [];
  const top = (re: RegExp) =>
    ctx.listing.filter((f) => re.test(f) && f.split('/').length <= 2).sort((a, b) =>
      a.split('/').length - b.split('/').length
    );
  const lineOf = (text: string, re: RegExp) => {
    const i = text.split('\n').findIndex((l) => re.test(l));
    return i < 0 ? 1 : i + 1;
  };
  const scripts = await commandSources(ctx);
  // The command that formats, preferring a script named for it, and the one that only checks.
  const checks = (t: string) =>
    /--check\b|--diff\b|\s-l\b/.test(t) || (/--list-different/.test(t) && !/--write/.test(t));
  const named = (c: string) => (/(^|[\s/])(format|fmt|format-fix|fmt-fix|prettier|lint)$/.test(c) ? 1 : 0);
  const command = (re: RegExp): { command: string; source: string; check?: string } | undefined => {
    const hits = scripts.filter((s) => re.test(s.text));
    const writes = (t: string) => (/--write\b|\s-w\b|--fix\b/.test(t) ? 1 : 0);
    const apply =
      hits.filter((s) => !checks(s.text)).sort((a, b) =>
        named(b.command) + writes(b.text) - named(a.command) - writes(a.text)
      )[0];
    const check = hits.filter((s) => checks(s.text)).sort((a, b) => named(b.command) - named(a.command))[0];
    // A pre-commit hook's id (`ruff-format`) is not what a person types; its words are (`ruff format`).
    // A `fix` or `format` script that runs the formatting script with the others is the one to type (`yarn fix`).
    const whole = apply && !apply.job
      && scripts.find((s) =>
        s !== apply && !s.job && /(^|[\s:])(fix|format|fmt)$/.test(s.command) && s.text.includes(apply.command)
      );
    if (whole) return { command: whole.command, source: whole.source, ...(check ? { check: check.command } : {}) };
    if (apply) {
      return {
        command: /^(\.pre-commit-config|lefthook)/.test(apply.source) ? apply.text : apply.command,
        source: apply.source,
        ...(check ? { check: check.command } : {}),
      };
    }
    if (!check) return undefined;
    // Only a check (a CI step, `make fmt`): the tool's own command applies it, when it is a plain call.
    // `cargo fmt -- --check` applies as `cargo fmt`: the `--` only passed the check flag on.
    const direct = check.source.startsWith('.github/') && /^\S+( \S+)*$/.test(check.command)
      ? check.command.replace(/\s+(--check|--diff)\b/g, '').replace(/\s+--$/, '')
      : undefined;
    return { command: direct ?? '', source: check.source, check: check.command };
  };

  // Rust: rustfmt.toml settings, `cargo fmt --check` in CI.
  for (const f of top(/(^|\/)\.?rustfmt\.toml$/)) {
    const text = (await ctx.read(f)) ?? '';
    const cmd = command(/\bcargo\s+(\+\S+\s+)?fmt\b/);
    // The toolchain CI formats with (`cargo +nightly fmt -- --check`: the configuration uses nightly-only options).
    const toolchain = /\bcargo\s+(\+\S+)\s+fmt\b/.exec(cmd?.check ?? cmd?.command ?? '')?.[1];
    out.push({
      tool: 'rustfmt',
      families: ['rust'],
      sources: [`${f}:1`, ...(cmd ? [cmd.source] : [])],
      settings: tomlSettings(text),
      command: cmd?.command || (toolchain ? `cargo ${toolchain} fmt` : 'cargo fmt'),
      ...(cmd?.check ? { check: cmd.check } : {}),
    });
  }
  // Swift.
  for (const f of top(/(^|\/)\.swiftformat$/)) {
    const text = (await ctx.read(f)) ?? '';
    const settings = text.split('\n').filter((l) =>
      /^--(indent|maxwidth|swiftversion|wraparguments|self)\b/.test(l.trim())
    ).map((l) => l.trim()).slice(0, 4);
    const cmd = command(/\bswiftformat\b/);
    out.push({
      tool: 'SwiftFormat',
      families: ['swift'],
      sources: [`${f}:1`, ...(cmd ? [cmd.source] : [])],
      settings,
      command: cmd?.command || 'swiftformat .',
      ...(cmd?.check ? { check: cmd.check } : {}),
    });
  }
  for (const f of top(/(^|\/)\.swift-format$/)) {
    out.push({
      tool: 'swift-format',
      families: ['swift'],
      sources: [`${f}:1`],
      settings: [],
      command: 'swift-format format -i -r .',
    });
  }
  // SwiftLint checks style (and `--fix` corrects what it can) where no Swift formatter is configured.
  if (!out.some((f) => f.families.includes('swift'))) {
    for (const f of top(/(^|\/)\.swiftlint\.ya?ml$/).slice(0, 1)) {
      const run = scripts.find((c) =>
        /(^|[\s;&|])swiftlint(\s+lint)?(\s|$)/.test(c.text) && !/--fix|\binstall\b/.test(c.text)
      );
      const check = run?.command.replace(/\s+--reporter[= ]\S+/, '');
      out.push({
        tool: 'SwiftLint',
        families: ['swift'],
        sources: [`${f}:1`, ...(run ? [run.source] : [])],
        settings: [],
        command: 'swiftlint --fix',
        ...(check ? { check } : {}),
      });
    }
  }
  // Go: golangci formatters, gofmt in a Makefile.
  for (const f of top(/(^|\/)\.golangci\.(ya?ml|toml|json)$/)) {
    const text = (await ctx.read(f)) ?? '';
    const tools = ['gofmt', 'gofumpt', 'goimports', 'gci'].filter((t) =>
      new RegExp(`^\\s*-\\s*${t}\\b`, 'm').test(text)
    );
    if (!tools.length) continue;
    const cmd = command(/\bgofmt\b|\bgoimports\b|\bgolangci-lint\s+fmt\b/);
    // golangci-lint applies the formatters it configures: `fmt` in version 2, `run --fix` before.
    const apply = cmd?.command
      || (/^version:\s*["']?2\b/m.test(text) ? 'golangci-lint fmt' : 'golangci-lint run --fix');
    out.push({
      tool: `${nameList(tools, 60, false)} (via golangci-lint)`,
      families: ['go'],
      sources: [`${f}:${lineOf(text, new RegExp(`^\\s*-\\s*${tools[0]}\\b`))}`, ...(cmd ? [cmd.source] : [])],
      settings: [],
      command: apply,
      ...(cmd?.check ? { check: cmd.check } : {}),
    });
  }
  // Python: ruff or black in pyproject, or in the project's scripts.
  for (const f of top(/(^|\/)(pyproject\.toml|ruff\.toml|\.ruff\.toml)$/)) {
    const text = (await ctx.read(f)) ?? '';
    const ruffCmd = command(/\bruff\s+format\b/);
    const blackCmd = command(/\bblack\b/);
    if (/^\[tool\.ruff/m.test(text) || f.endsWith('ruff.toml') || ruffCmd) {
      const settings = [/^line-length\s*=\s*\d+/m.exec(text)?.[0]].filter((x): x is string => !!x);
      out.push({
        tool: 'ruff',
        families: ['python'],
        sources: [`${f}:${lineOf(text, /^\[tool\.ruff|line-length/)}`, ...(ruffCmd ? [ruffCmd.source] : [])],
        settings,
        command: ruffCmd?.command || 'ruff format',
        ...(ruffCmd?.check ? { check: ruffCmd.check } : {}),
      });
    } else if (/^\[tool\.black\]/m.test(text) || blackCmd) {
      out.push({
        tool: 'black',
        families: ['python'],
        sources: [`${f}:${lineOf(text, /^\[tool\.black\]/)}`, ...(blackCmd ? [blackCmd.source] : [])],
        settings: [],
        command: blackCmd?.command || 'black .',
        ...(blackCmd?.check ? { check: blackCmd.check } : {}),
      });
    }
  }
  // JS/TS: prettier, biome, dprint.
  const prettier = top(/(^|\/)(\.prettierrc(\.\w+)?|prettier\.config\.[cm]?[jt]s)$/);
  let pkgPrettier: string | undefined;
  if (!prettier.length && ctx.has('package.json')) {
    // The top-level `prettier` key: settings, or a shared configuration's name (`"@acme/prettier-config"`);
    // a `"prettier": "2.6.2"` under the dependencies is only the tool.
    const pkg = (await ctx.read('package.json')) ?? '';
    const config = topLevelKey(pkg, 'prettier');
    if (config !== undefined) {
      // The key's own line: of the lines naming it, the least indented.
      const lines = pkg.split('\n');
      const at =
        lines.map((l, i) => ({ i, indent: /^(\s*)"prettier"\s*:/.exec(l)?.[1].length })).filter((x) =>
          x.indent !== undefined
        ).sort((a, b) => a.indent! - b.indent!)[0];
      pkgPrettier = `package.json:${(at?.i ?? 0) + 1}`;
    }
  }
  // Prettier run only on other files (`prettier "**/*.{css,scss,json,md,html,yml}"`, with
  // eslint formatting the code) is not the code's formatter.
  const prettierRuns = scripts.filter((c) => /\bprettier\b/.test(c.text));
  const globs = prettierRuns.flatMap((c) => [...c.text.matchAll(/["']?[^\s"']*\*[^\s"']*["']?/g)].map((m) => m[0]));
  const codeGlob = (g: string) => /\.\{?[^}]*\b(?:[cm]?[jt]sx?)\b|\*["']?$|\*\*\/\*["']?$/.test(g);
  const othersOnly = globs.length > 0 && !globs.some(codeGlob)
    && !prettierRuns.some((c) => /\bprettier\b[^|&;]*\s\.(\s|$)/.test(c.text));
  // Then the code is formatted some other way (ESLint's prettier rules from a shared
  // configuration) that is not seen here: no formatting claim for JS/TS, not even "no formatter".
  if ((prettier.length || pkgPrettier) && othersOnly) {
    out.push({
      tool: 'prettier',
      families: ['jsts'],
      sources: [prettier[0] ? `${prettier[0]}:1` : pkgPrettier!],
      settings: [],
      silent: true,
    });
  }
  if ((prettier.length || pkgPrettier) && !othersOnly) {
    const f = prettier[0];
    const text = f ? (await ctx.read(f)) ?? '' : '';
    const settings = ['printWidth', 'singleQuote', 'semi', 'trailingComma', 'tabWidth', 'useTabs'].flatMap((k) => {
      const m = new RegExp(`['"]?${k}['"]?\\s*[:=]\\s*([^,\\n}]+)`).exec(text);
      return m ? [`${k}: ${m[1].trim()}`] : [];
    });
    // Plugins change the output too (import sorting).
    const plugins = /\bplugins['"]?\s*:\s*\[([^\]]*)\]/.exec(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''))?.[1].match(
      /['"][^'"]+['"]/g,
    )?.map((x) => x.slice(1, -1));
    if (plugins?.length) settings.push(`plugins: ${plugins.join(', ')}`);
    const cmd = command(/\bprettier\b.*--write|\bformat(-fix)?\b/);
    // The line of the first setting, not the file's first line (a typedef comment may open it).
    const at = settings.length
      ? lineOf(text, /\b(printWidth|singleQuote|semi|trailingComma|tabWidth|useTabs|plugins)['"]?\s*[:=]/)
      : 1;
    out.push({
      tool: 'prettier',
      families: ['jsts'],
      sources: [f ? `${f}:${at}` : pkgPrettier!, ...(cmd ? [cmd.source] : [])],
      settings,
      command: cmd?.command || 'npx prettier --write .',
      ...(cmd?.check ? { check: cmd.check } : {}),
    });
  }
  for (const f of top(/(^|\/)biome\.jsonc?$/)) {
    const text = (await ctx.read(f)) ?? '';
    // The formatter block and what it sets (zod: spaces, lineWidth 120), cited at its line.
    const settings = ['indentStyle', 'indentWidth', 'lineWidth', 'quoteStyle'].flatMap((k) => {
      const m = new RegExp(`"${k}"\\s*:\\s*("?[\\w-]+"?)`).exec(text);
      return m ? [`${k}: ${m[1].replace(/"/g, '')}`] : [];
    });
    const at = /"formatter"\s*:/.test(text) ? lineOf(text, /"formatter"\s*:/) : 1;
    out.push({
      tool: 'Biome',
      families: ['jsts'],
      sources: [`${f}:${at}`],
      settings,
      command: command(/\bbiome\b/)?.command ?? 'npx biome format --write .',
    });
  }
  for (const f of top(/(^|\/)\.?dprint\.jsonc?$/)) {
    out.push({ tool: 'dprint', families: ['jsts'], sources: [`${f}:1`], settings: [], command: 'dprint fmt' });
  }
  // JVM: Spotless / ktlint / ktfmt in the build, with .editorconfig settings.
  // Convention plugins (build-logic, buildSrc) apply it to the modules; the build of build-logic itself does not count.
  const conventions = ctx.listing.filter((f) =>
    /^(build-logic|buildSrc|gradle\/plugins)\/.*\.gradle\.kts$/.test(f)
    && !/(^|\/)(build|settings)\.gradle\.kts$/.test(f)
  );
  const gradle = [
    ...conventions,
    ...ctx.listing.filter((f) =>
      /(^|\/)build\.gradle(\.kts)?$/.test(f) && f.split('/').length <= 2 && !/^(build-logic|buildSrc)\//.test(f)
    ),
  ];
  for (const g of gradle) {
    const text = (await ctx.read(g)) ?? '';
    // Declared with `apply false` it is applied elsewhere.
    if (!/spotless|ktlint|ktfmt/i.test(text.replace(/^.*\bapply\s+false.*$/gm, ''))) continue;
    // Spotless runs the formatters it names (`googleJavaFormat(…)` is google-java-format).
    const formats = [
      ['google-java-format', /googleJavaFormat|google-java-format/],
      ['palantir-java-format', /palantirJavaFormat|palantir-java-format/],
      ['ktlint', /ktlint/i],
      ['ktfmt', /ktfmt/i],
    ].filter(([, re]) => (re as RegExp).test(text)).map(([n]) => n as string);
    const tools = /spotless/i.test(text)
      ? `Spotless${formats.length ? ` with ${formats.join(' and ')}` : ''}`
      : formats.join(' and ');
    // The languages it is configured for (`java { }`, `kotlin { }`; `kotlinGradle` is the build scripts), else those
    // its formatters format: a Spotless block may format Kotlin only (its Java goes through Checkstyle).
    // Inside the Spotless block only: a `java { toolchain { … } }` elsewhere in the script formats nothing.
    const code = maskGradleComments(text);
    const open = /\b(?:spotless|SpotlessExtension>)\s*\{/.exec(code);
    const block = open
      ? code.slice(open.index, new Blocks(code).closeAt(open.index + open[0].length - 1) ?? code.length)
      : '';
    const sections = (['java', 'kotlin'] as const).filter((l) => new RegExp(`\\b${l}\\s*\\{`).test(block));
    const byFormatter = (['java', 'kotlin'] as const).filter((l) =>
      formats.some((x) => (l === 'java' ? /java-format/ : /ktlint|ktfmt/).test(x))
    );
    const families = sections.length ? sections : byFormatter.length ? byFormatter : (['kotlin', 'java'] as const);
    const editor = await jvmEditorSettings(ctx);
    out.push({
      tool: tools,
      families: [...families],
      sources: [
        `${g}:${
          /\b(ktlint|ktfmt|googleJavaFormat|palantirJavaFormat)\s*\(/.test(text)
            ? lineOf(text, /\b(ktlint|ktfmt|googleJavaFormat|palantirJavaFormat)\s*\(/)
            : lineOf(text, /spotless|ktlint|ktfmt/i)
        }`,
        ...(editor ? [editor.source] : []),
      ],
      settings: editor?.settings ?? [],
      command: /spotless/i.test(text) ? `${ctx.has('gradlew') ? './gradlew' : 'gradle'} spotlessApply` : undefined,
    });
    break;
  }
  // Checkstyle checks Java's layout where no formatter does (google_checks.xml): no
  // card of its own, but Java is not "kept by hand to .editorconfig" either.
  if (!out.some((f) => f.families.includes('java'))) {
    for (const g of gradle) {
      const text = (await ctx.read(g)) ?? '';
      if (
        /\bid\(\s*["']checkstyle["']\s*\)|\bplugins\.apply\(\s*["']checkstyle["']|apply\s+plugin:\s*["']checkstyle["']|^\s*checkstyle\s*\{/m
          .test(text)
      ) {
        out.push({
          tool: 'Checkstyle',
          families: ['java'],
          sources: [`${g}:${lineOf(text, /checkstyle/)}`],
          settings: [],
          silent: true,
        });
        break;
      }
    }
  }
  // Maven: the Spotless plugin in a parent or top-level pom (google-java-format, checked by `mvn verify`).
  if (!out.some((f) => f.families.includes('java'))) {
    for (const pom of ctx.listing.filter((f) => /(^|\/)pom\.xml$/.test(f) && f.split('/').length <= 2)) {
      const text = (await ctx.read(pom)) ?? '';
      if (!/<artifactId>\s*spotless-maven-plugin\s*<\/artifactId>/.test(text)) continue;
      const tools = [
        'Spotless',
        ...(/<googleJavaFormat\b/.test(text)
          ? ['google-java-format']
          : /<palantirJavaFormat\b/.test(text)
          ? ['palantir-java-format']
          : []),
      ];
      const editor = await jvmEditorSettings(ctx);
      out.push({
        tool: tools.join(' with '),
        families: ['java', 'kotlin'],
        sources: [`${pom}:${lineOf(text, /spotless-maven-plugin/)}`, ...(editor ? [editor.source] : [])],
        settings: editor?.settings ?? [],
        command: `${ctx.has('mvnw') ? './mvnw' : 'mvn'} spotless:apply`,
      });
      break;
    }
  }
  for (const f of top(/(^|\/)\.clang-format$/)) {
    const text = (await ctx.read(f)) ?? '';
    out.push({
      tool: 'clang-format',
      families: ['objc'],
      sources: [`${f}:1`],
      settings: text.split('\n').filter((l) => /^(BasedOnStyle|IndentWidth|ColumnLimit)\s*:/.test(l)).map((l) =>
        l.trim()
      ),
      command: 'clang-format -i',
    });
  }
  // An .editorconfig alone still says how to indent, for the languages no formatter above covers: each
  // language from the sections that apply to its files (a `[*.yml]` section says nothing of code).
  const editor = await editorConfig(ctx);
  if (editor) {
    const covered = new Set(out.flatMap((f) => f.families));
    const groups = new Map<string, { families: Family[]; source: string; settings: string[] }>();
    for (const family of EDITORCONFIG_FAMILIES.filter((f) => !covered.has(f))) {
      const found = editorSettings(editor, family);
      if (!found) continue;
      const key = found.settings.join('\n');
      if (!groups.has(key)) groups.set(key, { families: [], ...found });
      groups.get(key)!.families.push(family);
    }
    for (const g of groups.values()) {
      out.push({ tool: '.editorconfig', families: g.families, sources: [g.source], settings: g.settings });
    }
  }
  for (const f of out) {
    const by = enforcement(f, scripts);
    if (
      by?.where === 'CI' && !by.checks
      && /\buses:\s*autofix-ci\/action\b/.test((await ctx.read(by.source.replace(/:\d+$/, ''))) ?? '')
    ) by.autofix = true;
    if (by) f.enforcedBy = by;
  }
  return out;
}

/** The value of a top-level key of a JSON text, or undefined (also when the text is not JSON). */
function topLevelKey(json: string, key: string): unknown {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)[key]
      : undefined;
  } catch {
    return undefined;
  }
}

/** `key = value` settings of a TOML formatter configuration (rustfmt). */
function tomlSettings(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w-]+\s*=/.test(l) && !/^edition\b/.test(l))
    .slice(0, 4);
}

const EDITORCONFIG_FAMILIES: Family[] = ['kotlin', 'java', 'swift', 'objc', 'jsts', 'python', 'rust', 'go'];
const INDENT_KEYS = /^\s*(indent_size|indent_style|max_line_length)\s*=\s*(.*?)\s*$/;

interface EditorSection {
  glob: string;
  /** key → its value and 1-based line. */
  settings: Map<string, { value: string; line: number }>;
}

/** What .editorconfig sets for Kotlin files, else for Java files, beside a JVM formatter. */
async function jvmEditorSettings(ctx: AnalysisContext) {
  const sections = await editorConfig(ctx);
  return sections && (editorSettings(sections, 'kotlin') ?? editorSettings(sections, 'java'));
}

/** The sections of .editorconfig with their indentation settings, in file order. */
async function editorConfig(ctx: AnalysisContext): Promise<EditorSection[] | undefined> {
  if (!ctx.has('.editorconfig')) return undefined;
  const lines = ((await ctx.read('.editorconfig')) ?? '').split('\n');
  const sections: EditorSection[] = [];
  lines.forEach((l, i) => {
    const header = /^\s*\[(.+)\]\s*$/.exec(l);
    if (header) sections.push({ glob: header[1], settings: new Map() });
    const m = INDENT_KEYS.exec(l);
    if (m && sections.length) sections[sections.length - 1].settings.set(m[1], { value: m[2], line: i + 1 });
  });
  return sections;
}

/**
 * What .editorconfig sets for a family's files: the sections whose glob matches a file name with one of
 * its extensions (`[*]`, `[*.{js,ts}]`), a later section overriding an earlier one, as editors apply them.
 * Sections for a path (with a `/`) cover part of the tree only and are left out.
 */
function editorSettings(sections: EditorSection[], family: Family): { source: string; settings: string[] } | undefined {
  const languages = Object.keys(FAMILY_LANGUAGES).filter((l) => FAMILY_LANGUAGES[l] === family);
  const names = extensionsFor(languages).map((ext) => `file${ext}`);
  const applied = new Map<string, { value: string; line: number }>();
  for (const s of sections) {
    if (s.glob.includes('/')) continue;
    const matches = picomatch(s.glob.replace(/^\*\*/, '*'), { dot: true });
    if (!names.some((n) => matches(n))) continue;
    for (const [k, v] of s.settings) applied.set(k, v);
  }
  if (!applied.has('indent_style') && !applied.has('indent_size')) return undefined;
  const order = ['indent_style', 'indent_size', 'max_line_length'];
  const settings = order.filter((k) => applied.has(k)).map((k) => `${k} = ${applied.get(k)!.value}`);
  const first = Math.min(...[...applied.values()].map((v) => v.line));
  return { source: `.editorconfig:${first}`, settings };
}

function indentation(lines: string[]): { style: string; line: number } | undefined {
  for (let i = 0; i < lines.length && i < 400; i++) {
    const m = /^([ \t]+)\S/.exec(lines[i]);
    if (!m || lines[i].trimStart().startsWith('*')) continue;
    if (m[1].startsWith('\t')) return { style: 'tabs', line: i + 1 };
    const n = m[1].length;
    if (n === 2 || n === 4 || n === 3 || n === 8) return { style: `${n === 8 ? 4 : n}-space`, line: i + 1 };
  }
  return undefined;
}
