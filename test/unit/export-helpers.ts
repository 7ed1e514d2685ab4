// Shared by the export-* tests: a workspace with published recipes in three languages, and the
// export called the way a person calls it (the catalog, or the CLI).
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main';
import { createCatalog } from '../../src/core/catalog';
import { publishRecipe } from '../../src/core/domains/knowledge';
import { citingRecipe } from './freshness-helpers';
import { human, tempWorkspace } from './knowledge-helpers';

export const catalog = createCatalog();
export type Ws = Awaited<ReturnType<typeof tempWorkspace>>;

export async function exportTo(ws: Ws, input: Record<string, unknown>): Promise<any> {
  const r = await catalog.invoke(ws, 'export_recipes', input, human);
  assert.ok(r.ok, JSON.stringify(r));
  return r.data;
}

export async function publish(
  ws: Ws,
  slug: string,
  r: { title: string; summary: string; language: string; knowledgeType: string; category?: string; sources?: string[] },
): Promise<string> {
  const id = await citingRecipe(ws, slug, { ...r, sources: r.sources ?? [], status: 'draft' });
  await publishRecipe(ws, id, 'human');
  return id;
}

/** A TypeScript rule and pattern, a Swift rule, and a language-neutral fact. */
export async function seeded(): Promise<Ws> {
  const ws = await tempWorkspace();
  await publish(ws, 'use-getjson', {
    title: 'Network calls go through getJson',
    summary: 'Call the network through getJson in src/http.ts, never fetch directly.',
    language: 'typescript',
    knowledgeType: 'code-standard',
  });
  await publish(ws, 'retry', {
    title: 'Retry transient failures',
    summary: 'Wrap calls that may fail transiently in withRetry.',
    language: 'typescriptreact',
    knowledgeType: 'code-pattern',
  });
  await publish(ws, 'main-actor', {
    title: 'UI on the main actor',
    summary: 'Mark view models @MainActor.',
    language: 'swift',
    knowledgeType: 'best-practice',
    category: 'ios',
  });
  await publish(ws, 'layers', {
    title: 'Three layers',
    summary: 'The app is split into ui, domain and data; data never imports ui.',
    language: 'text',
    knowledgeType: 'architecture',
    category: 'architecture',
  });
  return ws;
}

/** `autosnippet --workspace <root> export …`, in process: its exit code and what it printed. */
export async function runExport(ws: Ws, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const code = await main(['--workspace', ws.root, 'export', ...args], {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
  });
  return { code, ...out };
}
