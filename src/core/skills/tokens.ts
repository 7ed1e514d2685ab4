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
        const n = encoder.encode(text, [], []).length;
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

export const estimatingCounter: TokenCounter = {
  encoding: 'estimate (4 characters a token)',
  exact: false,
  count: (text: string) => Math.ceil(text.length / 4),
};
