// Recurring code shapes: one signature repeated for every component of a kind (top-level functions
// with one parameter list and result whose names share a word; one method every type of a kind
// defines where no declared interface says so), and a macro defined once and invoked for many items.
import { languageOf } from '../dimensions/standards';
import { confidence } from '../evidence';
import { fit } from '../form';
import { FAMILY_LABEL } from '../source';
import type { AnalysisContext, CandidateDraft, Family } from '../types';
import { baseName, type Detector, type FactFile, filesSaid } from './code-detector';

const MIN_FILES = 4;
/** Methods every type may have (printing, equality): sharing them shows no kind. */
const GENERIC_METHOD = /^(String|toString|__\w+__|equals|hashCode|Error|fmt|description|clone|default|new|init)$/;

interface Site {
  name: string;
  path: string;
  line: number;
  owner?: string;
}

/** The words of an identifier: `newFooCmd` → new, foo, cmd; `load_user` → load, user. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_]+/).filter(Boolean);
}

/** A signature that says something: parameters or a result with a type in them. */
const TYPED = /[A-Z*&[]|->|:\s*\w/;

export class CodeShapeDetector implements Detector {
  /** `family|signature` → top-level functions with it. */
  private readonly functions = new Map<string, Site[]>();
  /** `family|name signature` → methods with it, by owner. */
  private readonly methods = new Map<string, Site[]>();
  /** Types with a declared base or implementation: their shared methods are that base's contract, not a shape. */
  private readonly based = new Set<string>();
  private readonly macroDefs = new Map<string, Site & { local?: boolean; exported?: boolean }>();
  /** Modules whose macros `#[macro_use] mod name;` opens to the rest of the crate. */
  private readonly macroUse = new Set<string>();
  /** Interfaces, protocols and traits: the members they declare are requirements, not a repeated shape. */
  private readonly abstract = new Set<string>();
  private readonly macroUses = new Map<string, { count: number; items: number; files: Map<string, number> }>();

  visit(file: FactFile): void {
    const { facts, family, path } = file;
    if (facts.role !== 'production') return;
    for (const i of facts.impls) this.based.add(`${family}|${i.type}`);
    for (const d of facts.decls) {
      if (d.kind === 'type' && d.bases?.length) this.based.add(`${family}|${d.name}`);
      if (d.kind === 'type' && /^(interface|protocol|trait)$/.test(d.keyword ?? '')) {
        this.abstract.add(`${family}|${d.name}`);
      }
      if (d.kind !== 'function' || !d.signature || d.visibility === 'private') continue;
      if (!TYPED.test(d.signature) || d.signature.length < 4) continue;
      const site = { name: d.name, path, line: d.line, ...(d.owner ? { owner: d.owner } : {}) };
      if (!d.member) push(this.functions, `${family}|${d.signature}`, site);
      else if (d.owner) push(this.methods, `${family}|${d.name} ${d.signature}`, site);
    }
    for (const a of facts.annotations) {
      if (a.name !== 'macro_use') continue;
      const mod = facts.imports.find((i) => i.module && (i.line === a.line || i.line === a.line + 1));
      if (mod) this.macroUse.add(mod.spec);
    }
    for (const m of facts.macros) {
      const key = `${family}|${m.name}`;
      if (m.def) {
        if (!this.macroDefs.has(key)) {
          this.macroDefs.set(key, {
            name: m.name,
            path,
            line: m.line,
            ...(m.local ? { local: true } : {}),
            ...(m.exported ? { exported: true } : {}),
          });
        }
        continue;
      }
      const u = this.macroUses.get(key) ?? { count: 0, items: 0, files: new Map() };
      u.count++;
      if (m.item) u.items++;
      if (!u.files.has(path)) u.files.set(path, m.line);
      this.macroUses.set(key, u);
    }
  }

  finish(ctx: AnalysisContext): CandidateDraft[] {
    return [...this.repeatedFunctions(ctx), ...this.repeatedMethods(ctx), ...this.macros(ctx)].slice(0, 4);
  }

  private repeatedFunctions(ctx: AnalysisContext): CandidateDraft[] {
    const out: { n: number; draft: CandidateDraft }[] = [];
    for (const [key, sites] of this.functions) {
      const files = new Set(sites.map((s) => s.path));
      if (files.size < MIN_FILES) continue;
      const fam = key.slice(0, key.indexOf('|')) as Family;
      const signature = key.slice(fam.length + 1);
      // Names that differ only by a number are copies, not components of a kind.
      if (new Set(sites.map((s) => s.name.replace(/\d+$/, ''))).size < MIN_FILES) continue;
      // The word most of the names share, first or last: what kind of component they are.
      const affix = sharedAffix(sites.map((s) => s.name));
      if (!affix || affix.share < 0.75) continue;
      const pattern = affix.at === 'first' ? `${affix.word}…` : `…${affix.word}`;
      const odd = sites.filter((s) => !affix.fits(s.name));
      const named = sites.length - odd.length;
      // Only what the declarations show: the names' shared word, the signature, the files; never a role.
      const summary = `${named} top-level functions named \`${pattern}\`${
        files.size === sites.length ? ', one per file,' : ''
      } take \`${signature}\` (${filesSaid([...files])})${
        odd.length
          ? `; ${odd.slice(0, 2).map((s) => `\`${s.name}\``).join(' and ')} ${
            odd.length > 1 ? 'have' : 'has'
          } the signature under another name`
          : ''
      }. A new \`${pattern}\` function of this set takes the same parameters and returns the same type.`;
      out.push({
        n: sites.length,
        draft: draft(
          fam,
          ctx,
          fit(`${FAMILY_LABEL[fam]} \`${pattern}\` functions share the signature \`${pattern}${signature}\``, 100),
          summary,
          sites.slice(0, 6).map((s) => `${s.path}:${s.line}`),
          sites.length,
          `shape-${affix.word}`,
        ),
      });
    }
    return out.sort((a, b) => b.n - a.n).slice(0, 2).map((x) => x.draft);
  }

  /**
   * Methods that several types define alike, most of them with no declared base. The card does not
   * say that no interface asks for them: an interface may be implicit (Go) or declared where the
   * facts do not link it to these types, so that absence cannot be shown. One shared
   * signature says nothing of a kind (`path(&self) -> &Path` on a config and an index); a set of
   * methods the same types all define does: the card states the set, the types, and the ones that
   * define only part of it.
   */
  private repeatedMethods(ctx: AnalysisContext): CandidateDraft[] {
    const out: { n: number; draft: CandidateDraft }[] = [];
    const seen = new Set<string>();
    const ownersOf = new Map<string, Set<string>>();
    const sitesOf = new Map<string, Site[]>();
    for (const [key, declared] of this.methods) {
      const fam = key.slice(0, key.indexOf('|')) as Family;
      const sites = declared.filter((s) => !this.abstract.has(`${fam}|${s.owner}`));
      const name = key.slice(fam.length + 1).split(' ')[0];
      if (name.length < 3 || GENERIC_METHOD.test(name)) continue;
      ownersOf.set(key, new Set(sites.map((s) => s.owner!)));
      sitesOf.set(key, sites);
    }
    for (const [key, owners] of ownersOf) {
      const fam = key.slice(0, key.indexOf('|')) as Family;
      if (owners.size < MIN_FILES) continue;
      // Types that declare a base share its methods because the base asks for them: that is the extension protocol.
      if ([...owners].filter((o) => this.based.has(`${fam}|${o}`)).length * 2 >= owners.size) continue;
      // The other methods most of these types define too: with them, the types are a set of one shape.
      const companions = [...ownersOf].filter(([k, o]) =>
        k !== key && k.startsWith(`${fam}|`) && [...owners].filter((x) => o.has(x)).length >= MIN_FILES
      ).map(([k]) => k);
      if (!companions.length) continue;
      const set = [key, ...companions].sort();
      const group = [...owners].filter((o) => set.every((k) => ownersOf.get(k)!.has(o))).sort();
      if (group.length < MIN_FILES || seen.has(set.join('\n'))) continue;
      seen.add(set.join('\n'));
      const sites = set.flatMap((k) => sitesOf.get(k)!.filter((s) => group.includes(s.owner!)));
      const files = new Set(sites.map((s) => s.path));
      if (files.size < 3) continue;
      const members = set.map((k) => k.slice(fam.length + 1).split(' '));
      const partial = [...new Set(set.flatMap((k) => [...ownersOf.get(k)!]))].filter((o) => !group.includes(o)).sort();
      const partialSaid = partial.slice(0, 2).map((o) => {
        const has = members.filter((_, i) => ownersOf.get(set[i])!.has(o)).map(([n]) => `\`${n}\``);
        return `\`${o}\` defines only ${has.join(' and ')}`;
      });
      const names = members.map(([n]) => `\`${n}\``);
      out.push({
        n: group.length * set.length,
        draft: draft(
          fam,
          ctx,
          fit(`${FAMILY_LABEL[fam]} types that define ${names.slice(0, 3).join(', ')} define them alike`, 100),
          `${group.length} types in ${files.size} production files (${
            group.slice(0, 4).map((o) => `\`${o}\``).join(', ')
          }${group.length > 4 ? ', …' : ''}) each define ${
            members.map(([n, ...sig]) => `\`${n}${sig.join(' ')}\``).join(', ')
          }${
            partialSaid.length ? `; ${partialSaid.join('; ')}` : ''
          }. A new type that offers one of these methods defines them with the same signatures.`,
          group.slice(0, 6).map((o) => sites.find((s) => s.owner === o)!).map((s) => `${s.path}:${s.line}`),
          group.length,
          `method-${members[0][0]}`,
        ),
      });
    }
    return out.sort((a, b) => b.n - a.n).slice(0, 2).map((x) => x.draft);
  }

  private macros(ctx: AnalysisContext): CandidateDraft[] {
    const out: { n: number; draft: CandidateDraft }[] = [];
    for (const [key, def] of this.macroDefs) {
      const all = this.macroUses.get(key);
      // A macro defined inside a body shadows any other of its name in that file only: the uses elsewhere are another macro's.
      // A Rust macro is textually scoped: beyond its file only when exported or opened with `#[macro_use]`.
      const opened = this.macroUse.has(baseName(def.path).replace(/\.rs$/, ''))
        || this.macroUse.has(def.path.split('/').slice(-2, -1)[0] ?? '');
      const fileOnly = def.local || (key.startsWith('rust|') && !def.exported && !opened);
      const u = all && fileOnly ? { ...all, files: new Map([...all.files].filter(([p]) => p === def.path)) } : all;
      if (!u || u.count < 4 || u.files.size < 2) continue;
      const fam = key.slice(0, key.indexOf('|')) as Family;
      const call = fam === 'rust' ? `${def.name}!` : fam === 'swift' ? `#${def.name}` : def.name;
      const items = u.items * 2 >= u.count;
      const files = [...u.files.keys()];
      out.push({
        n: u.count,
        draft: draft(
          fam,
          ctx,
          fit(
            `${items ? 'Repeated items are declared' : 'Repeated code is written'} through the \`${call}\` macro`,
            100,
          ),
          `\`${call}\` is defined once (${
            baseName(def.path)
          }:${def.line}) and invoked ${u.count} times in ${files.length} production files (${filesSaid(files)})${
            items ? ', each invocation declaring an item at the top level of its file' : ''
          }: a new case of the same kind goes through it rather than being written by hand.`,
          [`${def.path}:${def.line}`, ...[...u.files].slice(0, 5).map(([p, l]) => `${p}:${l}`)],
          u.count,
          `macro-${def.name}`,
        ),
      });
    }
    return out.sort((a, b) => b.n - a.n).slice(0, 2).map((x) => x.draft);
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first or last word most names share, with the share and a test for one name. */
function sharedAffix(
  names: readonly string[],
): { word: string; at: 'first' | 'last'; share: number; fits: (n: string) => boolean } | undefined {
  let best: ReturnType<typeof sharedAffix>;
  for (const at of ['first', 'last'] as const) {
    const counts = new Map<string, number>();
    for (const n of names) {
      const w = words(n);
      if (w.length < 2) continue;
      const word = at === 'first' ? w[0] : w[w.length - 1];
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    for (const [word, n] of counts) {
      const share = n / names.length;
      if (word.length >= 3 && (!best || share > best.share)) {
        best = {
          word,
          at,
          share,
          fits: (x) => {
            const w = words(x);
            return w.length >= 2 && (at === 'first' ? w[0] : w[w.length - 1]) === word;
          },
        };
      }
    }
  }
  return best;
}

function draft(
  fam: Family,
  ctx: AnalysisContext,
  title: string,
  summary: string,
  sources: string[],
  support: number,
  trigger: string,
): CandidateDraft {
  return {
    title,
    knowledgeType: 'code-pattern',
    dimension: 'code-pattern',
    language: languageOf(fam, ctx),
    category: 'shapes',
    summary,
    code: '',
    reasoning: {
      whyStandard: 'Counted over the declarations and macro invocations of the production files.',
      sources,
      confidence: confidence(0.8, support),
    },
    tags: ['shape', fam],
    trigger,
  };
}
