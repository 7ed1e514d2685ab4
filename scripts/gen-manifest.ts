// Rewrites package.json's contributes.languageModelTools from the tool catalog.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCatalog } from '../src/core/tools';
import { languageModelToolsManifest } from '../src/core/tools/manifest';

const file = path.join(__dirname, '..', 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.contributes.languageModelTools = languageModelToolsManifest(createCatalog());
writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language-model tools`);
