import { ERROR_CODES } from '../ground/kernel/errors';
import type { AnyTool } from './types';

/** The file whose tables (tools, error codes, settings) are generated from the code: `npm run gen:manifest`. */
export const REFERENCE_DOC = 'docs/reference.md';

/** The reference's table of tools, in catalog order: name, domain, who may call it, its one line. */
export function toolTable(tools: readonly AnyTool[]): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.domain} | ${t.access} | ${cell(t.summary)} |`);
  return ['| tool | domain | access | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** The reference's table of error codes: code, meaning, what to do. */
export function errorCodeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, { meaning, action }]) =>
    `| \`${code}\` | ${cell(meaning)} | ${cell(action)} |`
  );
  return ['| code | meaning | what to do |', '|---|---|---|', ...rows].join('\n');
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` (markers kept). */
export function replaceGenerated(doc: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document has no ${start} … ${end} block`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

/** The text between the markers, for tests. */
export function generatedBlock(doc: string, name: string): string | undefined {
  const m = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(doc);
  return m?.[1];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
