// Shared by the knowledge-* and search-* tests: real temporary workspaces with recipe files on disk.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { knowledgeTools } from '../../src/core/catalog/knowledge';
import type { ToolContext, ToolResult } from '../../src/core/catalog/types';
import { Workspace } from '../../src/core/ground/workspace';

export const human: ToolContext = { actor: 'human', channel: 'test' };
export const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

export async function tempWorkspace(): Promise<Workspace & { cleanup(): Promise<void> }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-knowledge-'));
  const ws = await Workspace.open(root);
  return Object.assign(ws, {
    async cleanup() {
      await ws.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  });
}

export function writeRecipe(ws: Workspace, rel: string, text: string): string {
  const abs = path.join(ws.root, '.autosnippet', 'recipes', rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  return abs;
}

export interface RecipeSpec {
  title: string;
  trigger?: string;
  summary?: string;
  language?: string;
  knowledgeType?: string;
  tags?: string[];
  code?: string;
  status?: string;
  body?: string;
}

export function recipeText(r: RecipeSpec): string {
  const fm = [
    `title: ${JSON.stringify(r.title)}`,
    r.trigger ? `trigger: ${JSON.stringify(r.trigger)}` : '',
    r.summary ? `summary: ${JSON.stringify(r.summary)}` : '',
    r.language ? `language: ${r.language}` : '',
    r.knowledgeType ? `knowledgeType: ${r.knowledgeType}` : '',
    r.tags ? `tags: [${r.tags.join(', ')}]` : '',
    r.status ? `status: ${r.status}` : '',
  ].filter(Boolean);
  return `---\n${fm.join('\n')}\n---\n\n${r.body ?? ''}\n\n\`\`\`${r.language ?? ''}\n${r.code ?? '// code'}\n\`\`\`\n`;
}

let catalog: ToolCatalog | undefined;
export function knowledgeCatalog(): ToolCatalog {
  return (catalog ??= new ToolCatalog(knowledgeTools));
}

export async function call<T = any>(ws: Workspace, tool: string, input: unknown, ctx: ToolContext = human): Promise<T> {
  const r: ToolResult = await knowledgeCatalog().invoke(ws, tool, input, ctx);
  if (!r.ok) throw Object.assign(new Error(`${tool}: ${r.error.code}: ${r.error.message}`), { body: r.error });
  return r.data as T;
}

export async function callRaw(
  ws: Workspace,
  tool: string,
  input: unknown,
  ctx: ToolContext = human,
): Promise<ToolResult> {
  return knowledgeCatalog().invoke(ws, tool, input, ctx);
}

/** A well-formed proposal with evidence, for the lifecycle tests. */
export const retryProposal = (title: string) => ({
  title,
  summary: 'Wrap every HTTP call in withRetry so transient failures are retried.',
  code: 'await withRetry(() => fetch(url));',
  language: 'typescript',
  category: 'networking',
  reasoning: { whyStandard: 'Used by all 12 API clients.', sources: ['src/api/users.ts:10'], confidence: 0.9 },
});
