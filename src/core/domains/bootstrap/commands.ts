// The commands a project runs, as a person would type them: package.json scripts, Makefile
// targets, scripts/ files, hook configurations and CI steps (GitHub Actions, GitLab CI, CircleCI;
// with the CI file's variables resolved).
import { parse as parseJsonc } from 'jsonc-parser';
import { parseYaml } from '../../ground/files';
import { escapeRegExp } from '../../ground/kernel/names';
import { lookup } from '../../ground/kernel/tables';
import { CHECK_TOOL_PATTERN } from './tool-knowledge';
import type { AnalysisContext } from './types';

export interface ProjectCommand {
  /** What a person types. */
  command: string;
  /** What it runs (`name: script` for a package script, the command itself otherwise). */
  text: string;
  /** `path:line` of the line that holds it. */
  source: string;
  /** For a CI step: the workflow job it belongs to, and whether it is started in the background (`… &`). */
  job?: string;
  background?: boolean;
  /** For a CI step: the values its job's matrix runs it over, by key (keys with two values or more). */
  matrix?: Record<string, string[]>;
  /** For a matrix given as a list of configurations (`include:` only, no key varied): how many. */
  configurations?: number;
  /**
   * Where it comes from: a package.json script, a Makefile target (or a Taskfile task), a line of a script file, a hook
   * configuration (a pre-commit hook's id names a tool, it is not a command), a CI step, or a line of an
   * Xcode Run Script build phase (run by every build of its target).
   */
  origin: 'package' | 'make' | 'script' | 'hook' | 'ci' | 'build';
}

/** The tasks of a go-task Taskfile, each command of a task as `task NAME` (a call of another task, `task: other`, as that task). */
export function taskfileCommands(file: string, text: string): ProjectCommand[] {
  const parsed = parseYaml(text, { subject: file });
  const tasks = parsed.ok && parsed.value && typeof parsed.value === 'object'
    ? (parsed.value as { tasks?: unknown }).tasks
    : undefined;
  if (!tasks || typeof tasks !== 'object') return [];
  const lines = text.split('\n');
  const out: ProjectCommand[] = [];
  for (const [name, task] of Object.entries(tasks as Record<string, unknown>)) {
    // A task is its list of commands, one command, or an object with `cmds`.
    const cmds: unknown[] = typeof task === 'string'
      ? [task]
      : Array.isArray(task)
      ? task
      : Array.isArray((task as { cmds?: unknown })?.cmds)
      ? (task as { cmds: unknown[] }).cmds
      : [];
    const start = Math.max(0, lines.findIndex((l) => new RegExp(`^\\s+['"]?${escapeRegExp(name)}['"]?\\s*:`).test(l)));
    for (const c of cmds) {
      const cmd = typeof c === 'string'
        ? c
        : typeof (c as { cmd?: unknown })?.cmd === 'string'
        ? (c as { cmd: string }).cmd
        : typeof (c as { task?: unknown })?.task === 'string'
        ? `task ${(c as { task: string }).task}`
        : undefined;
      if (!cmd?.trim()) continue;
      const first = cmd.trim().split('\n')[0];
      const at = lines.findIndex((l, i) => i > start && l.includes(first));
      out.push({
        command: `task ${name}`,
        text: `${name}: ${cmd.trim()}`,
        source: `${file}:${(at >= 0 ? at : start) + 1}`,
        origin: 'make',
      });
    }
  }
  return out;
}

/** Every command the project runs, each with the line that holds it. */
export async function commandSources(ctx: AnalysisContext): Promise<ProjectCommand[]> {
  const out: ProjectCommand[] = [];
  if (ctx.has('package.json')) {
    const text = (await ctx.read('package.json')) ?? '';
    const json = parseJsonc(text, [], { allowTrailingComma: true }) as {
      scripts?: Record<string, string>;
      packageManager?: string;
    } | undefined;
    const pm = json?.packageManager?.startsWith('pnpm') || ctx.has('pnpm-lock.yaml') || ctx.has('pnpm-workspace.yaml')
      ? 'pnpm'
      : json?.packageManager?.startsWith('yarn') || ctx.has('yarn.lock')
      ? 'yarn'
      : json?.packageManager?.startsWith('bun') || ctx.has('bun.lock') || ctx.has('bun.lockb')
      ? 'bun run'
      : 'npm run';
    const lines = text.split('\n');
    for (const [name, cmd] of Object.entries(json?.scripts ?? {})) {
      if (typeof cmd !== 'string') continue;
      const at = lines.findIndex((l) => l.includes(`"${name}"`));
      out.push({
        command: `${pm} ${name}`,
        text: `${name}: ${cmd}`,
        source: `package.json:${at + 1}`,
        origin: 'package',
      });
    }
  }
  for (const mk of ctx.listing.filter((f) => /^(Makefile|makefile|GNUmakefile)$/.test(f))) {
    const lines = ((await ctx.read(mk)) ?? '').split('\n');
    let target: string | undefined;
    lines.forEach((l, i) => {
      const t = /^([\w.-]+)\s*:(?!=)(.*)$/.exec(l);
      if (t) {
        target = t[1];
        // A target made of others (`test: test-js test-go`) runs them.
        const parts = t[2].replace(/#.*$/, '').trim().split(/\s+/).filter((p) => /^[\w.-]+$/.test(p));
        if (parts.length && !target.startsWith('.')) {
          out.push({
            command: `make ${target}`,
            text: `${target}: ${parts.map((p) => `make ${p}`).join(' && ')}`,
            source: `${mk}:${i + 1}`,
            origin: 'make',
          });
        }
      } else if (target && /^\t/.test(l) && !target.startsWith('.')) {
        out.push({
          command: `make ${target}`,
          text: `${target}: ${l.trim()}`,
          source: `${mk}:${i + 1}`,
          origin: 'make',
        });
      }
    });
  }
  // go-task's Taskfile: `task NAME` runs its `cmds` (`task lint`, `task test`).
  for (const tf of ctx.listing.filter((f) => /^[Tt]askfile\.ya?ml$/.test(f))) {
    out.push(...taskfileCommands(tf, (await ctx.read(tf)) ?? ''));
  }
  // Shell scripts and git hooks run by hand or on commit: each line is a command. (A script in a
  // programming language is code, not commands: an esbuild config's `format: "esm"` runs no formatter.)
  for (const s of ctx.listing.filter((f) =>
    (/^scripts\/[\w.-]+$/.test(f)
      && !/\.(md|txt|json|ya?ml|[cm]?[jt]sx?|py|rb|go|rs|swift|kts?|java|pl|php|lua)$/.test(f))
    || /^\.husky\/[\w.-]+$/.test(f)
  )) {
    const lines = ((await ctx.read(s)) ?? '').split('\n');
    lines.forEach((l, i) => {
      if (l.trim() && !l.trim().startsWith('#')) {
        out.push({ command: s, text: l.trim(), source: `${s}:${i + 1}`, origin: 'script' });
      }
    });
  }
  // pre-commit hooks: the hook's id names the tool it runs (`ruff-format`, `rustfmt`, `swiftformat`).
  for (const f of ctx.listing.filter((x) => /^(\.pre-commit-config\.ya?ml|lefthook\.ya?ml)$/.test(x))) {
    const lines = ((await ctx.read(f)) ?? '').split('\n');
    lines.forEach((l, i) => {
      const m = /^\s*(?:-\s*)?(?:id|run|entry):\s*(.+?)\s*$/.exec(l);
      if (m) {
        out.push({
          command: m[1].replace(/^['"]|['"]$/g, ''),
          text: m[1].replace(/-/g, ' '),
          source: `${f}:${i + 1}`,
          origin: 'hook',
        });
      }
    });
  }
  for (const wf of ctx.listing.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f)).sort()) {
    out.push(...workflowCommands(wf, (await ctx.read(wf)) ?? ''));
  }
  if (ctx.has('.gitlab-ci.yml')) {
    out.push(...gitlabCommands('.gitlab-ci.yml', (await ctx.read('.gitlab-ci.yml')) ?? ''));
  }
  for (const f of ['.circleci/config.yml', '.circleci/config.yaml']) {
    if (ctx.has(f)) out.push(...circleCommands(f, (await ctx.read(f)) ?? ''));
  }
  for (const f of ctx.listing.filter((x) => /^(\.builds\/[^/]+|\.build)\.ya?ml$/.test(x)).sort()) {
    out.push(...sourcehutCommands(f, (await ctx.read(f)) ?? ''));
  }
  // Xcode Run Script phases: each line of a phase's script runs on every build of its target (a `swiftlint` phase).
  for (const f of ctx.listing.filter((x) => /(^|\/)[^/]+\.xcodeproj\/project\.pbxproj$/.test(x)).slice(0, 4)) {
    out.push(...buildPhaseCommands(f, (await ctx.read(f)) ?? ''));
  }
  // Danger, when CI runs it: the tools its Dangerfile calls run in that job (`SwiftLint.lint(…)` under `danger-swift ci`).
  const danger = out.find((c) =>
    c.job && /\bdanger(?:-swift|-kotlin)?\s+ci\b|\bbundle\s+exec\s+danger\b|\bnpx\s+danger\s+ci\b/.test(c.text)
  );
  for (const f of danger ? ctx.listing.filter((x) => /^Dangerfile(\.swift|\.js|\.ts|\.kts)?$/.test(x)) : []) {
    ((await ctx.read(f)) ?? '').split('\n').forEach((l, i) => {
      if (/\bSwiftLint\.lint\s*\(|\bswiftlint\.lint_files\b/.test(l)) {
        out.push({
          command: 'swiftlint',
          text: 'swiftlint lint',
          source: `${f}:${i + 1}`,
          job: danger!.job,
          origin: 'ci',
        });
      }
    });
  }
  return out;
}

/** The commands of an Xcode project's Run Script build phases (`shellScript = "…";`), each with the phase's line. */
export function buildPhaseCommands(file: string, text: string): ProjectCommand[] {
  const out: ProjectCommand[] = [];
  text.split('\n').forEach((l, i) => {
    const m = /^\s*shellScript\s*=\s*"((?:[^"\\]|\\.)*)";/.exec(l);
    if (!m) return;
    const script = m[1].replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(["\\])/g, '$1');
    for (const line of script.split('\n').map((x) => x.trim())) {
      // Shell control and messages run nothing of the project's.
      if (!line || line.startsWith('#') || /^(?:if|then|else|elif|fi|for|do|done|echo|exit|export|set)\b/.test(line)) {
        continue;
      }
      out.push({ command: line, text: line, source: `${file}:${i + 1}`, origin: 'build' });
    }
  });
  return out;
}

/** A sourcehut build manifest (`.build.yml`, `.builds/*.yml`): each task under `tasks:` is a job, each line of its script a step. */
export function sourcehutCommands(file: string, text: string): ProjectCommand[] {
  const out: ProjectCommand[] = [];
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^tasks:\s*$/.test(l));
  if (start < 0) return out;
  let job: string | undefined;
  let itemIndent = -1;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (/^\S/.test(l)) break; // the next top-level key
    const item = /^(\s*)-\s+([\w.-]+):\s*[|>]?-?\s*$/.exec(l);
    if (item) {
      [job, itemIndent] = [item[2], item[1].length];
      continue;
    }
    const step = l.trim();
    if (job && step && !step.startsWith('#') && l.length - l.trimStart().length > itemIndent) {
      out.push({ command: step, text: step, source: `${file}:${i + 1}`, job, origin: 'ci' });
    }
  }
  return out;
}

/** One CI job as a list of shell scripts, with the variables its shell sees. */
interface CiJob {
  id: string;
  env: Record<string, string>;
  matrix?: Record<string, string>;
  /** Every value of each key the job's matrix varies. */
  axes?: { values: Record<string, string[]>; configurations?: number };
  scripts: string[];
}

/** The commands of CI jobs: one per shell command of each script (multi-line blocks and `&&` chains split), each with its line. */
function jobCommands(file: string, text: string, jobs: readonly CiJob[]): ProjectCommand[] {
  const lines = text.split('\n');
  let cursor = 0;
  const out: ProjectCommand[] = [];
  for (const job of jobs) {
    for (const script of job.scripts) {
      // A command continued over lines (`\\` at the end) is one command, found by its first line
      // (not at the line before it, such as the `uv sync` before a `pytest` over five lines).
      for (const logical of script.split(/(?<!\\)\n/)) {
        const raw = logical.replace(/\\\n\s*/g, ' ');
        const first = logical.split(/\\\n/)[0].trim();
        // Scripts shared through templates were written above the job: look back when not found ahead.
        const ahead = findLine(lines, first, cursor);
        const at = ahead >= 0 ? ahead : findLine(lines, first, 0);
        if (at >= 0) cursor = at;
        for (const segment of splitChain(raw)) {
          const c = normalise(segment, job.env, job.matrix ?? {});
          if (c) {
            out.push({
              command: c.command,
              text: c.command,
              source: `${file}:${(at >= 0 ? at : cursor) + 1}`,
              job: `${file}#${job.id}`,
              origin: 'ci',
              ...(c.background ? { background: true } : {}),
              ...(job.axes && Object.keys(job.axes.values).length
                ? {
                  matrix: job.axes.values,
                  ...(job.axes.configurations ? { configurations: job.axes.configurations } : {}),
                }
                : {}),
            });
          }
        }
      }
    }
  }
  return out;
}

/** A YAML value that is a mapping, or undefined. */
function mapping(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A GitLab `script:` (a string or a list, nested lists from YAML anchors flattened). */
function scriptLines(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.flatMap(scriptLines) : [];
}

/** Top-level keys of `.gitlab-ci.yml` that are not jobs. */
const GITLAB_KEYWORDS = new Set([
  'default',
  'include',
  'stages',
  'variables',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
]);

/**
 * The commands of a GitLab CI file: each job's `before_script` (its own or the default one) and
 * `script`, with `$VAR` resolved from the file's and the job's `variables` and the first combination
 * of `parallel: matrix`. Hidden jobs (`.name`, templates) are left out.
 */
export function gitlabCommands(file: string, text: string): ProjectCommand[] {
  const parsed = parseYaml(text, { subject: file });
  const doc = parsed.ok ? mapping(parsed.value) : undefined;
  if (!doc) return [];
  const defaults = mapping(doc.default);
  const globalBefore = scriptLines(defaults?.before_script ?? doc.before_script);
  const jobs: CiJob[] = [];
  for (const [id, value] of Object.entries(doc)) {
    if (id.startsWith('.') || GITLAB_KEYWORDS.has(id) || !mapping(value)) continue;
    const job = extended(doc, id);
    if (job.script === undefined) continue;
    const parallel = mapping(job.parallel);
    const entry = Array.isArray(parallel?.matrix) ? mapping(parallel.matrix[0]) : undefined;
    // A matrix value is one value or a list of them.
    const combination = { ...scalars(entry), ...firstCombination(entry) };
    const env = { ...scalars(doc.variables), ...scalars(job.variables), ...combination };
    jobs.push({
      id,
      env,
      scripts: [
        ...(job.before_script !== undefined ? scriptLines(job.before_script) : globalBefore),
        ...scriptLines(job.script),
      ],
    });
  }
  return jobCommands(file, text, jobs);
}

/**
 * A GitLab job with what it `extends` merged in, as GitLab does: mappings deeply, anything else
 * replaced, the job's own keys last. Templates from other files (`include:`) are not known and add nothing.
 */
function extended(doc: Record<string, unknown>, id: string, depth = 0): Record<string, unknown> {
  const job = mapping(lookup(doc, id)) ?? {};
  if (depth > 10) return job;
  const parents = typeof job.extends === 'string'
    ? [job.extends]
    : Array.isArray(job.extends)
    ? job.extends.filter((e): e is string => typeof e === 'string')
    : [];
  return [...parents.map((p) => extended(doc, p, depth + 1)), job].reduce<Record<string, unknown>>(deepMerge, {});
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const [x, y] = [mapping(out[k]), mapping(v)];
    out[k] = x && y ? deepMerge(x, y) : v;
  }
  return out;
}

/** The commands of a CircleCI configuration: each job's `run` steps (`run: cmd` or `run: { command }`), with its `environment`. */
export function circleCommands(file: string, text: string): ProjectCommand[] {
  const parsed = parseYaml(text, { subject: file });
  const doc = parsed.ok ? mapping(parsed.value) : undefined;
  const jobs: CiJob[] = [];
  for (const [id, value] of Object.entries(mapping(doc?.jobs) ?? {})) {
    const job = mapping(value);
    if (!job || !Array.isArray(job.steps)) continue;
    const scripts = job.steps.flatMap((step) => {
      const run = mapping(step)?.run;
      const command = typeof run === 'string' ? run : mapping(run)?.command;
      return typeof command === 'string' ? [command] : [];
    });
    jobs.push({ id, env: scalars(job.environment), scripts });
  }
  return jobCommands(file, text, jobs);
}

interface Step {
  if?: unknown;
  run?: unknown;
  uses?: unknown;
  with?: { args?: unknown };
  env?: unknown;
  'working-directory'?: unknown;
}
interface Job {
  if?: unknown;
  env?: unknown;
  steps?: unknown;
  uses?: unknown;
  with?: unknown;
  strategy?: { matrix?: unknown };
  defaults?: { run?: { 'working-directory'?: unknown } };
}

/**
 * Whether a job or step can run at all: not `if: false` (a disabled Windows job), and not a
 * matrix value the matrix never takes (`if: matrix.api-level == 30` over [26, 34]).
 * Any other condition may hold.
 */
function canRun(condition: unknown, matrix: unknown): boolean {
  if (condition === false) return false;
  if (typeof condition !== 'string') return true;
  const expr = condition.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
  if (expr === 'false') return false;
  const m = /^matrix\.([\w-]+)\s*==\s*(?:'([^']*)'|"([^"]*)"|([\w.-]+))$/.exec(expr);
  const table = mapping(matrix);
  if (!m || !table) return true;
  const wanted = m[2] ?? m[3] ?? m[4];
  const include = Array.isArray(table.include) ? table.include.map(mapping) : [];
  const values = [...(Array.isArray(table[m[1]]) ? (table[m[1]] as unknown[]) : []), ...include.map((e) => e?.[m[1]])]
    .filter((v) => v !== undefined);
  return !values.length || values.some((v) => String(v) === wanted);
}

/** A step run inside a hidden folder works on a tool's own files (a `.semgrep` folder's rules), not on the project. */
const inToolFolder = (dir: unknown) => typeof dir === 'string' && /^(\.\/)?\.[^./]/.test(dir.trim());

/**
 * The commands of a GitHub Actions workflow, one per shell command of each `run:` step (multi-line
 * blocks and `&&` chains split), with `${{ env.X }}` and `${{ matrix.X }}` replaced by the values the
 * workflow sets (a matrix by its first combination), output pipes (`| xcpretty`) and `2>&1` removed.
 * A command that still depends on something only CI has (secrets, step outputs) is left out.
 */
export function workflowCommands(file: string, text: string): ProjectCommand[] {
  const parsed = parseYaml(text, { subject: file });
  const lines = text.split('\n');
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') {
    // A workflow that does not parse still shows its one-line steps; those that need CI's variables are left out.
    return lines.flatMap((l, i) => {
      const m = /^\s*(?:-\s*)?run:\s*(.+)$/.exec(l);
      const c = m && !/^[|>]/.test(m[1].trim()) ? normalise(m[1], {}, {}) : undefined;
      return c
        ? [{
          command: c.command,
          text: c.command,
          source: `${file}:${i + 1}`,
          job: `${file}#?`,
          origin: 'ci' as const,
          ...(c.background ? { background: true } : {}),
        }]
        : [];
    });
  }
  const doc = parsed.value as { on?: unknown; env?: unknown; jobs?: Record<string, Job> };
  if (!checksChanges(doc.on)) return [];
  const jobs: CiJob[] = [];
  for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
    if (!job || typeof job !== 'object' || !Array.isArray(job.steps) || !canRun(job.if, undefined)) continue;
    const matrix = firstCombination(job.strategy?.matrix);
    const axes = matrixAxes(job.strategy?.matrix);
    // Each step has its own env: one CiJob per step keeps them apart, under the job's id.
    for (const step of job.steps as Step[]) {
      if (
        inToolFolder(step?.['working-directory'] ?? job.defaults?.run?.['working-directory'])
        || !canRun(step?.if, job.strategy?.matrix)
      ) continue;
      if (step && typeof step.run === 'string') {
        jobs.push({
          id: jobId,
          env: { ...scalars(doc.env), ...scalars(job.env), ...scalars(step.env) },
          matrix,
          axes,
          scripts: [step.run],
        });
      }
    }
  }
  const out = jobCommands(file, text, jobs);
  // An action that runs a project tool stands for the tool's command (a lint job's golangci-lint-action).
  for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
    if (!job || typeof job !== 'object' || !Array.isArray(job.steps) || !canRun(job.if, undefined)) continue;
    for (const step of job.steps as Step[]) {
      if (!canRun(step?.if, job.strategy?.matrix)) continue;
      const uses = typeof step?.uses === 'string' ? step.uses : '';
      const tool = ACTION_COMMANDS.find(([re]) => re.test(uses));
      if (!tool) continue;
      const at = lines.findIndex((l) => l.includes(uses));
      const args = typeof step.with?.args === 'string' ? ` ${step.with.args}` : '';
      out.push({
        command: tool[1] + args,
        text: tool[1] + args,
        source: `${file}:${at + 1}`,
        job: `${file}#${jobId}`,
        origin: 'ci',
      });
    }
  }
  // A job that calls a shared workflow runs the tool its inputs name (a lint job calling a shared
  // lint workflow, given `golangci_path` and `golangci_version`).
  for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
    if (!job || typeof job !== 'object' || typeof job.uses !== 'string' || !canRun(job.if, undefined)) continue;
    const inputs = job.with && typeof job.with === 'object' ? Object.keys(job.with).join(' ') : '';
    const tool = REUSABLE_WORKFLOW_COMMANDS.find(([re]) => re.test(`${job.uses} ${inputs}`));
    if (!tool) continue;
    const at = lines.findIndex((l) => l.includes(job.uses as string));
    out.push({ command: tool[1], text: tool[1], source: `${file}:${at + 1}`, job: `${file}#${jobId}`, origin: 'ci' });
  }
  return out;
}

/** Shared (reusable) workflows that run a tool of the project, known by their path or the names of their inputs. */
const REUSABLE_WORKFLOW_COMMANDS: [RegExp, string][] = [
  [/golangci/, 'golangci-lint run'],
];

/**
 * Whether a workflow runs on the changes people make (a pull request, a push to a branch, a merge
 * queue), not only on a release tag, a published release, a schedule or by hand: a release
 * workflow that runs `cargo test --release` on tags checks nothing a change has to pass. Unknown triggers count.
 */
function checksChanges(on: unknown): boolean {
  if (on === undefined || on === null) return true;
  const events = typeof on === 'string'
    ? { [on]: null }
    : Array.isArray(on)
    ? Object.fromEntries(on.map((e) => [String(e), null]))
    : mapping(on);
  if (!events) return true;
  return Object.entries(events).some(([event, config]) => {
    if (event === 'push') return !(mapping(config)?.tags !== undefined && mapping(config)?.branches === undefined);
    return ![
      'release',
      'schedule',
      'workflow_dispatch',
      'repository_dispatch',
      'workflow_run',
      'create',
      'delete',
      'registry_package',
      'deployment',
      'issues',
      'issue_comment',
      'discussion',
      'label',
      'milestone',
      'page_build',
      'watch',
      'fork',
      'gollum',
      'public',
      'status',
      'check_run',
      'check_suite',
    ].includes(event);
  });
}

/** GitHub Actions that run a tool of the project, and the command each stands for. */
const ACTION_COMMANDS: [RegExp, string][] = [
  [/^golangci\/golangci-lint-action@/, 'golangci-lint run'],
];

function scalars(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v === null ? '' : String(v);
    }
  }
  return out;
}

/** The first combination of a build matrix: each list's first value, completed by the first `include` entry that agrees with it. */
function firstCombination(matrix: unknown): Record<string, string> {
  if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(matrix)) {
    if (k === 'include' || k === 'exclude') continue;
    const first = Array.isArray(v) ? v[0] : undefined;
    if (first === null || ['string', 'number', 'boolean'].includes(typeof first)) out[k] = String(first ?? '');
  }
  const include = (matrix as { include?: unknown }).include;
  if (Array.isArray(include)) {
    const entry = include.map(scalars).find((e) => Object.entries(e).every(([k, v]) => !(k in out) || out[k] === v));
    if (entry) Object.assign(out, entry);
  }
  return out;
}

/**
 * The keys a matrix varies (two values or more) with all their values, `include`-only keys left out
 * (go-build cache paths); a matrix that is only a list of configurations (`include:` alone)
 * by the values its entries take, and how many there are.
 */
function matrixAxes(matrix: unknown): { values: Record<string, string[]>; configurations?: number } {
  if (!matrix || typeof matrix !== 'object' || Array.isArray(matrix)) return { values: {} };
  const values: Record<string, string[]> = {};
  const scalar = (x: unknown) => x === null || ['string', 'number', 'boolean'].includes(typeof x);
  for (const [k, v] of Object.entries(matrix)) {
    if (k === 'include' || k === 'exclude' || !Array.isArray(v)) continue;
    const all = v.filter(scalar).map((x) => String(x ?? ''));
    if (all.length >= 2) values[k] = all;
  }
  const include = (matrix as { include?: unknown }).include;
  if (Object.keys(values).length || !Array.isArray(include) || include.length < 2) return { values };
  // A display name, a label or a cache key names a configuration; it is not something the run varies.
  for (const entry of include.map(mapping).filter((e): e is Record<string, unknown> => !!e)) {
    for (const [k, v] of Object.entries(entry)) {
      if (
        !/(^|[-_])(name|label|title|key|id)$/i.test(k) && scalar(v) && !(values[k] ??= []).includes(String(v ?? ''))
      ) values[k].push(String(v ?? ''));
    }
  }
  for (const k of Object.keys(values)) if (values[k].length < 2) delete values[k];
  return { values, configurations: include.length };
}

function findLine(lines: string[], wanted: string, from: number): number {
  if (!wanted) return -1;
  for (let i = from; i < lines.length; i++) if (lines[i].includes(wanted)) return i;
  return -1;
}

/** `a && b; c` → `a`, `b`, `c`, outside quotes. */
function splitChain(line: string): string[] {
  const out: string[] = [];
  let quote = '';
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '$' && line.startsWith('${{', i)) {
      // A CI expression (`${{ matrix.args || '' }}`) is one value, whatever operators it holds.
      const end = line.indexOf('}}', i);
      if (end >= 0) i = end + 1;
    } else if (ch === ';' || (ch === '&' && line[i + 1] === '&') || (ch === '|' && line[i + 1] === '|')) {
      out.push(line.slice(start, i));
      if (ch !== ';') i++;
      start = i + 1;
    } else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      out.push(line.slice(start, i));
      return out.filter((s) => s.trim());
    }
  }
  out.push(line.slice(start));
  return out.filter((s) => s.trim());
}

/** Pipes that only format the output: the command is what comes before them. */
const OUTPUT_FILTERS = /\s\|\s*(xcpretty|xcbeautify|tee|cat|grep|sed|awk|head|tail|tr|sort)\b.*$/;

function normalise(
  segment: string,
  env: Record<string, string>,
  matrix: Record<string, string>,
): { command: string; background: boolean } | undefined {
  let s = segment.trim();
  const background = /(^|[^&])&\s*$/.test(s);
  if (background) s = s.replace(/&\s*$/, '').trim();
  if (/^(set|echo|export|cd)\b/.test(s)) return undefined;
  s = s.replace(OUTPUT_FILTERS, '').replace(/\s*\d?>&\d\b/g, '');
  // Leading variable assignments and `env A=B` only tune the run, except the flags that turn Rust warnings into errors:
  // with them a warning fails CI (a docs job's `RUSTDOCFLAGS: -D warnings` for `cargo doc`), so they are typed too.
  const denied = (v: string | undefined) => v !== undefined && /(^|\s)(-D\s*\w|--deny\b)/.test(v);
  const kept = [...s.matchAll(/(?:^|\s)(RUSTFLAGS|RUSTDOCFLAGS)=("[^"]*"|'[^']*'|\S*)(?=\s)/g)].filter((m) =>
    denied(m[2].replace(/^["']|["']$/g, ''))
  ).map((m) => `${m[1]}=${m[2]}`);
  s = s.replace(/^(env\s+)?([A-Za-z_]\w*=("[^"]*"|'[^']*'|\S*)\s+)+/, '');
  if (/^cargo\s/.test(s)) {
    for (const name of ['RUSTFLAGS', 'RUSTDOCFLAGS']) {
      if (!kept.some((k) => k.startsWith(`${name}=`)) && denied(env[name])) kept.push(`${name}='${env[name]}'`);
    }
    if (kept.length) s = `${kept.join(' ')} ${s}`;
  }
  let unresolved = false;
  // `${{ matrix.extra-args || '' }}`: the literal after `||` where the workflow sets nothing.
  s = s.replace(
    /\$\{\{\s*(env|matrix)\.([\w-]+)\s*(?:\|\|\s*'([^']*)'\s*)?\}\}/g,
    (_, scope: string, name: string, fallback?: string) => {
      const table = scope === 'env' ? env : matrix;
      const set = lookup(table, name);
      const value = fallback !== undefined && !set ? fallback : set;
      if (value === undefined || value.includes('${{')) unresolved = true;
      return value ?? '';
    },
  );
  // A variable quoted to keep it one word (`"${FEATURES}"`) is typed without the quotes when its value is one word.
  s = s.replace(/"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))"/g, (whole, braced?: string, bare?: string) => {
    const value = lookup(env, (braced ?? bare)!);
    return value !== undefined && /^[^\s'"$`\\]+$/.test(value) ? value : whole;
  });
  // The shell's own variables, where the CI file sets them (`env:`, `variables:`, `environment:`).
  // `${X:-default}` is the default where CI does not set X, as on a person's machine.
  s = s.replace(
    /\$(?:\{([A-Za-z_]\w*)(?::-([^}$]*))?\}|([A-Za-z_]\w*))/g,
    (whole, braced?: string, fallback?: string, bare?: string) => lookup(env, (braced ?? bare)!) ?? fallback ?? whole,
  );
  if (unresolved || /\$\{\{|\$\{?[A-Z_][A-Z0-9_]*\}?|<<\s*(parameters|pipeline)\./.test(s)) return undefined;
  // Report files for CI's dashboards are not part of running the tests (`--junitxml=junit/results.xml`).
  s = s.replace(/\s--verbose\b/g, '').replace(
    /\s(--junit-?xml|--resultlog|--cov-report|--django-db-bench)(=|\s+)\S+|\s-o\s+junit_\w+=\S+/g,
    '',
  ).replace(/\s+/g, ' ').trim();
  return s ? { command: s, background } : undefined;
}

/**
 * What a command runs, with the project scripts it calls spelled out (`pnpm format-fix` →
 * `pnpm format --write` → `prettier …`), two levels deep.
 */
export function expandedText(c: ProjectCommand, all: readonly ProjectCommand[], depth = 2): string {
  let text = c.text;
  if (depth === 0) return text;
  for (const m of c.text.matchAll(/\b(?:pnpm(?:\s+run)?|npm\s+run|yarn(?:\s+run)?|make)\s+([\w:.-]+)/g)) {
    const called = new Set([`pnpm ${m[1]}`, `npm run ${m[1]}`, `yarn ${m[1]}`, `make ${m[1]}`]);
    for (const s of all) if (s !== c && !s.job && called.has(s.command)) text += '\n' + expandedText(s, all, depth - 1);
  }
  return text;
}

/** A command's words, quotes removed (`-scheme "A B"` → `-scheme`, `A B`). */
export function commandWords(command: string): string[] {
  // An assignment of a quoted value (`RUSTDOCFLAGS='-D warnings'`) stays one word, as written.
  const words = [...command.matchAll(/([A-Za-z_]\w*=)?(?:"([^"]*)"|'([^']*)')|(\S+)/g)].map((
    m,
  ) => (m[1] ? m[0] : m[2] ?? m[3] ?? m[4]));
  // Leading assignments (`RUSTDOCFLAGS='-D warnings' cargo doc`) set up the run; the tool comes after them.
  let i = 0;
  while (i < words.length - 1 && /^[A-Za-z_]\w*=/.test(words[i])) i++;
  return words.slice(i);
}

/**
 * The command CI runs for `kind`, as a person would run it: among the CI commands of the tool used
 * most for it, the one closest to what the commands share (`cargo test --workspace` out of
 * `cargo test --workspace --features pcre2` and `cargo test --workspace`), with the other variants
 * and what must run before it. With `job`, the commands of that job come first (the test job's build).
 */
export function ciCommand(
  commands: readonly ProjectCommand[],
  kind: 'test' | 'build',
  job?: string,
): {
  command: string;
  source: string;
  job?: string;
  variants: string[];
  setup: ProjectCommand[];
  matrix?: Record<string, string[]>;
  configurations?: number;
} | undefined {
  // Gradle's `check` runs the tests (and the linters); `cargo check` only type-checks.
  // Maven's `verify` runs the tests and the checks bound after them; a fastlane lane is named for what it does (`test_ci`).
  const verb = (tool: string) =>
    tool === 'fastlane'
      ? (kind === 'build' ? /(^|_)build(_|$)/ : /(^|_)tests?(_|$)/)
      : kind === 'build'
      ? /^(build|assemble|assembleDebug|assembleRelease)$/
      : /gradle/.test(tool)
      ? /^(test|allTests|jvmTest|check|test[A-Z]\w*)$/
      : /^(\.\/)?mvnw?$/.test(tool)
      ? /^(test|verify)$/
      : /^(test|tests|test-without-building)$/;
  const ci = commands.filter((c) => c.job && !c.background).map((c) => ({
    c,
    command: c.command,
    words: toolWords(commandWords(c.command)),
  }));
  // A build that skips the tests (`mvn clean verify -Dmaven.test.skip`) is no test run.
  const skipsTests = (words: readonly string[]) =>
    words.some((w) => /^-D(maven\.test\.skip|skipTests)(=true)?$/.test(w));
  // Nor is a cross-compilation (`cargo build --target=x86_64-apple-darwin`) the project's build.
  const cross = (words: readonly string[]) => words.some((w) => /^--target(=|$)/.test(w));
  const all = ci.filter((c) =>
    (kind === 'test' && isPythonTestRun(c.words))
    || (c.words.slice(1).some((w) => verb(c.words[0]).test(w))
      && (kind === 'build' ? !cross(c.words) : !skipsTests(c.words)))
  );
  // The build the test job runs, when it runs one, rather than a release or cross-compilation build.
  const inJob = all.filter((c) => c.c.job === job);
  const hits = inJob.length ? inJob : all;
  if (!hits.length) return undefined;
  const groups = new Map<string, typeof hits>();
  for (const h of hits) groups.set(h.words[0], [...(groups.get(h.words[0]) ?? []), h]);
  const group = [...groups.values()].sort((a, b) => b.length - a.length)[0];
  const count = new Map<string, number>();
  for (const c of group) for (const w of new Set(c.words)) count.set(w, (count.get(w) ?? 0) + 1);
  // A word most commands share counts for, a rare one (a feature, a platform) against.
  const score = (words: string[]) => words.reduce((n, w) => n + (count.get(w) ?? 0) / group.length - 0.5, 0);
  // Fewest words no other command has first: the plain run, not the one job's special case
  // (`mvn verify` over `mvn clean test --projects core --activate-profiles core-subset`).
  const own = (words: string[]) => words.filter((w) => count.get(w) === 1).length;
  // A workflow named for the project's checks (tests.yaml, ci.yml) before one for a special case (a migrations check).
  const special = (c: (typeof group)[number]) => Number(!mainWorkflow(c.c.job));
  const ranked = [...group].sort((a, b) =>
    special(a) - special(b) || own(a.words) - own(b.words) || score(b.words) - score(a.words)
    || a.command.length - b.command.length
  );
  // `xcodebuild test` builds for testing and runs the tests: CI often splits it in two steps.
  const shown = (c: string) => c.replace(/^(xcodebuild\s.*)\btest-without-building\b/, '$1test');
  const best = ranked[0];
  const variants = [...new Set(ranked.slice(1).map((c) => shown(c.command)))].filter((c) => c !== shown(best.command))
    .slice(0, 2);
  return {
    command: shown(best.command),
    source: best.c.source,
    job: best.c.job,
    variants,
    setup: setupBefore(commands, best.c),
    ...(best.c.matrix ? { matrix: best.c.matrix } : {}),
    ...(best.c.configurations ? { configurations: best.c.configurations } : {}),
  };
}

/** A script or target named for a check (`lint:check`, `check:circular`, `typecheck-packages`, `test:typecheck`). */
const CHECK_NAME = /(^|[:_-])(lint|typecheck|type-check|check|checks)([:_-]|$)/;
/** What makes a command change files: it fixes, it does not check. */
const WRITES =
  /(^|\s)(--write|--fix|-w|fix|apply)(\s|$)|spotlessApply|spotless:apply|updateKotlinAbi|apiDump|[:-]fix\b/;

/**
 * The checks CI runs that change nothing and are not the tests or the build: linters, formatters in
 * check mode, type checks, API and dependency guards (`cargo clippy … -- -Dwarnings` and
 * `cargo fmt -- --check`, a `pnpm lint:check` script, a golangci-lint action). A change must pass
 * them, so an agent runs them before it is done. One per tool and subcommand, in CI's order.
 */
export function ciChecks(commands: readonly ProjectCommand[]): ProjectCommand[] {
  const out: ProjectCommand[] = [];
  const seen = new Set<string>();
  // The checks of the workflow named for them (test.yml) before a publishing workflow's copy (zod's release.yml).
  for (const c of [...commands].sort((a, b) => Number(!mainWorkflow(a.job)) - Number(!mainWorkflow(b.job)))) {
    if (!c.job || c.background) continue;
    const words = toolWords(commandWords(c.command));
    // The task a runner runs (`pnpm lint:check`, `./gradlew spotlessCheck`), or the script's own name (`scripts/check`).
    const runner = /^(pnpm|npm|yarn|bun|make|just|(\.\/)?gradlew|gradle|(\.\/)?mvnw?)$/.test(words[0]);
    const name = runner ? words.slice(1).find((w) => !w.startsWith('-') && w !== 'run') : words[0].split('/').pop();
    const env = /^(tox|nox)$/.test(words[0])
      ? words[words.findIndex((w) => w === '-e' || w === '-s' || w === '--session') + 1]
      : undefined;
    const text = expandedText(c, commands);
    const checks = CHECK_TOOL_PATTERN.test(text) || (!!name && CHECK_NAME.test(name))
      || (!!env && /lint|typ(e|ing)|style|mypy|pyright|check|fmt|format/i.test(env));
    // Installing the checker (`brew install swiftlint`) is not the check.
    if (!checks || WRITES.test(text) || /^(install|add|i)$/.test(words[1] ?? '')) continue;
    const key = (runner ? `${words[0]} ${name}` : words.slice(0, 2).join(' ')) + (env ? ` ${env}` : '');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

/** A CI file named for the project's checks (tests.yaml, ci.yml, build.yml), not for one special case or a release. */
const mainWorkflow = (job: string | undefined) =>
  /(^|\/)(tests?|ci|build|main|checks?|lint|pr|pull[-_]requests?)\.ya?ml#/i.test(job ?? '');

/** Options of the environment runners below that take a value (`uv run --group dev …`). */
const RUNNER_VALUE_OPTIONS = new Set([
  '--group',
  '--only-group',
  '--with',
  '--python',
  '-p',
  '--extra',
  '--package',
  '--directory',
  '--env-file',
  '-e',
  '--env',
  '--gemfile',
]);

/**
 * A command's words from the tool it runs: an environment runner in front is not the tool
 * (`uv run --locked --group dev tox run` → `tox run`, `bundle exec fastlane test_ci` → `fastlane test_ci`).
 */
export function toolWords(words: readonly string[]): string[] {
  const runner = (/^(uv|poetry|pipenv|pdm|hatch|rye)$/.test(words[0]) && words[1] === 'run')
    || (words[0] === 'bundle' && words[1] === 'exec');
  if (!runner) return [...words];
  let i = 2;
  while (i < words.length && words[i].startsWith('-')) i += RUNNER_VALUE_OPTIONS.has(words[i]) ? 2 : 1;
  return i < words.length ? words.slice(i) : [...words];
}

/** `pytest …`, `python -m pytest …`, and tox or nox unless the environment it runs is a linter's or the docs'. */
function isPythonTestRun(words: readonly string[]): boolean {
  const tool = /^python[\d.]*$/.test(words[0]) && words[1] === '-m' ? words[2] : words[0];
  if (tool === 'pytest' || tool === 'unittest') return true;
  if (tool !== 'tox' && tool !== 'nox') return false;
  const env = words.findIndex((w) => w === '-e' || w === '-s' || w === '--session');
  return env < 0 || !/lint|fmt|format|doc|typ(e|ing)|mypy|pyright|style|check/i.test(words[env + 1] ?? '');
}

/** What CI does in the same job before `step` that a person must do too: install pods, start a server in the background. */
function setupBefore(commands: readonly ProjectCommand[], step: ProjectCommand): ProjectCommand[] {
  const job = commands.filter((c) => c.job === step.job);
  const before = job.slice(0, job.indexOf(step));
  return before.filter((c) =>
    c.background || /^(bundle exec )?pod install\b|^carthage (bootstrap|update)\b/.test(c.command)
  );
}
