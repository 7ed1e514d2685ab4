/**
 * Token counts with a real tokenizer (js-tiktoken, o200k_base: the encoding of current OpenAI models,
 * within a few percent of others for English and code). The ranks are loaded on first use only.
 */

export interface TokenCounter {
  readonly encoding: string;
  /** False when the tokenizer could not be loaded and counts are estimated (4 characters a token). */
  readonly exact: boolean;
  count(text: string): number;
}

// The tokenizer is immutable and costly to load (its ranks are ~2 MB), so one per process is shared;
// it holds no workspace state.
let loading: Promise<TokenCounter> | undefined;

export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= load();
  return loading;
}

/** Counts tokens of a text (loading the tokenizer on the first call). */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter()).count(text);
}

async function load(): Promise<TokenCounter> {
  try {
    const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
    const encoder = new Tiktoken(ranks.default);
    const cache = new Map<string, number>();
    return {
      encoding: 'o200k_base',
      exact: true,
      count(text: string): number {
        if (text.length === 0) return 0;
        const hit = cache.get(text);
        if (hit !== undefined) return hit;
        const n = countRuns(text, (t) => encoder.encode(t, [], []).length);
        if (text.length > 64) {
          if (cache.size >= 2000) cache.delete(cache.keys().next().value as string);
          cache.set(text, n);
        }
        return n;
      },
    };
  } catch {
    return estimatingCounter;
  }
}

/**
 * The tokenizer's merge step is quadratic in the length of one run of letters and digits (a 4,000
 * letter word took seconds), and no word is longer than `MAX_EXACT_RUN`: a longer run (generated or
 * hostile text) counts one token per character, which no real tokenizer exceeds by much, and the
 * text around it is counted exactly. Text without such a run is counted exactly, in one piece.
 */
const MAX_EXACT_RUN = 256;
const RUN = /[\p{L}\p{M}\p{N}]+/gu;

function countRuns(text: string, exact: (text: string) => number): number {
  if (text.length <= MAX_EXACT_RUN) return exact(text);
  let n = 0;
  let from = 0;
  for (const m of text.matchAll(RUN)) {
    if (m[0].length <= MAX_EXACT_RUN) continue;
    n += (from < m.index ? exact(text.slice(from, m.index)) : 0) + m[0].length;
    from = m.index + m[0].length;
  }
  return from === 0 ? exact(text) : n + (from < text.length ? exact(text.slice(from)) : 0);
}

export const estimatingCounter: TokenCounter = {
  encoding: 'estimate (4 characters a token)',
  exact: false,
  count: (text: string) => Math.ceil(text.length / 4),
};
