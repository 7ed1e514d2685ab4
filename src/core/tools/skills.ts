import path from 'node:path';
import { rerankSkills } from '../agent/routing';
import { AutoSnippetError } from '../errors';
import { cutAtWord } from '../text';
import { installSkill } from '../skills/install';
import { closestNames } from '../skills/names';
import { skillRegistry } from '../skills/registry';
import { fitToBudget, level2Markdown, level2Of, level3Markdown, summaryOf, type Level2Answer } from '../skills/render';
import { kindOf, listSkillResources, readSkillFile } from '../skills/resources';
import { runSkillScript } from '../skills/scripts';
import { llmCandidates, skillSearchIndex, type SkillRouting } from '../skills/search';
import { loadTokenCounter } from '../skills/tokens';
import { sectionText } from '../skills/parse';
import type { Skill } from '../skills/types';
import type { HealthCounter } from './system';
import { defineTool, type JsonSchema, type ToolDefinition } from './types';

const budgetInputs: Record<string, JsonSchema> = {
  maxTokens: { type: 'integer', minimum: 1, description: 'Token budget for the returned text. Larger text is refused with its size (BUDGET_EXCEEDED), or cut when truncate is true.' },
  truncate: { type: 'boolean', default: false, description: 'With maxTokens: cut the text to fit and add a note saying what was left out, instead of refusing.' },
};

const SOURCES = ['project', 'github', 'claude', 'agents', 'bundled'];

interface ListInput { filter?: string; source?: string; hidden?: boolean }

export const listSkills = defineTool<ListInput, unknown>({
  name: 'list_skills',
  title: 'List skills',
  domain: 'skills',
  summary: 'Level 1: every skill with a one-line summary, when to use it, and where it comes from.',
  description:
    'Lists the skills available in this workspace (level 1 of progressive loading): name, a one-line summary, when to use it, its source ' +
    '(project, github, claude, agents or bundled) and how many sections and chunks it has. Skills are SKILL.md guides that say how to do a task well. ' +
    'Call this first when you do not know which skill applies, then load_skill the one that fits. To rank skills for a task described in words, use search_skills instead. ' +
    'The answer counts the skills hidden by a same-named skill of higher precedence (shadowed) and the folders that could not be read (skipped); pass hidden: true to list those instead, each with its reason.',
  inputSchema: {
    type: 'object',
    properties: {
      filter: { type: 'string', description: 'Only skills whose name or description contains this text (case-insensitive).' },
      source: { type: 'string', enum: SOURCES, description: 'Only skills from this source.' },
      hidden: { type: 'boolean', default: false, description: 'List the shadowed skills and the skipped folders (with the reason) instead of the skills in effect.' },
    },
    additionalProperties: false,
  },
  access: 'read',
  maxOutputChars: 24_000,
  paginate: 'skills',
  handler(ws, input) {
    const registry = skillRegistry(ws);
    const needle = input.filter?.toLowerCase().trim();
    const wanted = (name: string, description: string, source: string) =>
      (!input.source || source === input.source) && (!needle || name.toLowerCase().includes(needle) || description.toLowerCase().includes(needle));
    const shadowed = registry.shadowed().filter((x) => wanted(x.skill.name, x.skill.description, x.skill.source.id));
    const skipped = registry.skipped().filter((x) => wanted(x.file, x.reason, x.source.id));
    // Paged answers repeat every field but the paged list, so the hidden ones are a list of their own.
    if (input.hidden) {
      return {
        total: shadowed.length + skipped.length,
        skills: [
          ...shadowed.map((x) => ({ name: x.skill.name, source: x.skill.source.id, path: x.skill.file, shadowedBy: x.shadowedBy.source })),
          ...skipped.map((x) => ({ path: x.file, source: x.source.id, skipped: x.reason })),
        ],
      };
    }
    const skills = registry.list().filter((s) => wanted(s.name, s.description, s.source.id));
    const hiddenNote = shadowed.length || skipped.length
      ? { shadowed: shadowed.length, skipped: skipped.length, hint: 'Call list_skills with hidden: true to see them and why.' }
      : undefined;
    return {
      total: skills.length,
      skills: skills.map((s) => ({ name: s.name, summary: summaryOf(s), ...(s.useWhen ? { useWhen: cutAtWord(s.useWhen, 200) } : {}), source: s.source.id, sections: s.sections.length, chunks: s.chunks.length })),
      ...(hiddenNote ? { hidden: hiddenNote } : {}),
    };
  },
});

interface LoadInput { name: string; section?: string; maxTokens?: number; truncate?: boolean; loadedChunks?: string[] }

export const loadSkill = defineTool<LoadInput, unknown>({
  name: 'load_skill',
  title: 'Load a skill',
  domain: 'skills',
  summary: "Level 2: a skill's instructions (or one ## section), with the list of its chunks and files.",
  description:
    "Loads one skill's instructions (level 2): the SKILL.md body without its chunks, then the chunks it offers (id, description, size in tokens), its files and related skills. " +
    'Pass `section` (a ## heading, e.g. "Steps") to get only that section, which is much cheaper when you only need part of it. ' +
    'Load a chunk (worked examples, troubleshooting…) with load_skill_chunk and a file with read_skill_resource only when you need it. ' +
    'An unknown name fails with SKILL_NOT_FOUND and the names that exist, closest first. With maxTokens, a body over budget is refused with its size and the size of each section, or cut with truncate: true.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, description: 'Skill name, as list_skills or search_skills returns it.' },
      section: { type: 'string', description: 'A ## heading of the skill (case-insensitive); returns only that section.' },
      ...budgetInputs,
      loadedChunks: { type: 'array', items: { type: 'string' }, description: 'Ids of chunks of this skill you already loaded; they are marked as loaded.' },
    },
    required: ['name'],
    additionalProperties: false,
  },
  aliases: { skillName: 'name', skill_name: 'name', skill: 'name', sectionName: 'section', section_name: 'section', max_tokens: 'maxTokens' },
  access: 'read',
  maxOutputChars: 80_000,
  text: (out) => level2Markdown(out as Level2Answer),
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.name);
    const counter = await loadTokenCounter();
    const view = level2Of(skill, { section: input.section, loadedChunks: input.loadedChunks });
    const sections = skill.sections.map((s) => ({ heading: s.heading, line: s.line, tokens: counter.count(sectionText(skill, s)) }));
    const fitted = fitToBudget(view.content, counter, {
      maxTokens: input.maxTokens,
      truncate: input.truncate,
      what: view.section ? `Section "${view.section.heading}" of skill "${skill.name}"` : `The body of skill "${skill.name}"`,
      hint: view.section ? undefined : 'Load one section with `section` (details.sections gives each one\'s size), raise maxTokens, or pass truncate: true.',
      details: view.section ? undefined : { sections: sections.map((s) => ({ heading: s.heading, tokens: s.tokens })) },
    });
    // Lean: the answer is the text plus what it takes to go one level deeper, and nothing the text
    // already says (its headings) or that is empty.
    const files = listSkillResources(skill.dir).map((r) => r.path);
    return {
      name: skill.name,
      source: skill.source.id,
      // The chat shows the skills it loaded as references to their files.
      file: skill.file,
      ...(view.section ? { section: view.section.heading, otherSections: view.otherSections } : {}),
      content: fitted.text,
      tokens: fitted.tokens,
      ...(fitted.note ? { totalTokens: fitted.totalTokens, cut: fitted.note } : {}),
      ...(view.chunks.length
        ? { chunks: view.chunks.map((c) => ({ id: c.id, description: c.description, tokens: counter.count(skill.chunks.find((x) => x.id === c.id)!.content), ...(c.loaded ? { loaded: true } : {}) })) }
        : {}),
      ...(files.length ? { files } : {}),
      ...(skill.related.length ? { related: skill.related } : {}),
    };
  },
});

interface ChunkInput { skill: string; chunk: string; maxTokens?: number; truncate?: boolean }

export const loadSkillChunk = defineTool<ChunkInput, unknown>({
  name: 'load_skill_chunk',
  title: 'Load a skill chunk',
  domain: 'skills',
  summary: 'Level 3: one <chunk> of a skill (worked examples, troubleshooting…) by id.',
  description:
    'Loads one chunk of a skill (level 3): a block the skill keeps out of its body because it is only needed sometimes, such as worked examples or troubleshooting. ' +
    'load_skill lists each chunk\'s id, description and size. An unknown chunk fails with CHUNK_NOT_FOUND and the ids that exist. Takes the same maxTokens/truncate budget as load_skill.',
  inputSchema: {
    type: 'object',
    properties: {
      skill: { type: 'string', minLength: 1, description: 'Skill name.' },
      chunk: { type: 'string', minLength: 1, description: 'Chunk id, as load_skill lists it.' },
      ...budgetInputs,
    },
    required: ['skill', 'chunk'],
    additionalProperties: false,
  },
  aliases: { skillName: 'skill', skill_name: 'skill', name: 'skill', chunk_id: 'chunk', chunkId: 'chunk', id: 'chunk', max_tokens: 'maxTokens' },
  access: 'read',
  maxOutputChars: 60_000,
  text: (out) => level3Markdown(out as { skill: string; chunk: string; content: string; cut?: string }),
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.skill);
    const chunk = skill.chunks.find((c) => c.id === input.chunk) ?? skill.chunks.find((c) => c.id.toLowerCase() === input.chunk.toLowerCase());
    if (!chunk) throw chunkNotFound(skill, input.chunk);
    const counter = await loadTokenCounter();
    const fitted = fitToBudget(chunk.content, counter, { maxTokens: input.maxTokens, truncate: input.truncate, what: `Chunk "${chunk.id}" of skill "${skill.name}"` });
    return {
      skill: skill.name,
      // The chat shows the skills it loaded as references to their files.
      file: skill.file,
      chunk: chunk.id,
      description: chunk.description,
      line: chunk.line,
      content: fitted.text,
      tokens: fitted.tokens,
      ...(fitted.note ? { totalTokens: fitted.totalTokens, cut: fitted.note } : {}),
    };
  },
});

function chunkNotFound(skill: Skill, wanted: string): AutoSnippetError {
  const ids = closestNames(wanted, skill.chunks.map((c) => c.id));
  return new AutoSnippetError(
    'CHUNK_NOT_FOUND',
    `Skill "${skill.name}" has no chunk "${wanted}".${ids.length ? ` Its chunks: ${ids.join(', ')}.` : ' It has no chunks.'}`,
    ids.length ? 'Pass one of the listed ids.' : 'Use load_skill to read the skill; everything it has is in its body.',
    { skill: skill.name, available: ids },
  );
}

interface ResourceInput { skill: string; path: string; maxTokens?: number; truncate?: boolean }

export const readSkillResource = defineTool<ResourceInput, unknown>({
  name: 'read_skill_resource',
  title: 'Read a skill file',
  domain: 'skills',
  summary: "Level 3: a file of a skill's folder (references/, scripts/, assets/) by relative path.",
  description:
    "Reads a file of a skill's folder (level 3), such as references/api.md, a template in assets/ or a script in scripts/ (to read it, not run it). " +
    'load_skill lists the files. The path is relative to the skill folder; absolute paths, `..` and links that lead outside the folder are refused (PATH_OUTSIDE_SKILL). ' +
    'Binary files are described, not returned. Takes the same maxTokens/truncate budget as load_skill.',
  inputSchema: {
    type: 'object',
    properties: {
      skill: { type: 'string', minLength: 1, description: 'Skill name.' },
      path: { type: 'string', minLength: 1, description: 'Path relative to the skill folder, e.g. "references/guide.md".' },
      ...budgetInputs,
    },
    required: ['skill', 'path'],
    additionalProperties: false,
  },
  aliases: { skillName: 'skill', skill_name: 'skill', name: 'skill', file: 'path', file_path: 'path', filePath: 'path', resource: 'path', max_tokens: 'maxTokens' },
  access: 'read',
  maxOutputChars: 80_000,
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.skill);
    const file = readSkillFile(skill, input.path);
    const base = { skill: skill.name, path: file.path, kind: kindOf(file.path), size: file.size, mimeType: file.mimeType };
    if (file.binary) return { ...base, binary: true, note: 'This is a binary file; its content is not returned. Use it by path.' };
    const counter = await loadTokenCounter();
    const fitted = fitToBudget(file.text ?? '', counter, { maxTokens: input.maxTokens, truncate: input.truncate, what: `File "${file.path}" of skill "${skill.name}"` });
    return { ...base, binary: false, content: fitted.text, tokens: fitted.tokens, ...(fitted.note ? { totalTokens: fitted.totalTokens, cut: fitted.note } : {}) };
  },
});

interface SearchInput { query: string; limit?: number; mode?: 'bm25' | 'llm' }

export const searchSkillsTool = defineTool<SearchInput, unknown>({
  name: 'search_skills',
  title: 'Search skills',
  domain: 'skills',
  summary: 'The skills that fit a task described in words, ranked, each with a confidence in [0, 1]; no_match when none fits.',
  description:
    'Finds the skills that fit a task you describe in words, in any language ("set up guard rules for a Swift project"): BM25F over each skill\'s name, description, use-when lines, headings and body, ' +
    'fused with an offline similarity of the task to each skill\'s description. Each match has a confidence in [0, 1] (the calibrated chance that it fits; comparable across queries) and the words that matched. ' +
    'When no skill fits the request (the best match covers too little of it in its own description and use-when lines, and is too far from it in meaning) the answer is no_match: true with an empty matched_skills: do the task without a skill, or try list_skills. Then load_skill the best match. ' +
    'With mode "llm" the language model picks from the level-1 catalog (or from the 30 best by the ranking when the catalog is large), so it also finds skills the words miss; without a model the ranking is returned.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 4000, description: 'The task, in words.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'How many skills to return.' },
      mode: { type: 'string', enum: ['bm25', 'llm'], default: 'bm25', description: 'Ranking method: "bm25" (fast, deterministic, offline) or "llm" (the model chooses from the catalog).' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  aliases: { task: 'query', q: 'query', top_k: 'limit', topK: 'limit' },
  access: 'read',
  maxOutputChars: 12_000,
  async handler(ws, input, ctx) {
    const limit = input.limit ?? 5;
    const skills = skillRegistry(ws).list();
    if (input.mode === 'llm') {
      const counter = await loadTokenCounter();
      const candidates = llmCandidates(skills, input.query, counter);
      const chosen = await rerankSkills(ctx.model, input.query, candidates.map((s) => ({ name: s.name, description: s.description })), { limit, signal: ctx.signal });
      if (chosen.ranking === 'llm') return { query: input.query, mode: 'llm', ranking: 'llm', no_match: chosen.matched_skills.length === 0, matched_skills: chosen.matched_skills, considered: candidates.length };
      return { query: input.query, mode: 'llm', ...routingAnswer(skillSearchIndex(skills).route(input.query, limit)), ranking: 'bm25', note: chosen.note };
    }
    return { query: input.query, mode: 'bm25', ...routingAnswer(skillSearchIndex(skills).route(input.query, limit)) };
  },
});

/** The answer to a search: the matches with their confidence, or no_match with how near the best came. */
function routingAnswer(r: SkillRouting) {
  return {
    no_match: r.noMatch,
    matched_skills: r.matches.map((m) => ({ name: m.skill.name, description: m.skill.description, source: m.skill.source.id, confidence: m.confidence, matchedTerms: m.matchedTerms })),
    ...(r.noMatch
      ? { hint: r.nearest ? `No skill fits this task well (the nearest, ${r.nearest.skill.name}, has confidence ${r.nearest.confidence}). Do it without a skill, or call list_skills.` : 'No skill shares anything with this task. Do it without a skill, or call list_skills.' }
      : {}),
  };
}

interface InstallInput { source: string; name?: string; overwrite?: boolean }

export const installSkillTool = defineTool<InstallInput, unknown>({
  name: 'install_skill',
  title: 'Install a skill',
  domain: 'skills',
  summary: 'Copy a skill from a folder, a .zip or a git URL into .autosnippet/skills, validated first.',
  description:
    "Installs a skill into the workspace's .autosnippet/skills folder, from a local folder, a local .zip file, or a git URL (cloned with --depth 1; add #sub/folder to take a skill from a subfolder). " +
    'The skill is validated first and refused with INVALID_SKILL and the problems when it has errors. An installed skill of the same name is only replaced with overwrite: true. ' +
    'When the source holds several skills, pass `name` to choose one. Symbolic links are not copied.',
  inputSchema: {
    type: 'object',
    properties: {
      source: { type: 'string', minLength: 1, description: 'Folder path, .zip path (relative to the workspace root or absolute), or git URL.' },
      name: { type: 'string', description: 'The skill folder to take when the source holds several.' },
      overwrite: { type: 'boolean', default: false, description: 'Replace an installed skill of the same name.' },
    },
    required: ['source'],
    additionalProperties: false,
  },
  aliases: { url: 'source', path: 'source', skillName: 'name', skill_name: 'name' },
  access: 'review',
  maxOutputChars: 12_000,
  async handler(ws, input, ctx) {
    const result = await installSkill({ source: input.source, name: input.name, overwrite: input.overwrite, targetRoot: path.join(ws.root, '.autosnippet', 'skills'), cwd: ws.root, signal: ctx.signal });
    skillRegistry(ws).refresh();
    return { ...result, installedTo: path.relative(ws.root, result.installedTo).split(path.sep).join('/') };
  },
});

interface RunInput { skill: string; script: string; args?: string[]; timeoutMs?: number }

export const runSkillScriptTool = defineTool<RunInput, unknown>({
  name: 'run_skill_script',
  title: 'Run a skill script',
  domain: 'skills',
  summary: "Run a file from a skill's scripts/ folder (trusted workspaces with scripts allowed only).",
  description:
    "Runs a file from a skill's scripts/ folder with the given arguments (no shell; the workspace root as working directory) and returns its exit code, stdout and stderr (each cut at 16 KB). " +
    'Python, shell, Node, Ruby, Perl and PowerShell files run with their interpreter; other files must be executable. Stopped after timeoutMs (default 30 s, at most 120 s). ' +
    'Refused with SCRIPTS_DISABLED unless the workspace is trusted and the setting autosnippet.skills.allowScripts is on; then read the script with read_skill_resource and follow it by hand.',
  inputSchema: {
    type: 'object',
    properties: {
      skill: { type: 'string', minLength: 1, description: 'Skill name.' },
      script: { type: 'string', minLength: 1, description: 'Path under the skill\'s scripts/ folder, e.g. "check.py" or "scripts/check.py".' },
      args: { type: 'array', items: { type: 'string' }, maxItems: 64, description: 'Arguments, one string each (no shell quoting).' },
      timeoutMs: { type: 'integer', minimum: 100, maximum: 120_000, description: 'Time limit in milliseconds.' },
    },
    required: ['skill', 'script'],
    additionalProperties: false,
  },
  aliases: { skillName: 'skill', skill_name: 'skill', name: 'skill', path: 'script', arguments: 'args' },
  access: 'propose',
  maxOutputChars: 40_000,
  confirmation: (input) => ({
    title: 'Run a skill script?',
    message: `Run scripts/${input.script.replace(/^scripts\//, '')} of skill "${input.skill}"${input.args?.length ? ` with ${JSON.stringify(input.args)}` : ''}? It runs on this machine with your permissions.`,
  }),
  async handler(ws, input, ctx) {
    const skill = skillRegistry(ws).require(input.skill);
    return runSkillScript(skill, input.script, {
      trusted: ws.settings.trusted,
      allowScripts: ws.settings.skills.allowScripts,
      cwd: ws.root,
      args: input.args,
      timeoutMs: input.timeoutMs,
      maxOutputBytes: 16 * 1024,
      signal: ctx.signal,
    });
  },
});

export const skillTools: ToolDefinition[] = [listSkills, loadSkill, loadSkillChunk, readSkillResource, searchSkillsTool, installSkillTool, runSkillScriptTool];

/** What `health` counts for skills: the ones in effect, and the shadowed and skipped ones when there are any. */
export const skillsHealthCounter: HealthCounter = (ws) => {
  const registry = skillRegistry(ws);
  const shadowed = registry.shadowed().length;
  const skipped = registry.skipped().length;
  return { skills: registry.list().length, ...(shadowed ? { skillsShadowed: shadowed } : {}), ...(skipped ? { skillsSkipped: skipped } : {}) };
};
