/**
 * The line at the top of an export block telling agents where the other recipes are: the file for
 * all code from a language file, the language and folder files from a file for all code, the scope
 * from a folder's file. It names only files this export writes or keeps, never one it skips.
 */
import type { ExportFileSpec } from './formats';
import { languageName } from './formats';

/** A planned file: what it is, and whether it will hold recipes after this export. */
export interface NoteTarget {
  spec: ExportFileSpec;
  written: boolean;
}

export function scopeNote(spec: ExportFileSpec, all: readonly NoteTarget[]): string | undefined {
  const same = all.filter((o) => o.written && o.spec.target === spec.target && o.spec.path !== spec.path);
  const globs = (paths: string[]) => paths.map((g) => `\`${g}\``).join(', ');
  if (spec.scope) return `These apply to ${globs(spec.scope.paths)}.`;
  if (spec.language) {
    const neutral = same.find((o) => o.spec.language === '' && !o.spec.scope);
    return `These apply to ${languageName(spec.language)} files${
      neutral ? `; the rules for all code are in ${neutral.spec.path}` : ''
    }.`;
  }
  const parts: string[] = [];
  const languages = same.filter((o) => o.spec.language && !o.spec.scope);
  if (languages.length) {
    parts.push(
      `Language-specific recipes are in ${
        languages.map((o) => `${o.spec.path} (${languageName(o.spec.language!)})`).join(', ')
      }.`,
    );
  }
  const scoped = same.filter((o) => o.spec.scope);
  if (scoped.length) {
    parts.push(
      `Recipes for parts of the project are in ${
        scoped.map((o) => `${o.spec.path} (${globs(o.spec.scope!.paths)})`).join(', ')
      }.`,
    );
  }
  return parts.length ? parts.join(' ') : undefined;
}
