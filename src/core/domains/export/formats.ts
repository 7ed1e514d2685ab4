/**
 * The instruction files agents read on every request, and how each is scoped. Checked against each
 * format's documentation (see docs/knowledge.md, "Export to agent instruction files"):
 * - AGENTS.md (agents.md): plain Markdown at the repository root, no frontmatter; nested files exist
 *   but a root file is what every agent reads, so languages are sections there.
 * - GitHub Copilot: `.github/copilot-instructions.md` (every request, plain Markdown) and
 *   `.github/instructions/NAME.instructions.md` with frontmatter `applyTo` (comma-separated globs)
 *   and `description`. Copilot code review reads only the first 4,000 characters of a file.
 * - Claude Code: `CLAUDE.md` (plain Markdown) and `.claude/rules/*.md`, loaded for the files matching
 *   the `paths` list in their frontmatter.
 * - Cursor: `.cursor/rules/*.mdc` with frontmatter `description`, `globs` (comma-separated) and
 *   `alwaysApply` (boolean): always-on for language-neutral recipes, auto-attached by glob per language.
 */
import { extensionsFor, knownLanguages, ruleLanguagesFor } from '../../ground/kernel/languages';
import { lookup } from '../../ground/kernel/tables';

export type ExportTarget = 'agents' | 'copilot' | 'claude' | 'cursor';
export const EXPORT_TARGETS: readonly ExportTarget[] = ['agents', 'copilot', 'claude', 'cursor'];

/** One file a target writes: where, for which recipes, with which frontmatter when it is created. */
export interface ExportFileSpec {
  target: ExportTarget;
  path: string;
  /** `undefined`: every recipe (sections per language); `''`: language-neutral recipes; else one language group. */
  language?: string;
  /** Set for a file of recipes scoped to folders: those recipes only, every language. */
  scope?: ExportScope;
  /** Frontmatter written when the file is created (a person's edits to it are kept afterwards). */
  frontmatter?: string;
  /** Default size budget of the whole file, in characters. */
  maxChars: number;
}

/** Recipes that share a folder scope: their globs, and the folder the globs lie under ('' when none). */
export interface ExportScope {
  paths: string[];
  folder: string;
}

export interface TargetInfo {
  label: string;
  /** Default size budget per file, in characters. */
  maxChars: number;
  /** What the files are, for people choosing a target. */
  describe: string;
}

export const TARGETS: Readonly<Record<ExportTarget, TargetInfo>> = {
  agents: {
    label: 'AGENTS.md',
    maxChars: 12000,
    describe: 'AGENTS.md at the root (Codex, Copilot, Cursor, Jules, Aider and most agents)',
  },
  copilot: {
    label: 'GitHub Copilot',
    maxChars: 4000,
    describe:
      '.github/copilot-instructions.md and .github/instructions/autosnippet-<language>.instructions.md (applyTo)',
  },
  claude: {
    label: 'Claude Code',
    maxChars: 8000,
    describe: 'CLAUDE.md and .claude/rules/autosnippet-<language>.md (paths)',
  },
  cursor: {
    label: 'Cursor',
    maxChars: 6000,
    describe: '.cursor/rules/autosnippet.mdc (always) and autosnippet-<language>.mdc (globs)',
  },
};

/** The language a recipe is grouped under: the base of a dialect (typescriptreact → typescript), or '' when it has no files of its own. */
export function languageGroup(language: string): string {
  const [self, base] = ruleLanguagesFor(language.toLowerCase());
  const group = base ?? self;
  return extensionsFor([group]).length ? group : '';
}

/** `**\/*.ts`, `**\/*.tsx`… for a language group (its dialects included). */
export function globsFor(group: string): string[] {
  const members = knownLanguages().filter((l) => ruleLanguagesFor(l).includes(group));
  return extensionsFor(members).map((ext) => `**/*${ext}`);
}

const NAMES: Record<string, string> = {
  typescript: 'TypeScript',
  javascript: 'JavaScript',
  swift: 'Swift',
  'objective-c': 'Objective-C',
  python: 'Python',
  go: 'Go',
  java: 'Java',
  kotlin: 'Kotlin',
  rust: 'Rust',
  c: 'C',
  cpp: 'C++',
  csharp: 'C#',
  dart: 'Dart',
  scala: 'Scala',
  ruby: 'Ruby',
  shellscript: 'Shell',
};

export function languageName(group: string): string {
  return lookup(NAMES, group) ?? (group ? group[0].toUpperCase() + group.slice(1) : 'All code');
}

/** The files a target writes for these language groups ('' = language-neutral recipes). */
export function filesFor(target: ExportTarget, groups: string[], maxChars?: number): ExportFileSpec[] {
  const budget = maxChars ?? TARGETS[target].maxChars;
  const languages = groups.filter(Boolean).sort();
  const q = (s: string) => JSON.stringify(s);
  switch (target) {
    case 'agents':
      return [{ target, path: 'AGENTS.md', maxChars: budget }];
    case 'copilot':
      return [
        { target, path: '.github/copilot-instructions.md', language: '', maxChars: budget },
        ...languages.map((l) => ({
          target,
          language: l,
          maxChars: budget,
          path: `.github/instructions/autosnippet-${l}.instructions.md`,
          frontmatter: `---\napplyTo: ${q(globsFor(l).join(','))}\ndescription: ${
            q(`This project's ${languageName(l)} rules and patterns, from AutoSnippet`)
          }\n---\n`,
        })),
      ];
    case 'claude':
      return [
        { target, path: 'CLAUDE.md', language: '', maxChars: budget },
        ...languages.map((l) => ({
          target,
          language: l,
          maxChars: budget,
          path: `.claude/rules/autosnippet-${l}.md`,
          frontmatter: `---\npaths:\n${globsFor(l).map((g) => `  - ${q(g)}`).join('\n')}\n---\n`,
        })),
      ];
    case 'cursor':
      return [
        {
          target,
          path: '.cursor/rules/autosnippet.mdc',
          language: '',
          maxChars: budget,
          frontmatter: `---\ndescription: ${
            q("This project's rules and patterns that apply to all code, from AutoSnippet")
          }\nalwaysApply: true\n---\n`,
        },
        ...languages.map((l) => ({
          target,
          language: l,
          maxChars: budget,
          path: `.cursor/rules/autosnippet-${l}.mdc`,
          frontmatter: `---\ndescription: ${
            q(`This project's ${languageName(l)} rules and patterns, from AutoSnippet`)
          }\nglobs: ${q(globsFor(l).join(','))}\nalwaysApply: false\n---\n`,
        })),
      ];
  }
}

/**
 * The file a target writes for recipes scoped to folders: where the target reads scoped files (a
 * nested AGENTS.md or CLAUDE.md in the folder, an `applyTo`, `paths` or `globs` file otherwise), or
 * undefined when the target has no such file (AGENTS.md for globs that share no folder: those
 * recipes go into the root file, marked with where they apply).
 */
export function scopedFileFor(target: ExportTarget, scope: ExportScope, maxChars?: number): ExportFileSpec | undefined {
  const maxCharsOf = maxChars ?? TARGETS[target].maxChars;
  const base = { target, scope, maxChars: maxCharsOf };
  const q = (s: string) => JSON.stringify(s);
  const slug = `in-${scopeSlug(scope)}`;
  const describe = q(`This project's rules and patterns for ${scope.paths.join(', ')}, from AutoSnippet`);
  switch (target) {
    case 'agents':
      return scope.folder ? { ...base, path: `${scope.folder}/AGENTS.md` } : undefined;
    case 'copilot':
      return {
        ...base,
        path: `.github/instructions/autosnippet-${slug}.instructions.md`,
        frontmatter: `---\napplyTo: ${q(scope.paths.join(','))}\ndescription: ${describe}\n---\n`,
      };
    case 'claude':
      return scope.folder
        ? { ...base, path: `${scope.folder}/CLAUDE.md` }
        : {
          ...base,
          path: `.claude/rules/autosnippet-${slug}.md`,
          frontmatter: `---\npaths:\n${scope.paths.map((g) => `  - ${q(g)}`).join('\n')}\n---\n`,
        };
    case 'cursor':
      return {
        ...base,
        path: `.cursor/rules/autosnippet-${slug}.mdc`,
        frontmatter: `---\ndescription: ${describe}\nglobs: ${q(scope.paths.join(','))}\nalwaysApply: false\n---\n`,
      };
  }
}

/** A file-name part for a scope: its folder, else its globs, as lowercase words joined by '-'. */
function scopeSlug(scope: ExportScope): string {
  const words = (scope.folder || scope.paths.join(' ')).toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return words.replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '') || 'scoped';
}
