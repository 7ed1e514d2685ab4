/**
 * A seeded random source (sfc32): the same seed gives the same calls in the same order, so a failure
 * printed with its seed can be run again.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    const t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const r = (t + this.d) | 0;
    this.c = (this.c + r) | 0;
    return (r >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of `choices`, by weight. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((n, [w]) => n + w, 0);
    let x = this.next() * total;
    for (const [w, v] of choices) if ((x -= w) < 0) return v;
    return choices[choices.length - 1][1];
  }

  /** A child source for one lane or case, independent of how many numbers this one has drawn. */
  fork(salt: number): Random {
    return new Random((Math.imul(this.seed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(salt + 1, 0x165667b1)) >>> 0);
  }
}

/** The seed of a run: AUTOSNIPPET_FUZZ_SEED when set, else `fallback` (a fixed one for CI, a fresh one otherwise). */
export function runSeed(fallback?: number): number {
  const given = process.env.AUTOSNIPPET_FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
      throw new Error(`AUTOSNIPPET_FUZZ_SEED must be an integer in [0, 2^32): ${given}`);
    }
    return n;
  }
  return fallback ?? Math.floor(Math.random() * 0xffffffff);
}
