/**
 * Is a user's regular expression safe to run? Three checks, cheapest first:
 *
 * 1. it compiles, and it cannot match empty text (a rule that matches "" reports every position);
 * 2. recheck (a ReDoS checker that builds the pattern's automaton and proves the worst case, pure
 *    JavaScript) finds no exponential and no cubic-or-worse backtracking — those are refused with the
 *    attack string it found; quadratic patterns are common in practice (`catch\s*\([^)]*\)\s*\{\s*\}`
 *    is one) and are allowed;
 * 3. whatever got through still runs under the engine's time budget (see budget.ts), which is what
 *    makes a quadratic pattern on a huge line, or one recheck could not decide, harmless.
 *
 * recheck's analysis takes from a few to a few hundred milliseconds, so it runs in a worker thread
 * (see workers/), never on the extension host's thread, and verdicts are cached per pattern.
 */

export interface PatternVerdict {
  ok: boolean;
  /** safe: proven linear; vulnerable: refused; tolerated: quadratic or undecided, runs under the budget. */
  status: 'safe' | 'vulnerable' | 'tolerated' | 'invalid';
  complexity?: string;
  message?: string;
  /** A string that makes the pattern backtrack, from recheck. */
  attack?: string;
  /** Proven linear-time by recheck's automaton analysis (a fuzzing verdict proves nothing). */
  linear?: boolean;
}

/**
 * What a verdict was worked out with: recheck's version and this file's analysis. A verdict kept
 * beyond one process (template-verdicts.ts) holds only for the analyser that gave it; change the
 * revision with the analysis, and a test keeps recheck's version in step with the installed one.
 */
export const ANALYSER_VERSION = 'recheck 4.5.0; analysis 1';

/** Syntax and empty-match checks; cheap, synchronous. */
export function checkPatternSyntax(source: string, flags: string): PatternVerdict | undefined {
  const bad = flags.replace(/[imsu]/g, '');
  if (bad) {
    return {
      ok: false,
      status: 'invalid',
      message: `Unsupported regex flag(s) "${bad}": use any of i, m, s, u (g and y are set by the engine).`,
    };
  }
  // V8 compiles a pattern on its first match, so a huge one fails in test(), not in the constructor.
  let matchesEmpty: boolean;
  try {
    const re = new RegExp(source, flags);
    matchesEmpty = re.test('') || re.test('\n');
  } catch (e) {
    // The engine's message quotes the whole pattern: keep the answer small.
    const message = String((e as Error).message).replace(
      /^Invalid regular expression: \/[\s\S]*\/[a-z]*: /,
      'Invalid regular expression: ',
    );
    return { ok: false, status: 'invalid', message: `The pattern does not compile: ${message.slice(0, 300)}` };
  }
  if (matchesEmpty) {
    return {
      ok: false,
      status: 'invalid',
      message:
        'The pattern matches empty text, so it would report every position. Make it require at least one character.',
    };
  }
  return undefined;
}

interface RecheckDiagnostics {
  status: 'safe' | 'vulnerable' | 'unknown';
  complexity?: { type: string; summary: string; degree?: number };
  attack?: { pattern: string };
  error?: { kind: string; message?: string };
  hotspot?: { start: number; end: number }[];
}

type RecheckModule = { checkSync(source: string, flags: string, params?: Record<string, unknown>): RecheckDiagnostics };

let recheck: RecheckModule | undefined;

/**
 * Counted repetitions are unrolled by the regex compiler: `(a{1,1000}){1,1000}` is a million nodes,
 * which no time budget can interrupt while it compiles. The size a pattern unrolls to, counting each
 * atom once per repetition its quantifiers allow (nesting multiplies, sequence and alternation add).
 */
export function unrolledSize(source: string): number {
  const frames: number[] = [0];
  let i = 0;
  let last = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      last = 1;
      i += 2;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      last = 1;
      i = j + 1;
    } else if (c === '(') {
      frames.push(0);
      last = 0;
      i++;
      continue;
    } else if (c === ')') {
      last = frames.length > 1 ? Math.max(1, frames.pop()!) : 1;
      i++;
    } else if (c === '|' || c === '^' || c === '$') {
      last = 0;
      i++;
      continue;
    } else {
      const counted = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (counted) {
        // The atom before it is repeated up to the larger bound; an open bound unrolls only its minimum.
        const times = counted[2] ? Number(counted[2]) : Number(counted[1]);
        frames[frames.length - 1] += last * Math.max(0, times - 1);
        i += counted[0].length;
        continue;
      }
      last = /[*+?]/.test(c) ? 0 : 1;
      i++;
    }
    frames[frames.length - 1] += last;
  }
  return frames.reduce((a, b) => a + b, 0);
}

/** Above this a pattern is refused before any analysis: no rule a person writes needs it, and the compiler's work is not interruptible. */
export const MAX_UNROLLED_SIZE = 20_000;

/**
 * recheck with every time limit off: its verdict then depends only on the pattern (its search is
 * bounded by counts, and its fuzzing is seeded), never on how busy the machine is.
 */
const DETERMINISTIC = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  randomSeed: 0,
  checker: 'auto',
} as const;

/** The full analysis (recheck). Synchronous and possibly slow (seconds): call it from a worker. */
export function analyzePattern(source: string, flags: string): PatternVerdict {
  const syntax = checkPatternSyntax(source, flags);
  if (syntax) return syntax;
  const size = unrolledSize(source);
  if (size > MAX_UNROLLED_SIZE) {
    return {
      ok: false,
      status: 'vulnerable',
      message: `The pattern's counted repetitions unroll to about ${size.toLocaleString('en-US')} steps (at most ${
        MAX_UNROLLED_SIZE.toLocaleString('en-US')
      }): nested {m,n} bounds multiply. Use smaller bounds or + and * instead.`,
    };
  }
  // The browser build is recheck's pure-JavaScript backend, with no native binary or JVM to spawn.
  recheck ??= require('recheck/lib/browser.js') as RecheckModule;
  const d = recheck.checkSync(source, flags, DETERMINISTIC);
  if (d.status === 'safe') {
    return {
      ok: true,
      status: 'safe',
      complexity: d.complexity?.summary,
      linear: !(d.complexity as { isFuzz?: boolean } | undefined)?.isFuzz,
    };
  }
  if (d.status === 'unknown') {
    return {
      ok: true,
      status: 'tolerated',
      message: `Could not prove the pattern safe (${d.error?.kind ?? 'unknown'}); it runs under the time budget.`,
    };
  }
  const c = d.complexity;
  const exponential = c?.type === 'exponential';
  const degree = c?.degree ?? 0;
  if (!exponential && degree <= 2) {
    return {
      ok: true,
      status: 'tolerated',
      complexity: c?.summary,
      message: `Worst case is ${c?.summary ?? 'polynomial'}; it runs under the time budget.`,
    };
  }
  const hot = d.hotspot?.[0];
  const where = hot
    ? ` The backtracking happens at \`${source.slice(hot.start, hot.end)}\` (at character ${hot.start + 1}).`
    : '';
  return {
    ok: false,
    status: 'vulnerable',
    complexity: c?.summary,
    attack: d.attack?.pattern,
    message: `The pattern can backtrack catastrophically (${c?.summary ?? 'super-polynomial'} time): an input like ${
      d.attack?.pattern ?? 'a long repetition'
    } makes it run for minutes.${where} Rewrite nested or overlapping repetitions (for example (a+)+ as a+, (\\w|\\d)* as \\w*), or anchor the pattern.`,
  };
}
