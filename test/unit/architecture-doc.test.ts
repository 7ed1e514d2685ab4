// docs/architecture.md describes the tiers of eslint/layers.mjs: every folder the rule places is in
// the page, in the same tier, and every folder of src/ is placed by the rule.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');
const SECTIONS: Record<string, string> = {
  'Shared ground': 'ground',
  'Domains': 'domains',
  'The catalog': 'catalog',
  'Adapters': 'adapters',
};

async function tiers(): Promise<Record<string, string[]>> {
  const layers = await import(path.join(root, 'eslint', 'layers.mjs'));
  return layers.TIERS;
}

/** The folders each `## tier` section of the page lists, as `- \`path\`: …` items. */
function documented(markdown: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let tier: string | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) tier = SECTIONS[heading[1].trim()];
    const item = /^- `([^`]+)`/.exec(line);
    if (tier && item) (out[tier] ??= []).push(item[1]);
  }
  return out;
}

const sorted = (o: Record<string, string[]>) =>
  Object.fromEntries(Object.keys(o).sort().map((k) => [k, [...o[k]].sort()]));

test('docs/architecture.md lists the folders of each tier exactly as eslint/layers.mjs places them', async () => {
  const page = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  assert.deepEqual(sorted(documented(page)), sorted(await tiers()));
});

test('every folder and module of src/core, and every adapter folder of src/, has a tier in the rule', async () => {
  const placed = new Set(Object.values(await tiers()).flat());
  const src = path.join(root, 'src');
  const entries = readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'core')
    .map((e) => e.name);
  // A tier folder of the core holds its folders one level down (core/<tier>/<folder>).
  const coreEntries = (dir: string): string[] =>
    readdirSync(path.join(src, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name.replace(/\.ts$/, '')}`;
      if (e.isDirectory() && !placed.has(rel) && [...placed].some((p) => p.startsWith(`${rel}/`))) {
        return coreEntries(rel);
      }
      return e.isDirectory() || e.name.endsWith('.ts') ? [rel] : [];
    });
  const unplaced = [...entries, ...coreEntries('core')].filter((p) => !placed.has(p));
  assert.deepEqual(unplaced, [], 'add each to a tier in eslint/layers.mjs and to docs/architecture.md');
});

test('the page check sees a folder missing from the page', () => {
  const page = '## Domains\n\n- `core/domains/guard`: rules.\n\n## The catalog\n\n- `core/catalog`: tools.\n';
  assert.deepEqual(documented(page), { domains: ['core/domains/guard'], catalog: ['core/catalog'] });
});
