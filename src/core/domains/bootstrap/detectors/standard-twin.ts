// A project function that stands in for a standard or library call: a short function of the project
// whose body makes that call, called from many files, while the call itself appears directly in few.
// The ratio is the evidence; the files that still make the call directly are the exceptions. The card
// carries a prefer-helper seed: the guard drafts "the helper, not the call" from it, allowed in the
// helper's own file.
import { languageOf } from '../dimensions/standards';
import { confidence } from '../evidence';
import { fit } from '../form';
import type { AnalysisContext, CandidateDraft, Family } from '../types';
import { baseName, type Detector, type FactFile, filesSaid } from './code-detector';

/** A wrapper's body spans at most this many lines (to the next declaration). */
const SHORT_BODY = 12;
/** The helper is called from this many production files at least. */
const MIN_CALLERS = 5;
/**
 * Of the production files that need the call (they call the helper or make the call directly), at
 * least this share call the helper: four in five. Below it the direct call is common production
 * code, and a rule against it would report the project's own way. With fewer callers or a lower
 * share, the wrapped call is as often one the helper cannot stand in for (other arguments, another
 * value) as a real exception.
 */
const MIN_HELPER_SHARE = 0.8;

interface Wrapper {
  name: string;
  family: Family;
  path: string;
  line: number;
  /** The one call of the body to a function the file does not declare: the helper stands in for it. */
  wraps: string[];
}

interface Callers {
  files: number;
  samples: { path: string; line: number }[];
}

export class StandardTwinDetector implements Detector {
  private readonly wrappers: Wrapper[] = [];
  /** `family|callee` → the production files that call it. */
  private readonly callers = new Map<string, Callers>();
  /** `family|name` → how many declarations of that name the project has. */
  private readonly declared = new Map<string, number>();

  visit(file: FactFile): void {
    const { facts, family, path } = file;
    if (facts.role !== 'production') return;
    const own = new Set(facts.decls.map((d) => d.name));
    for (const d of facts.decls) {
      this.declared.set(`${family}|${d.name}`, (this.declared.get(`${family}|${d.name}`) ?? 0) + 1);
    }
    const aliases = new Set(facts.imports.flatMap((i) => (i.alias && !i.spec.startsWith('.') ? [i.alias] : [])));
    const seen = new Set<string>();
    for (const [callee, [line]] of facts.calls) {
      // A helper called as `pkg.Helper(` counts under its own name too.
      const last = callee.slice(callee.lastIndexOf('.') + 1);
      for (const key of callee === last ? [callee] : [callee, `*${last}`]) {
        if (seen.has(key)) continue;
        seen.add(key);
        const c = this.callers.get(`${family}|${key}`) ?? { files: 0, samples: [] };
        c.files++;
        if (c.samples.length < 6) c.samples.push({ path, line });
        this.callers.set(`${family}|${key}`, c);
      }
    }
    const fns = facts.decls.filter((d) => d.kind === 'function' && !d.member && d.visibility !== 'private');
    const lines = facts.decls.map((d) => d.line).sort((a, b) => a - b);
    for (const d of fns) {
      const next = lines.find((l) => l > d.line) ?? d.line + SHORT_BODY;
      if (next - d.line > SHORT_BODY) continue;
      const wraps = [...facts.calls]
        .filter(([callee, [line]]) => line > d.line && line < next && isOutside(callee, own, aliases))
        .map(([callee]) => callee);
      if (wraps.length === 1) this.wrappers.push({ name: d.name, family, path, line: d.line, wraps });
    }
  }

  finish(ctx: AnalysisContext): CandidateDraft[] {
    const found: { w: Wrapper; twin: string; helper: Callers; direct: Callers; rest: number }[] = [];
    for (const w of this.wrappers) {
      if (this.declared.get(`${w.family}|${w.name}`) !== 1 || w.name.length < 4) continue;
      const helper = this.callers.get(`${w.family}|*${w.name}`) ?? this.callers.get(`${w.family}|${w.name}`);
      const bare = this.callers.get(`${w.family}|${w.name}`);
      const calls = Math.max(helper?.files ?? 0, bare?.files ?? 0);
      if (calls < MIN_CALLERS) continue;
      const users = (helper?.files ?? 0) >= (bare?.files ?? 0) ? helper! : bare!;
      let best: (typeof found)[number] | undefined;
      for (const twin of w.wraps) {
        const last = twin.slice(twin.lastIndexOf('.') + 1);
        // The twin is not the project's: no declaration of its name anywhere in the production code.
        if (this.declared.has(`${w.family}|${last}`)) continue;
        const all = this.callers.get(`${w.family}|${twin}`);
        const others = (all?.samples ?? []).filter((s) => s.path !== w.path);
        const rest = Math.max(0, (all?.files ?? 1) - 1);
        // A call made nowhere else is the helper's own detail, not a twin the project avoids: the
        // twin is made directly somewhere, and far less often than the helper is called.
        if (rest === 0 || calls / (calls + rest) < MIN_HELPER_SHARE) continue;
        const c = { w, twin, helper: users, direct: { files: rest, samples: others }, rest };
        if (!best || rest > best.rest) best = c;
      }
      if (best) found.push(best);
    }
    found.sort((a, b) => b.helper.files - a.helper.files || (a.w.name < b.w.name ? -1 : 1));
    return found.slice(0, 3).map(({ w, twin, helper, direct, rest }) => {
      const exceptions = direct.samples.map((s) => s.path);
      const summary = `Code outside \`${baseName(w.path)}\` calls \`${w.name}()\` (${
        baseName(w.path)
      }:${w.line}) where it would call \`${twin}()\`: \`${w.name}()\` wraps it and is called from ${helper.files} production files, \`${twin}()\` directly from ${rest}${
        rest ? ` (${filesSaid(exceptions, 2)}: ${rest > 1 ? 'the exceptions' : 'the exception'})` : ''
      }.`;
      return {
        title: fit(`Call \`${w.name}()\` rather than \`${twin}()\` directly`, 100),
        knowledgeType: 'code-pattern' as const,
        dimension: 'code-pattern',
        language: languageOf(w.family, ctx),
        category: 'shared-code',
        summary,
        code: '',
        reasoning: {
          whyStandard:
            "A short project function whose body makes this call is called from many production files, while the call itself is made directly from few: the function is the project's way to make it.",
          sources: [
            `${w.path}:${w.line}`,
            ...helper.samples.filter((s) => s.path !== w.path).slice(0, 4).map((s) => `${s.path}:${s.line}`),
            ...direct.samples.slice(0, 2).map((s) => `${s.path}:${s.line}`),
          ],
          confidence: confidence(helper.files / (helper.files + rest), helper.files),
        },
        tags: ['helper', 'standard-twin', w.family],
        trigger: `use-${w.name}`,
        ruleSeed: {
          kind: 'prefer-helper' as const,
          language: languageOf(w.family, ctx),
          standard: [twin],
          helper: w.name,
          definedIn: w.path,
          goodAt: helper.samples.filter((s) => s.path !== w.path).slice(0, 4).map((s) => `${s.path}:${s.line}`),
        },
      };
    });
  }
}

/**
 * A call to something the file does not declare, reached as a builtin (`len(`), a global type
 * (`Date.now(`) or an imported module (`time.Now(`), not a method of a local value.
 */
function isOutside(callee: string, own: ReadonlySet<string>, aliases: ReadonlySet<string>): boolean {
  if (callee.startsWith('.') || callee.startsWith('go ')) return false;
  const dot = callee.indexOf('.');
  if (dot < 0) return !own.has(callee);
  const q = callee.slice(0, dot);
  if (q === 'self' || q === 'this' || q === 'super' || own.has(q)) return false;
  return aliases.has(q) || /^[A-Z]/.test(q);
}
