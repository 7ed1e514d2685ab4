/**
 * The fuzz suite as a test: a campaign of generated calls and the special-file and bomb cases, through
 * real MCP servers; prints the figures table and fails with the seed and the failing calls. Used by
 * the full run (test/fuzz/mcp-fuzz.test.ts, `npm run test:fuzz`) and its short form in the MCP layer
 * (test/mcp/fuzz.test.ts, part of `npm test`).
 */
import assert from 'node:assert/strict';
import { catalogSpecs, figuresTable, loadNote, overloaded, RSS_GROWTH_BOUND_MB, runCampaign } from './campaign';
import { HOSTILE_CASES, hostileRows, runHostileCases } from './hostile';

export interface SuiteOptions {
  seed: number;
  calls: number;
  stdioLanes: number;
  httpLanes: number;
  /** Names of the special-file cases to run (all when omitted). */
  hostile?: string[];
  /** Print each failing call as it happens (the full run); the short form prints the digest only. */
  verbose?: boolean;
}

export async function runFuzzSuite(options: SuiteOptions): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line.slice(0, 3000)}\n`);
  process.stderr.write(
    `fuzz: seed ${options.seed} (rerun with AUTOSNIPPET_FUZZ_SEED=${options.seed}), ${options.calls} calls\n`,
  );
  const campaign = await runCampaign({ ...options, log: options.verbose ? log : undefined });
  const cases = options.hostile ? HOSTILE_CASES.filter((c) => options.hostile!.includes(c.name)) : HOSTILE_CASES;
  assert.equal(
    cases.length,
    options.hostile?.length ?? HOSTILE_CASES.length,
    'every special-file case asked for exists',
  );
  const hostile = await runHostileCases(catalogSpecs(), { cases, log: options.verbose ? log : undefined });
  const table = figuresTable(campaign.figures, hostileRows(hostile.figures));
  process.stderr.write(`\n${table}\n\n`);

  const f = campaign.figures;
  const h = hostile.figures;
  const failures = [...campaign.digest, ...hostile.failures].join('\n');
  const context = `seed ${options.seed} (AUTOSNIPPET_FUZZ_SEED=${options.seed} reruns it):\n${failures}`;
  assert.ok(f.calls >= options.calls, `${f.calls} calls made of ${options.calls}`);
  assert.equal(f.toolsCovered, f.toolsInCatalog, 'every tool of the catalog was called');
  assert.equal(f.crashes, 0, `crashes; ${context}`);
  assert.equal(f.hangs, 0, `hangs; ${context}`);
  // Wall-clock time is a figure of the machine as much as of the server: held to 5 s only when the
  // machine is not running more than it has cores for (CI); otherwise printed with the load.
  if (!overloaded()) {
    assert.equal(
      f.slowAnswers + hostile.figures.slowAnswers,
      0,
      `answers after more than 5 s (load ${loadNote()}); ${context}`,
    );
  } else if (f.slowAnswers + hostile.figures.slowAnswers > 0) {
    process.stderr.write(
      `fuzz: ${
        f.slowAnswers + hostile.figures.slowAnswers
      } answers took over 5 s of wall-clock time with the machine overloaded (load ${loadNote()}); not held against the server\n`,
    );
  }
  assert.equal(f.overBound, 0, `results over their bound; ${context}`);
  assert.ok(
    f.rssGrowthMb <= RSS_GROWTH_BOUND_MB,
    `the server's memory rose ${f.rssGrowthMb} MB after its warm-up (${
      f.rssMb.join(' → ')
    } MB), more than ${RSS_GROWTH_BOUND_MB} MB; ${context}`,
  );
  assert.equal(f.answers.bad, 0, `answers without a stable code; ${context}`);
  assert.equal(f.pathEscapes, 0, `path escapes; ${context}`);
  assert.equal(f.writesOutside, 0, `writes outside the workspace; ${context}`);
  assert.equal(f.reviewUnaudited, 0, `unaudited review attempts; ${context}`);
  assert.equal(f.reviewRefused + f.reviewProtocolRefusals, f.reviewAttempts, `review attempts not refused; ${context}`);
  assert.equal(h.answeredInTime, h.calls, `special-file calls; ${context}`);
  assert.equal(h.named, h.expectedToName, `special-file problems named; ${context}`);
  assert.equal(h.healthyAfter, h.cases, `health after special files; ${context}`);
  assert.equal(campaign.failures.length + hostile.failures.length, 0, context);
}
