import { Tallies, type Tally } from './evidence';
import { factsOf } from './facts';
import { distinctTails, IMPORT_LINE } from './form';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from './types';

/** A code idiom counted over the scanned files: a global regex over the masked code (or the raw text). */
export interface Signal {
  id: string;
  families: Family[];
  re: RegExp;
  /** Match the raw text instead of the masked code (for idioms that live in strings, such as SQL). */
  raw?: boolean;
  /** Count test files too (default: production files only). */
  tests?: boolean;
  /** Words one of which the text must contain for the regex to be worth running (a cheap pre-check). */
  hints?: string[];
  /**
   * Modules one of which the file must import for a match to count: an idiom's name alone is not
   * enough (`createContext` is React's only where React is imported). Matched as a prefix.
   */
  requires?: string[];
  /** A match on an import line names the API; it uses nothing (`import okhttp3.OkHttpClient;` is no HTTP call). */
  skipImports?: boolean;
}

/** Read access to the counts, for the rules that turn them into drafts. */
export interface SignalView {
  /** Occurrences of a signal in one family (empty tally when none). */
  get(family: Family, id: string): Tally;
  /** Production files scanned in the family. */
  files(family: Family): number;
  families(): Family[];
  ctx: AnalysisContext;
}

/**
 * Base of the dimensions that are counts of idioms: each signal is one regex pass per file of its
 * families; `propose` turns the counts into drafts. Keeps only tallies, never the text.
 */
export abstract class SignalAnalyzer implements Analyzer {
  protected abstract readonly signals: Signal[];
  // With the functions and sites of each place: the boundaries say and cite them.
  private readonly tallies = new Tallies(8, true);
  private readonly fileCounts = new Map<Family, number>();
  private readonly empty = new Tallies(0);

  visit(file: SourceFile): void {
    if (file.kind === 'generated') return;
    const isTest = file.kind === 'test';
    if (!isTest) this.fileCounts.set(file.family, (this.fileCounts.get(file.family) ?? 0) + 1);
    let imports: string[] | undefined;
    for (const s of this.signals) {
      if (!s.families.includes(file.family) || (isTest && !s.tests)) continue;
      if (s.hints && !s.hints.some((h) => file.text.includes(h))) continue;
      if (s.requires) {
        imports ??= factsOf(file).imports.map((i) => i.spec);
        // Rust also names a crate by its path without a `use` (`anyhow::Result` in a `search.rs`).
        if (
          !s.requires.some((r) =>
            imports!.some((i) => i === r || i.startsWith(r + '/') || i.startsWith(r + '.') || i.startsWith(r + '::'))
            || (file.family === 'rust' && file.code.includes(`${r}::`))
          )
        ) continue;
      }
      const text = s.raw ? file.text : file.code;
      s.re.lastIndex = 0;
      let line = 1;
      let scanned = 0;
      for (let m = s.re.exec(text); m; m = s.re.exec(text)) {
        for (let i = scanned; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
        scanned = m.index;
        const onImport = s.skipImports
          && IMPORT_LINE.test(text.slice(text.lastIndexOf('\n', m.index - 1) + 1, m.index + m[0].length));
        if (!onImport) this.tallies.get(`${file.family}|${s.id}${isTest ? '|test' : ''}`).add(file, line);
        if (m[0].length === 0) s.re.lastIndex++;
      }
    }
  }

  finish(ctx: AnalysisContext): Promise<CandidateDraft[]> | CandidateDraft[] {
    const view: SignalView = {
      get: (family, id) => this.tallies.peek(`${family}|${id}`) ?? this.empty.get('-'),
      files: (family) => this.fileCounts.get(family) ?? 0,
      families: () => [...this.fileCounts.keys()].sort(),
      ctx,
    };
    return this.propose(view);
  }

  protected abstract propose(view: SignalView): Promise<CandidateDraft[]> | CandidateDraft[];
}

/** The file names of a tally's samples, as inline code, for titles and summaries. */
export function fileList(t: Tally, limit = 3): string {
  // By the shortest tail that tells them apart: a Kotlin file's full path alone can fill a summary.
  const all = [...t.files].sort();
  const names = distinctTails(all.slice(0, limit), all);
  return names.map((f) => `\`${f}\``).join(', ') + (t.files.size > limit ? ` and ${t.files.size - limit} more` : '');
}
