/**
 * A fuzz campaign: lanes of real MCP server processes (stdio, and Streamable HTTP) on one hostile
 * workspace, each sending calls generated from the catalog's schemas, every answer judged; then the
 * audit log is checked for every agent attempt at a review tool, and the folder outside the workspace
 * for writes. Seeded: each lane draws from its own fork of the run's seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCatalog } from '../../../src/core/catalog';
import { digestArgs } from '../../../src/core/domains/gateway/audit';
import type { JsonSchema } from '../../../src/core/ground/kernel/result';
import { asServerSees, CallGenerator, type FuzzCall, toolMeant, type ToolSpec, ValuePools } from './generate';
import { type AnswerKind, describeCall, HANG_MS, Judge } from './judge';
import { ServerLane } from './lane';
import { Random } from './random';
import { buildFuzzWorkspace, fingerprintChanges, fingerprintOutside, type FuzzWorkspace } from './workspace';

export interface CampaignOptions {
  seed: number;
  calls: number;
  stdioLanes: number;
  httpLanes: number;
  /** How long a call may take before the lane gives up on it and restarts its server. */
  abandonMs?: number;
  log?: (line: string) => void;
}

/**
 * How far one server's memory may rise over a campaign after its warm-up. Caches that are bounded
 * (parsed skills and recipes, compiled validators, guard documents) fill in the first thousand calls;
 * a rise past this is a leak.
 */
export const RSS_GROWTH_BOUND_MB = 150;

export interface CampaignFigures {
  seed: number;
  calls: number;
  byTransport: Record<'stdio' | 'http', number>;
  toolsCovered: number;
  toolsInCatalog: number;
  crashes: number;
  hangs: number;
  /** Answers after more than 5 s of wall-clock time (the machine's load average is printed beside). */
  slowAnswers: number;
  slowestMs: number;
  /** CPU time the server spent on the call that cost it most. */
  mostCpuMs: number;
  overBound: number;
  answers: Record<AnswerKind, number>;
  pathAttacks: number;
  pathEscapes: number;
  writesOutside: number;
  reviewAttempts: number;
  reviewRefused: number;
  /** Attempts refused by the protocol layer before any tool is looked up (-32602: `arguments` not an object; a message over the size limit): no tool ran. */
  reviewProtocolRefusals: number;
  reviewUnaudited: number;
  restarts: number;
  /** The slowest of the first calls that build indexes (skills, recipes, targets, rules), made before the counted calls. */
  warmUpSlowestMs: number;
  /** The first lane's server RSS in MB after its warm-up calls and after each thousand calls (a restart starts a new series). */
  rssMb: number[];
  /** The largest rise of that RSS from the end of the warm-up, in MB. */
  rssGrowthMb: number;
  seconds: number;
}

export interface CampaignFailure {
  lane: string;
  index: number;
  call: string;
  problems: string[];
}

export interface CampaignReport {
  figures: CampaignFigures;
  failures: CampaignFailure[];
  /** Failures by their first problem's kind, with a count: a digest when there are many. */
  digest: string[];
}

/** The catalog as the fuzzer knows it: every tool (review ones too, which tools/list hides). */
export function catalogSpecs(): ToolSpec[] {
  const catalog = createCatalog();
  return catalog.tools.map((t) => ({
    name: t.name,
    access: t.access,
    inputSchema: catalog.inputSchema(t),
    maxOutputChars: t.maxOutputChars,
    aliases: t.aliases ?? {},
  }));
}

/** Recipe triggers, target names and rule ids of the sample workspace: the valid values of id fields. */
const FIXED_VALUES = {
  recipes: ['@getJson', '@findUser', 'http/get-json', 'users/find-user', '.autosnippet/recipes/http/get-json.md'],
  targets: ['sample-workspace', 'src'],
  rules: ['project/no-direct-fetch', 'js/no-eval', 'ts/no-explicit-any', 'project/outside-rule'],
};

interface Expected {
  action: string;
  digest: string;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const log = options.log ?? (() => undefined);
  const abandonMs = options.abandonMs ?? 20_000;
  const t0 = performance.now();
  const ws = await buildFuzzWorkspace();
  const before = fingerprintOutside(ws);
  const specs = catalogSpecs();
  const specByName = new Map(specs.map((s) => [s.name, s]));
  const lanes: ServerLane[] = [];
  try {
    for (let i = 0; i < options.stdioLanes; i++) {
      lanes.push(await ServerLane.start({ transport: 'stdio', workspace: ws.project }));
    }
    for (let i = 0; i < options.httpLanes; i++) {
      lanes.push(await ServerLane.start({ transport: 'http', workspace: ws.project }));
    }
    const listed = await lanes[0].listTools();
    const outputSchemas = new Map<string, JsonSchema>();
    for (const t of listed) {
      if (t.outputSchema) outputSchemas.set(t.name.replace(/^autosnippet_/, ''), t.outputSchema as JsonSchema);
    }
    const judge = new Judge(specByName, outputSchemas, ws.canaries);

    const figures: CampaignFigures = {
      seed: options.seed,
      calls: 0,
      byTransport: { stdio: 0, http: 0 },
      toolsCovered: 0,
      toolsInCatalog: specs.length,
      crashes: 0,
      hangs: 0,
      slowAnswers: 0,
      slowestMs: 0,
      mostCpuMs: 0,
      overBound: 0,
      answers: {
        'registry-error': 0,
        'valid-result': 0,
        'rpc-invalid-params': 0,
        'rpc-too-large': 0,
        'http-413': 0,
        bad: 0,
      },
      pathAttacks: 0,
      pathEscapes: 0,
      writesOutside: 0,
      reviewAttempts: 0,
      reviewRefused: 0,
      reviewProtocolRefusals: 0,
      reviewUnaudited: 0,
      restarts: 0,
      warmUpSlowestMs: 0,
      rssMb: [],
      rssGrowthMb: 0,
      seconds: 0,
    };
    const sampleRss = () => {
      const kb = lanes[0].rssKb();
      if (kb === undefined) return;
      figures.rssMb.push(Math.round(kb / 1024));
      figures.rssGrowthMb = Math.max(figures.rssGrowthMb, figures.rssMb.at(-1)! - figures.rssMb[0]);
    };
    const failures: CampaignFailure[] = [];
    const covered = new Set<string>();
    const expectedAudit: Expected[] = [];
    const audited = new Map<string, { action: string; argsDigest: string; decision: string; actor: string }>();
    const collectAudit = () => readAudit(ws, audited);

    const perLane = Math.ceil(options.calls / lanes.length);
    const root = new Random(options.seed);
    await Promise.all(
      lanes.map(async (lane, laneIndex) => {
        const laneName = `${lane.transport}#${laneIndex}`;
        const rnd = root.fork(laneIndex);
        const pools = new ValuePools({
          skills: ws.skills,
          entries: ws.entries,
          tools: specs.map((s) => s.name),
          outsideFiles: ws.outsideFiles,
          ...FIXED_VALUES,
        });
        const generator = new CallGenerator(rnd, specs, pools);
        // Real ids first, so valid calls reach deep into the handlers; these first calls also build the
        // indexes a server builds once (the skill index alone takes ~2 s on an idle machine), timed apart.
        for (const warm of [
          'list_skills',
          'search_skills',
          'list_recipes',
          'list_candidates',
          'get_targets',
          'guard_rules',
        ]) {
          const o = await lane.call(
            `autosnippet_${warm}`,
            warm === 'search_skills' ? { query: 'add a field', mode: 'llm' } : {},
            abandonMs,
          );
          figures.warmUpSlowestMs = Math.max(figures.warmUpSlowestMs, o.ms);
          if (o.kind === 'result') pools.harvest(o.result.structuredContent);
        }
        if (laneIndex === 0) sampleRss();
        for (let index = 0; index < perLane; index++) {
          // Every tool at least once per lane, review tools included, then at random.
          const call: FuzzCall = index < specs.length ? generator.first(specs[index]) : generator.next();
          const bytes = Buffer.byteLength(JSON.stringify({ name: call.name, arguments: call.args ?? null }));
          const outcome = await lane.call(call.name, call.args, abandonMs);
          const verdict = judge.judge(call, outcome, bytes);
          figures.calls++;
          figures.byTransport[lane.transport]++;
          figures.slowestMs = Math.max(figures.slowestMs, outcome.ms);
          figures.mostCpuMs = Math.max(figures.mostCpuMs, outcome.cpuMs ?? 0);
          if (verdict.slow) figures.slowAnswers++;
          figures.answers[verdict.kind]++;
          if (verdict.crash) figures.crashes++;
          if (verdict.hang) figures.hangs++;
          if (verdict.overBound) figures.overBound++;
          if (verdict.escape) figures.pathEscapes++;
          if (call.pathAttack) figures.pathAttacks++;
          const meant = call.tool ?? toolMeant(call.name, specs);
          if (meant) covered.add(meant.name);
          if (meant?.access === 'review') {
            figures.reviewAttempts++;
            // Refused before any tool is looked up: `arguments` not an object, or a message over the transport's size limit.
            if (
              verdict.kind === 'rpc-invalid-params' || verdict.kind === 'rpc-too-large' || verdict.kind === 'http-413'
            ) figures.reviewProtocolRefusals++;
            else {
              expectedAudit.push({ action: meant.name, digest: digestArgs(asServerSees(call.args, undefined) ?? {}) });
              if (verdict.envelope?.ok === false && verdict.envelope.error?.code === 'PERMISSION_DENIED') {
                figures.reviewRefused++;
              } else {
                verdict.problems.push(
                  `an agent's call to the people-only tool ${meant.name} was not refused with PERMISSION_DENIED`,
                );
              }
            }
          }
          if (verdict.envelope?.ok) pools.harvest(verdict.envelope.data);
          if (verdict.problems.length) {
            failures.push({ lane: laneName, index, call: describeCall(call), problems: verdict.problems });
            log(
              `FAIL seed=${options.seed} ${laneName} call ${index}: ${describeCall(call)}\n  ${
                verdict.problems.join('\n  ')
              }`,
            );
          }
          if (verdict.crash || outcome.kind === 'timeout' || lane.isClosed) {
            if (verdict.crash) log(`server stderr (${laneName}):\n${lane.stderr.slice(-1500)}`);
            await lane.restart();
            figures.restarts++;
            if (laneIndex === 0) figures.rssMb.length = 0;
          }
          // The audit log rotates at 2 MB: read it now and then, so no line is lost to rotation.
          if (laneIndex === 0 && index % 500 === 499) collectAudit();
          if (index % 1000 === 999) {
            if (laneIndex === 0) sampleRss();
            log(
              `${laneName}: ${index + 1}/${perLane} calls${laneIndex === 0 ? `, RSS ${figures.rssMb.at(-1)} MB` : ''}`,
            );
          }
        }
        if (!(await lane.healthy(HANG_MS))) {
          failures.push({
            lane: laneName,
            index: perLane,
            call: 'autosnippet_health {}',
            problems: ['health did not answer ok after the run'],
          });
        }
      }),
    );
    collectAudit();
    figures.reviewUnaudited = unaudited(expectedAudit, [...audited.values()]);
    if (figures.reviewUnaudited > 0) {
      failures.push({
        lane: 'audit',
        index: 0,
        call: '(audit log)',
        problems: [`${figures.reviewUnaudited} agent attempts at review tools have no denied audit line`],
      });
    }
    for (const lane of lanes) lane.sampleRss();
    const changes = fingerprintChanges(before, fingerprintOutside(ws));
    figures.writesOutside = changes.length;
    if (changes.length) {
      failures.push({
        lane: 'outside',
        index: 0,
        call: '(fingerprint of the folder outside the workspace)',
        problems: changes.slice(0, 20),
      });
    }
    figures.toolsCovered = covered.size;
    figures.restarts = lanes.reduce((n, l) => n + l.restarts, 0);
    figures.seconds = Math.round((performance.now() - t0) / 1000);
    return { figures, failures, digest: digestOf(failures) };
  } finally {
    await Promise.all(lanes.map((l) => l.close()));
    ws.dispose();
  }
}

/** Reads every audit file of the workspace into `into`, by entry id (decision and outcome lines merged). */
function readAudit(
  ws: FuzzWorkspace,
  into: Map<string, { action: string; argsDigest: string; decision: string; actor: string }>,
): void {
  const dir = path.join(ws.project, '.autosnippet', 'audit');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return;
  }
  for (const f of files) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const rec = JSON.parse(line) as {
          id: string;
          action?: string;
          argsDigest?: string;
          decision?: string;
          actor?: string;
        };
        if (rec.decision) {
          into.set(rec.id, {
            action: rec.action ?? '',
            argsDigest: rec.argsDigest ?? '',
            decision: rec.decision,
            actor: rec.actor ?? '',
          });
        }
      } catch {
        // a line cut by rotation or a concurrent append: the next read has it whole
      }
    }
  }
}

/** How many expected (action, digest) refusals have no denied agent entry in the log (a multiset match). */
function unaudited(
  expected: Expected[],
  entries: { action: string; argsDigest: string; decision: string; actor: string }[],
): number {
  const have = new Map<string, number>();
  for (const e of entries) {
    if (e.decision !== 'denied' || e.actor === 'human') continue;
    const key = `${e.action} ${e.argsDigest}`;
    have.set(key, (have.get(key) ?? 0) + 1);
  }
  let missing = 0;
  for (const x of expected) {
    const key = `${x.action} ${x.digest}`;
    const n = have.get(key) ?? 0;
    if (n > 0) have.set(key, n - 1);
    else missing++;
  }
  return missing;
}

function digestOf(failures: CampaignFailure[]): string[] {
  const byKind = new Map<string, { n: number; example: CampaignFailure }>();
  for (const f of failures) {
    const kind = f.problems[0].replace(/\d+/g, 'N').slice(0, 100);
    const seen = byKind.get(kind);
    if (seen) seen.n++;
    else byKind.set(kind, { n: 1, example: f });
  }
  return [...byKind.entries()].map(([kind, { n, example }]) =>
    `${n}× ${kind}\n    e.g. ${example.lane} call ${example.index}: ${example.call.slice(0, 400)}`
  );
}

/** The 1-minute load average against the cores, e.g. "6.2 on 2 cores". */
export function loadNote(): string {
  return `${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;
}

/** True when more processes want to run than there are cores: wall-clock times then say little. */
export function overloaded(): boolean {
  return os.loadavg()[0] > os.availableParallelism();
}

/** The figures as the table the suite prints. */
export function figuresTable(f: CampaignFigures, extra: [string, string, string][] = []): string {
  const rows: [string, string, string][] = [
    ['seed', String(f.seed), 'AUTOSNIPPET_FUZZ_SEED reruns it'],
    ['calls (stdio / HTTP)', `${f.calls} (${f.byTransport.stdio} / ${f.byTransport.http})`, '≥ 10,000 in test:fuzz'],
    ['tools covered', `${f.toolsCovered} of ${f.toolsInCatalog}`, 'every tool, review tools included'],
    ['crashes (server exits)', String(f.crashes), '0'],
    [
      `hangs (> ${HANG_MS / 1000} s of server CPU, or no answer in 20 s)`,
      `${f.hangs} (most CPU for one call: ${f.mostCpuMs} ms)`,
      '0',
    ],
    [
      `answers after > ${HANG_MS / 1000} s wall clock`,
      `${f.slowAnswers} (slowest ${f.slowestMs} ms; load ${loadNote()})`,
      '0 on a machine not overloaded',
    ],
    ['results over their bound', String(f.overBound), '0'],
    ['answers: registry error code', String(f.answers['registry-error']), ''],
    ['answers: schema-valid result', String(f.answers['valid-result']), ''],
    ['answers: JSON-RPC -32602 (arguments not an object)', String(f.answers['rpc-invalid-params']), ''],
    ['answers: JSON-RPC -32600 (stdio message over 10 MiB)', String(f.answers['rpc-too-large']), ''],
    ['answers: HTTP 413 (body over 4 MiB)', String(f.answers['http-413']), ''],
    ['answers: anything else', String(f.answers.bad), '0'],
    ['share of stable answers', `${(((f.calls - f.answers.bad) / Math.max(1, f.calls)) * 100).toFixed(2)} %`, '100 %'],
    ['path-attack calls / escapes', `${f.pathAttacks} / ${f.pathEscapes}`, '0 escapes'],
    ['files changed outside the workspace', String(f.writesOutside), '0'],
    ['agent attempts at review tools', String(f.reviewAttempts), ''],
    ['  refused with PERMISSION_DENIED', String(f.reviewRefused), 'all but the protocol refusals'],
    [
      '  refused by the protocol (-32602, -32600, HTTP 413)',
      String(f.reviewProtocolRefusals),
      'no tool ran, nothing parsed to audit',
    ],
    ['  unaudited', String(f.reviewUnaudited), '0'],
    ['server restarts', String(f.restarts), '0'],
    ['slowest first call (index builds, not counted)', `${f.warmUpSlowestMs} ms`, ''],
    ['server RSS after warm-up, then per 1,000 calls (MB)', f.rssMb.join(' → ') || 'n/a', ''],
    ['largest RSS rise after warm-up', `${f.rssGrowthMb} MB`, `≤ ${RSS_GROWTH_BOUND_MB} MB`],
    ['seconds', String(f.seconds), ''],
    ...extra,
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([a, b, c]) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`).join('\n');
}
