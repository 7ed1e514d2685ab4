import { ANALYSER_VERSION, type PatternVerdict } from './regex-safety';
import { fixedDraftPatterns } from './rule-draft';

/**
 * The safety verdicts of the patterns rule drafting writes with no name from the repository in them
 * (rule-draft.ts: the direct-output calls, the forbidden constructs), worked out once by recheck's
 * full analysis and kept here with the analyser version that gave them. A drafted rule then needs no
 * trip to the analysis worker, which takes about a second per pattern (recheck falls back to fuzzing
 * on lookbehinds).
 *
 * A verdict is found by the pattern's text and flags, never by where a rule says it came from: it is
 * a function of those alone, so a rule file that writes the same pattern gets the same verdict, and
 * any other pattern, or any pattern under another analyser version, is analysed as before.
 * test/slow/guard-template-verdicts.test.ts runs the analysis again and fails when a verdict differs.
 */
export const TEMPLATE_VERDICTS_VERSION = 'recheck 4.5.0; analysis 1';

/** Template id (as fixedDraftPatterns names it) → verdict, under TEMPLATE_VERDICTS_VERSION. */
export const TEMPLATE_VERDICTS: Readonly<Record<string, PatternVerdict>> = {
  'no-direct-output/js': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/python': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/go': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/rust': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/java': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/kotlin': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'no-direct-output/swift': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'forbid-construct/explicit-any': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'forbid-construct/default-export': { ok: true, status: 'safe', complexity: 'safe (fuzz)', linear: false },
  'forbid-construct/dispatch-main-async': { ok: true, status: 'safe', complexity: 'safe', linear: true },
};

let byPattern: Map<string, PatternVerdict> | undefined;

/**
 * The kept verdict of a pattern, when it is one of the templates' and `analyser` (the running
 * analyser's version by default) is the one that gave it; undefined means: analyse it.
 */
export function templateVerdict(
  source: string,
  flags: string,
  analyser: string = ANALYSER_VERSION,
): PatternVerdict | undefined {
  if (analyser !== TEMPLATE_VERDICTS_VERSION) return undefined;
  byPattern ??= new Map(
    fixedDraftPatterns().flatMap((t) => {
      const v = TEMPLATE_VERDICTS[t.template];
      return v ? [[`${t.flags}/${t.pattern}`, v] as const] : [];
    }),
  );
  const v = byPattern.get(`${flags}/${source}`);
  return v && { ...v };
}
