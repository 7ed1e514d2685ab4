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
}

/** Syntax and empty-match checks; cheap, synchronous. */
export function checkPatternSyntax(source: string, flags: string): PatternVerdict | undefined {
  const bad = flags.replace(/[imsu]/g, '');
  if (bad) return { ok: false, status: 'invalid', message: `Unsupported regex flag(s) "${bad}": use any of i, m, s, u (g and y are set by the engine).` };
  // V8 compiles a pattern on its first match, so a huge one fails in test(), not in the constructor.
  let matchesEmpty: boolean;
  try {
    const re = new RegExp(source, flags);
    matchesEmpty = re.test('') || re.test('\n');
  } catch (e) {
    // The engine's message quotes the whole pattern: keep the answer small.
    const message = String((e as Error).message).replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, 'Invalid regular expression: ');
    return { ok: false, status: 'invalid', message: `The pattern does not compile: ${message.slice(0, 300)}` };
  }
  if (matchesEmpty) return { ok: false, status: 'invalid', message: 'The pattern matches empty text, so it would report every position. Make it require at least one character.' };
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

/** The full analysis (recheck). Synchronous and possibly slow: call it from a worker. */
export function analyzePattern(source: string, flags: string, timeoutMs = 3000): PatternVerdict {
  const syntax = checkPatternSyntax(source, flags);
  if (syntax) return syntax;
  // The browser build is recheck's pure-JavaScript backend, with no native binary or JVM to spawn.
  recheck ??= require('recheck/lib/browser.js') as RecheckModule;
  const d = recheck.checkSync(source, flags, { timeout: timeoutMs, checker: 'auto' });
  if (d.status === 'safe') return { ok: true, status: 'safe', complexity: d.complexity?.summary };
  if (d.status === 'unknown') {
    return { ok: true, status: 'tolerated', message: `Could not prove the pattern safe (${d.error?.kind ?? 'unknown'}); it runs under the time budget.` };
  }
  const c = d.complexity;
  const exponential = c?.type === 'exponential';
  const degree = c?.degree ?? 0;
  if (!exponential && degree <= 2) {
    return { ok: true, status: 'tolerated', complexity: c?.summary, message: `Worst case is ${c?.summary ?? 'polynomial'}; it runs under the time budget.` };
  }
  const hot = d.hotspot?.[0];
  const where = hot ? ` The backtracking happens at \`${source.slice(hot.start, hot.end)}\` (at character ${hot.start + 1}).` : '';
  return {
    ok: false,
    status: 'vulnerable',
    complexity: c?.summary,
    attack: d.attack?.pattern,
    message: `The pattern can backtrack catastrophically (${c?.summary ?? 'super-polynomial'} time): an input like ${d.attack?.pattern ?? 'a long repetition'} makes it run for minutes.${where} Rewrite nested or overlapping repetitions (for example (a+)+ as a+, (\\w|\\d)* as \\w*), or anchor the pattern.`,
  };
}
