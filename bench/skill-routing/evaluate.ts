// Routing metrics over a set of requests, for any ranker: top-1, top-3, MRR@3 on the requests a skill
// fits, and precision / recall of "no match" on those none fits.
import type { RoutingTask } from './data';

export interface RankerAnswer {
  /** Skill names, best first (at least 3 when there are). */
  ranked: string[];
  /** The ranker says no skill fits (its answer is then empty). */
  noMatch: boolean;
}

export type Ranker = (query: string) => RankerAnswer;

export interface RoutingFigures {
  answerable: number;
  top1: number;
  top3: number;
  mrr3: number;
  /** Share of the answerable requests answered with "no match". */
  wronglyRefused: number;
  unanswerable: number;
  noMatchPrecision: number;
  noMatchRecall: number;
  /** Requests whose right skill was not in the top 3 (for reading, not for tuning). */
  misses: { id: string; expected: string; got: string[] }[];
}

export function evaluate(tasks: readonly RoutingTask[], rank: Ranker): RoutingFigures {
  let answerable = 0, top1 = 0, top3 = 0, rr = 0, refused = 0, unanswerable = 0, truePositive = 0, flagged = 0;
  const misses: RoutingFigures['misses'] = [];
  for (const t of tasks) {
    const a = rank(t.query);
    const shown = a.noMatch ? [] : a.ranked.slice(0, 3);
    if (a.noMatch) flagged++;
    if (t.expected === null) {
      unanswerable++;
      if (a.noMatch) truePositive++;
      continue;
    }
    answerable++;
    if (a.noMatch) refused++;
    const right = new Set([t.expected, ...t.alsoAcceptable]);
    const at = shown.findIndex((n) => right.has(n));
    if (at === 0) top1++;
    if (at >= 0) {
      top3++;
      rr += 1 / (at + 1);
    } else misses.push({ id: t.id, expected: t.expected, got: a.noMatch ? ['(no match)'] : shown });
  }
  const share = (x: number, of: number) => (of ? x / of : NaN);
  return {
    answerable,
    top1: share(top1, answerable),
    top3: share(top3, answerable),
    mrr3: share(rr, answerable),
    wronglyRefused: share(refused, answerable),
    unanswerable,
    noMatchPrecision: share(truePositive, flagged),
    noMatchRecall: share(truePositive, unanswerable),
    misses,
  };
}

export const pct = (v: number) => (Number.isNaN(v) ? '-' : `${(v * 100).toFixed(0)}%`);
export const dec = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(2));
