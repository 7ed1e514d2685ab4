// Bundles the extension, the MCP server and the CLI into dist/, with the sql.js wasm beside them.
// Also bundles the integration-test module into out/test so the extension host can load it.
// `--production` (npm run package) minifies and compresses the large data files harder.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const require = createRequire(import.meta.url);
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  // jsonc-parser's UMD main loads its parts with a require esbuild cannot follow; its ESM build bundles.
  mainFields: ['module', 'main'],
  // Bundles run from dist/, so __dirname there is where the wasm lives.
  // The version as a constant, so no bundle carries package.json (src/core/ground/version.ts).
  define: {
    'process.env.AUTOSNIPPET_BUNDLED': '"1"',
    AUTOSNIPPET_VERSION: JSON.stringify(require('../package.json').version),
  },
};

// Large libraries that only some code paths need (the ReDoS analysis, the tokenizer's ranks) live in
// their own files under dist/vendor/ and are loaded on first use, so every bundle starts fast.
const vendored = {
  'recheck/lib/browser.js': 'recheck.js',
  'js-tiktoken/ranks/o200k_base': 'o200k_base.js',
  // The MCP SDK's client (and zod with it), needed only when the agent reaches another MCP server.
  './sdk-client': 'mcp-client.js',
};
/** Vendored modules of our own: the file each specifier names. */
const vendoredSources = { './sdk-client': path.join(root, 'src/core/domains/servers/sdk-client.ts') };
const vendorPlugin = {
  name: 'vendor',
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(vendored).map((k) => k.replace(/[./]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: `./vendor/${vendored[args.path]}`, external: true }));
  },
};

// zod (the MCP SDK's schemas) carries its messages in every language it supports; nothing of ours or of
// the SDK sets a locale, so the bundles keep the English one zod configures itself with.
const zodLocalesPlugin = {
  name: 'zod-locales',
  setup(build) {
    build.onResolve(
      { filter: /^\.\.\/locales\/index\.c?js$/ },
      (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
          ? {
            path: path.join(path.dirname(args.importer), '..', 'locales', 'index-en-only.cjs'),
            namespace: 'zod-locales',
          }
          : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'exports.en = require("./en.cjs").default;\n',
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

// Small fronts: dist/mcp.js (src/mcp/main.ts: the arguments and the MCP server's first answers) and
// dist/cli.js (src/cli/bin.ts: `--version`) are Node built-ins and little else; each one's require of
// the program proper becomes a require of its own bundle, read only when needed.
const fronts = { 'src/mcp/main.ts': ['./serve', './mcp-server.js'], 'src/cli/bin.ts': ['./main', './cli-main.js'] };
const frontPlugin = (front) => ({
  name: 'front',
  setup(build) {
    const [request, bundle] = fronts[front];
    const importer = path.join(root, front);
    build.onResolve(
      { filter: /^\.\/\w+$/ },
      (args) => (args.importer === importer && args.path === request ? { path: bundle, external: true } : undefined),
    );
  },
});

// Large data files ship brotli-compressed (`NAME.br`): a zip's deflate gets 51-76% of them, brotli at
// its highest quality a third less again. That quality takes tens of seconds on two cores, so the
// result is cached under .cache/brotli by content hash, and development builds use a fast quality.
const brotliCache = path.join(root, '.cache/brotli');
function brotli(bytes) {
  const quality = production ? 11 : 5;
  const cached = path.join(
    brotliCache,
    `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-q${quality}.br`,
  );
  if (existsSync(cached)) return readFileSync(cached);
  const out = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  mkdirSync(brotliCache, { recursive: true });
  writeFileSync(cached, out);
  return out;
}
function writeCompressed(file, bytes) {
  rmSync(file, { force: true });
  writeFileSync(`${file}.br`, brotli(bytes));
}
// A vendored module ships as NAME.js.br beside a stub NAME.js that decompresses and compiles it into
// itself on first require: the requiring code is unchanged.
const VENDOR_STUB =
  '"use strict";module._compile(require("zlib").brotliDecompressSync(require("fs").readFileSync(__filename+".br")).toString("utf8"),__filename);\n';

mkdirSync(path.join(root, 'dist/vendor'), { recursive: true });
await Promise.all(
  Object.entries(vendored).map(async ([from, to]) => {
    const built = await esbuild.build({
      ...common,
      sourcemap: false,
      minify: true,
      entryPoints: [vendoredSources[from] ?? require.resolve(from)],
      write: false,
      outfile: path.join(root, 'dist/vendor', to),
      plugins: [zodLocalesPlugin],
    });
    const file = path.join(root, 'dist/vendor', to);
    writeCompressed(file, built.outputFiles[0].contents);
    writeFileSync(file, VENDOR_STUB);
  }),
);
// The MCP server and the CLI share one bundle, dist/main.js, so the package carries their core once.
// Each is a getter whose require() esbuild turns into a lazily initialised module, so a process runs
// only the modules its program reaches; dist/mcp-server.js and dist/cli-main.js are one-line files
// that pick their program out of it. The extension keeps a bundle of its own: in a shared bundle its
// modules would be wrapped the same way, and loading it took 20-30% longer than the hoisted bundle.
// (esbuild shares chunks only between ESM outputs; these bundles stay CommonJS because they load
// their heavy parts and data files with require() and __dirname, and Node 20 cannot require() ESM.)
const programs = { mcp: 'src/mcp/serve', cli: 'src/cli/main' };
const shared = {
  contents: `module.exports = {\n${
    Object.entries(programs).map(([k, src]) => `  get ${k}() { return require('./${src}'); },`).join('\n')
  }\n};\n`,
  resolveDir: root,
  sourcefile: 'dist-main.js',
  loader: 'js',
};
const thin = { 'dist/mcp-server.js': 'mcp', 'dist/cli-main.js': 'cli' };
const entries = [
  { in: 'src/vscode/extension.ts', out: 'dist/extension.js', external: ['vscode'] },
  { stdin: shared, out: 'dist/main.js', external: [] },
  { in: 'src/mcp/main.ts', out: 'dist/mcp.js', external: [], plugins: [frontPlugin('src/mcp/main.ts')] },
  {
    in: 'src/cli/bin.ts',
    out: 'dist/cli.js',
    external: [],
    banner: '#!/usr/bin/env node',
    plugins: [frontPlugin('src/cli/bin.ts')],
  },
  { in: 'src/core/domains/guard/worker-main.ts', out: 'dist/guard-worker.js', external: [] },
  { in: 'src/core/domains/custom-tools/worker-main.ts', out: 'dist/custom-tool-worker.js', external: [] },
];
const testEntries = [];
if (!production) {
  for (const dir of ['test/vscode/suite', 'test/vscode/multiroot']) {
    const abs = path.join(root, dir);
    if (existsSync(path.join(abs, 'index.ts'))) {
      testEntries.push({ in: `${dir}/index.ts`, out: `out/${dir}/index.js`, external: ['vscode'] });
    }
  }
  const fakeLm = path.join(root, 'test/vscode/fake-lm-extension/src/extension.ts');
  if (existsSync(fakeLm)) {
    testEntries.push({
      in: 'test/vscode/fake-lm-extension/src/extension.ts',
      out: 'test/vscode/fake-lm-extension/dist/extension.js',
      external: ['vscode'],
    });
  }
}

await Promise.all(
  [...entries, ...testEntries]
    .filter((e) => e.stdin || existsSync(path.join(root, e.in)))
    .map((e) =>
      esbuild.build({
        ...common,
        ...(e.stdin ? { stdin: e.stdin } : { entryPoints: [path.join(root, e.in)] }),
        outfile: path.join(root, e.out),
        external: e.external,
        banner: e.banner ? { js: e.banner } : undefined,
        plugins: [...(e.plugins ?? []), ...(e.out.startsWith('dist/') ? [vendorPlugin, zodLocalesPlugin] : [])],
      })
    ),
);

// The MCP server's and the CLI's program and the guard's worker are not on the extension's activation
// path: in the package they ship brotli-compressed behind the same stub as the vendored modules.
if (production) {
  for (const file of ['dist/main.js', 'dist/guard-worker.js']) {
    writeCompressed(path.join(root, file), readFileSync(path.join(root, file)));
    writeFileSync(path.join(root, file), VENDOR_STUB);
  }
} else {
  for (const file of ['dist/main.js', 'dist/guard-worker.js']) rmSync(path.join(root, `${file}.br`), { force: true });
}

for (const [file, program] of Object.entries(thin)) {
  writeFileSync(path.join(root, file), `"use strict";\nmodule.exports = require('./main.js').${program};\n`);
  rmSync(path.join(root, `${file}.map`), { force: true });
}

// The review panel's page: a browser bundle, its stylesheet and the codicon font, all under dist/webview
// (the only folder the webview may load from).
const webview = path.join(root, 'dist/webview');
mkdirSync(webview, { recursive: true });
await esbuild.build({
  entryPoints: [path.join(root, 'src/webview/review/main.ts')],
  outfile: path.join(webview, 'review.js'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  minify: production,
  sourcemap: production ? false : 'inline',
  logLevel: 'warning',
});
copyFileSync(path.join(root, 'src/webview/review/review.css'), path.join(webview, 'review.css'));
const codicons = path.join(path.dirname(require.resolve('@vscode/codicons/package.json')), 'dist');
for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(path.join(codicons, f), path.join(webview, f));

copyFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'), path.join(root, 'dist/sql-wasm.wasm'));
// The MCP server's first answers (initialize, tools/list), generated from the catalog; read by dist/mcp.js.
copyFileSync(path.join(root, 'src/mcp/manifest.json'), path.join(root, 'dist/mcp-manifest.json'));
// The Chinese → English glossaries of the text layer (general: CC BY-SA 4.0, licence beside it; developer: ours), read on first use.
writeCompressed(
  path.join(root, 'dist/vendor/zh-en.json'),
  readFileSync(path.join(root, 'src/core/ground/text/zh-en.json')),
);
copyFileSync(path.join(root, 'src/core/ground/text/zh-en-dev.json'), path.join(root, 'dist/vendor/zh-en-dev.json'));
copyFileSync(path.join(root, 'src/core/ground/text/zh-en.LICENSE.md'), path.join(root, 'dist/vendor/zh-en.LICENSE.md'));
// The names of technologies skill routing recognises in a request (ours), read on first use.
copyFileSync(path.join(root, 'src/core/ground/text/tech-names.json'), path.join(root, 'dist/vendor/tech-names.json'));
// The word vectors of skill search's meaning signal (GloVe, PDDL; licence beside it), read on first use.
copyFileSync(path.join(root, 'src/core/ground/text/word-vectors.bin'), path.join(root, 'dist/vendor/word-vectors.bin'));
copyFileSync(
  path.join(root, 'src/core/ground/text/word-vectors.LICENSE.md'),
  path.join(root, 'dist/vendor/word-vectors.LICENSE.md'),
);
// Guard's structural rules: the tree-sitter runtime and the grammars they use, beside the bundles.
const grammars = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
mkdirSync(path.join(root, 'dist/tree-sitter'), { recursive: true });
for (const f of [
  'tree-sitter',
  ...['typescript', 'tsx', 'javascript', 'python', 'go', 'java', 'rust'].map((g) => `tree-sitter-${g}`),
]) {
  const to = path.join(root, 'dist/tree-sitter', `${f}.wasm`);
  // A grammar is read on a structural rule's first use; the package carries it compressed (NAME.wasm.br).
  if (production && f !== 'tree-sitter') writeCompressed(to, readFileSync(path.join(grammars, `${f}.wasm`)));
  else {
    rmSync(`${to}.br`, { force: true });
    copyFileSync(path.join(grammars, `${f}.wasm`), to);
  }
}
console.log(
  `built ${readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.js')).join(', ')}${
    production ? ' (production)' : ''
  }`,
);
