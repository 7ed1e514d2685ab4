// The bundles get the version as a constant at build time (scripts/build.mjs), so they do not carry
// package.json (170 KB evaluated at every start); unbundled (tests, tsx) it is read from package.json,
// the nearest one up from this file, so it is found wherever this folder sits.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

declare const AUTOSNIPPET_VERSION: string | undefined;

function packageVersion(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

export const VERSION: string = typeof AUTOSNIPPET_VERSION === 'string' ? AUTOSNIPPET_VERSION : packageVersion();
