// Tuning of skill search on the tuning half (fold A) of the routing data only: field weights by
// coordinate ascent on MRR@3, the fusion constants, then the confidence model (logistic regression of
// "the best skill is right" on its coverage, strength, gap and similarity) and the "no match"
// threshold. Prints the constants to put in src/core/skills/search.ts.
// `npx tsx bench/skill-routing/tune.ts` (TUNE_WEIGHTS=0 keeps the field weights as they are).
// The held-out half (fold B) is only ever read by skill-routing.bench.ts.
import { confidenceOf, SEMANTIC, SkillSearchIndex, SKILL_FIELDS, type CONFIDENCE_MODEL, type ConfidenceFeatures, type SkillField } from '../../src/core/skills/search';
import type { Skill } from '../../src/core/skills/types';
import type { Bm25fField } from '../../src/core/text';
import { bundledSkills, catalogSkills, fold, loadTasks, type RoutingTask } from './data';
import { evaluate } from './evaluate';
import { oursRanker } from './rankers';

type Fields = Record<SkillField, Bm25fField>;

function mrr(fields: Fields, sets: { skills: Skill[]; tasks: RoutingTask[] }[]): number {
  let sum = 0, n = 0;
  for (const s of sets) {
    const f = evaluate(s.tasks.filter((t) => t.expected), oursRanker(s.skills, { fields, threshold: 0 }));
    sum += f.mrr3 * f.answerable;
    n += f.answerable;
  }
  return sum / n;
}

/** Coordinate ascent over the weights, each from a small grid: cheap, and enough for six fields. */
function tuneWeights(sets: { skills: Skill[]; tasks: RoutingTask[] }[]): Fields {
  let best: Fields = structuredClone(SKILL_FIELDS);
  let bestScore = mrr(best, sets);
  const grid: Record<SkillField, number[]> = { name: [1, 2, 3, 5], description: [1, 2, 3, 4], useWhen: [0, 1, 2, 3], headings: [0, 0.5, 1, 2], chunks: [0, 0.5, 1], body: [0, 0.1, 0.3, 0.6, 1] };
  for (let round = 0; round < 2; round++) {
    for (const f of Object.keys(grid) as SkillField[]) {
      for (const w of grid[f]) {
        const trial = structuredClone(best);
        trial[f].weight = w;
        const score = mrr(trial, sets);
        if (score > bestScore + 1e-9) [best, bestScore] = [trial, score];
      }
    }
  }
  console.log(`weights: MRR@3 on fold A = ${bestScore.toFixed(3)}`, JSON.stringify(Object.fromEntries(Object.entries(best).map(([k, v]) => [k, v.weight]))));
  return best;
}

/** Logistic regression by gradient descent on the features → is the best skill right. */
function fitConfidence(samples: { f: ConfidenceFeatures; y: number }[]): typeof CONFIDENCE_MODEL {
  const keys = ['coverage', 'strength', 'gap', 'similarity'] as const;
  const w = { bias: 0, coverage: 0, strength: 0, gap: 0, similarity: 0 };
  for (let it = 0; it < 20000; it++) {
    const g = { bias: 0, coverage: 0, strength: 0, gap: 0, similarity: 0 };
    for (const s of samples) {
      const e = confidenceOf(s.f, w) - s.y;
      g.bias += e;
      for (const k of keys) g[k] += e * Math.min(1, s.f[k]);
    }
    const lr = 2 / samples.length;
    w.bias -= lr * g.bias;
    for (const k of keys) w[k] -= lr * g[k];
  }
  return { bias: round(w.bias), coverage: round(w.coverage), strength: round(w.strength), gap: round(w.gap), similarity: round(w.similarity) };
}

const round = (v: number) => Math.round(v * 100) / 100;

export function tune(): void {
  const tasks = loadTasks().filter((t) => fold(t) === 'A');
  const catalog = catalogSkills();
  const bundled = bundledSkills();
  const sets = [
    { skills: catalog, tasks: tasks.filter((t) => t.set === 'catalog') },
    { skills: bundled, tasks: tasks.filter((t) => t.set === 'bundled') },
  ];
  const fields = process.env.TUNE_WEIGHTS === '0' ? SKILL_FIELDS : tuneWeights(sets);
  // The fusion: RRF constant and the semantic list's weight (SEMANTIC is read at query time).
  let bestFusion = { k: SEMANTIC.k, weight: SEMANTIC.weight, score: mrr(fields, sets) };
  for (const k of [5, 10, 20, 60]) {
    for (const weight of [0, 0.25, 0.5, 0.75, 1]) {
      Object.assign(SEMANTIC, { k, weight });
      const score = mrr(fields, sets);
      if (score > bestFusion.score + 1e-9) bestFusion = { k, weight, score };
    }
  }
  Object.assign(SEMANTIC, { k: bestFusion.k, weight: bestFusion.weight });
  console.log(`fusion: MRR@3 on fold A = ${bestFusion.score.toFixed(3)} with k ${bestFusion.k}, semantic weight ${bestFusion.weight}`);

  const samples: { f: ConfidenceFeatures; y: number; answerable: boolean }[] = [];
  for (const s of sets) {
    const index = new SkillSearchIndex(s.skills, fields);
    for (const t of s.tasks) {
      const top = index.explain(t.query)[0];
      const right = !!top && !!t.expected && [t.expected, ...t.alsoAcceptable].includes(top.name);
      samples.push({ f: top ?? { coverage: 0, strength: 0, gap: 0, similarity: 0 }, y: right ? 1 : 0, answerable: !!t.expected });
    }
  }
  const model = fitConfidence(samples);
  console.log('confidence model:', JSON.stringify(model));
  // The threshold: as many unanswerable requests recognised as possible with at most 5% of the answerable refused.
  const conf = (f: ConfidenceFeatures) => confidenceOf(f, model);
  let bestThreshold = 0;
  let bestRecall = -1;
  for (let th = 0; th <= 0.8; th += 0.01) {
    const refused = samples.filter((s) => s.answerable && conf(s.f) < th).length / samples.filter((s) => s.answerable).length;
    const recall = samples.filter((s) => !s.answerable && conf(s.f) < th).length / samples.filter((s) => !s.answerable).length;
    if (refused <= 0.05 && recall >= bestRecall) [bestThreshold, bestRecall] = [round(th), recall];
  }
  for (let th = 0.05; th <= 0.61; th += 0.05) {
    const refused = samples.filter((s) => s.answerable && conf(s.f) < th).length / samples.filter((s) => s.answerable).length;
    const recall = samples.filter((s) => !s.answerable && conf(s.f) < th).length / samples.filter((s) => !s.answerable).length;
    console.log(`  threshold ${th.toFixed(2)}: answerable refused ${(refused * 100).toFixed(0)}%, no-match recall ${(recall * 100).toFixed(0)}%`);
  }
  console.log(`no-match threshold: ${bestThreshold} (recall on fold A ${(bestRecall * 100).toFixed(0)}%)`);
}

if (require.main === module) tune();
