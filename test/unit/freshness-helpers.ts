// Shared by the freshness-* and export-* tests: a workspace with source files, recipes that cite them, and git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { syncRecipes } from '../../src/core/domains/knowledge/recipe-index';
import { parseFrontMatter } from '../../src/core/ground/files';
import type { Workspace } from '../../src/core/ground/workspace';
import { writeRecipe } from './knowledge-helpers';

export const HTTP_TS = [
  'import { log } from "./log";',
  '',
  'export async function getJson<T>(url: string, timeoutMs = 5000): Promise<T> {',
  '  const controller = new AbortController();',
  '  const timer = setTimeout(() => controller.abort(), timeoutMs);',
  '  try {',
  '    const res = await fetch(url, { signal: controller.signal });',
  '    return (await res.json()) as T;',
  '  } finally {',
  '    clearTimeout(timer);',
  '  }',
  '}',
  '',
].join('\n');

export function writeSource(ws: Workspace, rel: string, text: string): void {
  const abs = path.join(ws.root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

/** A Markdown file's front matter read as YAML (js-yaml's safe schema): its fields, whether it has one, and the body. */
export function frontMatterOf(text: string): { data: Record<string, any>; present: boolean; content: string } {
  const fm = parseFrontMatter(text.replace(/\r\n/g, '\n'));
  if (!fm.ok) throw new Error(fm.problem.message);
  return { data: fm.value.data, present: fm.value.present, content: fm.value.body };
}

export function readText(ws: Workspace, rel: string): string {
  return readFileSync(path.join(ws.root, rel), 'utf8');
}

/** Replaces `from` by `to` in a workspace file. */
export function edit(ws: Workspace, rel: string, from: string, to: string): void {
  const text = readText(ws, rel);
  if (!text.includes(from)) throw new Error(`${rel} does not contain ${from}`);
  writeSource(ws, rel, text.replace(from, to));
}

export interface CitingRecipe {
  title: string;
  sources: string[];
  code?: string;
  status?: 'draft' | 'published';
  fingerprints?: string;
  language?: string;
  knowledgeType?: string;
  summary?: string;
  category?: string;
}

/** A hand-written recipe file citing sources (frontmatter `sources`), indexed. */
export async function citingRecipe(ws: Workspace, slug: string, r: CitingRecipe): Promise<string> {
  const category = r.category ?? 'networking';
  const fm = [
    `title: ${JSON.stringify(r.title)}`,
    `summary: ${JSON.stringify(r.summary ?? `${r.title}.`)}`,
    `language: ${r.language ?? 'typescript'}`,
    `knowledgeType: ${r.knowledgeType ?? 'code-pattern'}`,
    `status: ${r.status ?? 'published'}`,
    `sources: [${r.sources.map((s) => JSON.stringify(s)).join(', ')}]`,
    r.fingerprints ?? '',
  ].filter(Boolean);
  writeRecipe(
    ws,
    `${category}/${slug}.md`,
    `---\n${fm.join('\n')}\n---\n\n${r.code ? '```ts\n' + r.code + '\n```\n' : 'Text only.\n'}`,
  );
  await syncRecipes(ws);
  return `${category}/${slug}`;
}

export function git(ws: Workspace, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: ws.root,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });
}

export function gitInit(ws: Workspace): void {
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'start');
}
