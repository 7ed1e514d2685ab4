// The detectors of the cold start, fed by the fact layer: one visit per file hands each of them the
// file's facts; each proposes on its own.
import { factsOf } from '../facts';
import type { AnalysisContext, Analyzer, CandidateDraft, SourceFile } from '../types';
import { CodeShapeDetector } from './code-shapes';
import { ConcurrencyDetector } from './concurrency';
import { StandardTwinDetector } from './standard-twin';
import type { Detector } from './types';

export class FactDetectors implements Analyzer {
  private readonly detectors: Detector[] = [
    new StandardTwinDetector(),
    new CodeShapeDetector(),
    new ConcurrencyDetector(),
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
