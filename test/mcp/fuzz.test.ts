// The short form of the MCP fuzz suite (test/fuzz/mcp-fuzz.test.ts), so every `npm test` and CI run
// keeps the attacks: 600 generated calls to every catalog tool over stdio and HTTP, with a fixed seed,
// and the special-file and bomb cases that hung or crashed the server before (about 30 s).
import { it } from 'node:test';
import { runSeed } from '../fuzz/helpers/random';
import { runFuzzSuite } from '../fuzz/helpers/suite';

const SHORT_HOSTILE = [
  '.gitignore is a FIFO',
  '.gitignore is a link to /dev/zero',
  "a FIFO in a skill's references/",
  "a YAML alias bomb in a recipe's front matter",
  'a recipe that is a FIFO',
  'a 100,000-character project regex',
  'a catastrophic project regex ((a+)+$)',
  'a project regex with nested counted repetitions',
  'a committed setting that allows skill scripts',
  'the database path is a folder',
];

it(
  '600 fuzzed MCP calls and the special-file cases: no crash, no hang, stable answers within their bounds, no escape, every review attempt audited',
  { timeout: 240_000 },
  async () => {
    await runFuzzSuite({ seed: runSeed(20261123), calls: 600, stdioLanes: 1, httpLanes: 1, hostile: SHORT_HOSTILE });
  },
);
