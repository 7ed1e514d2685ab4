import { AutoSnippetError } from '../../ground/kernel/errors';
import { cutAtWord, sentenceAt } from '../../ground/text';
import { findSection, sectionText } from './parse';
import type { TokenCounter } from './tokens';
import type { Skill, SkillResource, SkillSection } from './types';

/** One sentence that says what a skill is for, for catalogs (level 1). */
export function summaryOf(skill: Pick<Skill, 'description'>, maxChars = 160): string {
  return cutAtWord(sentenceAt(skill.description.replace(/\s+/g, ' ').trim()), maxChars);
}

export interface CatalogOptions {
  /** Token budget for the whole block, the note about left-out skills included. */
  maxTokens?: number;
  format?: 'xml' | 'markdown';
  /** Adds each SKILL.md's path, for agents that read files themselves. */
  withLocation?: boolean;
}

export interface RenderedCatalog {
  text: string;
  tokens: number;
  included: string[];
  /** Listed with their first sentence only, to fit the budget. */
  shortened: string[];
  /** Not listed at all; the text says so. */
  omitted: string[];
}

/**
 * The level-1 catalog for a system prompt: every skill's name and description, in the order given.
 * Over budget, every description is first cut to its first sentence (then restored in order while room
 * remains), and only then are skills left out from the end; the block ends with a line that says what
 * was shortened or left out and how to see it.
 */
export function renderCatalog(skills: readonly Skill[], counter: TokenCounter, options: CatalogOptions = {}): RenderedCatalog {
  const format = options.format ?? 'xml';
  const budget = options.maxTokens ?? Infinity;
  const longs = skills.map((s) => catalogEntry(s, s.description, format, options.withLocation));
  const shorts = skills.map((s) => catalogEntry(s, summaryOf(s, 220), format, options.withLocation));

  const full = wrapCatalog(longs, format);
  const fullTokens = counter.count(full);
  if (fullTokens <= budget) return { text: full, tokens: fullTokens, included: skills.map((s) => s.name), shortened: [], omitted: [] };

  const frame = counter.count(wrapCatalog([], format));
  const longCost = longs.map((l) => counter.count(l + '\n'));
  const shortCost = shorts.map((l) => counter.count(l + '\n'));
  // Room for the closing note: small when only descriptions are cut, larger when skills are left out.
  const omittedNoteCost = counter.count(omissionNote(skills.slice(-1).map((s) => s.name), format, skills.length));
  let reserve = counter.count(omissionNote([], format, skills.length));
  for (let attempt = 0; attempt < 5; attempt++) {
    const room = budget - frame - reserve;
    // Keep as many skills as fit with short descriptions, then give back full ones in order.
    let count = 0;
    let used = 0;
    while (count < skills.length && used + shortCost[count] <= room) used += shortCost[count++];
    if (count < skills.length && reserve < omittedNoteCost) {
      reserve = omittedNoteCost;
      continue;
    }
    const useLong = new Array<boolean>(count).fill(false);
    for (let i = 0; i < count; i++) {
      const extra = longCost[i] - shortCost[i];
      if (used + extra <= room) {
        useLong[i] = true;
        used += extra;
      }
    }
    const lines = useLong.map((long, i) => (long ? longs[i] : shorts[i]));
    const included = skills.slice(0, count).map((s) => s.name);
    const shortened = included.filter((_, i) => !useLong[i] && shorts[i] !== longs[i]);
    const omitted = skills.slice(count).map((s) => s.name);
    const note = omitted.length || shortened.length ? omissionNote(omitted, format, shortened.length, budget - frame - used, counter) : undefined;
    const text = wrapCatalog(lines, format, note);
    const tokens = counter.count(text);
    if (tokens <= budget || count === 0) return { text, tokens, included, shortened, omitted };
    reserve += tokens - budget + 2;
  }
  const note = omissionNote(skills.map((s) => s.name), format);
  return { text: note, tokens: counter.count(note), included: [], shortened: [], omitted: skills.map((s) => s.name) };
}

/**
 * The order skills take in a prompt's catalog: the project's own skills, the person's own, then the
 * bundled ones (the skills of this tool), then those of other clients' folders, which can number in
 * the hundreds. A budget that runs out then leaves out a cloned collection, not the skills the rules name.
 */
export function catalogOrder(skills: readonly Skill[]): Skill[] {
  const ORDER: Partial<Record<Skill['source']['id'], number>> = { project: 0, personal: 1, bundled: 2 };
  const rank = (s: Skill) => ORDER[s.source.id] ?? 3;
  return skills.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i).map((x) => x.s);
}

/**
 * A search's answer as an `<available-skills>` block for a prompt: each match with its location and
 * confidence, or a comment saying that no skill fits (and how near the best came).
 */
export function renderRoutingXml(routing: { matches: { skill: Skill; confidence: number }[]; noMatch: boolean; nearest?: { skill: Skill; confidence: number } }): string {
  const lines = routing.matches.map(
    (m) => `<skill><name>${escapeXml(m.skill.name)}</name><description>${escapeXml(m.skill.description)}</description><location>${escapeXml(m.skill.file)}</location><confidence>${m.confidence}</confidence></skill>`,
  );
  if (routing.noMatch) {
    const nearest = routing.nearest ? ` The nearest, ${routing.nearest.skill.name}, has confidence ${routing.nearest.confidence}.` : '';
    lines.push(`<!-- No skill fits this task.${escapeXml(nearest)} Do it without a skill. -->`);
  }
  return wrapCatalog(lines, 'xml');
}

/** One skill's line of the catalog. */
export function catalogEntry(s: Skill, description: string, format: 'xml' | 'markdown', withLocation?: boolean): string {
  if (format === 'markdown') return `- **${s.name}**: ${description}${withLocation ? ` (${s.file})` : ''}`;
  return `<skill><name>${escapeXml(s.name)}</name><description>${escapeXml(description)}</description>${withLocation ? `<location>${escapeXml(s.file)}</location>` : ''}</skill>`;
}

function wrapCatalog(lines: string[], format: 'xml' | 'markdown', note?: string): string {
  const all = note ? [...lines, note] : lines;
  if (format === 'markdown') return all.join('\n');
  return ['<available-skills>', ...all, '</available-skills>'].join('\n');
}

/** Says what the catalog left out, naming as many skills as the room allows. */
function omissionNote(omitted: string[], format: 'xml' | 'markdown', shortenedCount = 0, room = Infinity, counter?: TokenCounter): string {
  const parts: string[] = [];
  if (shortenedCount) parts.push(`${shortenedCount} description${shortenedCount === 1 ? ' was' : 's were'} cut to the first sentence`);
  const make = (names: string[]) => {
    const rest = omitted.length - names.length;
    const listed = names.length ? `: ${names.join(', ')}${rest ? ` and ${rest} more` : ''}` : '';
    const omittedPart = omitted.length ? [`${omitted.length} more skill${omitted.length === 1 ? ' is' : 's are'} not listed${listed}`] : [];
    const text = `${[...parts, ...omittedPart].join('; ')}. Call list_skills or search_skills to see them all.`;
    return format === 'xml' ? `<!-- ${text} -->` : `_${text}_`;
  };
  if (!counter) return make(omitted);
  let names = omitted.slice();
  while (names.length && counter.count(make(names)) > room) names = names.slice(0, Math.floor(names.length / 2));
  return make(names);
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface Level2Options {
  section?: string;
  /** Ids of this skill's chunks already loaded in the conversation: listed as loaded, not offered again. */
  loadedChunks?: Iterable<string>;
  resources?: readonly SkillResource[];
}

export interface Level2View {
  /** The body (or the section) without chunks. */
  content: string;
  section?: SkillSection;
  chunks: { id: string; description: string; section?: string; loaded: boolean }[];
  otherSections: string[];
}

/** Level 2 of a skill as data: its body or one section, and the chunks it offers. SECTION_NOT_FOUND lists the headings. */
export function level2Of(skill: Skill, options: Level2Options = {}): Level2View {
  const loaded = new Set(options.loadedChunks ?? []);
  const sectionOfChunk = (id: string) => skill.sections.find((s) => s.chunkIds.includes(id))?.heading;
  if (options.section !== undefined) {
    const section = findSection(skill, options.section);
    if (!section) {
      const headings = skill.sections.map((s) => s.heading);
      throw new AutoSnippetError(
        'SECTION_NOT_FOUND',
        `Skill "${skill.name}" has no section "${options.section}".`,
        headings.length ? `Its sections: ${headings.join(' | ')}. Pass one of them, or leave out \`section\` for the whole body.` : 'This skill has no ## sections; leave out `section` to load the whole body.',
        { skill: skill.name, available: headings },
      );
    }
    return {
      content: sectionText(skill, section),
      section,
      chunks: skill.chunks.filter((c) => section.chunkIds.includes(c.id)).map((c) => ({ id: c.id, description: c.description, section: section.heading, loaded: loaded.has(c.id) })),
      otherSections: skill.sections.filter((s) => s !== section).map((s) => s.heading),
    };
  }
  return {
    content: skill.level2Body,
    chunks: skill.chunks.map((c) => ({ id: c.id, description: c.description, section: sectionOfChunk(c.id), loaded: loaded.has(c.id) })),
    otherSections: [],
  };
}

/** Level 2 as text for a prompt: the body, then the chunks (loaded ones marked), files and related skills. */
export function renderLevel2(skill: Skill, options: Level2Options = {}): string {
  const view = level2Of(skill, options);
  return level2Markdown({
    name: skill.name,
    section: view.section?.heading,
    content: view.content,
    chunks: view.chunks,
    otherSections: view.otherSections,
    files: options.resources?.map((r) => r.path),
    related: skill.related,
  });
}

/** What level 2 says, as `load_skill` returns it and a prompt shows it. */
export interface Level2Answer {
  name: string;
  section?: string;
  content: string;
  /** The note saying what a budget cut off, when it did. */
  cut?: string;
  chunks?: { id: string; description: string; tokens?: number; loaded?: boolean }[];
  otherSections?: string[];
  files?: string[];
  related?: string[];
}

/**
 * Level 2 as Markdown: the body as written (unescaped; after a one-line header for a section), then one line per chunk
 * (id, when to load it) and the other sections, files and related skills; sizes and paths are in the
 * structured answer. This is the text a
 * model reads; it adds a few tokens to the body, where JSON would escape every quote and line break.
 */
export function level2Markdown(a: Level2Answer): string {
  // The caller named the skill; a header is only needed to say which section this is.
  // A cut `content` already ends with the note saying what was left out (`fitToBudget`).
  const out = a.section ? [`# ${a.name} — ${a.section}`, '', a.content] : [a.content];
  if (a.chunks?.length) {
    out.push('', 'Chunks (load_skill_chunk):');
    for (const c of a.chunks) out.push(`- ${c.id}: ${c.description}${c.loaded ? ' (already loaded)' : ''}`);
  }
  // The lists after the chunks follow each other line by line: every blank line is a token.
  if (a.otherSections?.length) out.push(`Other sections: ${a.otherSections.join(' | ')}`);
  if (a.files?.length) out.push(`Files (read_skill_resource): ${a.files.slice(0, 30).join(', ')}${a.files.length > 30 ? ', …' : ''}`);
  if (a.related?.length) out.push(`Related: ${a.related.join(', ')}`);
  return out.join('\n');
}

/** A chunk or a resource file as Markdown: a one-line header, then the text as written. */
export function level3Markdown(a: { skill: string; chunk?: string; path?: string; content: string }): string {
  const what = a.chunk !== undefined ? `chunk "${a.chunk}"` : `file ${a.path}`;
  return [`# ${a.skill} — ${what}`, '', a.content].join('\n');
}

export interface BudgetResult {
  text: string;
  tokens: number;
  totalTokens: number;
  /** Set when the text was cut: what was left out, in words. */
  note?: string;
}

/**
 * Keeps a text within `maxTokens`. Over budget it is refused with its size (BUDGET_EXCEEDED) unless
 * `truncate` is set; then it is cut at a line boundary and a note says what was left out.
 */
export function fitToBudget(text: string, counter: TokenCounter, budget: { maxTokens?: number; truncate?: boolean; what: string; hint?: string; details?: Record<string, unknown> }): BudgetResult {
  const totalTokens = counter.count(text);
  if (budget.maxTokens === undefined || totalTokens <= budget.maxTokens) return { text, tokens: totalTokens, totalTokens };
  if (!budget.truncate) {
    throw new AutoSnippetError(
      'BUDGET_EXCEEDED',
      `${budget.what} is ${totalTokens} tokens, over the budget of ${budget.maxTokens}.`,
      budget.hint ?? 'Raise maxTokens, or pass truncate: true to get the beginning with a note saying what was left out.',
      { tokens: totalTokens, maxTokens: budget.maxTokens, ...budget.details },
    );
  }
  const lines = text.split('\n');
  const noteFor = (kept: number) => {
    const leftOut = lines.slice(kept);
    const headings = leftOut.filter((l) => /^#{1,3}\s/.test(l)).map((l) => l.replace(/^#+\s*/, ''));
    return `[Cut to fit ${budget.maxTokens} tokens: ${totalTokens} in all. Left out lines ${kept + 1}–${lines.length}${headings.length ? `, including ${headings.map((h) => `"${h}"`).join(', ')}` : ''}.]`;
  };
  // Binary search for the most lines that fit together with the note.
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (counter.count(lines.slice(0, mid).join('\n') + '\n\n' + noteFor(mid)) <= budget.maxTokens) lo = mid;
    else hi = mid - 1;
  }
  const note = noteFor(lo);
  const cut = lo > 0 ? `${lines.slice(0, lo).join('\n')}\n\n${note}` : note;
  return { text: cut, tokens: counter.count(cut), totalTokens, note };
}
