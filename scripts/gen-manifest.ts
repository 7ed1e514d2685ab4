// Rewrites what is generated from the code: package.json's contributes.languageModelTools (from the
// tool catalog) and contributes.configuration (from the settings table), the tool, error-code and
// settings tables of docs/reference.md, and src/mcp/manifest.json (the MCP server's first answers,
// from the catalog). Unit tests fail when any of them drifts; run `npm run gen:manifest` then.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { allTools, createCatalog } from '../src/core/catalog';
import { errorCodeTable, REFERENCE_DOC, replaceGenerated, toolTable } from '../src/core/catalog/docs';
import { languageModelToolsManifest } from '../src/core/catalog/manifest';
import { configurationManifest, settingsTable } from '../src/core/ground/settings';
import { mcpManifest } from '../src/mcp/manifest';

const root = path.join(__dirname, '..');
const pkgFile = path.join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
pkg.contributes.languageModelTools = languageModelToolsManifest(createCatalog());
pkg.contributes.configuration = configurationManifest();
writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language-model tools`);

const referenceFile = path.join(root, REFERENCE_DOC);
const tables: [string, string][] = [
  ['tools', toolTable(allTools)],
  ['error-codes', errorCodeTable()],
  ['settings', settingsTable()],
];
writeFileSync(
  referenceFile,
  tables.reduce((doc, [name, body]) => replaceGenerated(doc, name, body), readFileSync(referenceFile, 'utf8')),
);
console.log(`${REFERENCE_DOC}: tool, error-code and settings tables`);

const mcpManifestFile = path.join(root, 'src', 'mcp', 'manifest.json');
const manifest = mcpManifest(createCatalog());
writeFileSync(mcpManifestFile, JSON.stringify(manifest) + '\n');
console.log(`src/mcp/manifest.json: ${manifest.tools.length} MCP tools`);
