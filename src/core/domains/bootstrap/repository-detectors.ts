// The repository-level detectors, each in a file of its own under detectors/: they read the facts
// of the scanned files and of the repository's other files (CI, changelogs, contributor guides,
// manifests) and nothing else. This analyser gathers the facts and runs them.
import { detectChangelogPolicy } from './detectors/changelog';
import { detectCompatibilityChecks } from './detectors/compatibility';
import { detectContributorWorkflow } from './detectors/contributor-rules';
import { detectDeprecationPolicy } from './detectors/deprecation';
import { detectTestSetup } from './detectors/test-setup';
import { languageOf } from './dimensions/standards';
import { type Detector, type DetectorFacts, type FileRecord, fileRecord, repoFacts } from './repo-facts';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from './types';

const DETECTORS: readonly Detector[] = [
  detectCompatibilityChecks,
  detectChangelogPolicy,
  detectDeprecationPolicy,
  detectTestSetup,
  detectContributorWorkflow,
];

export class RepositoryDetectors implements Analyzer {
  private readonly files: FileRecord[] = [];

  visit(file: SourceFile): void {
    if (file.kind !== 'generated') this.files.push(fileRecord(file));
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const facts: DetectorFacts = {
      files: this.files,
      repo: await repoFacts(ctx),
      ...(ctx.primary ? { primary: ctx.primary } : {}),
      languageOf: (family) => languageOf(family, ctx),
    };
    const out: CandidateDraft[] = [];
    for (const detect of DETECTORS) {
      for (const { excerptAt, ...card } of detect(facts)) {
        const at = excerptAt ? /^(.*):(\d+)$/.exec(excerptAt) : null;
        out.push(at && !card.code ? { ...card, code: await ctx.excerpt(at[1], Number(at[2])) } : card);
      }
    }
    return out;
  }
}
