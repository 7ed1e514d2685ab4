// Tuning of skill search on the tuning rounds of the routing data only (folds A to E: rounds 1 to
// 4): field weights by coordinate ascent on MRR@3, the fusion constants, then the confidence model
// (logistic regression of "the best skill is right" on its coverage, strength, gap and similarity) and
// the "no match" threshold. Prints the constants to put in src/core/domains/skills/search.ts.
// `npx tsx bench/skill-routing/tune.ts` (TUNE_WEIGHTS=0 keeps the field weights as they are,
// TUNE_FUSION=0 the fusion and gloss weights). The validation and test rounds (folds F to H) are only
// ever read by skill-routing.bench.ts. CROSS=1 also prints a two-fold cross-validation of the "no
// match" model over round 1's halves (nothing it fits ships).
import {
  clampFeature,
  CONFIDENCE_FEATURES,
  type ConfidenceFeatures,
  type ConfidenceModel,
  confidenceOf,
  fitOf,
  GLOSSES,
  MEANING,
  SEMANTIC,
  SKILL_FIELDS,
  type SkillField,
  SkillSearchIndex,
} from '../../src/core/domains/skills/search';
import type { Skill } from '../../src/core/domains/skills/types';
import type { Bm25fField } from '../../src/core/ground/text';
import {
  bundledSkills,
  catalogSkills,
  fold,
  loadTasks,
  type RoutingTask,
  TUNING_FOLDS as DEFAULT_TUNING_FOLDS,
} from './data';
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
  const grid: Record<SkillField, number[]> = {
    name: [1, 2, 3, 5],
    description: [1, 2, 3, 4],
    useWhen: [0, 1, 2, 3],
    headings: [0, 0.5, 1, 2],
    chunks: [0, 0.5, 1],
    body: [0, 0.1, 0.3, 0.6, 1],
  };
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
  console.log(
    `weights: MRR@3 on folds ${TUNING_FOLDS} = ${bestScore.toFixed(3)}`,
    JSON.stringify(Object.fromEntries(Object.entries(best).map(([k, v]) => [k, v.weight]))),
  );
  return best;
}

/** Logistic regression by gradient descent on the features → is the best skill right. */
export function fitConfidence(
  samples: { f: ConfidenceFeatures; y: number }[],
  keys: readonly (keyof ConfidenceFeatures)[] = CONFIDENCE_FEATURES,
): ConfidenceModel {
  const zero = () => Object.fromEntries([['bias', 0], ...CONFIDENCE_FEATURES.map((k) => [k, 0])]) as ConfidenceModel;
  const w = zero();
  for (let it = 0; it < 20000; it++) {
    const g = zero();
    for (const s of samples) {
      const e = confidenceOf(s.f, w) - s.y;
      g.bias += e;
      for (const k of keys) g[k] += e * clampFeature(s.f[k]);
    }
    const lr = 2 / samples.length;
    w.bias -= lr * g.bias;
    for (const k of keys) w[k] -= lr * g[k];
  }
  return Object.fromEntries(Object.entries(w).map(([k, v]) => [k, round(v)])) as ConfidenceModel;
}

const round = (v: number) => Math.round(v * 100) / 100;

/** The parts tuned on: rounds 1 to 4 (folds A to E); validation and test (F to H) are never read here. */
const TUNING_FOLDS = process.env.TUNE_FOLDS ?? DEFAULT_TUNING_FOLDS;

export function tune(): void {
  const tasks = loadTasks().filter((t) => TUNING_FOLDS.includes(fold(t)));
  const catalog = catalogSkills();
  const bundled = bundledSkills();
  const sets = [
    { skills: catalog, tasks: tasks.filter((t) => t.set === 'catalog') },
    { skills: bundled, tasks: tasks.filter((t) => t.set === 'bundled') },
  ];
  const fields = process.env.TUNE_WEIGHTS === '0' ? SKILL_FIELDS : tuneWeights(sets);
  if (process.env.TUNE_FUSION !== '0') tuneFusion(fields, sets);

  const samples = featureSamples(sets, fields);
  const model = fitConfidence(samples);
  console.log('confidence model:', JSON.stringify(model));
  const fit = fitNoMatch(samples);
  console.log(
    `fit model: ${
      JSON.stringify(fit.model)
    }\nno-match threshold: ${fit.threshold} (on folds ${TUNING_FOLDS}: no-match recall ${
      pct(fit.recall)
    }, answerable refused ${pct(fit.refused)})`,
  );
  if (process.env.CROSS === '1') crossValidate(fields);
}

/** The fusion: RRF constant, the semantic and meaning lists' weights, the Chinese glosses' weight (all read at query time). */
function tuneFusion(fields: Fields, sets: { skills: Skill[]; tasks: RoutingTask[] }[]): void {
  let bestFusion = {
    k: SEMANTIC.k,
    weight: SEMANTIC.weight,
    meaning: MEANING.weight,
    gloss: GLOSSES.weight,
    score: mrr(fields, sets),
  };
  for (const k of [5, 10, 20, 60]) {
    for (const weight of [0, 0.25, 0.5, 0.75, 1]) {
      for (const meaning of [0, 0.1, 0.25, 0.5]) {
        for (const gloss of [0.3, 0.5, 0.7, 1]) {
          Object.assign(SEMANTIC, { k, weight });
          MEANING.weight = meaning;
          GLOSSES.weight = gloss;
          const score = mrr(fields, sets);
          if (score > bestFusion.score + 1e-9) bestFusion = { k, weight, meaning, gloss, score };
        }
      }
    }
  }
  Object.assign(SEMANTIC, { k: bestFusion.k, weight: bestFusion.weight });
  MEANING.weight = bestFusion.meaning;
  GLOSSES.weight = bestFusion.gloss;
  console.log(
    `fusion: MRR@3 on folds ${TUNING_FOLDS} = ${
      bestFusion.score.toFixed(3)
    } with k ${bestFusion.k}, semantic weight ${bestFusion.weight}, meaning weight ${bestFusion.meaning}, gloss weight ${bestFusion.gloss}`,
  );
}

/** One request's best match: its features, whether it is right, whether any skill fits, and the slice (catalog English, catalog Chinese, bundled) the 5% refusal bound applies to. */
type Sample = { f: ConfidenceFeatures; y: number; answerable: boolean; slice: string };
const pct = (v: number) => `${(v * 100).toFixed(0)}%`;

/** The best match's features for each request, with whether it is right and whether any skill fits. */
function featureSamples(sets: { skills: Skill[]; tasks: RoutingTask[] }[], fields: Fields): Sample[] {
  const samples: Sample[] = [];
  for (const s of sets) {
    const index = new SkillSearchIndex(s.skills, fields);
    for (const t of s.tasks) {
      const top = index.explain(t.query)[0];
      const right = !!top && !!t.expected && [t.expected, ...t.alsoAcceptable].includes(top.name);
      samples.push({
        f: top ?? NO_FEATURES,
        y: right ? 1 : 0,
        answerable: !!t.expected,
        slice: t.set === 'bundled' ? 'bundled' : t.lang,
      });
    }
  }
  return samples;
}

const NO_FEATURES: ConfidenceFeatures = {
  coverage: 0,
  routingCoverage: 0,
  strength: 0,
  gap: 0,
  similarity: 0,
  meaning: 0,
  meaningGap: 0,
  techMissing: 0,
};
/**
 * What tells "fits" from "shares words": routing coverage and meaning (measured on fold A: the best
 * separation at ≤ 5% refused, and the most stable across folds), and since session 32 whether a Chinese
 * request names technologies the skill never mentions.
 */
export const FIT_FEATURES = ['routingCoverage', 'meaning', 'techMissing'] as const;

/**
 * The "no match" model: logistic regression of "some skill fits" on FIT_FEATURES with both classes
 * weighted equally (off-topic requests are few), then the threshold that recognises the most of them
 * with at most 5% of the answerable requests refused in each slice (English, Chinese, bundled), as the
 * goal is per language.
 */
function fitNoMatch(
  samples: Sample[],
): { model: { bias: number } & Partial<ConfidenceModel>; threshold: number; recall: number; refused: number } {
  const pos = samples.filter((s) => s.answerable).length;
  const neg = samples.length - pos || 1;
  const w: { bias: number } & Partial<Record<keyof ConfidenceFeatures, number>> = { bias: 0 };
  for (const k of FIT_FEATURES) w[k] = 0;
  for (let it = 0; it < 6000; it++) {
    const g: Record<string, number> = { bias: 0 };
    for (const s of samples) {
      const e = (fitOf(s.f, w) - (s.answerable ? 1 : 0)) * (s.answerable ? 0.5 / pos : 0.5 / neg);
      g.bias += e;
      for (const k of FIT_FEATURES) g[k] = (g[k] ?? 0) + e * clampFeature(s.f[k]);
    }
    w.bias -= 4 * g.bias;
    // A little weight decay: twenty off-topic requests do not pin down large weights.
    for (const k of FIT_FEATURES) w[k] = w[k]! - 4 * g[k] - 0.002 * w[k]!;
  }
  const model = Object.fromEntries(Object.entries(w).map(([k, v]) => [k, round(v!)])) as
    & { bias: number }
    & Partial<ConfidenceModel>;
  let best = { threshold: 0, recall: -1, refused: 0 };
  for (let th = 0; th <= 1; th += 0.01) {
    const r = noMatchFigures(samples, model, th);
    const worstSlice = Math.max(
      ...[...new Set(samples.map((s) => s.slice))].map((slice) =>
        noMatchFigures(samples.filter((s) => s.slice === slice), model, th).refused
      ),
    );
    if (worstSlice <= 0.05 && r.recall >= best.recall) best = { threshold: round(th), ...r };
  }
  return { model, ...best };
}

function noMatchFigures(
  samples: Sample[],
  model: { bias: number } & Partial<ConfidenceModel>,
  threshold: number,
): { recall: number; refused: number; precision: number } {
  const answerable = samples.filter((s) => s.answerable);
  const off = samples.filter((s) => !s.answerable);
  const refused = answerable.filter((s) => fitOf(s.f, model) < threshold).length;
  const caught = off.filter((s) => fitOf(s.f, model) < threshold).length;
  return {
    recall: caught / (off.length || 1),
    refused: refused / (answerable.length || 1),
    precision: caught / (caught + refused || 1),
  };
}

/**
 * Two-fold cross-validation of the "no match" model, for reporting only (CROSS=1): fitted on one half,
 * measured on the other, both ways. The constants that ship are the ones fitted on the tuning rounds.
 */
function crossValidate(fields: Fields): void {
  const catalog = catalogSkills();
  const bundled = bundledSkills();
  const half = (f: 'A' | 'B') => {
    const tasks = loadTasks().filter((t) => fold(t) === f);
    return featureSamples([
      { skills: catalog, tasks: tasks.filter((t) => t.set === 'catalog') },
      { skills: bundled, tasks: tasks.filter((t) => t.set === 'bundled') },
    ], fields);
  };
  const halves = { A: half('A'), B: half('B') };
  let caught = 0, off = 0, refused = 0, answerable = 0, flagged = 0;
  for (const [train, test] of [['A', 'B'], ['B', 'A']] as const) {
    const fit = fitNoMatch(halves[train]);
    const r = noMatchFigures(halves[test], fit.model, fit.threshold);
    const offN = halves[test].filter((s) => !s.answerable).length;
    const ansN = halves[test].length - offN;
    console.log(
      `cross-validation: fitted on ${train} (threshold ${fit.threshold}), on ${test}: no-match recall ${
        pct(r.recall)
      } of ${offN}, precision ${pct(r.precision)}, answerable refused ${pct(r.refused)} of ${ansN}`,
    );
    caught += r.recall * offN;
    off += offN;
    refused += r.refused * ansN;
    answerable += ansN;
    flagged += r.recall * offN + r.refused * ansN;
  }
  console.log(
    `cross-validation, both folds: no-match recall ${pct(caught / off)}, precision ${
      pct(caught / flagged)
    }, answerable refused ${pct(refused / answerable)}`,
  );
}

if (require.main === module) tune();
