import { sentenceAt } from '../../ground/text';
import { normalizeText, readFrontmatter } from './frontmatter';
import type { Skill, SkillChunk, SkillProblem, SkillSection, SkillSource } from './types';

export interface SkillFileInput {
  text: string;
  /** Absolute path of SKILL.md. */
  file: string;
  /** Absolute path of the skill folder. */
  dir: string;
  folderName: string;
  source: SkillSource;
}

export type ParsedSkill = { ok: true; skill: Skill } | { ok: false; reason: string; problems: SkillProblem[] };

/**
 * Reads one SKILL.md. Lenient the way agents need: a name that differs from the folder or breaks the
 * naming rules is a warning and the skill is kept; only a missing description or unreadable
 * frontmatter drops it, with the reason.
 */
export function parseSkill(input: SkillFileInput): ParsedSkill {
  const text = normalizeText(input.text);
  const fm = readFrontmatter(text);
  if (!fm.ok) return fm;
  const { data, body, bodyLine, fieldLines } = fm.value;
  const problems = [...fm.value.problems];

  const description = scalarText(data.description);
  if (!description) {
    const problem: SkillProblem = { severity: 'error', rule: 'description-required', message: 'The frontmatter needs a `description`: what the skill does and when to use it.', line: fieldLines.description ?? 1 };
    return { ok: false, reason: 'no description in the frontmatter', problems: [...problems, problem] };
  }

  let name = scalarText(data.name);
  if (!name) {
    problems.push({ severity: 'warning', rule: 'name-required', message: `The frontmatter has no \`name\`; the folder name "${input.folderName}" is used.`, line: 1 });
    name = input.folderName;
  } else if (name !== input.folderName) {
    problems.push({ severity: 'warning', rule: 'name-matches-folder', message: `The name "${name}" differs from its folder "${input.folderName}".`, line: fieldLines.name });
  }
  if (name.length > 64) {
    problems.push({ severity: 'warning', rule: 'name-length', message: `The name is ${name.length} characters long; at most 64 are allowed.`, line: fieldLines.name });
  }

  const parsedBody = parseBody(body, bodyLine);
  problems.push(...parsedBody.problems);
  const metadata = isRecord(data.metadata) ? data.metadata : {};

  return {
    ok: true,
    skill: {
      name,
      description,
      dir: input.dir,
      folderName: input.folderName,
      file: input.file,
      source: input.source,
      frontmatter: data,
      metadata,
      related: listOf(metadata.related),
      useWhen: useWhenOf(metadata, description),
      license: scalarText(data.license) || undefined,
      compatibility: scalarText(data.compatibility) || undefined,
      allowedTools: listOf(data['allowed-tools']),
      body,
      bodyLine,
      level2Body: parsedBody.level2Body,
      sections: parsedBody.sections,
      chunks: parsedBody.chunks,
      problems,
      fieldLines,
      text,
    },
  };
}

export interface ParsedBody {
  sections: SkillSection[];
  chunks: SkillChunk[];
  level2Body: string;
  problems: SkillProblem[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const CHUNK_OPEN = /^\s*<chunk\b([^>]*)>(.*)$/;
const CHUNK_CLOSE = /^(.*?)<\/chunk>\s*$/;
const CHUNK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Finds the `##` sections and the `<chunk>` blocks of a body. Headings and tags inside fenced code
 * are text, so a skill can show the chunk syntax in an example. A chunk that cannot be addressed
 * (no id, a repeated id, never closed) stays in the level-2 body, so nothing is lost.
 */
export function parseBody(body: string, bodyLine: number): ParsedBody {
  const lines = body.split('\n');
  const problems: SkillProblem[] = [];
  const chunks: SkillChunk[] = [];
  const inChunk = new Array<boolean>(lines.length).fill(false);
  const headings: { level: number; text: string; index: number }[] = [];
  let fence: string | undefined;
  let open: { index: number; id?: string; description: string; first: string } | undefined;

  const closeChunk = (endIndex: number, lastText: string | undefined) => {
    const o = open!;
    open = undefined;
    const contentLines = [o.first, ...lines.slice(o.index + 1, endIndex)];
    if (lastText !== undefined) contentLines.push(lastText);
    const id = o.id;
    if (!id) return;
    if (chunks.some((c) => c.id === id)) {
      problems.push({ severity: 'error', rule: 'chunk-id-unique', message: `Chunk id "${id}" is used twice; the second one stays in the body.`, line: bodyLine + o.index });
      return;
    }
    for (let i = o.index; i <= endIndex; i++) inChunk[i] = true;
    chunks.push({ id, description: o.description, line: bodyLine + o.index, endLine: bodyLine + endIndex, content: trimBlankLines(contentLines).join('\n') });
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (fence) continue;

    const opening = CHUNK_OPEN.exec(line);
    if (opening) {
      if (open) {
        problems.push({ severity: 'error', rule: 'chunk-nested', message: 'A chunk cannot contain another chunk; close the first one with </chunk> before opening the next.', line: bodyLine + i });
        continue;
      }
      const attrs = attributesOf(opening[1]);
      if (!attrs.id) problems.push({ severity: 'error', rule: 'chunk-id-required', message: 'This chunk has no id="…"; it cannot be loaded and stays in the body.', line: bodyLine + i });
      else if (!CHUNK_ID.test(attrs.id)) problems.push({ severity: 'warning', rule: 'chunk-id-format', message: `Chunk id "${attrs.id}" should be 1–64 letters, digits, dots, hyphens or underscores.`, line: bodyLine + i });
      if (attrs.id && !attrs.description?.trim()) problems.push({ severity: 'error', rule: 'chunk-description-required', message: `Chunk "${attrs.id}" needs a non-empty description="…" saying when to load it.`, line: bodyLine + i });
      open = { index: i, id: attrs.id, description: attrs.description?.trim() ?? '', first: '' };
      const rest = opening[2];
      const sameLineClose = CHUNK_CLOSE.exec(rest);
      if (sameLineClose) closeChunk(i, sameLineClose[1]);
      else open.first = rest;
      continue;
    }

    const closing = CHUNK_CLOSE.exec(line);
    if (closing) {
      if (open) closeChunk(i, closing[1]);
      else problems.push({ severity: 'error', rule: 'chunk-unopened', message: '</chunk> without an opening <chunk id="…" description="…">.', line: bodyLine + i });
      continue;
    }
    if (open) continue;

    const h = HEADING.exec(line);
    if (h) headings.push({ level: h[1].length, text: h[2], index: i });
  }
  if (open) {
    problems.push({ severity: 'error', rule: 'chunk-unclosed', message: `Chunk "${open.id ?? '(no id)'}" is never closed with </chunk>; it stays in the body.`, line: bodyLine + open.index });
  }

  const sections: SkillSection[] = [];
  const bounding = headings.filter((h) => h.level <= 2);
  for (const h of headings) {
    if (h.level !== 2) continue;
    const next = bounding.find((b) => b.index > h.index);
    let end = next ? next.index - 1 : lines.length - 1;
    while (end > h.index && lines[end].trim() === '') end--;
    const line = bodyLine + h.index;
    const endLine = bodyLine + end;
    sections.push({ heading: h.text, slug: slugOf(h.text), line, endLine, chunkIds: chunks.filter((c) => c.line > line && c.line <= endLine).map((c) => c.id) });
  }

  return { sections, chunks, level2Body: collapseBlankLines(lines.filter((_, i) => !inChunk[i])).join('\n').trim(), problems };
}

/** The text of one section with its chunks left out, as level 2 returns it. */
export function sectionText(skill: Skill, section: SkillSection): string {
  const lines = skill.body.split('\n');
  const kept: string[] = [];
  for (let line = section.line; line <= section.endLine; line++) {
    if (skill.chunks.some((c) => line >= c.line && line <= c.endLine)) continue;
    kept.push(lines[line - skill.bodyLine] ?? '');
  }
  return collapseBlankLines(kept).join('\n').trim();
}

/**
 * The text of a named part of a skill, wherever the author put it: a `##` section (without its chunks),
 * else a chunk whose id or first heading matches (a skill may keep a reference table out of its body
 * in a chunk). Undefined when neither exists.
 */
export function skillPartText(skill: Skill, name: string): string | undefined {
  const section = findSection(skill, name);
  if (section) return sectionText(skill, section);
  const slug = slugOf(name.trim().replace(/^#+\s*/, ''));
  const chunk = skill.chunks.find((c) => c.id.toLowerCase() === name.toLowerCase() || slugOf(/^#+\s*(.*)$/m.exec(c.content)?.[1] ?? '') === slug);
  return chunk?.content;
}

/** Finds a section by heading or slug, ignoring case and a leading number ("2. Steps"). */
export function findSection(skill: Skill, wanted: string): SkillSection | undefined {
  const w = wanted.trim().replace(/^#+\s*/, '');
  const slug = slugOf(w);
  return (
    skill.sections.find((s) => s.heading === w) ??
    skill.sections.find((s) => s.heading.toLowerCase() === w.toLowerCase() || s.slug === slug) ??
    skill.sections.find((s) => s.slug.replace(/^\d+-/, '') === slug.replace(/^\d+-/, ''))
  );
}

export function slugOf(heading: string): string {
  return heading.toLowerCase().replace(/[`*_~[\]()]/g, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}

function attributesOf(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1].toLowerCase()] = m[2] ?? m[3];
  return out;
}

function trimBlankLines(lines: string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
  return lines.slice(a, b);
}

function collapseBlankLines(lines: string[]): string[] {
  return lines.filter((l, i) => l.trim() !== '' || i === 0 || lines[i - 1].trim() !== '');
}

function scalarText(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A list given as a YAML sequence or as a comma- or space-separated string. */
export function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => scalarText(x)).filter(Boolean);
  const s = scalarText(v);
  return s ? s.split(/[,\s]+/).map((x) => x.trim()).filter(Boolean) : [];
}

function useWhenOf(metadata: Record<string, unknown>, description: string): string | undefined {
  const declared = metadata['use-when'] ?? metadata.useWhen ?? metadata.use_when;
  if (Array.isArray(declared)) return declared.map((x) => scalarText(x)).filter(Boolean).join('; ') || undefined;
  if (scalarText(declared)) return scalarText(declared);
  const m = /\b(?:use|load|read)\s+(?:it\s+|this\s+(?:skill\s+)?)?(?:when|whenever|before|for)\b/i.exec(description);
  return m ? sentenceAt(description, m.index).trim() : undefined;
}
