// What a detector sees: one file's facts, never its text. A detector lives in one file, imports no
// other detector, and turns the facts of every scanned file into evidence-backed drafts.
import type { FileFacts } from '../facts';
import type { AnalysisContext, CandidateDraft, Family } from '../types';

export interface FactFile {
  path: string;
  family: Family;
  target?: string;
  facts: FileFacts;
}

export interface Detector {
  visit(file: FactFile): void;
  finish(ctx: AnalysisContext): Promise<CandidateDraft[]> | CandidateDraft[];
}

/** The names of files as a reader knows them: the base name. */
export const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** `a`, `b` and `c`: the base names of up to `n` files, in code spans. */
export function filesSaid(paths: readonly string[], n = 3): string {
  const shown = paths.slice(0, n).map((p) => `\`${baseName(p)}\``);
  const more = paths.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown.join('');
}
