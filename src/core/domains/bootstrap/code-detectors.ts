// The code-level detectors, each in a file of its own under detectors/, fed by the fact layer: one
// visit per file hands each of them the file's facts (never its text); each proposes on its own.
import type { Detector } from './detectors/code-detector';
import { CodeShapeDetector } from './detectors/code-shapes';
import { ConcurrencyDetector } from './detectors/concurrency';
import { PublicAnnotationDetector } from './detectors/public-annotation';
import { StandardTwinDetector } from './detectors/standard-twin';
import { factsOf } from './facts';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from './types';

export class CodeDetectors implements Analyzer {
  private readonly detectors: Detector[] = [
    new StandardTwinDetector(),
    new CodeShapeDetector(),
    new ConcurrencyDetector(),
    new PublicAnnotationDetector(),
  ];

  visit(file: SourceFile): void {
    if (file.family === 'other') return;
    const facts = factsOf(file);
    const view = { path: file.path, family: file.family, ...(file.target ? { target: file.target } : {}), facts };
    for (const d of this.detectors) d.visit(view);
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    for (const d of this.detectors) out.push(...(await d.finish(ctx)));
    return out;
  }
}
