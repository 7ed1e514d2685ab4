// `autosnippet guard [paths…]`: the guard for CI, with ESLint's exit codes.
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCatalog } from '../core/catalog';
import {
  guardEngine,
  guardLocale,
  jsonReport,
  type ReportFormat,
  sarifReport,
  textReport,
} from '../core/catalog/adapters';
import { markGuardFindingReviewed, writeGuardBaseline } from '../core/catalog/guard';
import { isAutoSnippetError } from '../core/ground/kernel/errors';
import type { Workspace } from '../core/ground/workspace';
import { parse, UsageError, wholeNumber } from './args';

export const GUARD_USAGE = `Usage: autosnippet guard [paths…] [options]

Checks files against the project's guard rules (.autosnippet/guard/*.json, recipes) and the built-in
packs. Folders are walked respecting .gitignore and the guard excludes; default: the whole workspace.

Options:
  -f, --format text|json|sarif   report format (default: text); sarif is SARIF 2.1.0 for code scanning
  --max-warnings N               fail when there are more than N warnings (default: -1, no limit)
  -o, --output-file FILE         write the report to FILE instead of stdout
  --quiet                        report errors only
  --baseline write               record today's findings in .autosnippet/guard/baseline.json (commit it);
                                 with paths, only their entries are replaced
  --baseline ignore              report every finding, as if there were no baseline
  --review FILE:LINE --rule ID --reason TEXT
                                 mark one finding reviewed: the code is intended, for that reason
                                 (kept in the baseline file; later runs do not report it)
  --locale LANG                  language of the built-in rules' messages: en or zh-cn
                                 (default: from LC_ALL, LC_MESSAGES or LANG)
  -h, --help                     this help

With a baseline (the default when .autosnippet/guard/baseline.json exists), only findings that are not
in it are reported and count for the exit code; SARIF marks each result new, unchanged or absent.

Relative paths are read from the current folder when it is inside the workspace, otherwise from the
workspace folder (-w DIR); a path that does not exist is a usage error.

Exit codes: 0 no errors and at most N warnings; 1 errors, or more than N warnings;
            2 usage error (a bad option, a path that does not exist), configuration error (an
            invalid or unsafe rule, or one that fails its own examples: the other rules still run
            and their findings are reported), or internal error.

JSON report: \`counts\` are the findings that count for the exit code (new ones, with a baseline);
\`baselinedCounts\` those the baseline holds (reviewed included), \`totalCounts\` both.
`;

interface GuardArgs {
  paths: string[];
  format: ReportFormat;
  maxWarnings: number;
  outputFile?: string;
  quiet: boolean;
  help: boolean;
  baseline: 'use' | 'ignore' | 'write';
  review?: { path: string; line: number; rule: string; reason: string };
  locale?: string;
}

export function parseGuardArgs(args: string[]): GuardArgs {
  const { values, positionals } = parse(args, {
    help: { type: 'boolean', short: 'h' },
    format: { type: 'string', short: 'f' },
    'max-warnings': { type: 'string' },
    'output-file': { type: 'string', short: 'o' },
    quiet: { type: 'boolean' },
    baseline: { type: 'string' },
    review: { type: 'string' },
    rule: { type: 'string' },
    reason: { type: 'string' },
    locale: { type: 'string' },
  });
  const format = (values.format as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'sarif') {
    throw new UsageError(`--format must be text, json or sarif (got "${format}")`);
  }
  const baseline = (values.baseline as string | undefined) ?? 'use';
  if (baseline !== 'write' && baseline !== 'ignore' && baseline !== 'use') {
    throw new UsageError(`--baseline takes write, use or ignore (got "${baseline}")`);
  }
  let review: GuardArgs['review'];
  if (values.review !== undefined || values.rule !== undefined || values.reason !== undefined) {
    const at = /^(.+):(\d+)$/.exec((values.review as string | undefined) ?? '');
    if (!at) throw new UsageError('--review takes FILE:LINE (the line a finding starts on)');
    if (!values.rule) throw new UsageError("--review needs --rule ID (the finding's rule)");
    if (!(values.reason as string | undefined)?.trim()) {
      throw new UsageError('--review needs --reason TEXT (why the code is right as it is)');
    }
    if (positionals.length || values.baseline !== undefined) {
      throw new UsageError('--review marks one finding: give no paths and no --baseline with it');
    }
    review = { path: at[1], line: Number(at[2]), rule: values.rule as string, reason: values.reason as string };
  }
  return {
    ...(review ? { review } : {}),
    paths: positionals,
    format,
    maxWarnings: wholeNumber(values['max-warnings'] as string | undefined, '--max-warnings (-1 for no limit)', -1)
      ?? -1,
    outputFile: values['output-file'] as string | undefined,
    quiet: values.quiet === true,
    help: values.help === true,
    baseline,
    ...(values.locale !== undefined ? { locale: values.locale as string } : {}),
  };
}

/**
 * The paths a person typed, as ESLint reads them: relative to the current folder when it is inside
 * the workspace (`cd src && autosnippet guard lib`), otherwise relative to the workspace
 * (`autosnippet -w repo guard src` from anywhere). Absolute paths stay as they are.
 */
export function resolveGuardPaths(paths: string[], root: string, cwd: string): string[] {
  const rel = path.relative(root, cwd);
  const cwdInside = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  return paths.map((p) => path.resolve(cwdInside ? cwd : root, p));
}

export async function guardCommand(
  args: string[],
  ws: () => Promise<Workspace>,
  out: { stdout(s: string): void; stderr(s: string): void },
  cwd = process.cwd(),
): Promise<number> {
  let opts: GuardArgs;
  try {
    opts = parseGuardArgs(args);
  } catch (e) {
    out.stderr(`autosnippet guard: ${(e as Error).message}\n\n${GUARD_USAGE}`);
    return 2;
  }
  if (opts.help) {
    out.stdout(GUARD_USAGE);
    return 0;
  }
  try {
    const w = await ws();
    const engine = guardEngine(w);
    // A CI run has the machine to itself: a scan thread per core (the editor leaves one free).
    engine.pool.resize(os.availableParallelism());
    engine.locale = guardLocale(opts.locale ?? (process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG));
    const paths = resolveGuardPaths(opts.paths, w.root, cwd);
    const missing = opts.paths.filter((_p, i) => !existsSync(paths[i]));
    if (missing.length) {
      for (const p of missing) {
        out.stderr(`autosnippet guard: no file or folder "${p}" (looked for ${paths[opts.paths.indexOf(p)]})\n`);
      }
      return 2;
    }
    if (opts.review) {
      const r = opts.review;
      const file = resolveGuardPaths([r.path], w.root, cwd)[0];
      const marked = await createCatalog().call(
        w,
        markGuardFindingReviewed,
        { path: file, line: r.line, ruleId: r.rule, reason: r.reason },
        { actor: 'human', channel: 'cli' },
      );
      if (!marked.ok) {
        out.stderr(
          `autosnippet guard: ${marked.error.code}: ${marked.error.message}${
            marked.error.hint ? `\n  ${marked.error.hint}` : ''
          }\n`,
        );
        return 2;
      }
      const m = marked.data;
      out.stdout(
        `${
          m.replaced ? 'Replaced the reason of' : 'Marked'
        } ${m.ruleId} at ${m.path}:${m.line} reviewed in ${m.file}; commit it.\n`,
      );
      return 0;
    }
    if (opts.baseline === 'write') {
      // A write: through the catalog, so the Gateway audits it (and creates .autosnippet/ if need be).
      const written = await createCatalog().call(w, writeGuardBaseline, opts.paths.length ? { paths } : {}, {
        actor: 'human',
        channel: 'cli',
      });
      if (!written.ok) {
        out.stderr(
          `autosnippet guard: ${written.error.code}: ${written.error.message}${
            written.error.hint ? `\n  ${written.error.hint}` : ''
          }\n`,
        );
        return 2;
      }
      const { findings, file } = written.data;
      out.stdout(
        `Recorded ${findings} finding${
          findings === 1 ? '' : 's'
        } in ${file}; commit it. Later runs report only new findings.\n`,
      );
      if (written.notice) out.stderr(`${written.notice}\n`);
      return 0;
    }
    const scan = await engine.scan({ paths, baseline: opts.baseline });
    // A refused rule is a configuration error (exit 2), but the rules that loaded still report: a
    // typo in one rule must not hide every finding of the others.
    for (const p of scan.problems) {
      out.stderr(`autosnippet guard: configuration error: ${p.message}${p.hint ? `\n  ${p.hint}` : ''}\n`);
    }
    if (opts.quiet) {
      scan.violations = scan.violations.filter((v) => v.severity === 'error');
      scan.counts = { error: scan.counts.error, warning: 0, info: 0, hint: 0 };
      scan.newCounts = { error: scan.newCounts.error, warning: 0, info: 0, hint: 0 };
    }
    const rules = (await engine.rules()).map((s) => s.rule);
    const report = opts.format === 'json'
      ? jsonReport(scan)
      : opts.format === 'sarif'
      ? sarifReport(scan, rules, w.version)
      : textReport(scan);
    if (opts.outputFile) writeFileSync(path.resolve(opts.outputFile), report);
    else out.stdout(report);
    const counts = scan.newCounts;
    const tooManyWarnings = opts.maxWarnings >= 0 && counts.warning > opts.maxWarnings;
    if (tooManyWarnings) {
      out.stderr(
        `autosnippet guard: ${counts.warning} ${
          scan.baseline ? 'new ' : ''
        }warnings, more than --max-warnings ${opts.maxWarnings}\n`,
      );
    }
    if (scan.problems.length) return 2;
    return counts.error > 0 || tooManyWarnings ? 1 : 0;
  } catch (e) {
    out.stderr(
      `autosnippet guard: ${
        isAutoSnippetError(e)
          ? `${e.code}: ${e.message}${e.hint ? `\n  ${e.hint}` : ''}`
          : (e as Error).stack ?? String(e)
      }\n`,
    );
    return 2;
  }
}
