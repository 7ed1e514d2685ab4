// `autosnippet guard [paths…]`: the guard for CI, with ESLint's exit codes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { guardEngine } from '../core/tools/adapters';
import { jsonReport, sarifReport, textReport, type ReportFormat } from '../core/tools/adapters';
import { isAutoSnippetError } from '../core/kernel/errors';
import type { Workspace } from '../core/workspace';
import { parse, UsageError, wholeNumber } from './args';

export const GUARD_USAGE = `Usage: autosnippet guard [paths…] [options]

Checks files against the project's guard rules (.autosnippet/guard/*.json, recipes) and the built-in
packs. Folders are walked respecting .gitignore and the guard excludes; default: the whole workspace.

Options:
  -f, --format text|json|sarif   report format (default: text); sarif is SARIF 2.1.0 for code scanning
  --max-warnings N               fail when there are more than N warnings (default: -1, no limit)
  -o, --output-file FILE         write the report to FILE instead of stdout
  --quiet                        report errors only
  -h, --help                     this help

Exit codes: 0 no errors and at most N warnings; 1 errors, or more than N warnings;
            2 usage error, configuration error (an invalid or unsafe rule), or internal error.
`;

interface GuardArgs {
  paths: string[];
  format: ReportFormat;
  maxWarnings: number;
  outputFile?: string;
  quiet: boolean;
  help: boolean;
}

export function parseGuardArgs(args: string[]): GuardArgs {
  const { values, positionals } = parse(args, {
    help: { type: 'boolean', short: 'h' },
    format: { type: 'string', short: 'f' },
    'max-warnings': { type: 'string' },
    'output-file': { type: 'string', short: 'o' },
    quiet: { type: 'boolean' },
  });
  const format = (values.format as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'sarif') throw new UsageError(`--format must be text, json or sarif (got "${format}")`);
  return {
    paths: positionals,
    format,
    maxWarnings: wholeNumber(values['max-warnings'] as string | undefined, '--max-warnings (-1 for no limit)', -1) ?? -1,
    outputFile: values['output-file'] as string | undefined,
    quiet: values.quiet === true,
    help: values.help === true,
  };
}

export async function guardCommand(args: string[], ws: () => Promise<Workspace>, out: { stdout(s: string): void; stderr(s: string): void }): Promise<number> {
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
    const problems = await engine.problems();
    if (problems.length) {
      for (const p of problems) out.stderr(`autosnippet guard: configuration error: ${p.message}${p.hint ? `\n  ${p.hint}` : ''}\n`);
      return 2;
    }
    const scan = await engine.scan({ paths: opts.paths.map((p) => path.resolve(p)) });
    if (opts.quiet) {
      scan.violations = scan.violations.filter((v) => v.severity === 'error');
      scan.counts = { error: scan.counts.error, warning: 0, info: 0, hint: 0 };
    }
    const rules = (await engine.rules()).map((s) => s.rule);
    const report = opts.format === 'json' ? jsonReport(scan) : opts.format === 'sarif' ? sarifReport(scan, rules, w.version) : textReport(scan);
    if (opts.outputFile) writeFileSync(path.resolve(opts.outputFile), report);
    else out.stdout(report);
    for (const s of scan.skipped) if (s.reason === 'not found') out.stderr(`autosnippet guard: ${s.path}: not found\n`);
    const tooManyWarnings = opts.maxWarnings >= 0 && scan.counts.warning > opts.maxWarnings;
    if (tooManyWarnings) out.stderr(`autosnippet guard: ${scan.counts.warning} warnings, more than --max-warnings ${opts.maxWarnings}\n`);
    return scan.counts.error > 0 || tooManyWarnings ? 1 : 0;
  } catch (e) {
    out.stderr(`autosnippet guard: ${isAutoSnippetError(e) ? `${e.code}: ${e.message}${e.hint ? `\n  ${e.hint}` : ''}` : (e as Error).stack ?? String(e)}\n`);
    return 2;
  }
}
