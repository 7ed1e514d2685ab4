import { snippetLanguageForPath } from '../../ground/kernel/languages';
import type { CandidateDraft } from './types';

/**
 * The language of a draft's code excerpt: that of the cited file the excerpt was taken from (a
 * `pyproject.toml` excerpt in a Python project is TOML), found by the excerpt's first non-blank line
 * appearing in the file. The draft's language stays when no cited file holds the excerpt or its
 * extension names no language.
 */
export async function codeLanguageOf(
  draft: Pick<CandidateDraft, 'code' | 'language' | 'reasoning'>,
  read: (file: string) => Promise<string | undefined>,
): Promise<string> {
  const first = draft.code.split('\n').map((l) => l.trim()).find(Boolean);
  if (!first) return draft.language;
  const files = [...new Set(draft.reasoning.sources.map((s) => s.replace(/:\d+(?:-\d+)?$/, '')))];
  for (const file of files) {
    const text = await read(file);
    if (text === undefined || !text.includes(first)) continue;
    return snippetLanguageForPath(file) ?? draft.language;
  }
  return draft.language;
}
