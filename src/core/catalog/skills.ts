import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rerankSkills } from '../domains/agent/routing';
import { type InstallResult, installSkill } from '../domains/skills/install';
import { nameProblems } from '../domains/skills/names';
import { sectionText } from '../domains/skills/parse';
import { skillRegistry } from '../domains/skills/registry';
import { fitToBudget, level2Markdown, level2Of, level3Markdown, summaryOf } from '../domains/skills/render';
import { kindOf, listSkillResources, readSkillFile } from '../domains/skills/resources';
import { runSkillScript } from '../domains/skills/scripts';
import { llmCandidates, type SkillRouting, skillSearchIndex } from '../domains/skills/search';
import { loadTokenCounter } from '../domains/skills/tokens';
import type { Skill } from '../domains/skills/types';
import { DESCRIPTION_MAX } from '../domains/skills/validate';
import { AutoSnippetError } from '../ground/kernel/errors';
import { closestNames } from '../ground/kernel/names';
import { cutAtWord } from '../ground/text';
import { Code, Domain, FilePath, Id, Input, List, Name, Opt, Out, StringEnum, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const budgetInputs = {
  maxTokens: Opt(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description:
        'Token budget for the returned text. Larger text is refused with its size (BUDGET_EXCEEDED), or cut when truncate is true.',
    }),
  ),
  truncate: Opt(
    Type.Boolean({
      default: false,
      description: 'With maxTokens: cut the text to fit and add a note saying what was left out, instead of refusing.',
    }),
  ),
};

/** What a budgeted text answer adds when it was cut. */
const budgetOutputs = { tokens: Type.Integer(), totalTokens: Opt(Type.Integer()), cut: Opt(Type.String()) };

const SOURCES = ['project', 'github', 'claude', 'agents', 'personal', 'pack', 'bundled'] as const;
const skillName = (description = 'Skill name.') => Name(description, { minLength: 1 });

export const listSkills = defineTool({
  name: 'list_skills',
  title: 'List skills',
  domain: 'skills',
  summary: 'Level 1: every skill with a one-line summary, when to use it, and where it comes from.',
  description:
    'Lists the skills available in this workspace (level 1 of progressive loading): name, a one-line summary, when to use it, its source '
    + '(project, github, claude, agents, personal or bundled) and how many sections and chunks it has. Skills are SKILL.md guides that say how to do a task well. '
    + 'Call this first when you do not know which skill applies, then load_skill the one that fits. To rank skills for a task described in words, use search_skills instead. '
    + 'The answer counts the skills hidden by a same-named skill of higher precedence (shadowed) and the folders that could not be read (skipped); pass hidden: true to list those instead, each with its reason.',
  inputSchema: Input({
    filter: Opt(Name('Only skills whose name or description contains this text (case-insensitive).')),
    source: Opt(StringEnum(SOURCES, { description: 'Only skills from this source.' })),
    hidden: Opt(
      Type.Boolean({
        default: false,
        description:
          'List the shadowed skills and the skipped folders (with the reason) instead of the skills in effect.',
      }),
    ),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    // One list, paged: the skills in effect, or with hidden: true the shadowed skills and the skipped folders.
    skills: Type.Array(
      Type.Union([
        Out({
          name: Type.String(),
          summary: Type.String(),
          useWhen: Opt(Type.String()),
          source: Type.String(),
          sections: Type.Integer(),
          chunks: Type.Integer(),
        }),
        Out({ name: Type.String(), source: Type.String(), path: Type.String(), shadowedBy: Type.String() }),
        Out({
          path: Type.String(),
          source: Type.String(),
          skipped: Type.String({ description: 'Why the folder could not be read.' }),
        }),
      ]),
    ),
    hidden: Opt(
      Out(
        { shadowed: Type.Integer(), skipped: Type.Integer(), hint: Type.String() },
        { description: 'How many skills are shadowed and folders skipped, when there are any.' },
      ),
    ),
  }),
  access: 'read',
  maxOutputChars: 24_000,
  paginate: 'skills',
  handler(ws, input) {
    const registry = skillRegistry(ws);
    const needle = input.filter?.toLowerCase().trim();
    const wanted = (name: string, description: string, source: string) =>
      (!input.source || source === input.source)
      && (!needle || name.toLowerCase().includes(needle) || description.toLowerCase().includes(needle));
    const shadowed = registry.shadowed().filter((x) => wanted(x.skill.name, x.skill.description, x.skill.source.id));
    const skipped = registry.skipped().filter((x) => wanted(x.file, x.reason, x.source.id));
    // Paged answers repeat every field but the paged list, so the hidden ones are a list of their own.
    if (input.hidden) {
      return {
        total: shadowed.length + skipped.length,
        skills: [
          ...shadowed.map((x) => ({
            name: x.skill.name,
            source: x.skill.source.id,
            path: x.skill.file,
            shadowedBy: x.shadowedBy.source,
          })),
          ...skipped.map((x) => ({ path: x.file, source: x.source.id, skipped: x.reason })),
        ],
      };
    }
    const skills = registry.list().filter((s) => wanted(s.name, s.description, s.source.id));
    const hiddenNote = shadowed.length || skipped.length
      ? {
        shadowed: shadowed.length,
        skipped: skipped.length,
        hint: 'Call list_skills with hidden: true to see them and why.',
      }
      : undefined;
    return {
      total: skills.length,
      skills: skills.map((s) => ({
        name: s.name,
        summary: summaryOf(s),
        ...(s.useWhen ? { useWhen: cutAtWord(s.useWhen, 200) } : {}),
        source: s.source.id,
        sections: s.sections.length,
        chunks: s.chunks.length,
      })),
      ...(hiddenNote ? { hidden: hiddenNote } : {}),
    };
  },
});

export const loadSkill = defineTool({
  name: 'load_skill',
  title: 'Load a skill',
  domain: 'skills',
  summary: "Level 2: a skill's instructions (or one ## section), with the list of its chunks and files.",
  description:
    "Loads one skill's instructions (level 2): the SKILL.md body without its chunks, then the chunks it offers (id, description, size in tokens), its files and related skills. "
    + 'Pass `section` (a ## heading, e.g. "Steps") to get only that section, which is much cheaper when you only need part of it. '
    + 'Load a chunk (worked examples, troubleshooting…) with load_skill_chunk and a file with read_skill_resource only when you need it. '
    + 'An unknown name fails with SKILL_NOT_FOUND and the names that exist, closest first. With maxTokens, a body over budget is refused with its size and the size of each section, or cut with truncate: true.',
  inputSchema: Input({
    name: skillName('Skill name, as list_skills or search_skills returns it.'),
    section: Opt(Name('A ## heading of the skill (case-insensitive); returns only that section.', { maxLength: 300 })),
    ...budgetInputs,
    loadedChunks: Opt(
      List(Id(), 100, { description: 'Ids of chunks of this skill you already loaded; they are marked as loaded.' }),
    ),
  }),
  // Lean: fields that would be empty are left out.
  outputSchema: Out({
    name: Type.String(),
    source: Type.String(),
    file: Type.String({ description: 'The SKILL.md path.' }),
    section: Opt(Type.String()),
    otherSections: Opt(Type.Array(Type.String(), { description: 'With section: the headings of the other sections.' })),
    content: Type.String(),
    ...budgetOutputs,
    chunks: Opt(
      Type.Array(
        Out({
          id: Type.String(),
          description: Type.String(),
          tokens: Type.Integer(),
          loaded: Opt(Type.Boolean({ description: 'Only when true: you loaded it already.' })),
        }),
      ),
    ),
    files: Opt(
      Type.Array(Type.String(), {
        description: 'The files of the skill folder besides SKILL.md, for read_skill_resource.',
      }),
    ),
    related: Opt(Type.Array(Type.String())),
  }),
  aliases: {
    skillName: 'name',
    skill_name: 'name',
    skill: 'name',
    sectionName: 'section',
    section_name: 'section',
    max_tokens: 'maxTokens',
  },
  access: 'read',
  maxOutputChars: 80_000,
  text: level2Markdown,
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.name);
    const counter = await loadTokenCounter();
    const view = level2Of(skill, { section: input.section, loadedChunks: input.loadedChunks });
    const sections = skill.sections.map((s) => ({
      heading: s.heading,
      line: s.line,
      tokens: counter.count(sectionText(skill, s)),
    }));
    const fitted = fitToBudget(view.content, counter, {
      maxTokens: input.maxTokens,
      truncate: input.truncate,
      what: view.section
        ? `Section "${view.section.heading}" of skill "${skill.name}"`
        : `The body of skill "${skill.name}"`,
      hint: view.section
        ? undefined
        : "Load one section with `section` (details.sections gives each one's size), raise maxTokens, or pass truncate: true.",
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
        ? {
          chunks: view.chunks.map((c) => ({
            id: c.id,
            description: c.description,
            tokens: counter.count(skill.chunks.find((x) => x.id === c.id)!.content),
            ...(c.loaded ? { loaded: true } : {}),
          })),
        }
        : {}),
      ...(files.length ? { files } : {}),
      ...(skill.related.length ? { related: skill.related } : {}),
    };
  },
});

export const loadSkillChunk = defineTool({
  name: 'load_skill_chunk',
  title: 'Load a skill chunk',
  domain: 'skills',
  summary: 'Level 3: one <chunk> of a skill (worked examples, troubleshooting…) by id.',
  description:
    'Loads one chunk of a skill (level 3): a block the skill keeps out of its body because it is only needed sometimes, such as worked examples or troubleshooting. '
    + "load_skill lists each chunk's id, description and size. An unknown chunk fails with CHUNK_NOT_FOUND and the ids that exist.",
  inputSchema: Input({
    skill: skillName(),
    chunk: Id('Chunk id, as load_skill lists it.'),
    ...budgetInputs,
  }),
  outputSchema: Out({
    skill: Type.String(),
    file: Type.String({ description: 'The SKILL.md path.' }),
    chunk: Type.String(),
    description: Type.String(),
    line: Type.Integer(),
    content: Type.String(),
    ...budgetOutputs,
  }),
  aliases: {
    skillName: 'skill',
    skill_name: 'skill',
    name: 'skill',
    chunk_id: 'chunk',
    chunkId: 'chunk',
    id: 'chunk',
    max_tokens: 'maxTokens',
  },
  access: 'read',
  maxOutputChars: 60_000,
  text: level3Markdown,
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.skill);
    const chunk = skill.chunks.find((c) => c.id === input.chunk)
      ?? skill.chunks.find((c) => c.id.toLowerCase() === input.chunk.toLowerCase());
    if (!chunk) throw chunkNotFound(skill, input.chunk);
    const counter = await loadTokenCounter();
    const fitted = fitToBudget(chunk.content, counter, {
      maxTokens: input.maxTokens,
      truncate: input.truncate,
      what: `Chunk "${chunk.id}" of skill "${skill.name}"`,
    });
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
    `Skill "${skill.name}" has no chunk "${wanted}".${
      ids.length ? ` Its chunks: ${ids.join(', ')}.` : ' It has no chunks.'
    }`,
    ids.length ? 'Pass one of the listed ids.' : 'Use load_skill to read the skill; everything it has is in its body.',
    { skill: skill.name, available: ids },
  );
}

export const readSkillResource = defineTool({
  name: 'read_skill_resource',
  title: 'Read a skill file',
  domain: 'skills',
  summary: "Level 3: a file of a skill's folder (references/, scripts/, assets/) by relative path.",
  description:
    "Reads a file of a skill's folder (level 3), such as references/api.md, a template in assets/ or a script in scripts/ (to read it, not run it). "
    + 'load_skill lists the files. The path is relative to the skill folder; absolute paths, `..` and links that lead outside the folder are refused (PATH_OUTSIDE_SKILL). '
    + 'Binary files are described, not returned.',
  inputSchema: Input({
    skill: skillName(),
    path: FilePath('Path relative to the skill folder, e.g. "references/guide.md".', { minLength: 1 }),
    ...budgetInputs,
  }),
  outputSchema: Out({
    skill: Type.String(),
    path: Type.String(),
    kind: Type.String(),
    size: Type.Integer(),
    mimeType: Type.String(),
    binary: Type.Boolean(),
    note: Opt(Type.String()),
    content: Opt(Type.String()),
    tokens: Opt(Type.Integer()),
    totalTokens: Opt(Type.Integer()),
    cut: Opt(Type.String()),
  }),
  aliases: {
    skillName: 'skill',
    skill_name: 'skill',
    name: 'skill',
    file: 'path',
    file_path: 'path',
    filePath: 'path',
    resource: 'path',
    max_tokens: 'maxTokens',
  },
  access: 'read',
  maxOutputChars: 80_000,
  async handler(ws, input) {
    const skill = skillRegistry(ws).require(input.skill);
    const file = readSkillFile(skill, input.path);
    const base = {
      skill: skill.name,
      path: file.path,
      kind: kindOf(file.path),
      size: file.size,
      mimeType: file.mimeType,
    };
    if (file.binary) {
      return { ...base, binary: true, note: 'This is a binary file; its content is not returned. Use it by path.' };
    }
    const counter = await loadTokenCounter();
    const fitted = fitToBudget(file.text ?? '', counter, {
      maxTokens: input.maxTokens,
      truncate: input.truncate,
      what: `File "${file.path}" of skill "${skill.name}"`,
    });
    return {
      ...base,
      binary: false,
      content: fitted.text,
      tokens: fitted.tokens,
      ...(fitted.note ? { totalTokens: fitted.totalTokens, cut: fitted.note } : {}),
    };
  },
});

export const searchSkillsTool = defineTool({
  name: 'search_skills',
  title: 'Search skills',
  domain: 'skills',
  summary:
    'The skills that fit a task described in words, ranked, each with a confidence in [0, 1]; no_match when none fits.',
  description:
    'Finds the skills that fit a task you describe in words, in any language ("set up guard rules for a Swift project"): BM25F over each skill\'s name, description, use-when lines, headings and body, '
    + "fused with an offline similarity of the task to each skill's description. Each match has a confidence in [0, 1] (the calibrated chance that it fits; comparable across queries) and the words that matched. "
    + 'When no skill fits the request (the best match covers too little of it in its own description and use-when lines, and is too far from it in meaning) the answer is no_match: true with an empty matched_skills: do the task without a skill, or try list_skills. Then load_skill the best match. '
    + 'With mode "llm" the language model picks from the level-1 catalog (or from the 30 best by the ranking when the catalog is large), so it also finds skills the words miss; without a model the ranking is returned.',
  inputSchema: Input({
    query: Text('The task, in words.', { minLength: 1, maxLength: 4000 }),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 20, default: 5, description: 'How many skills to return.' })),
    mode: Opt(
      StringEnum(['bm25', 'llm'], {
        default: 'bm25',
        description:
          'Ranking method: "bm25" (fast, deterministic, offline) or "llm" (the model chooses from the catalog).',
      }),
    ),
  }),
  outputSchema: Out({
    query: Type.String(),
    mode: StringEnum(['bm25', 'llm']),
    no_match: Type.Boolean({ description: 'True when no skill is confident enough: matched_skills is empty.' }),
    matched_skills: Type.Array(
      Out({
        name: Type.String(),
        description: Type.String(),
        source: Opt(Type.String()),
        confidence: Opt(Type.Number()),
        matchedTerms: Opt(Type.Array(Type.String())),
      }),
    ),
    nearest: Opt(
      Out(
        { name: Type.String(), confidence: Type.Number() },
        { description: 'With no_match: the skill that came nearest, and its confidence.' },
      ),
    ),
    hint: Opt(Type.String()),
    ranking: Opt(StringEnum(['bm25', 'llm'])),
    considered: Opt(Type.Integer({ description: 'How many skills the model chose from.' })),
    note: Opt(Type.String()),
  }),
  aliases: { task: 'query', q: 'query', top_k: 'limit', topK: 'limit' },
  access: 'read',
  maxOutputChars: 12_000,
  async handler(ws, input, ctx) {
    const limit = input.limit ?? 5;
    const skills = skillRegistry(ws).list();
    if (input.mode === 'llm') {
      const counter = await loadTokenCounter();
      const candidates = llmCandidates(skills, input.query, counter);
      const chosen = await rerankSkills(
        ctx.model,
        input.query,
        candidates.map((s) => ({ name: s.name, description: s.description })),
        { limit, signal: ctx.signal },
      );
      const matched = chosen.matched_skills.map((s) => ({
        name: s.name,
        description: answerDescription(s.description),
      }));
      if (chosen.ranking === 'llm') {
        return {
          query: input.query,
          mode: 'llm' as const,
          ranking: 'llm' as const,
          no_match: matched.length === 0,
          matched_skills: matched,
          considered: candidates.length,
        };
      }
      return {
        query: input.query,
        mode: 'llm' as const,
        ...routingAnswer(skillSearchIndex(skills).route(input.query, limit), false),
        ranking: 'bm25' as const,
        note: chosen.note,
      };
    }
    return {
      query: input.query,
      mode: 'bm25' as const,
      ...routingAnswer(skillSearchIndex(skills).route(input.query, limit), true),
    };
  },
});

/** A description as an answer shows it: at most the 1,024 characters the Agent Skills rules allow, so one overlong description cannot crowd the others out of the answer. */
const answerDescription = (description: string) => cutAtWord(description, DESCRIPTION_MAX);

/**
 * The answer to a search: the matches with their confidence, or no_match with how near the best came.
 * `modelMayHelp`: the words decided, and a model choosing from the catalog finds what they miss (on
 * the routing evaluation, requests the words wrongly call no match are where a model helps most).
 */
function routingAnswer(r: SkillRouting, modelMayHelp: boolean) {
  const retry = modelMayHelp ? ' If you think one should fit, call search_skills again with mode "llm".' : '';
  return {
    no_match: r.noMatch,
    matched_skills: r.matches.map((m) => ({
      name: m.skill.name,
      description: answerDescription(m.skill.description),
      source: m.skill.source.id,
      confidence: m.confidence,
      matchedTerms: m.matchedTerms,
    })),
    ...(r.noMatch && r.nearest ? { nearest: { name: r.nearest.skill.name, confidence: r.nearest.confidence } } : {}),
    ...(r.noMatch
      ? {
        hint: r.nearest
          ? `No skill fits this task well (the nearest, ${r.nearest.skill.name}, has confidence ${r.nearest.confidence}). Do it without a skill, or call list_skills.${retry}`
          : `No skill shares anything with this task. Do it without a skill, or call list_skills.${retry}`,
      }
      : {}),
  };
}

export const installSkillTool = defineTool({
  name: 'install_skill',
  title: 'Install a skill',
  domain: 'skills',
  summary: 'Copy a skill from a folder, a .zip or a git URL into .autosnippet/skills, validated first.',
  description:
    "Installs a skill into the workspace's .autosnippet/skills folder, from a local folder, a local .zip file, or a git URL (cloned with --depth 1; add #sub/folder to take a skill from a subfolder). "
    + 'The skill is validated first and refused with INVALID_SKILL and the problems when it has errors. An installed skill of the same name is only replaced with overwrite: true. '
    + 'When the source holds several skills, pass `name` to choose one. Symbolic links are not copied.',
  inputSchema: Input({
    source: FilePath('Folder path, .zip path (relative to the workspace root or absolute), or git URL.', {
      minLength: 1,
    }),
    name: Opt(Name('The skill folder to take when the source holds several.')),
    overwrite: Opt(Type.Boolean({ default: false, description: 'Replace an installed skill of the same name.' })),
  }),
  outputSchema: Out({
    name: Type.String(),
    installedTo: Type.String(),
    kind: StringEnum(['folder', 'zip', 'git']),
    replaced: Type.Boolean(),
    problems: Domain<InstallResult['problems']>('Validation warnings and files left out.', 'array'),
  }),
  aliases: { url: 'source', path: 'source', skillName: 'name', skill_name: 'name' },
  access: 'review',
  maxOutputChars: 12_000,
  async handler(ws, input, ctx) {
    const result = await installSkill({
      source: input.source,
      name: input.name,
      overwrite: input.overwrite,
      targetRoot: path.join(ws.root, '.autosnippet', 'skills'),
      cwd: ws.root,
      signal: ctx.signal,
    });
    skillRegistry(ws).refresh();
    return { ...result, installedTo: path.relative(ws.root, result.installedTo).split(path.sep).join('/') };
  },
});

export const runSkillScriptTool = defineTool({
  name: 'run_skill_script',
  title: 'Run a skill script',
  domain: 'skills',
  summary: "Run a file from a skill's scripts/ folder (trusted workspaces with scripts allowed only).",
  description:
    "Runs a file from a skill's scripts/ folder with the given arguments (no shell; the workspace root as working directory) and returns its exit code, stdout and stderr (each cut at 16 KB). "
    + 'Python, shell, Node, Ruby, Perl and PowerShell files run with their interpreter; other files must be executable. Stopped after timeoutMs (default 30 s, at most 120 s). '
    + 'Refused with SCRIPTS_DISABLED unless the workspace is trusted and the setting autosnippet.skills.allowScripts is on; then read the script with read_skill_resource and follow it by hand.',
  inputSchema: Input({
    skill: skillName(),
    script: FilePath('Path under the skill\'s scripts/ folder, e.g. "check.py" or "scripts/check.py".', {
      minLength: 1,
    }),
    args: Opt(
      List(Code(undefined, { maxLength: 4000 }), 64, { description: 'Arguments, one string each (no shell quoting).' }),
    ),
    timeoutMs: Opt(Type.Integer({ minimum: 100, maximum: 120_000, description: 'Time limit in milliseconds.' })),
  }),
  outputSchema: Domain<Awaited<ReturnType<typeof runSkillScript>>>(
    'The exit code, stdout and stderr (each cut at 16 KB), and whether it timed out.',
  ),
  aliases: { skillName: 'skill', skill_name: 'skill', name: 'skill', path: 'script', arguments: 'args' },
  access: 'propose',
  maxOutputChars: 40_000,
  confirmation: (input) => ({
    title: 'Run a skill script?',
    message: `Run scripts/${input.script.replace(/^scripts\//, '')} of skill "${input.skill}"${
      input.args?.length ? ` with ${JSON.stringify(input.args)}` : ''
    }? It runs on this machine with your permissions.`,
  }),
  async handler(ws, input, ctx) {
    const skill = skillRegistry(ws).require(input.skill);
    return runSkillScript(skill, input.script, {
      trusted: ws.settings.trusted,
      trustNote: ws.settings.trustNote,
      allowScripts: ws.settings.skills.allowScripts,
      cwd: ws.root,
      args: input.args,
      timeoutMs: input.timeoutMs,
      maxOutputBytes: 16 * 1024,
      signal: ctx.signal,
    });
  },
});

export const createSkillTool = defineTool({
  name: 'create_skill',
  title: 'Create a skill',
  domain: 'skills',
  summary: 'Start a new skill in .autosnippet/skills from a template (people only).',
  description:
    'Writes .autosnippet/skills/<name>/SKILL.md with the name, the description, and sections to fill in (Steps, Pitfalls, a chunk for worked examples). '
    + 'The name follows the Agent Skills rules (lowercase letters, digits and hyphens). Refused with SKILL_EXISTS when the folder exists. Returns the file and the line to start writing at.',
  inputSchema: Input({
    name: skillName("The new skill's name, e.g. release-checklist."),
    description: Text('What the skill does and when to use it: agents choose skills by it.', {
      minLength: 1,
      maxLength: 1024,
    }),
  }),
  outputSchema: Out({ name: Type.String(), file: Type.String(), line: Type.Integer() }),
  access: 'review',
  maxOutputChars: 2000,
  handler(ws, input) {
    const problems = nameProblems(input.name);
    if (problems.length) {
      throw new AutoSnippetError(
        'INVALID_INPUT',
        problems[0].message,
        'Use lowercase letters a–z, digits and single hyphens.',
        { field: 'name' },
      );
    }
    const dir = path.join(ws.root, '.autosnippet', 'skills', input.name);
    if (existsSync(dir)) {
      throw new AutoSnippetError(
        'SKILL_EXISTS',
        `A skill named ${input.name} already exists in .autosnippet/skills.`,
        'Choose another name, or edit the existing skill.',
      );
    }
    ws.ensureDataDir();
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'SKILL.md');
    writeFileSync(
      file,
      `---\nname: ${input.name}\ndescription: ${
        JSON.stringify(input.description.trim())
      }\n---\n\n# ${input.name}\n\n## Steps\n\n1. \n\n## Pitfalls\n\n- \n\n<chunk id="examples" description="Worked examples">\n</chunk>\n`,
      { flag: 'wx' },
    );
    skillRegistry(ws).refresh();
    return { name: input.name, file, line: 11 };
  },
});

export const skillTools: AnyTool[] = [
  listSkills,
  loadSkill,
  loadSkillChunk,
  readSkillResource,
  searchSkillsTool,
  installSkillTool,
  createSkillTool,
  runSkillScriptTool,
];
