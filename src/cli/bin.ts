// Entry point of dist/cli.js, bundled on its own and small: `autosnippet --version` is answered from
// the build-time constant without reading the CLI proper (src/cli/main.ts, bundled as dist/cli-main.js
// with every domain of the core), which every other command loads.
import { VERSION } from '../core/ground/version';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  process.stdout.write(VERSION + '\n');
} else {
  const { main } = require('./main') as typeof import('./main');
  main(argv, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) }).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`autosnippet: ${(e as Error).stack ?? e}\n`);
      process.exit(1);
    },
  );
}
