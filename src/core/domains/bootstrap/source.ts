import { classifyFile, type FileKind, testRegions } from '../../ground/files/classify';
import { maskText } from '../../ground/text/mask';
import type { Family, SourceFile } from './types';

/** The family of each language id the scan reads. */
export const FAMILY_LANGUAGES: Readonly<Record<string, Family>> = {
  typescript: 'jsts',
  typescriptreact: 'jsts',
  javascript: 'jsts',
  javascriptreact: 'jsts',
  swift: 'swift',
  'objective-c': 'objc',
  'objective-cpp': 'objc',
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'java',
  kotlin: 'kotlin',
};

export const FAMILY_LABEL: Record<Family, string> = {
  jsts: 'TypeScript/JavaScript',
  swift: 'Swift',
  objc: 'Objective-C',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
  kotlin: 'Kotlin',
  other: 'Other',
};

export function familyOf(language: string, text?: string): Family {
  const f = FAMILY_LANGUAGES[language];
  if (f) return f;
  if (language === 'c' && text && /@interface|@protocol|NS_ASSUME_NONNULL|#import\s*<Foundation/.test(text)) {
    return 'objc';
  }
  return 'other';
}

/** The kind of a file from its path alone (before it is read), by the shared classifier. */
export function pathKind(rel: string): FileKind {
  return classifyFile(rel).kind;
}

/**
 * Builds the analysers' view of a file: its kind (from the path and its first lines), masked code
 * (comments and strings blanked, and in-file test code such as Rust's `#[cfg(test)] mod tests`
 * blanked too, so that it never counts as production), lines, and a generated file's marker.
 */
export function sourceFile(
  path: string,
  language: string,
  text: string,
  target: string | undefined,
  alsoIn: readonly string[] = [],
): SourceFile {
  const masked = maskText(text, language);
  const lines = text.split('\n');
  let cls = classifyFile(path, text.slice(0, 4096));
  // A marker counts in a comment, not in code (`const s = 'DO NOT EDIT'`): then the path decides.
  const marker = cls.kind === 'generated' ? generatedMarker(lines, cls.reason) : undefined;
  if (marker && marker.line > 0 && !/^\s*(\/\/|#|\/\*|\*|<!--|--|;)/.test(lines[marker.line - 1] ?? '')) {
    cls = classifyFile(path);
  }
  const kind: SourceFile['kind'] = cls.kind === 'test'
    ? 'test'
    : cls.kind === 'production'
    ? 'production'
    : 'generated';
  let code = masked.code;
  if (
    kind === 'production' && (text.includes('#[cfg(') || text.includes('#[test') || text.includes('import.meta.vitest'))
  ) {
    for (const r of testRegions(text, language)) code = blankLines(code, r.start, r.end);
  }
  const family = familyOf(language, text);
  // A header with Objective-C in it is Objective-C, whatever its `.h` says.
  const file: SourceFile = {
    path,
    language: family === 'objc' && language === 'c' ? 'objective-c' : language,
    family,
    text,
    code,
    lines,
    bytes: text.length,
    kind,
    ...(target !== undefined ? { target } : {}),
    ...(alsoIn.length ? { alsoIn: [...alsoIn] } : {}),
  };
  // Only what the classifier found generated (by a header or a name): minified, vendored or example code is not mined either, but nothing says it is regenerated.
  if (cls.kind === 'generated') file.generated = marker && marker.line > 0 ? marker : { line: 1, marker: cls.reason };
  return file;
}

/** Where the classifier saw the file is generated: the header line that says so, or line 1 for a name. */
function generatedMarker(lines: string[], reason: string): { line: number; marker: string } {
  const quoted = /"([^"]+)"/.exec(reason)?.[1];
  if (quoted) {
    const at = lines.slice(0, 12).findIndex((l) => l.includes(quoted));
    if (at >= 0) return { line: at + 1, marker: quoted };
  }
  return { line: /^header/.test(reason) ? 0 : 1, marker: reason };
}

/** Lines `start..end` (1-based) of masked code turned to spaces, offsets kept. */
function blankLines(code: string, start: number, end: number): string {
  let line = 1;
  let from = -1;
  let to = code.length;
  for (let i = 0; i < code.length; i++) {
    if (line === start && from < 0) from = i;
    if (code.charCodeAt(i) === 10) {
      if (line === end) {
        to = i;
        break;
      }
      line++;
    }
  }
  if (from < 0) return code;
  return code.slice(0, from) + code.slice(from, to).replace(/[^\n]/g, ' ') + code.slice(to);
}

/** 1-based line of each offset, by binary search over line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    // indexOf finds the next newline natively: a loop over every character cost ~250 ms on 5,000 files.
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}
