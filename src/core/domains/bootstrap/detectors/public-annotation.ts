// One annotation, attribute or decorator that a kind of public declaration carries nearly always:
// `#[derive(Debug)]` on every public struct, `@Sendable` on every public closure type. The share is
// the evidence (MIN_SHARE of at least MIN_DECLS declarations in MIN_FILES files); the declarations
// without it are the exceptions, and the card's seed lets the guard draft the rule over them.
import { languageOf } from '../dimensions/standards';
import { confidence } from '../evidence';
import { fit } from '../form';
import type { AnalysisContext, CandidateDraft, Family } from '../types';
import { baseName, type Detector, type FactFile, filesSaid } from './code-detector';

/**
 * Nine in ten: a habit that strong is the project's rule, and the tenth declaration an oversight
 * the rule would report. Below it the annotation is a choice made per declaration (a `@discardableResult`
 * on the functions whose result may be ignored), and a rule would report the project's own way.
 */
const MIN_SHARE = 0.9;
const MIN_DECLS = 10;
const MIN_FILES = 3;

/** The declaration keywords a rule can find by their line, per family, with how public ones are written. */
const DECLS: Partial<Record<Family, { keywords: string[]; visibility: string }>> = {
  rust: { keywords: ['struct', 'enum', 'trait', 'fn'], visibility: 'pub' },
  java: { keywords: ['class', 'interface', 'enum', 'record'], visibility: 'public' },
  swift: { keywords: ['class', 'struct', 'enum', 'protocol', 'actor', 'func'], visibility: 'public|open' },
};

interface Decl {
  name: string;
  /** A type (struct, class, enum…), not a function. */
  type: boolean;
  path: string;
  line: number;
  /** The annotations directly above the declaration or on its line, as keys (`derive(Debug)`, `Sendable`). */
  carries: Set<string>;
}

export class PublicAnnotationDetector implements Detector {
  /** `family|keyword` → the public top-level declarations of that keyword. */
  private readonly groups = new Map<string, Decl[]>();
  /** `family|Type|Trait`: traits implemented by hand (`impl fmt::Debug for Glob`), which a derive would state. */
  private readonly implemented = new Set<string>();

  visit(file: FactFile): void {
    const { facts, family, path } = file;
    const spec = DECLS[family];
    if (!spec || facts.role !== 'production' || !facts.annotations.length && !facts.decls.length) return;
    for (const i of facts.impls) this.implemented.add(`${family}|${i.type}|${i.base.split('::').pop()}`);
    const byLine = new Map<number, string[]>();
    for (const a of facts.annotations) byLine.set(a.line, [...(byLine.get(a.line) ?? []), ...keysOf(a.name, a.args)]);
    for (const d of facts.decls) {
      const keyword = d.kind === 'function' ? (family === 'rust' ? 'fn' : 'func') : d.keyword;
      if (d.member || d.visibility !== 'public' || !keyword || !spec.keywords.includes(keyword)) continue;
      const carries = new Set<string>();
      // The attribute block: the declaration's own line and the lines right above it that carry one.
      for (const k of byLine.get(d.line) ?? []) carries.add(k);
      for (let l = d.line - 1; byLine.has(l); l--) for (const k of byLine.get(l)!) carries.add(k);
      const key = `${family}|${keyword}`;
      const decl = { name: d.name, type: d.kind === 'type', path, line: d.line, carries };
      this.groups.set(key, [...(this.groups.get(key) ?? []), decl]);
    }
  }

  finish(ctx: AnalysisContext): CandidateDraft[] {
    const out: CandidateDraft[] = [];
    for (const [key, decls] of [...this.groups].sort((a, b) => b[1].length - a[1].length)) {
      const [family, keyword] = key.split('|') as [Family, string];
      if (decls.length < MIN_DECLS || new Set(decls.map((d) => d.path)).size < MIN_FILES) continue;
      const counts = new Map<string, number>();
      for (const d of decls) for (const k of d.carries) counts.set(k, (counts.get(k) ?? 0) + 1);
      const best =
        [...counts].filter(([k, n]) =>
          n / decls.length >= MIN_SHARE && (!decls[0].type || this.typesShare(family, k) >= MIN_SHARE)
        )
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
      if (!best) continue;
      const [annotation, n] = best;
      // A type that implements the derived trait by hand keeps the convention, but a pattern on its
      // declaration cannot see that: the card says so and carries no seed rather than a wrong rule.
      const trait = /^derive\((\w+)\)$/.exec(annotation)?.[1];
      const byHand = trait ? decls.filter((d) => this.implemented.has(`${family}|${d.name}|${trait}`)) : [];
      const without = decls.filter((d) => !d.carries.has(annotation) && !byHand.includes(d));
      const withIt = decls.filter((d) => d.carries.has(annotation));
      const written = family === 'rust' ? `#[${annotation}]` : `@${annotation}`;
      const vis = DECLS[family]!.visibility.split('|')[0];
      out.push({
        title: fit(`Public \`${keyword}\` declarations carry \`${written}\``, 100),
        knowledgeType: 'code-standard',
        dimension: 'code-standard',
        language: languageOf(family, ctx),
        category: 'annotations',
        summary: `${n} of ${decls.length} \`${vis} ${keyword}\` declarations in ${
          new Set(decls.map((d) => d.path)).size
        } production files carry \`${written}\`${
          byHand.length ? ` or implement \`${trait}\` by hand (${byHand.length})` : ''
        }${
          without.length
            ? ` (${filesSaid(without.map((d) => d.path), 2)}: ${
              without.length > 1 ? `the ${without.length} exceptions` : 'the exception'
            })`
            : ''
        }. Give a new public ${keyword} the same.`,
        code: '',
        reasoning: {
          whyStandard:
            `Counted over the public top-level declarations of this kind in the production code: the annotation is on ${
              MIN_SHARE * 100
            }% or more of them.`,
          sources: [
            ...withIt.slice(0, 4).map((d) => `${d.path}:${d.line}`),
            ...without.slice(0, 2).map((d) => `${d.path}:${d.line}`),
          ],
          confidence: confidence(n / decls.length, decls.length),
        },
        tags: ['annotations', family],
        trigger: `public-${keyword}-${baseName(annotation).replace(/\W+/g, '-').toLowerCase()}`,
        ...(byHand.some((d) => !d.carries.has(annotation)) ? {} : {
          ruleSeed: {
            kind: 'require-annotation' as const,
            language: languageOf(family, ctx),
            annotation,
            declaration: keyword,
            goodAt: withIt.slice(0, 4).map((d) => `${d.path}:${d.line}`),
            exceptions: without.length,
            ...(without.length ? { badAt: without.slice(0, 4).map((d) => `${d.path}:${d.line}`) } : {}),
          },
        }),
      });
    }
    return out.slice(0, 2);
  }

  /**
   * The annotation's share over the public types of the family that carry it at all: a trait derived on nearly every
   * enum but not on the structs follows from what those enums hold, not from a project habit.
   */
  private typesShare(family: Family, annotation: string): number {
    // Kinds that never carry it (traits never derive) are not counted against it.
    const types = [...this.groups].filter(([k, d]) =>
      k.startsWith(`${family}|`) && d[0].type && d.some((x) => x.carries.has(annotation))
    ).flatMap(([, d]) => d);
    return types.filter((d) => d.carries.has(annotation)).length / Math.max(1, types.length);
  }
}

/** `derive` stands for each trait it derives: `derive(Debug)`, `derive(Clone)`. */
function keysOf(name: string, args: string | undefined): string[] {
  if (name !== 'derive' || !args) return [name];
  return args.split(',').map((t) => t.trim().split('::').pop()!).filter((t) => /^\w+$/.test(t)).map((t) =>
    `derive(${t})`
  );
}
