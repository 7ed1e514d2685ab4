/**
 * Statistics over the facts of every scanned file that no single card states but a reader (a model
 * writing the cards) needs as evidence: which supertypes many production types implement, which project
 * functions many files call, which helpers defined in tests many tests call. Each statistic keeps a few
 * places with the line as the file has it, because the file's text is dropped after the visit.
 */
import { factsOf } from './facts';
import type { SourceFile } from './types';

/** A line of the repository as the scan read it. */
export interface QuotedLine {
  path: string;
  line: number;
  text: string;
}

/** One statistic over the facts, ready to be evidence: what it counts, how many, where. */
export interface DigestFact {
  dimension: string;
  /** What was counted, in words, with the counts in it. */
  claim: string;
  count: number;
  files: number;
  /** The definition, when the project declares the thing counted. */
  definition?: QuotedLine;
  places: QuotedLine[];
}

/** Places kept per name: enough to show a spread across files, few enough to stay cheap. */
const KEEP = 5;
/** A statistic needs this many files beside the definition's before it says anything about the project. */
const MIN_FILES = 3;
/** Facts per kind of statistic: the most widespread first. */
const TOP = 5;
/** Names this short (`f`, `ok`) are too ambiguous to be resolved by name alone. */
const MIN_NAME = 3;

interface Spread {
  files: Set<string>;
  count: number;
  places: QuotedLine[];
}

export class FactDigest {
  /** Supertype → the production types that declare it. */
  private readonly implemented = new Map<string, Spread>();
  /** Top-level function name → its one production definition (`null` once it is defined twice). */
  private readonly productionDefs = new Map<string, QuotedLine | null>();
  private readonly testDefs = new Map<string, QuotedLine | null>();
  private readonly typeDefs = new Map<string, QuotedLine>();
  /** Top-level type name → its one production definition (`null` once it is defined twice). */
  private readonly uniqueTypes = new Map<string, QuotedLine | null>();
  /** Bare name → the production (or test) files that call it. */
  private readonly productionUses = new Map<string, Spread>();
  private readonly testUses = new Map<string, Spread>();

  visit(file: SourceFile): void {
    if (file.kind === 'generated') return;
    const facts = factsOf(file);
    const test = file.kind === 'test';
    const quote = (line: number): QuotedLine => ({
      path: file.path,
      line,
      text: (file.lines[line - 1] ?? '').trim().slice(0, 160),
    });
    for (const d of facts.decls) {
      if (d.name.length < MIN_NAME) continue;
      if (d.kind === 'type' && !test) {
        if (!this.typeDefs.has(d.name)) this.typeDefs.set(d.name, quote(d.line));
        if (!d.member) this.uniqueTypes.set(d.name, this.uniqueTypes.has(d.name) ? null : quote(d.line));
        for (const base of new Set(d.bases ?? (d.base ? [d.base] : []))) add(this.implemented, base, quote(d.line));
      }
      if (d.kind === 'function' && !d.member) {
        const defs = test ? this.testDefs : this.productionDefs;
        defs.set(d.name, defs.has(d.name) ? null : quote(d.line));
      }
    }
    const uses = test ? this.testUses : this.productionUses;
    for (const [name, line] of facts.uses) if (name.length >= MIN_NAME) add(uses, name, quote(line));
  }

  /** The statistics, in a fixed order: a scan of the same files gives the same digest. */
  facts(): DigestFact[] {
    return [...this.centralTypes(), ...this.protocols(), ...this.helpers(), ...this.testIdioms()];
  }

  /** The types most production files name: what the code base is built around. */
  private centralTypes(): DigestFact[] {
    return this.calledFrom(this.uniqueTypes, this.productionUses).map(([name, def, s]) => ({
      dimension: 'architecture',
      claim: `The type \`${name}\` (${def.path}:${def.line}) is used from ${s.files.size} other production files.`,
      count: s.count,
      files: s.files.size,
      definition: def,
      places: s.places.filter((p) => p.path !== def.path),
    }));
  }

  private protocols(): DigestFact[] {
    return top(this.implemented, (s) => s.files.size >= 2 && s.count >= MIN_FILES).map(([base, s]) => {
      const def = this.typeDefs.get(base);
      return {
        dimension: 'code-pattern',
        claim: `${s.count} production types in ${s.files.size} files declare \`${base}\` as a supertype${
          def ? ` (declared at ${def.path}:${def.line})` : ' (declared outside the project)'
        }.`,
        count: s.count,
        files: s.files.size,
        ...(def ? { definition: def } : {}),
        places: s.places,
      };
    });
  }

  private helpers(): DigestFact[] {
    return this.calledFrom(this.productionDefs, this.productionUses).map(([name, def, s]) => ({
      dimension: 'code-pattern',
      claim:
        `The project function \`${name}\` (${def.path}:${def.line}) is called from ${s.files.size} other production files (${s.count} files in all call it).`,
      count: s.count,
      files: s.files.size,
      definition: def,
      places: s.places.filter((p) => p.path !== def.path),
    }));
  }

  private testIdioms(): DigestFact[] {
    const fromTests = this.calledFrom(this.testDefs, this.testUses);
    // A production function most tests call is how tests build the thing under test, too.
    const fromProduction = this.calledFrom(this.productionDefs, this.testUses);
    return [...fromTests, ...fromProduction].sort((a, b) => b[2].files.size - a[2].files.size || cmp(a[0], b[0]))
      .slice(0, TOP).map(([name, def, s]) => ({
        dimension: 'best-practice',
        claim: `Tests: \`${name}\` (${def.path}:${def.line}) is called from ${s.files.size} test files${
          this.testDefs.get(name) ? ', defined in a test file: a shared test helper' : ''
        }.`,
        count: s.count,
        files: s.files.size,
        definition: def,
        places: s.places.filter((p) => p.path !== def.path),
      }));
  }

  /** Functions defined once and called from at least MIN_FILES files other than their own. */
  private calledFrom(
    defs: Map<string, QuotedLine | null>,
    uses: Map<string, Spread>,
  ): [string, QuotedLine, { files: Set<string>; count: number; places: QuotedLine[] }][] {
    const out: [string, QuotedLine, Spread][] = [];
    for (const [name, def] of defs) {
      const s = uses.get(name);
      if (!def || !s) continue;
      const others = new Set([...s.files].filter((f) => f !== def.path));
      if (others.size >= MIN_FILES) out.push([name, def, { ...s, files: others }]);
    }
    return out.sort((a, b) => b[2].files.size - a[2].files.size || cmp(a[0], b[0])).slice(0, TOP);
  }
}

function add(map: Map<string, Spread>, key: string, at: QuotedLine): void {
  let s = map.get(key);
  if (!s) map.set(key, s = { files: new Set(), count: 0, places: [] });
  s.count++;
  // One place per file first: the spread is the evidence, not the repetition inside one file.
  if (!s.files.has(at.path) && s.places.length < KEEP) s.places.push(at);
  s.files.add(at.path);
}

function top(map: Map<string, Spread>, keep: (s: Spread) => boolean): [string, Spread][] {
  return [...map].filter(([, s]) => keep(s)).sort((a, b) => b[1].count - a[1].count || cmp(a[0], b[0])).slice(0, TOP);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
