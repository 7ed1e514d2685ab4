// The layering of the code base as a lint rule: which folder may import which. One table, read by
// the `autosnippet/layers` rule below (and so by `npm run lint`, inside `npm test`).
// Paths are relative to src/. An import is resolved against the importing file before it is checked.
import { builtinModules } from 'node:module';
import path from 'node:path';

/** [files (regex over the importer's path), forbidden targets (regex over the resolved path), why]. */
export const LAYERS = [
  [/^core\/kernel\//, /^(?!core\/kernel\/)/, 'the kernel is the bottom layer: it imports nothing else of ours'],
  [/^core\/(text|files)\//, /^(?!core\/(kernel|text|files)\/)/, 'the text and file layers build on the kernel only'],
  [/^core\//, /^(vscode|mcp|cli|webview)(\/|$)/, 'the core imports no adapter: dependencies point down only'],
  [/^core\/(?!tools\/|gateway\/)/, /^core\/tools(\/|$)/, 'domains do not import the catalog that sits above them'],
  [/^core\/(?!tools\/|retrieval\/)/, /^core\/retrieval(\/|$)/, 'retrieval sits above knowledge and search'],
  [/^core\/agent\//, /^core\/(tools|retrieval)(\/|$)/, 'the agent runs tools it is given, it imports none'],
  [/^core\/knowledge\//, /^core\/(guard|agent)(\/|$)/, 'knowledge sits below guard and the agent'],
  [/^core\/search\//, /^core\/(guard|knowledge|agent)(\/|$)/, 'search is below knowledge'],
  [
    /^(cli|vscode)\//,
    /^core\/(?!tools(\/|$)|workspace$|kernel\/|version$)/,
    'adapters reach the core only through the catalog (core/tools, its adapters facade), the Workspace, the kernel and the version constant',
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
/** Type-only imports that cross a line on purpose. */
const TYPE_ONLY_OK = [[/^core\/gateway\//, /^core\/tools\/types$/]];

function check(context, node, source, typeOnly) {
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
  for (const [from, to, why] of LAYERS) {
    if (!from.test(file) || !to.test(target)) continue;
    if (typeOnly && TYPE_ONLY_OK.some(([f, t]) => f.test(file) && t.test(target))) continue;
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
      ImportDeclaration: (n) => check(context, n, n.source.value, n.importKind === 'type'),
      ExportNamedDeclaration: (n) => n.source && check(context, n, n.source.value, n.exportKind === 'type'),
      ExportAllDeclaration: (n) => check(context, n, n.source.value, n.exportKind === 'type'),
      ImportExpression: (n) => n.source.type === 'Literal' && check(context, n, n.source.value, false),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal') {
          check(context, n, n.arguments[0].value, false);
        }
      },
    };
  },
};

export default { rules: { layers: layersRule } };
