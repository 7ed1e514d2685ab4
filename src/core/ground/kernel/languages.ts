/** Language ids (VS Code's), the files they cover, and how their comments and strings look. */
import { lookup } from './tables';

export type LexFamily = 'js' | 'swift' | 'kotlin' | 'java' | 'go' | 'rust' | 'c' | 'python' | 'hash';

interface LanguageInfo {
  family: LexFamily;
  extensions: string[];
  /** The language whose rules also apply (typescriptreact → typescript). */
  base?: string;
  /** How an inline disable comment starts. */
  lineComment: string;
}

const LANGUAGES: Record<string, LanguageInfo> = {
  typescript: { family: 'js', extensions: ['.ts', '.mts', '.cts'], lineComment: '//' },
  typescriptreact: { family: 'js', extensions: ['.tsx'], base: 'typescript', lineComment: '//' },
  javascript: { family: 'js', extensions: ['.js', '.mjs', '.cjs'], lineComment: '//' },
  javascriptreact: { family: 'js', extensions: ['.jsx'], base: 'javascript', lineComment: '//' },
  swift: { family: 'swift', extensions: ['.swift'], lineComment: '//' },
  'objective-c': { family: 'c', extensions: ['.m'], lineComment: '//' },
  'objective-cpp': { family: 'c', extensions: ['.mm'], base: 'objective-c', lineComment: '//' },
  python: { family: 'python', extensions: ['.py', '.pyi'], lineComment: '#' },
  go: { family: 'go', extensions: ['.go'], lineComment: '//' },
  java: { family: 'java', extensions: ['.java'], lineComment: '//' },
  kotlin: { family: 'kotlin', extensions: ['.kt', '.kts'], lineComment: '//' },
  rust: { family: 'rust', extensions: ['.rs'], lineComment: '//' },
  c: { family: 'c', extensions: ['.c', '.h'], lineComment: '//' },
  cpp: { family: 'c', extensions: ['.cc', '.cpp', '.cxx', '.hpp', '.hh'], lineComment: '//' },
  csharp: { family: 'c', extensions: ['.cs'], lineComment: '//' },
  dart: { family: 'c', extensions: ['.dart'], lineComment: '//' },
  scala: { family: 'java', extensions: ['.scala'], lineComment: '//' },
  ruby: { family: 'hash', extensions: ['.rb'], lineComment: '#' },
  shellscript: { family: 'hash', extensions: ['.sh', '.bash'], lineComment: '#' },
};

const byExtension = new Map<string, string>();
for (const [id, info] of Object.entries(LANGUAGES)) for (const ext of info.extensions) byExtension.set(ext, id);

/** Aliases people and agents use for `guard_check`'s `language`. */
const ALIASES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  py: 'python',
  objc: 'objective-c',
  'objective_c': 'objective-c',
  objectivec: 'objective-c',
  golang: 'go',
  kt: 'kotlin',
  rs: 'rust',
  'c#': 'csharp',
  'c++': 'cpp',
  sh: 'shellscript',
  bash: 'shellscript',
  rb: 'ruby',
};

export function knownLanguages(): string[] {
  return Object.keys(LANGUAGES);
}

export function normalizeLanguage(id: string): string | undefined {
  const lower = id.trim().toLowerCase();
  if (lookup(LANGUAGES, lower)) return lower;
  return lookup(ALIASES, lower);
}

export function languageForPath(p: string): string | undefined {
  const dot = p.lastIndexOf('.');
  if (dot < 0) return undefined;
  return byExtension.get(p.slice(dot).toLowerCase());
}

export function lexFamily(language: string): LexFamily {
  return lookup(LANGUAGES, language)?.family ?? 'c';
}

export function lineCommentOf(language: string): string {
  return lookup(LANGUAGES, language)?.lineComment ?? '//';
}

/** The language ids whose rules apply to a document of `language`: itself and its base. */
export function ruleLanguagesFor(language: string): string[] {
  const base = lookup(LANGUAGES, language)?.base;
  return base ? [language, base] : [language];
}

/** The file extensions of these languages (`.ts`, `.swift`…): the globs an exported rules file applies to. */
export function extensionsFor(languages: Iterable<string>): string[] {
  const out: string[] = [];
  for (const l of languages) out.push(...(lookup(LANGUAGES, l)?.extensions ?? []));
  return out;
}

/**
 * Configuration and data files: no guard rules apply to them, but a snippet excerpted from one is
 * shown and offered in its own language (VS Code's ids), never in the language of the project.
 */
const DATA_BY_EXTENSION: Record<string, string> = {
  '.toml': 'toml',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.xml': 'xml',
  '.plist': 'xml',
  '.ini': 'ini',
  '.cfg': 'ini',
  '.properties': 'properties',
  '.md': 'markdown',
  '.gradle': 'groovy',
  '.cmake': 'cmake',
  '.mk': 'makefile',
  '.dockerfile': 'dockerfile',
  '.sql': 'sql',
  '.html': 'html',
  '.css': 'css',
  '.scss': 'scss',
  '.zsh': 'shellscript',
  '.ps1': 'powershell',
};
const DATA_BY_NAME: Record<string, string> = {
  makefile: 'makefile',
  gnumakefile: 'makefile',
  dockerfile: 'dockerfile',
  'cmakelists.txt': 'cmake',
  '.editorconfig': 'ini',
  '.flake8': 'ini',
  '.prettierrc': 'json',
  '.swiftlint.yml': 'yaml',
  'podfile': 'ruby',
  gemfile: 'ruby',
  'package.swift': 'swift',
};

/** The language of a code excerpt from this file: a programming language, or a configuration/data format. */
export function snippetLanguageForPath(p: string): string | undefined {
  const name = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return lookup(DATA_BY_NAME, name) ?? languageForPath(p)
    ?? (dot >= 0 ? lookup(DATA_BY_EXTENSION, name.slice(dot)) : undefined);
}

/** Whether `id` names a language a snippet may be in (a programming language or a data format). */
export function isSnippetLanguage(id: string): boolean {
  const lower = id.trim().toLowerCase();
  return normalizeLanguage(lower) !== undefined || Object.values(DATA_BY_EXTENSION).includes(lower)
    || Object.values(DATA_BY_NAME).includes(lower);
}
