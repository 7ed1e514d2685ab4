// The layering of the code base as a lint rule: which folder may import which. One table, read by
// the `autosnippet/layers` rule below (and so by `npm run lint`, inside `npm test`).
// Paths are relative to src/. An import is resolved against the importing file before it is checked.
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The tiers, bottom up: every folder and top-level module of src/core, and the adapters. A tier may
 * import its own and the ones below; docs/architecture.md describes them (a test keeps the two in step,
 * and another that every folder of src/core is listed here).
 */
export const TIERS = {
  /** What every domain stands on: errors and names, text analysis, safe files, the store, workers, settings, trust, the Workspace. */
  ground: [
    'core/ground/kernel',
    'core/ground/text',
    'core/ground/files',
    'core/ground/store',
    'core/ground/workers',
    'core/ground/settings',
    'core/ground/trust',
    'core/ground/version',
    'core/ground/workspace',
  ],
  /** The product's subjects; a domain calls another's functions, never its tables. */
  domains: [
    'core/domains/search',
    'core/domains/knowledge',
    'core/domains/retrieval',
    'core/domains/skills',
    'core/domains/guard',
    'core/domains/graph',
    'core/domains/structure',
    'core/domains/bootstrap',
    'core/domains/export',
    'core/domains/servers',
    'core/domains/custom-tools',
    'core/domains/packs',
    'core/domains/agent',
    'core/domains/gateway',
  ],
  /** Every capability declared once; every surface is generated from it. */
  catalog: ['core/catalog'],
  /** The worlds the core is served to; they reach it through the catalog. */
  adapters: ['cli', 'mcp', 'vscode', 'webview'],
};

const alternatives = (paths) => paths.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
/** A path inside one of these folders, or one of these modules. */
const within = (...paths) => new RegExp(`^(${alternatives(paths)})(/|$)`);
/** A path of ours outside all of them. */
const outside = (...paths) => new RegExp(`^(?!(${alternatives(paths)})(/|$))`);
const tier = (name, ...except) => TIERS[name].filter((p) => !except.includes(p));
/** Reached by any path not in the adapters: the kernel, the Workspace, the version and the catalog. */
const ADAPTER_DOORS = ['core/catalog', 'core/ground/workspace', 'core/ground/kernel', 'core/ground/version'];

/** [files (regex over the importer's path), forbidden targets (regex over the resolved path), why]. */
export const LAYERS = [
  [
    within('core/ground/kernel'),
    outside('core/ground/kernel'),
    'the kernel is the bottom layer: it imports nothing else of ours',
  ],
  [
    within('core/ground/text', 'core/ground/files'),
    outside('core/ground/kernel', 'core/ground/text', 'core/ground/files'),
    'the text and file layers build on the kernel only',
  ],
  [within(...TIERS.ground), within(...TIERS.domains, ...TIERS.catalog), 'the shared ground imports no domain'],
  [/^core\//, within(...TIERS.adapters), 'the core imports no adapter: dependencies point down only'],
  [
    within(...TIERS.domains),
    within(...TIERS.catalog),
    'domains (the gateway too) do not import the catalog that sits above them',
  ],
  [
    within(...tier('ground'), ...tier('domains', 'core/domains/retrieval')),
    within('core/domains/retrieval'),
    'retrieval sits above knowledge and search',
  ],
  [
    within('core/domains/agent'),
    within(...TIERS.catalog, 'core/domains/retrieval'),
    'the agent runs tools it is given, it imports none',
  ],
  [
    within('core/domains/knowledge'),
    within('core/domains/guard', 'core/domains/agent'),
    'knowledge sits below guard and the agent',
  ],
  [
    within('core/domains/search'),
    within('core/domains/guard', 'core/domains/knowledge', 'core/domains/agent'),
    'search is below knowledge',
  ],
  [
    within(...TIERS.adapters),
    new RegExp(`^(?!(${alternatives(ADAPTER_DOORS)})(/|$))core/`),
    'adapters reach the core only through the catalog (its adapters facade), the Workspace, the kernel and the version constant',
  ],
];
/** Bare module names a folder may not import. */
export const MODULES = [
  [/^(core|mcp|cli)\//, (m) => m === 'vscode', 'the core, the MCP server and the CLI run without VS Code'],
  [
    /^webview\//,
    (m) => m.startsWith('node:') || builtinModules.includes(m.split('/')[0]) || m === 'vscode',
    'the webview runs in a browser: no Node modules, no vscode API',
  ],
];

function check(context, node, source) {
  if (typeof source !== 'string') return;
  const src = path.join(context.cwd, 'src');
  const file = path.relative(src, context.filename).split(path.sep).join('/');
  if (file.startsWith('..')) return;
  if (!source.startsWith('.')) {
    for (const [from, bad, why] of MODULES) {
      if (from.test(file) && bad(source)) context.report({ node, messageId: 'module', data: { source, why } });
    }
    return;
  }
  const target = path.relative(src, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/')
    .replace(/\.(ts|js|mjs)$/, '').replace(/\/index$/, '');
  // The table is checked in order; the most specific lines come first.
  const module = file.replace(/\.(ts|tsx|js|mjs)$/, '');
  for (const [from, to, why] of LAYERS) {
    if (!from.test(module) || !to.test(target)) continue;
    context.report({ node, messageId: 'layer', data: { file, target, why } });
    return; // the first (most specific) reason is enough
  }
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layering of the code base (eslint/layers.mjs).' },
    messages: {
      layer: '{{file}} may not import {{target}}: {{why}}.',
      module: '"{{source}}" may not be imported here: {{why}}.',
    },
    schema: [],
  },
  create(context) {
    return {
      ImportDeclaration: (n) => check(context, n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(context, n, n.source.value),
      ExportAllDeclaration: (n) => check(context, n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(context, n, n.source.value),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal') {
          check(context, n, n.arguments[0].value);
        }
      },
    };
  },
};

export default { rules: { layers: layersRule } };
