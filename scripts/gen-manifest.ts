// Rewrites what is generated from the code: package.json's contributes.languageModelTools (from the
// tool catalog) and contributes.configuration (from the settings table), and the README's error-code
// and settings tables. Unit tests fail when
// either drifts; run `npm run gen:manifest` then.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCatalog } from '../src/core/tools';
import { languageModelToolsManifest } from '../src/core/tools/manifest';
import { errorCodeTable, replaceGenerated } from '../src/core/tools/docs';
import { configurationManifest, settingsTable } from '../src/core/settings';

const root = path.join(__dirname, '..');
const pkgFile = path.join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
pkg.contributes.languageModelTools = languageModelToolsManifest(createCatalog());
pkg.contributes.configuration = configurationManifest();
writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language-model tools`);

const readmeFile = path.join(root, 'README.md');
const readme = replaceGenerated(replaceGenerated(readFileSync(readmeFile, 'utf8'), 'error-codes', errorCodeTable()), 'settings', settingsTable());
writeFileSync(readmeFile, readme);
console.log('README.md: error-code and settings tables');
