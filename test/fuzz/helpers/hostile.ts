/**
 * Special files and bombs, each in a workspace of its own, through a real MCP server over stdio: every
 * call must answer within 5 s with a stable answer, the calls that meet the bad file must name it (a
 * clear problem, not silence), and `health` must still answer afterwards. The cases are issue 10's
 * findings; the in-process unit tests (test/unit/files-isolation.test.ts) check the same files in detail.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JsonSchema } from '../../../src/core/ground/kernel/result';
import { loadNote } from './campaign';
import type { ToolSpec } from './generate';
import { HANG_MS, Judge } from './judge';
import { ServerLane } from './lane';
import { mkfifo, socketFile } from './workspace';

interface HostileCall {
  tool: string;
  args?: Record<string, unknown>;
  /** The answer must match this: the problem names the file or says what is wrong with it. */
  names?: RegExp;
}

export interface HostileCase {
  name: string;
  setup(root: string): void | Promise<void>;
  calls: HostileCall[];
  /** What `health` may answer instead of ok (a database that cannot be used is its problem to report). */
  health?: RegExp;
}

export interface HostileFigures {
  cases: number;
  calls: number;
  /** Calls answered with a registry code or a schema-valid result, with under 5 s of server CPU. */
  answeredInTime: number;
  /** Calls answered after more than 5 s of wall-clock time. */
  slowAnswers: number;
  slowestMs: number;
  /** Calls expected to name the problem, and those that did. */
  expectedToName: number;
  named: number;
  /** Cases after which `health` still answered ok. */
  healthyAfter: number;
  crashes: number;
}

const PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'demo', version: '1.0.0' }),
  'src/index.ts': 'export function main() {\n  const x = eval("1");\n  return x;\n}\n',
  'src/util.ts': 'export const add = (a: number, b: number) => a + b;\n',
  '.autosnippet/recipes/http/ok.md':
    '---\ntitle: Fetch through getJson\ntrigger: "@getJsonOk"\nlanguage: typescript\ncategory: http\nknowledgeType: code-pattern\nstatus: published\nsummary: Use getJson.\n---\n\n```ts\nawait getJson(url);\n```\n',
  '.autosnippet/skills/demo-skill/SKILL.md':
    '---\nname: demo-skill\ndescription: A demo skill for the hostile cases.\n---\n\n# Demo\n\nSee references/ok.md.\n',
  '.autosnippet/skills/demo-skill/references/ok.md': 'fine\n',
};

function write(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function link(root: string, rel: string, target: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  symlinkSync(target, file);
}

/** A YAML "billion laughs": nine levels of nine aliases, 9^9 strings once expanded. */
function aliasBomb(): string {
  const names = 'abcdefghi';
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < names.length; i++) {
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(', ')}]`);
  }
  return lines.join('\n');
}

const rule = (id: string, regex: string) => ({
  id,
  message: 'm',
  severity: 'warning',
  languages: ['typescript'],
  why: 'w',
  suggestion: 's',
  regex,
});
const listing = (names: RegExp): HostileCall[] => [
  { tool: 'get_targets', names },
  { tool: 'get_target_files', args: { target: 'demo' } },
  { tool: 'scan_project', names },
  { tool: 'guard_audit_files', args: { paths: ['src'] } },
  { tool: 'bootstrap_knowledge', names },
];

export const HOSTILE_CASES: HostileCase[] = [
  {
    name: '.gitignore is a FIFO',
    setup: (r) => mkfifo(path.join(r, '.gitignore')),
    calls: listing(/\.gitignore is a FIFO/),
  },
  {
    name: '.gitignore is a link to /dev/zero',
    setup: (r) => link(r, '.gitignore', '/dev/zero'),
    calls: listing(/\.gitignore is outside the workspace/),
  },
  {
    name: 'a 1 MB .gitignore line',
    setup: (r) => write(r, '.gitignore', `${'x'.repeat(1 << 20)}\nsrc/util.ts\n`),
    calls: [
      { tool: 'scan_project', names: /\.gitignore line 1/ },
      { tool: 'get_targets' },
      { tool: 'bootstrap_knowledge' },
    ],
  },
  {
    name: 'package.json is a FIFO',
    setup: (r) => (rmSync(path.join(r, 'package.json')), mkfifo(path.join(r, 'package.json'))),
    calls: [{ tool: 'get_targets', names: /package\.json/ }, { tool: 'get_target_metadata', args: { target: 'demo' } }],
  },
  {
    name: 'FIFO, socket and device links among the sources',
    setup: async (r) => {
      mkfifo(path.join(r, 'src/pipe.ts'));
      await socketFile(path.join(r, 'src/socket.ts'));
      link(r, 'src/zero.ts', '/dev/zero');
      link(r, 'src/random.ts', '/dev/urandom');
    },
    calls: [
      {
        tool: 'guard_audit_files',
        args: { paths: ['src'] },
        names: /pipe\.ts is a FIFO.*socket\.ts is a socket|socket\.ts is a socket.*pipe\.ts is a FIFO/,
      },
      { tool: 'guard_audit_files', args: { paths: ['src/zero.ts'] }, names: /PATH_OUTSIDE_WORKSPACE/ },
      {
        tool: 'guard_audit_files',
        args: { paths: ['src/random.ts', 'src/index.ts'] },
        names: /PATH_OUTSIDE_WORKSPACE/,
      },
      { tool: 'scan_project', names: /pipe\.ts/ },
      { tool: 'get_target_files', args: { target: 'demo' } },
    ],
  },
  {
    name: "a FIFO in a skill's references/",
    setup: (r) => mkfifo(path.join(r, '.autosnippet/skills/demo-skill/references/pipe.md')),
    calls: [
      {
        tool: 'read_skill_resource',
        args: { skill: 'demo-skill', path: 'references/pipe.md' },
        names: /NOT_A_REGULAR_FILE/,
      },
      { tool: 'load_skill', args: { name: 'demo-skill' } },
    ],
  },
  {
    name: 'a SKILL.md that is a FIFO',
    setup: (r) => mkfifo(path.join(r, '.autosnippet/skills/piped/SKILL.md')),
    calls: [
      { tool: 'list_skills' },
      { tool: 'load_skill', args: { name: 'piped' } },
      { tool: 'search_skills', args: { query: 'demo' } },
    ],
  },
  {
    name: 'a YAML alias bomb in a SKILL.md header',
    setup: (r) =>
      write(
        r,
        '.autosnippet/skills/bomb/SKILL.md',
        `---\nname: bomb\ndescription: boom\n${aliasBomb()}\n---\n\n# Bomb\n`,
      ),
    calls: [
      { tool: 'list_skills' },
      { tool: 'load_skill', args: { name: 'bomb' } },
      { tool: 'search_skills', args: { query: 'boom' } },
    ],
  },
  {
    name: 'a 50 MB SKILL.md',
    setup: (r) =>
      write(
        r,
        '.autosnippet/skills/huge/SKILL.md',
        `---\nname: huge\ndescription: A huge skill.\n---\n\n${'word '.repeat(10 << 20)}\n`,
      ),
    calls: [
      { tool: 'list_skills' },
      { tool: 'load_skill', args: { name: 'huge' } },
      { tool: 'search_skills', args: { query: 'huge word' } },
    ],
  },
  {
    name: 'a SKILL.md whose description is one word of a megabyte',
    setup: (r) =>
      write(
        r,
        '.autosnippet/skills/long-word/SKILL.md',
        `---\nname: long-word\ndescription: ${'abcdefghij'.repeat(100_000)}\n---\n\n# Long\n`,
      ),
    calls: [
      { tool: 'list_skills' },
      { tool: 'search_skills', args: { query: 'release notes' } },
      { tool: 'search_skills', args: { query: 'release notes', mode: 'llm' } },
    ],
  },
  {
    name: 'a SKILL.md whose description is a megabyte of Chinese on one line',
    setup: (r) =>
      write(
        r,
        '.autosnippet/skills/long-han/SKILL.md',
        `---\nname: long-han\ndescription: ${'发布说明写作指南'.repeat(40_000)}\n---\n\n# Long\n`,
      ),
    calls: [{ tool: 'list_skills' }, { tool: 'search_skills', args: { query: '写发布说明' } }],
  },
  {
    name: "a YAML alias bomb in a recipe's front matter",
    setup: (r) => write(r, '.autosnippet/recipes/http/bomb.md', `---\ntitle: Bomb\n${aliasBomb()}\n---\n\nbody\n`),
    calls: [
      { tool: 'rebuild_index', args: { force: true }, names: /bomb\.md/ },
      { tool: 'list_recipes' },
      { tool: 'search', args: { query: 'getJson' } },
    ],
  },
  {
    name: 'a 50 MB recipe',
    setup: (r) =>
      write(
        r,
        '.autosnippet/recipes/http/huge.md',
        `---\ntitle: Huge\nlanguage: typescript\n---\n\n${'x'.repeat(50 << 20)}\n`,
      ),
    calls: [{ tool: 'rebuild_index', args: { force: true }, names: /huge\.md/ }, { tool: 'list_recipes' }],
  },
  {
    name: 'a recipe that is a FIFO',
    setup: (r) => mkfifo(path.join(r, '.autosnippet/recipes/http/pipe.md')),
    calls: [{ tool: 'rebuild_index', args: { force: true }, names: /pipe\.md/ }, { tool: 'list_recipes' }],
  },
  {
    name: 'a 100,000-character project regex',
    setup: (r) =>
      write(
        r,
        '.autosnippet/guard/rules.json',
        JSON.stringify({
          rules: [rule('project/huge', 'x'.repeat(100_000)), rule('project/no-fetch-raw', '\\bfetchRaw\\(')],
        }),
      ),
    calls: [
      { tool: 'guard_rules', names: /project\/huge/ },
      { tool: 'guard_check', args: { code: 'fetchRaw(1);\neval("x");\n', language: 'typescript' } },
      { tool: 'scan_project' },
    ],
  },
  {
    name: 'a catastrophic project regex ((a+)+$)',
    setup: (r) =>
      write(r, '.autosnippet/guard/rules.json', JSON.stringify({ rules: [rule('project/redos', '(a+)+$')] })),
    calls: [
      { tool: 'guard_rules', names: /UNSAFE_PATTERN|project\/redos/ },
      { tool: 'guard_check', args: { code: `${'a'.repeat(40)}!\n`, language: 'typescript' } },
    ],
  },
  {
    name: 'a project regex with nested counted repetitions',
    setup: (r) =>
      write(
        r,
        '.autosnippet/guard/rules.json',
        JSON.stringify({
          rules: [rule('project/nested', '(a{1,1000}){1,1000}b'), rule('project/no-fetch-raw', '\\bfetchRaw\\(')],
        }),
      ),
    calls: [
      { tool: 'guard_rules', names: /UNSAFE_PATTERN.*project\/nested|project\/nested.*UNSAFE_PATTERN/ },
      {
        tool: 'guard_check',
        args: { code: `let ${'a'.repeat(20_000)} = b;\nfetchRaw(1);\n`, language: 'typescript' },
        names: /project\/no-fetch-raw/,
      },
      { tool: 'guard_check', args: { code: `${'a'.repeat(50_000)}b\n`, language: 'typescript' } },
    ],
  },
  {
    name: 'a committed setting that allows skill scripts',
    setup: (r) => {
      write(r, '.autosnippet/settings.json', JSON.stringify({ 'autosnippet.skills.allowScripts': true }));
      write(
        r,
        '.autosnippet/skills/setup/SKILL.md',
        '---\nname: setup\ndescription: Sets the project up.\n---\nRun scripts/setup.sh.\n',
      );
      write(r, '.autosnippet/skills/setup/scripts/setup.sh', 'touch "$PWD/ran-a-script"\n');
    },
    calls: [
      { tool: 'run_skill_script', args: { skill: 'setup', script: 'setup.sh' }, names: /SCRIPTS_DISABLED/ },
      { tool: 'health' },
    ],
  },
  {
    name: 'a project rule file with 20,000 rules',
    setup: (r) =>
      write(
        r,
        '.autosnippet/guard/many.json',
        JSON.stringify({ rules: Array.from({ length: 20_000 }, (_, i) => rule(`p/${i}`, `foo${i}\\b`)) }),
      ),
    calls: [
      { tool: 'guard_rules', names: /20000 rules/ },
      { tool: 'guard_check', args: { code: 'foo7();\n', language: 'typescript' } },
    ],
  },
  {
    name: 'a rule file nested 100,000 deep',
    setup: (r) => write(r, '.autosnippet/guard/deep.json', '['.repeat(100_000) + ']'.repeat(100_000)),
    calls: [
      { tool: 'guard_rules', names: /deep\.json/ },
      { tool: 'guard_check', args: { code: 'eval("x");\n', language: 'typescript' } },
    ],
  },
  {
    name: 'a rule file that is a FIFO',
    setup: (r) => mkfifo(path.join(r, '.autosnippet/guard/pipe.json')),
    calls: [
      { tool: 'guard_rules', names: /pipe\.json/ },
      { tool: 'guard_check', args: { code: 'eval("x");\n', language: 'typescript' } },
    ],
  },
  {
    name: 'the database path is a folder',
    setup: (r) => void mkdirSync(path.join(r, '.autosnippet/autosnippet.db'), { recursive: true }),
    health: /"code":"STORE_UNAVAILABLE","message":"The database path .* is a folder/,
    calls: [
      { tool: 'list_candidates', names: /STORE_UNAVAILABLE/ },
      {
        tool: 'submit_candidate',
        args: {
          title: 'Use getJson',
          summary: 'Use getJson for HTTP.',
          code: 'await getJson(url);',
          language: 'typescript',
        },
        names: /STORE_UNAVAILABLE/,
      },
      { tool: 'guard_check', args: { code: 'eval("x");\n', language: 'typescript' } },
    ],
  },
  {
    name: 'the audit log folder is a file',
    setup: (r) => write(r, '.autosnippet/audit', 'not a folder'),
    calls: [
      {
        tool: 'submit_candidate',
        args: {
          title: 'Use getJson',
          summary: 'Use getJson for HTTP.',
          code: 'await getJson(url);',
          language: 'typescript',
        },
        names: /GATEWAY_UNAVAILABLE/,
      },
      { tool: 'list_candidates' },
    ],
  },
  {
    name: 'an unreadable recipe (mode 000, as a non-root user)',
    setup: (
      r,
    ) => (write(r, '.autosnippet/recipes/http/locked.md', '---\ntitle: Locked\n---\n'),
      chmodSync(path.join(r, '.autosnippet/recipes/http/locked.md'), 0)),
    calls: [{ tool: 'rebuild_index', args: { force: true } }, { tool: 'list_recipes' }],
  },
];

/** A message over the stdio transport's limit (10 MiB): a JSON-RPC error, and the server keeps serving. */
const OVERSIZED_CASE = 'a stdio message over 10 MiB';

export async function runHostileCases(
  specs: ToolSpec[],
  options: { cases?: HostileCase[]; oversized?: boolean; log?: (line: string) => void } = {},
): Promise<{ figures: HostileFigures; failures: string[] }> {
  const log = options.log ?? (() => undefined);
  const cases = options.cases ?? HOSTILE_CASES;
  const figures: HostileFigures = {
    cases: 0,
    calls: 0,
    answeredInTime: 0,
    slowAnswers: 0,
    slowestMs: 0,
    expectedToName: 0,
    named: 0,
    healthyAfter: 0,
    crashes: 0,
  };
  const failures: string[] = [];
  const specByName = new Map(specs.map((s) => [s.name, s]));
  let judge: Judge | undefined;
  const all = [...cases.map((c) => c.name), ...(options.oversized === false ? [] : [OVERSIZED_CASE])];
  for (const name of all) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-hostile-'));
    const lanes: ServerLane[] = [];
    try {
      for (const [rel, content] of Object.entries(PROJECT)) write(root, rel, content);
      const hostile = cases.find((c) => c.name === name);
      await hostile?.setup(root);
      const lane = await ServerLane.start({ transport: 'stdio', workspace: root });
      lanes.push(lane);
      if (!judge) {
        const outputSchemas = new Map<string, JsonSchema>();
        for (const t of await lane.listTools()) {
          if (t.outputSchema) outputSchemas.set(t.name.replace(/^autosnippet_/, ''), t.outputSchema as JsonSchema);
        }
        judge = new Judge(specByName, outputSchemas, []);
      }
      figures.cases++;
      const calls: HostileCall[] = hostile
        ? hostile.calls
        : [{ tool: 'guard_check', args: { code: 'x'.repeat(11 << 20), language: 'typescript' } }];
      for (const c of calls) {
        const spec = specByName.get(c.tool);
        const outcome = await lane.call(`autosnippet_${c.tool}`, c.args ?? {}, 20_000);
        figures.calls++;
        figures.slowestMs = Math.max(figures.slowestMs, outcome.ms);
        if (outcome.ms > HANG_MS) figures.slowAnswers++;
        const fail = (problem: string) => {
          failures.push(`${name}: ${c.tool} ${problem}`);
          log(`HOSTILE ${name}: ${c.tool} ${problem}`);
        };
        if (!hostile) {
          // The oversized message: an error (any), within 5 s, then health.
          if (outcome.kind === 'closed') {
            figures.crashes++;
            fail('the server went away');
          } else if (outcome.kind === 'timeout' || (outcome.cpuMs ?? outcome.ms) > HANG_MS) {
            fail(`answered after ${outcome.ms} ms (${outcome.cpuMs} ms of CPU)`);
          } else figures.answeredInTime++;
          continue;
        }
        const verdict = judge.judge(
          { name: c.tool, tool: spec, args: c.args ?? {}, kinds: ['hostile'], pathAttack: false },
          outcome,
          0,
        );
        if (verdict.crash) figures.crashes++;
        if (verdict.problems.length === 0) figures.answeredInTime++;
        else fail(verdict.problems.join('; '));
        if (c.names) {
          figures.expectedToName++;
          const text = outcome.kind === 'result'
            ? ((outcome.result.content?.[0] as { text?: string } | undefined)?.text ?? '')
            : '';
          if (c.names.test(text)) figures.named++;
          else fail(`does not name the problem (${c.names}): ${text.slice(0, 400)}`);
        }
        if (lane.isClosed) await lane.restart();
      }
      const health = await lane.call('autosnippet_health', {}, HANG_MS);
      const healthText = health.kind === 'result'
        ? ((health.result.content?.[0] as { text?: string } | undefined)?.text ?? '')
        : '';
      if (/^\{"ok":true/.test(healthText) || (hostile?.health?.test(healthText) ?? false)) figures.healthyAfter++;
      else {
        failures.push(
          `${name}: health did not answer within ${HANG_MS} ms with ok${
            hostile?.health ? ` or ${hostile.health}` : ''
          }: ${JSON.stringify(health).slice(0, 300)} (stderr: ${lane.stderr.slice(-400)})`,
        );
      }
    } finally {
      await Promise.all(lanes.map((l) => l.close()));
      rmSync(root, { recursive: true, force: true });
    }
  }
  return { figures, failures };
}

export function hostileRows(f: HostileFigures): [string, string, string][] {
  return [
    ['special-file and bomb cases', String(f.cases), ''],
    ['  calls answered, stable, under 5 s of server CPU', `${f.answeredInTime} of ${f.calls}`, 'all'],
    [
      '  answers after > 5 s wall clock',
      `${f.slowAnswers} (slowest ${f.slowestMs} ms; load ${loadNote()})`,
      '0 on a machine not overloaded',
    ],
    ['  answers naming the problem', `${f.named} of ${f.expectedToName}`, 'all'],
    ['  health ok afterwards', `${f.healthyAfter} of ${f.cases}`, 'all'],
    ['  crashes', String(f.crashes), '0'],
  ];
}
