/** The shapes of a parsed skill, shared by the parser, the registry, validation, search and rendering. */

export type ProblemSeverity = 'error' | 'warning' | 'info';

/** One thing wrong (or worth knowing) about a SKILL.md, with the rule that found it. */
export interface SkillProblem {
  severity: ProblemSeverity;
  /** Stable id, e.g. `name-charset`, `chunk-unclosed`. */
  rule: string;
  message: string;
  /** 1-based line in SKILL.md, when the problem has a place. */
  line?: number;
}

/** A `## heading` of the body and the lines under it up to the next `#` or `##` heading. */
export interface SkillSection {
  heading: string;
  /** Lowercase, hyphenated heading, accepted wherever a heading is. */
  slug: string;
  /** 1-based line of the heading in SKILL.md. */
  line: number;
  /** 1-based last line of the section in SKILL.md. */
  endLine: number;
  /** Ids of the chunks that sit inside this section. */
  chunkIds: string[];
}

/** A `<chunk id=".." description="..">…</chunk>` block: level 3, left out of the level-2 body. */
export interface SkillChunk {
  id: string;
  description: string;
  /** 1-based line of the opening tag in SKILL.md. */
  line: number;
  /** 1-based line of the closing tag. */
  endLine: number;
  content: string;
}

export type ResourceKind = 'script' | 'reference' | 'asset' | 'other';

/** A file of the skill's folder other than SKILL.md. */
export interface SkillResource {
  /** Relative to the skill folder, with `/` separators. */
  path: string;
  kind: ResourceKind;
  size: number;
}

/** Where skills are read from, in order of precedence (lower `rank` wins). */
export interface SkillSource {
  id: 'project' | 'github' | 'claude' | 'agents' | 'personal' | 'pack' | 'bundled';
  label: string;
  dir: string;
  rank: number;
}

export interface Skill {
  /** The frontmatter name, or the folder name when the name is missing or unusable. */
  name: string;
  description: string;
  /** Absolute path of the skill folder. */
  dir: string;
  folderName: string;
  /** Absolute path of SKILL.md. */
  file: string;
  source: SkillSource;
  frontmatter: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** From `metadata.related` (list or comma/space separated string). */
  related: string[];
  /** From `metadata.use-when`, else the "Use when …" sentence of the description. */
  useWhen?: string;
  license?: string;
  compatibility?: string;
  allowedTools: string[];
  /** The Markdown after the frontmatter, chunks included. */
  body: string;
  /** 1-based line of SKILL.md where the body starts. */
  bodyLine: number;
  /** The body with every chunk removed: what level 2 returns. */
  level2Body: string;
  sections: SkillSection[];
  chunks: SkillChunk[];
  /** Problems found while reading: always kept, never a reason to drop the skill. */
  problems: SkillProblem[];
  /** Line of each frontmatter key, for problems about a field. */
  fieldLines: Record<string, number>;
  /** Raw text of SKILL.md, for validation. */
  text: string;
}

/** A folder that looked like a skill but could not be read as one. */
export interface SkippedSkill {
  dir: string;
  file: string;
  source: SkillSource;
  reason: string;
  problems: SkillProblem[];
  /** `file` is a folder the scan passed over (too deep, unreadable), not a skill file that failed to load. */
  folder?: boolean;
}

/** A skill hidden by one of the same name from a source of higher precedence. */
export interface ShadowedSkill {
  skill: Skill;
  shadowedBy: { name: string; source: SkillSource['id']; dir: string };
}
