// The Markdown body of a recipe file: its sections (usage, code, rationale, steps) in and out.
import { lookup } from '../../ground/kernel/tables';
import type { Recipe, RecipeStep } from './types';

export function bodyOf(r: Recipe): string {
  const parts: string[] = [`# ${r.title}`];
  if (r.usageGuide) parts.push(`## When to use\n\n${r.usageGuide.trim()}`);
  if (r.code) parts.push(`## Code\n\n${fence(r.code, r.language)}`);
  if (r.rationale) parts.push(`## Why\n\n${r.rationale.trim()}`);
  if (r.steps?.length) {
    parts.push(
      '## Steps\n\n'
        + r.steps
          .map((s, i) =>
            [`### ${i + 1}. ${s.title.trim()}`, s.description?.trim(), s.code ? fence(s.code, r.language) : undefined]
              .filter(Boolean).join('\n\n')
          )
          .join('\n\n'),
    );
  }
  if (r.sourceFiles?.length) {
    parts.push(`## Sources\n\n${r.sourceFiles.map((s) => `- ${sourceLink(s, r.file)}`).join('\n')}`);
  }
  return parts.join('\n\n') + '\n';
}

/** `src/a.ts:12` as a Markdown link that opens the file at the line, relative to the recipe file. */
export function sourceLink(source: string, recipeFile: string): string {
  const m = /^(.+?)(?::(\d+))?$/.exec(source.trim());
  if (!m || /^[a-z]+:\/\//i.test(source) || m[1].startsWith('/') || m[1].split('/').includes('..')) return source;
  const up = '../'.repeat(Math.max(0, recipeFile.split('/').length - 1));
  return `[${source}](${up}${encodeURI(m[1])}${m[2] ? `#L${m[2]}` : ''})`;
}

/** A Sources list item back to `path:line`: the link's text, or a plain `path:line`. */
function sourceOf(item: string): string | undefined {
  const t = item.replace(/^\s*[-*+]\s+/, '').trim();
  const link = /^\[([^\]]+)\]\(([^)]*)\)/.exec(t);
  const text = (link ? link[1] : t).replace(/^`|`$/g, '');
  return /^[^\s]+(:\d+)?$/.test(text) ? text : undefined;
}

/**
 * True when a "code" block is a listing of places (`path:line  text` on every line), as older
 * cold-start candidates carried: those are sources, never code to insert.
 */
export function isSourceListing(code: string): boolean {
  const lines = code.split('\n').filter((l) => l.trim());
  return lines.length > 0
    && lines.every((l) => /^\s*[^\s:]+\.[\w]+:\d+(\s|$)/.test(l) || /^\s*[^\s:]+\/[^\s:]*:\d+(\s|$)/.test(l));
}

/** The `path:line` of each line of a listing. */
export function listingSources(code: string): string[] {
  return code
    .split('\n')
    .map((l) => /^\s*([^\s]+:\d+)/.exec(l)?.[1])
    .filter((x): x is string => !!x);
}

/** A fenced block long enough that the code's own backtick runs cannot close it. */
export function fence(code: string, language: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${language === 'text' ? '' : language}\n${code.replace(/\n+$/, '')}\n${f}`;
}

export interface BodySections {
  heading?: string;
  firstParagraph?: string;
  /** Prose before the first `##` section. */
  preamble?: string[];
  usageGuide?: string;
  code?: { text: string; language?: string };
  rationale?: string;
  steps: RecipeStep[];
  /** The items of a `## Sources` section, as `path:line`. */
  sources: string[];
}

const SECTION_NAMES: Record<string, 'usage' | 'code' | 'rationale' | 'steps' | 'sources'> = {
  usage: 'usage',
  'usage guide': 'usage',
  'when to use': 'usage',
  'how to use': 'usage',
  usage_guide: 'usage',
  guide: 'usage',
  code: 'code',
  example: 'code',
  snippet: 'code',
  rationale: 'rationale',
  why: 'rationale',
  reasoning: 'rationale',
  steps: 'steps',
  'how to': 'steps',
  sources: 'sources',
  evidence: 'sources',
  'seen in': 'sources',
};

interface Block {
  kind: 'text' | 'code' | 'heading';
  level?: number;
  text: string;
  language?: string;
}

/** Splits Markdown into headings, fenced code blocks and paragraphs, honouring fences. */
function blocks(body: string): Block[] {
  const out: Block[] = [];
  const lines = body.split('\n');
  let para: string[] = [];
  const flush = () => {
    const t = para.join('\n').trim();
    if (t) out.push({ kind: 'text', text: t });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = /^\s{0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (open) {
      flush();
      const marker = open[1];
      const code: string[] = [];
      const close = new RegExp(`^\\s{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      i++;
      while (i < lines.length && !close.test(lines[i])) code.push(lines[i++]);
      out.push({ kind: 'code', text: code.join('\n'), language: open[2] || undefined });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      out.push({ kind: 'heading', level: heading[1].length, text: heading[2] });
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line);
  }
  flush();
  return out;
}

export function splitBody(body: string): BodySections {
  const all = blocks(body);
  const result: BodySections = { steps: [], sources: [] };
  let section: string | undefined;
  const preamble: Block[] = [];
  const bySection = new Map<string, Block[]>();
  for (const b of all) {
    if (b.kind === 'heading' && b.level === 1 && !result.heading && section === undefined) {
      result.heading = b.text;
      continue;
    }
    if (b.kind === 'heading' && b.level === 2) {
      section = lookup(SECTION_NAMES, b.text.toLowerCase().replace(/[:.]$/, '')) ?? `other:${b.text}`;
      if (!bySection.has(section)) bySection.set(section, []);
      continue;
    }
    if (section === undefined) preamble.push(b);
    else bySection.get(section)!.push(b);
  }

  const texts = (bs: Block[] | undefined) =>
    bs?.map((
      b,
    ) => (b.kind === 'code'
      ? fence(b.text, b.language ?? 'text')
      : b.kind === 'heading'
      ? `${'#'.repeat(b.level!)} ${b.text}`
      : b.text)
    ).join('\n\n') || undefined;
  const firstPara = preamble.find((b) => b.kind === 'text');
  result.firstParagraph = firstPara?.text.replace(/\s*\n\s*/g, ' ');
  result.preamble = preamble.filter((b) => b.kind !== 'code').map((b) => b.text);

  const codeSection = bySection.get('code')?.find((b) => b.kind === 'code');
  const anyCode = codeSection
    ?? [
      ...preamble,
      ...[...bySection.entries()].filter(([k]) => k !== 'steps' && k !== 'sources').flatMap(([, v]) => v),
    ].find((b) => b.kind === 'code');
  // A listing of places is evidence, not code: it must never be inserted into someone's source.
  if (anyCode && isSourceListing(anyCode.text)) result.sources.push(...listingSources(anyCode.text));
  else if (anyCode) result.code = { text: anyCode.text, language: anyCode.language };
  for (const b of bySection.get('sources') ?? []) {
    if (b.kind !== 'text') continue;
    for (const line of b.text.split('\n')) {
      const src = sourceOf(line);
      if (src) result.sources.push(src);
    }
  }

  result.usageGuide = texts(bySection.get('usage'));
  result.rationale = texts(bySection.get('rationale'));
  const steps = bySection.get('steps');
  if (steps) result.steps = readSteps(steps);
  return result;
}

function readSteps(bs: Block[]): RecipeStep[] {
  const steps: RecipeStep[] = [];
  let current: RecipeStep | undefined;
  for (const b of bs) {
    if (b.kind === 'heading') {
      current = { title: b.text.replace(/^\d+[.)]\s*/, '') };
      steps.push(current);
    } else if (b.kind === 'code' && current) {
      current.code = current.code ? current.code + '\n' + b.text : b.text;
    } else if (b.kind === 'text') {
      const items = b.text.split('\n').filter((l) => /^\s*(\d+[.)]|[-*])\s+/.test(l));
      if (!current && items.length) {
        for (const item of items) steps.push({ title: item.replace(/^\s*(\d+[.)]|[-*])\s+/, '').trim() });
      } else if (current) {
        current.description = current.description ? current.description + '\n\n' + b.text : b.text;
      }
    }
  }
  return steps;
}
