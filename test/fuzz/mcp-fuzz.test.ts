// Issue 10, "Done when": ≥ 10,000 generated calls to every catalog tool through real MCP servers (two
// over stdio, one over Streamable HTTP) on a hostile workspace, plus every special-file and bomb case;
// prints the figures table. Run with `npm run test:fuzz` (a few minutes; the SIGKILL trials run beside
// it in test/fuzz/store-sigkill.test.ts). A fresh seed each run unless AUTOSNIPPET_FUZZ_SEED is set;
// AUTOSNIPPET_FUZZ_CALLS changes the number of calls. The short form is test/mcp/fuzz.test.ts.
import { it } from 'node:test';
import { runSeed } from './helpers/random';
import { runFuzzSuite } from './helpers/suite';

it(
  '10,000+ fuzzed MCP calls: no crash, no hang, every answer stable and within its bound, nothing read or written outside, every agent attempt at a review tool audited',
  { timeout: 60 * 60 * 1000 },
  async () => {
    await runFuzzSuite({
      seed: runSeed(),
      calls: Number(process.env.AUTOSNIPPET_FUZZ_CALLS ?? 10_200),
      stdioLanes: 2,
      httpLanes: 1,
      verbose: true,
    });
  },
);
