// The bundles get the version as a constant at build time (scripts/build.mjs), so they do not carry
// package.json (170 KB evaluated at every start); unbundled (tests, tsx) it is read from package.json.
declare const AUTOSNIPPET_VERSION: string | undefined;

export const VERSION: string = typeof AUTOSNIPPET_VERSION === 'string'
  ? AUTOSNIPPET_VERSION
  : (require(['..', '..', 'package.json'].join('/')) as { version: string }).version;
