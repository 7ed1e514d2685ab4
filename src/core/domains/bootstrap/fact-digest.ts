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
  /** What a new teammate most often misses (a contract, the error types, the test setup): ranked before other findings. */
  essential?: boolean;
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
/** Members named per supertype: the contract, not the whole class. */
const MAX_MEMBERS = 8;
/** The languages' own error supertypes: a type declaring one is an error type. */
const ERROR_ROOT =
  /^(Error|Exception|BaseException|Throwable|RuntimeException|IOException|IllegalStateException|IllegalArgumentException|ValueError|TypeError|RuntimeError|LocalizedError|CustomNSError)$/;
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
  /** Type name → the members its declaration holds (`read()`, `write(out)`): what an implementer provides. */
  private readonly members = new Map<string, string[]>();
  /** Error type → its declaration and the supertype that makes it one (`Exception`, a project error type). */
  private readonly errorTypes = new Map<string, { def: QuotedLine; base: string }>();
  /** Production supertypes by type, to find which project types are error types once every file is seen. */
  private readonly supertypes = new Map<string, { def: QuotedLine; bases: string[] }>();

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
      // A trait's or protocol's members carry no visibility of their own: only a leading `_` marks one private.
      if (!test && d.member && d.owner && d.kind === 'function' && !d.name.startsWith('_')) {
        const list = this.members.get(d.owner) ?? [];
        if (list.length < MAX_MEMBERS && !list.includes(d.name)) this.members.set(d.owner, [...list, d.name]);
      }
      if (!test && d.kind === 'type' && (d.bases ?? (d.base ? [d.base] : [])).length) {
        this.supertypes.set(d.name, { def: quote(d.line), bases: d.bases ?? [d.base!] });
      }
      // Go: a type with an `Error() string` method is an error.
      if (!test && d.kind === 'function' && d.name === 'Error' && d.owner && /\)\s*string$/.test(d.signature ?? '')) {
        if (!this.errorTypes.has(d.owner)) this.errorTypes.set(d.owner, { def: quote(d.line), base: 'error' });
      }
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
    // Where the fact layer keeps no members (Python classes, TypeScript and Java interfaces), the body's own lines.
    if (!test) {
      for (const d of facts.decls) {
        if (d.kind === 'type' && !d.member && !this.members.has(d.name)) {
          const found = bodyMembers(file.lines, d.line);
          if (found.length) this.members.set(d.name, found);
        }
      }
    }
    // Rust: `impl Error for T` / `impl std::error::Error for T`.
    if (!test) {
      for (const i of facts.impls) {
        if (i.how === 'impl' && i.base === 'Error' && !this.errorTypes.has(i.type)) {
          this.errorTypes.set(i.type, { def: quote(i.line), base: 'std::error::Error' });
        }
      }
    }
    const uses = test ? this.testUses : this.productionUses;
    for (const [name, line] of facts.uses) if (name.length >= MIN_NAME) add(uses, name, quote(line));
  }

  /** The statistics, in a fixed order: a scan of the same files gives the same digest. */
  facts(): DigestFact[] {
    return [...this.protocols(), ...this.errors(), ...this.testIdioms(), ...this.centralTypes(), ...this.helpers()];
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

  /**
   * Supertypes many production types declare: what new code of that role implements. Project-declared
   * ones first (their members are the contract), each with the members its declaration holds.
   */
  private protocols(): DigestFact[] {
    const all = top(this.implemented, (s) => s.files.size >= 2 && s.count >= MIN_FILES, 20);
    const own = all.filter(([b]) => this.typeDefs.has(b));
    return [...own, ...all.filter(([b]) => !this.typeDefs.has(b))].slice(0, TOP).map(([base, s]) => {
      const def = this.typeDefs.get(base);
      const members = this.members.get(base) ?? [];
      return {
        dimension: 'code-pattern',
        essential: !!def,
        claim: `${s.count} production types in ${s.files.size} files declare \`${base}\` as a supertype${
          def ? ` (declared at ${def.path}:${def.line})` : ' (declared outside the project)'
        }${
          members.length ? `; its declaration holds ${members.map((m) => `\`${m}\``).join(', ')}` : ''
        }. Implementations below.`,
        count: s.count,
        files: s.files.size,
        ...(def ? { definition: def } : {}),
        places: s.places,
      };
    });
  }

  /**
   * The project's error types, grouped under the error root each descends from (a language error
   * type, or a project type that does), with where they are declared and where production code
   * names them (raise, throw, return, wrap).
   */
  private errors(): DigestFact[] {
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, t] of this.supertypes) {
        if (this.errorTypes.has(name)) continue;
        const base = t.bases.find((b) => ERROR_ROOT.test(b) || this.errorTypes.has(b));
        if (base) {
          this.errorTypes.set(name, { def: t.def, base });
          changed = true;
        }
      }
    }
    const rootOf = (name: string): string => {
      for (let n = name, i = 0; i < 10; i++) {
        const b = this.errorTypes.get(n)?.base;
        if (!b || !this.errorTypes.has(b)) return n;
        n = b;
      }
      return name;
    };
    const groups = new Map<string, string[]>();
    for (const name of this.errorTypes.keys()) groups.set(rootOf(name), [...(groups.get(rootOf(name)) ?? []), name]);
    const used = (n: string) => this.productionUses.get(n)?.files.size ?? 0;
    return [...groups].map(([root, names]) => ({ root, names, files: names.reduce((a, n) => a + used(n), 0) }))
      .filter((g) => g.files >= 2)
      .sort((a, b) => b.files - a.files || cmp(a.root, b.root)).slice(0, 3).map(({ root, names, files }) => {
        const def = this.errorTypes.get(root)!;
        const others = names.filter((n) => n !== root).sort((a, b) => used(b) - used(a) || cmp(a, b));
        const places: QuotedLine[] = [];
        for (const n of [root, ...others]) {
          for (const p of this.productionUses.get(n)?.places ?? []) {
            if (places.length < KEEP && p.path !== def.def.path) places.push(p);
          }
        }
        return {
          dimension: 'best-practice',
          essential: true,
          claim: `Errors: \`${root}\` (${def.def.path}:${def.def.line}, extends \`${def.base}\`)${
            others.length
              ? ` and ${others.length} project error ${others.length === 1 ? 'type' : 'types'} under it (${
                others.slice(0, 6).map((n) => `\`${n}\``).join(', ')
              }${others.length > 6 ? ', …' : ''})`
              : ''
          } are named from ${files} production files; the lines below raise, return or wrap them.`,
          count: files,
          files,
          definition: def.def,
          places,
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
        essential: true,
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

function top(map: Map<string, Spread>, keep: (s: Spread) => boolean, n = TOP): [string, Spread][] {
  return [...map].filter(([, s]) => keep(s)).sort((a, b) => b[1].count - a[1].count || cmp(a[0], b[0])).slice(0, n);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const MEMBER =
  /^\s+(?:(?:public|protected|abstract|default|static|final|async|override|open|readonly|suspend|pub|synchronized)\s+)*(?:def|fn|func|fun|function)?\s*(?:<[^>]*>\s*)?(?:[\w.<>[\], ?]+\s+)?(\w+)\s*\??\s*[(<]/;
const NOT_MEMBER = /^(if|for|while|switch|return|catch|super|this|new|throw|raise|assert|print|constructor)$/;

/** The methods a type's body declares at its first level, read from its lines: `def area(` , `run(op: Op): void;`. */
function bodyMembers(lines: readonly string[], line: number): string[] {
  const indent = (l: string) => /^\s*/.exec(l)![0].replace(/\t/g, '    ').length;
  const own = indent(lines[line - 1] ?? '');
  let depth = -1;
  const out: string[] = [];
  for (let i = line; i < lines.length && i < line + 400 && out.length < MAX_MEMBERS; i++) {
    const l = lines[i];
    if (!l.trim() || /^\s*(\/\/|\/?\*|#|@)/.test(l)) continue;
    const at = indent(l);
    if (at <= own) break;
    if (depth < 0) depth = at;
    if (at !== depth) continue;
    const name = MEMBER.exec(l)?.[1];
    if (name && !name.startsWith('_') && !NOT_MEMBER.test(name) && !out.includes(name)) out.push(name);
  }
  return out;
}
