// How other files use a project type: the methods of its body they call, most called first: a
// helper type's API (a lock wrapper's `read { }` / `write { }`, a `Scheduler.schedule`) shows new code
// how to use it, where "use it instead of writing a local variant" does not.
import path from 'node:path';
import { escapeName, nameList } from './form';
import type { Definition, Use } from './symbols';
import type { AnalysisContext } from './types';

/** Names that say nothing about a type's API even when they are called. */
const NOT_API = new Set([
  'init',
  'new',
  'constructor',
  'toString',
  'equals',
  'hashCode',
  'description',
  'clone',
  'copy',
  'fmt',
  'eq',
  'hash',
  'default',
  'from',
  'into',
  'compareTo',
  'close',
  'deinit',
  'drop',
  'main',
]);

/** What declares a method, per family: the name is group 1. */
const METHOD: Partial<Record<Definition['family'], RegExp>> = {
  swift:
    /^\s*(?:(?:public|internal|open|fileprivate|static|class|final|override|mutating|nonisolated|@\w+(?:\([^)]*\))?)\s+)*func\s+(\w+)/,
  kotlin:
    /^\s*(?:(?:public|internal|protected|override|open|suspend|inline|operator|infix|final|abstract|actual|expect|@\w+)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+(?:<(?:[^<>]|<[^<>]*>)*>)?\??\.)?(\w+)\s*\(/,
  java: /^\s*(?:(?:public|protected|static|final|synchronized|abstract|default|@\w+)\s+)+[\w<>[\],.? ]+?\s+(\w+)\s*\(/,
  jsts:
    /^\s*(?:(?:public|protected|static|async|readonly|override|get|set)\s+)*(\w+)\s*(?:<[^>]*>)?\s*\([^)]*\)?\s*(?::[^={]*)?\{?\s*$/,
  python: /^\s+(?:async\s+)?def\s+([a-zA-Z]\w*)\s*\(/,
  rust: /^\s+(?:pub(?:\([^)]*\))?\s+)(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)/,
};
const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'return',
  'catch',
  'function',
  'new',
  'super',
  'this',
  'else',
  'when',
  'synchronized',
]);

/** The methods declared for `def` (its body; Rust `impl` blocks; Go methods of its package). */
export async function methodsOf(def: Definition, ctx: AnalysisContext, own = false): Promise<string[]> {
  const names = new Set<string>();
  const add = (n: string | undefined) => {
    if (n && !KEYWORDS.has(n) && !NOT_API.has(n) && n !== def.name && !n.startsWith('_')) names.add(n);
  };
  if (def.family === 'go') {
    const receiver = new RegExp(
      `^func\\s*\\(\\s*\\w+\\s+\\*?${escapeName(def.name)}(?:\\[[^\\]]*\\])?\\s*\\)\\s*([A-Z]\\w*)`,
      'gm',
    );
    const dir = path.posix.dirname(def.path);
    for (const f of ctx.listing.filter((p) =>
      p.endsWith('.go') && !p.endsWith('_test.go') && path.posix.dirname(p) === dir
    )) {
      for (const m of ((await ctx.read(f)) ?? '').matchAll(receiver)) add(m[1]);
    }
    return [...names];
  }
  const method = METHOD[def.family];
  if (!method) return [];
  const lines = ((await ctx.read(def.path)) ?? '').split('\n');
  const bodies = ownBodies(def, lines);
  // Kotlin's companion object is the type's static side (`Platform.get()`).
  const [body] = bodies;
  if (body && def.family === 'kotlin') {
    for (let i = body[0]; i < body[1]; i++) {
      if (/^\s*companion object\b.*\{\s*$/.test(lines[i])) bodies.push(blockFrom(lines, i, def.family));
    }
  }
  // `own`: what the declaration itself requires, not what extensions add (a protocol's requirements).
  if (!own) bodies.push(...sameFileExtensions(def, lines));
  for (const [from, to, depth] of bodies) {
    for (let i = from; i < to; i++) if (/^\s*/.exec(lines[i])![0].length === depth) add(method.exec(lines[i])?.[1]);
  }
  return [...names];
}

/** A block's lines `[from, to)` and the depth of its members, from the line that opens it. */
type Block = [from: number, to: number, depth: number];

function blockFrom(lines: readonly string[], start: number, family: Definition['family']): Block {
  // `protocol X: A, B {}`: a body opened and closed on its own line holds nothing.
  const open = lines[start] ?? '';
  if (
    family !== 'python' && open.includes('{') && (open.match(/\{/g)?.length ?? 0) <= (open.match(/\}/g)?.length ?? 0)
  ) return [start + 1, start + 1, -1];
  const indent = /^\s*/.exec(lines[start])![0].length;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const l = lines[end];
    if (!l.trim()) continue;
    const i = /^\s*/.exec(l)![0].length;
    // Python: the class ends at the first line as shallow as its `class`; braces: at its closing `}`.
    if (family === 'python' ? i <= indent : i <= indent && /^\s*[})]/.test(l)) break;
  }
  // Members at the body's own depth: a nested type's methods are not the type's (a `Query.Callback`).
  const first = lines.slice(start + 1, end).find((l) => l.trim() && !/^\s*[})]/.test(l));
  return [start + 1, end, first ? /^\s*/.exec(first)![0].length : -1];
}

/** The declaration's own body, when it has one (`class X(val a: Int)` and a Rust struct have none there). */
function ownBodies(def: Definition, lines: readonly string[]): Block[] {
  const opens = def.family === 'python' || lines.slice(def.line - 1, def.line + 4).some((l) => l.includes('{'));
  return opens ? [blockFrom(lines, def.line - 1, def.family)] : [];
}

/** Blocks that add to the type in its own file: Rust `impl Name` blocks (not trait impls), Swift `extension Name`. */
function sameFileExtensions(def: Definition, lines: readonly string[]): Block[] {
  const name = escapeName(def.name);
  const more = def.family === 'rust'
    ? new RegExp(`^impl\\b(?:<[^>]*>)?\\s*${name}\\b(?!.*\\bfor\\b)`)
    : def.family === 'swift'
    ? new RegExp(`^(?:public |internal )?extension\\s+${name}\\b`)
    : undefined;
  const out: Block[] = [];
  if (more) lines.forEach((l, i) => more.test(l) && out.push(blockFrom(lines, i, def.family)));
  return out;
}

/** What declares a member of a contract: a trait's methods take no `pub`; a Python type's include `_private` and `__dunder__` ones. */
function memberPattern(family: Definition['family']): RegExp | undefined {
  return family === 'rust'
    ? /^\s+(?:(?:const|async|unsafe)\s+)*fn\s+(\w+)/
    : family === 'python'
    ? /^\s+(?:async\s+)?def\s+(\w+)\s*\(/
    : METHOD[family];
}

/** A member of a base type's contract: `name()` for a method, `name` for a property. */
export interface Requirement {
  name: string;
  method: boolean;
  /** A Swift method's selector when it has labels (`task(for:using:)`): how Swift readers name it. */
  selector?: string;
}

/** Swift and Kotlin property declarations in a body: the name is group 1. */
const PROPERTY: Partial<Record<Definition['family'], RegExp>> = {
  swift:
    /^\s*(?:(?:public|internal|open|static|class|final|lazy|nonisolated|(?:private|fileprivate|internal)\(set\)|@\w+(?:\([^)]*\))?)\s+)*(?:var|let)\s+(\w+)\s*[:=]/,
  kotlin: /^\s*(?:(?:public|internal|protected|override|open|abstract|@\w+)\s+)*(?:val|var)\s+(\w+)\s*[:=]/,
};

/**
 * What a new implementation of a protocol, interface, trait or abstract class provides: the members
 * the base declares without a body (`required`) and those it already gives a default (`defaulted`:
 * a Kotlin or Rust body, a Java `default` or non-abstract method, a Swift protocol extension in the
 * same file, a Python method that does not raise NotImplementedError): an interface whose
 * onStart(), onError() and onSuccess() have empty bodies requires none of them. Swift defaults that
 * call each other are `oneOf`: a new type implements one of them.
 * Undefined for the languages it cannot read (Objective-C, Go, JS/TS).
 */
export async function requirementsOf(
  def: Definition,
  ctx: AnalysisContext,
): Promise<{ required: Requirement[]; defaulted: Requirement[]; oneOf?: string[][] } | undefined> {
  const method = memberPattern(def.family);
  if (!method || def.family === 'jsts') return undefined;
  const lines = ((await ctx.read(def.path)) ?? '').split('\n');
  const head = lines[def.line - 1] ?? '';
  const contract = /\b(protocol|interface|trait)\b/.test(head)
    || (def.family === 'python' && /\bProtocol\b/.test(head));
  const abstract = /\babstract\b/.test(head) || (def.family === 'python' && /\b(ABC|Protocol)\b/.test(head));
  // A Swift class has no `abstract`: its methods whose body is `fatalError(…)` are (a `Request.task(for:using:)`).
  if (!contract && !abstract && def.family !== 'python' && def.family !== 'swift') return undefined;
  const [body] = ownBodies(def, lines);
  if (!body) return undefined;
  // Swift: what the protocol's extensions in its file define, name → is a method.
  const extended = new Map<string, boolean>();
  // The default bodies, per name (overloads have several): a default that calls another is no default on its own.
  const defaults = new Map<string, string[]>();
  if (def.family === 'swift') {
    for (const [from, to, depth] of sameFileExtensions(def, lines)) {
      for (let i = from; i < to; i++) {
        if (/^\s*/.exec(lines[i])![0].length === depth) {
          // `static func interceptor(…)` in `extension X where Self == Interceptor` is a factory, not a default.
          if (/\bstatic\b/.test(lines[i])) continue;
          const m = method.exec(lines[i])?.[1];
          const n = m ?? PROPERTY.swift!.exec(lines[i])?.[1];
          if (!n) continue;
          if (!extended.has(n)) extended.set(n, !!m);
          let end = i + 1;
          while (
            end < to
            && !(lines[end].trim() && /^\s*/.exec(lines[end])![0].length <= depth && !/^\s*\}/.test(lines[end]))
          ) end++;
          defaults.set(n, [...(defaults.get(n) ?? []), lines.slice(i + 1, end).join('\n')]);
        }
      }
    }
  }
  const required: Requirement[] = [];
  const defaulted: Requirement[] = [];
  const seen = new Set<string>();
  const [from, to, depth] = body;
  // Where each declaration at the body's depth starts (a decorator starts the next one): a member's text runs to
  // the next start, so a signature's closing `) -> None:` at the same depth stays with its body.
  const property = PROPERTY[def.family];
  const starts: number[] = [];
  for (let i = from; i < to; i++) {
    if (
      /^\s*/.exec(lines[i])![0].length === depth
      && (method.test(lines[i]) || property?.test(lines[i]) || /^\s*@/.test(lines[i]))
    ) starts.push(i);
  }
  const members = starts.filter((i) => !/^\s*@\w+\s*(?:\(.*\))?\s*$/.test(lines[i]));
  members.forEach((i) => {
    const line = lines[i];
    const m = method.exec(line);
    const p = m ? undefined : property?.exec(line);
    const name = m?.[1] ?? p?.[1];
    // Dunder methods are a Python type's protocol (`__iter__`); other underscored names are private, unless a
    // subclass must define them (a base class raising NotImplementedError in `_check_setup_finished`).
    const hidden = name?.startsWith('_') && !/^__\w+__$/.test(name);
    // A method and a property may share a name (a Request's `var task` and `func task(for:using:)`).
    const key = `${m ? 'method' : 'property'} ${name}`;
    if (
      !name || seen.has(key) || KEYWORDS.has(name) || NOT_API.has(name) || name === def.name
      || (hidden && def.family !== 'python') || name === '__init__'
    ) return;
    if (/\b(static|private)\b/.test(line.slice(0, line.indexOf(name))) && def.family !== 'python') return;
    seen.add(key);
    // The member's text, up to the next member at this depth.
    const text = lines.slice(i, starts.find((j) => j > i) ?? to).join('\n');
    const selector = m && def.family === 'swift' ? swiftSelector(line, name) : undefined;
    const entry: Requirement = { name, method: !!m, ...(selector && selector !== `${name}()` ? { selector } : {}) };
    let hasDefault: boolean;
    switch (def.family) {
      case 'swift':
        hasDefault = extended.has(name) || (!contract && !/\bfatalError|preconditionFailure\b/.test(text));
        break;
      case 'kotlin':
      case 'rust': {
        const signature = m ? text.slice(text.indexOf(name)) : text;
        const afterParams = m ? signature.slice(closingParen(signature) + 1) : signature;
        hasDefault = contract
          ? /^[^\n]*?(?:\{|=)|^\s*(?:where\b[^{;]*)?\{/.test(afterParams) || /\bget\(\)/.test(afterParams)
          : !/\babstract\b/.test(line);
        break;
      }
      case 'java':
        hasDefault = contract ? /\bdefault\b/.test(line) : !/\babstract\b/.test(line);
        break;
      case 'python': {
        const decorated = lines.slice(Math.max(from, i - 3), i).some((l) => /@(?:abc\.)?abstract/.test(l));
        // The body's first statement after the docstring: a stub that raises only in some branch (a permission check) is a method with a body.
        const statements = text.slice(text.indexOf(':\n') + 2).replace(/^\s*(?:\"\"\"|''')[\s\S]*?(?:\"\"\"|''')/, '');
        const stub = /^\s*(?:\.\.\.|raise\s+NotImplementedError\b)/.test(statements);
        hasDefault = !(decorated || stub);
        break;
      }
      default:
        hasDefault = false;
    }
    if (hidden && hasDefault) return;
    // An abstract class's other methods are its own behaviour, not a contract's defaults.
    if (!hasDefault) required.push(entry);
    else if (contract) defaulted.push(entry);
  });
  // A protocol that only combines others (`RequestInterceptor: RequestAdapter, RequestRetrier {}`) and
  // gives their methods defaults in an extension: those defaults are what a new implementation may leave out.
  if (contract && !members.length) {
    for (const [name, isMethod] of extended) {
      if (!NOT_API.has(name) && !name.startsWith('_')) defaulted.push({ name, method: isMethod });
    }
  }
  // Defaults that call each other (`data()` and `data(handler:)` each bridging to the other): a new type
  // must implement one of them, or the two recurse forever, so "both have defaults" would mislead.
  const oneOf: string[][] = [];
  if (def.family === 'swift' && contract) {
    const calls = (from: string, to: string) =>
      (defaults.get(from) ?? []).some((b) => new RegExp(`\\b${escapeName(to)}\\s*\\(`).test(b));
    for (const d of defaulted) {
      if (!d.method) continue;
      const overloads = members.map((i) => lines[i]).filter((l) => method.exec(l)?.[1] === d.name);
      if (
        overloads.length >= 2 && (defaults.get(d.name) ?? []).length >= 2
        && (defaults.get(d.name) ?? []).every((b) => new RegExp(`\\b${escapeName(d.name)}\\s*\\(`).test(b))
      ) {
        oneOf.push(overloads.map((l) => swiftSelector(l, d.name)));
        continue;
      }
      const partner = defaulted.find((o) => o !== d && o.method && calls(d.name, o.name) && calls(o.name, d.name));
      if (partner && !oneOf.some((g) => g.includes(`${partner.name}()`))) {
        oneOf.push([`${d.name}()`, `${partner.name}()`]);
      }
    }
  }
  const inOneOf = new Set(oneOf.flat().map((x) => x.replace(/\(.*$/, '')));
  return { required, defaulted: defaulted.filter((d) => !inOneOf.has(d.name)), ...(oneOf.length ? { oneOf } : {}) };
}

/** A Swift method's selector as Swift writes it: `data()`, `data(handler:)`, `fetch(_:for:)`. */
function swiftSelector(line: string, name: string): string {
  const open = line.indexOf(`${name}(`);
  const close = open < 0 ? -1 : open + name.length + closingParen(line.slice(open + name.length));
  if (open < 0 || close < open) return `${name}()`;
  const params = line.slice(open + name.length + 1, close);
  const labels: string[] = [];
  let depth = 0;
  let current = '';
  let previous = '';
  for (const ch of `${params},`) {
    if (ch === '(' || ch === '<' || ch === '[') depth++;
    // `->` in a closure type closes nothing.
    else if (ch === ')' || (ch === '>' && previous !== '-') || ch === ']') depth--;
    previous = ch;
    if (ch === ',' && depth === 0) {
      const label = /^\s*(\w+)/.exec(current)?.[1];
      if (label) labels.push(`${label}:`);
      current = '';
    } else current += ch;
  }
  return `${name}(${labels.join('')})`;
}

/** The index of the `)` that closes the first `(` of a declaration (its parameters), or -1. */
function closingParen(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The names a file gives values of type `name`: annotated (`x: Name`, `x: &mut Name`, Go `x *Name`,
 * Java `Name x`) or assigned from it (`let x = Name(…)`, `val p = Name.get()`, `let s = Name::new(…)`).
 * A call counts only on one of these or on the type itself: `continuation.resume()` is not
 * `AccountDelegate.resume` (counts by bare name would take in every `resume()`).
 */
export function receiversOf(source: string, identifier: string, family: Definition['family']): Set<string> {
  const out = new Set<string>();
  const name = escapeName(identifier);
  // Declarations are short lines; a long (minified or generated) line would make the qualified-name patterns backtrack.
  const text = source.split('\n').filter((l) => l.length <= 400 && l.includes(identifier)).join('\n');
  const add = (re: RegExp) => {
    for (const m of text.matchAll(re)) {
      const n = m[1] ?? m[2];
      if (n && !['self', 'this', '_', 'super', 'func', 'return'].includes(n)) out.add(n);
    }
  };
  add(
    new RegExp(
      `\\b(\\w+)\\s*:\\s*(?:&\\s*(?:'\\w+\\s+)?(?:mut\\s+)?)?(?:[\\w.]+\\.|[\\w:]+::)?${name}\\b(?!\\s*[.(])`,
      'g',
    ),
  );
  add(
    new RegExp(
      `\\b(?:let|var|val|const|auto)\\s+(?:mut\\s+)?(\\w+)\\s*=\\s*(?:new\\s+)?(?:[\\w.]+\\.|[\\w:]+::)?${name}\\s*(?:<[^>]*>)?\\s*(?:[({]|\\.\\w|::\\w)`,
      'g',
    ),
  );
  if (family === 'go') {
    add(new RegExp(`[(,{]\\s*(\\w+)\\s+\\*?(?:\\w+\\.)?${name}\\b|^\\s*(\\w+)\\s+\\*?(?:\\w+\\.)?${name}\\b`, 'gm'));
  }
  if (family === 'java') add(new RegExp(`\\b${name}(?:<[^>]*>)?\\s+(\\w+)\\s*[=;,)]`, 'g'));
  // A name the file also declares with another type (`LazilyParsedNumber value` in one method of a
  // type adapter file, `Number value` in others) says nothing about which calls are on this type.
  for (const n of out) {
    const typed = new RegExp(
      `\\b${escapeName(n)}\\s*:\\s*(?:&\\s*(?:mut\\s+)?)?([A-Z][\\w.:]*)|\\b([A-Z][\\w.]*)(?:<[^>]*>)?\\s+${
        escapeName(n)
      }\\s*[=;,)]`,
      'g',
    );
    for (const m of source.matchAll(typed)) {
      if ((m[1] ?? m[2]).split(/[.:]/).pop() !== identifier) {
        out.delete(n);
        break;
      }
    }
  }
  return out;
}

/** How other files use a type: the methods they call on it, and the shared instance most of them reach it through. */
export interface TypeUse {
  /** The type's methods called on values of the type or on the type itself, most called first: at most three, each called twice or more. */
  calls: { name: string; calls: number }[];
  /** `X.shared` when more than half of the files that use X name it, with the members (methods or properties) used on it, most used first. */
  shared?: { accessor: string; files: number; of: number; members: string[] };
}

/** What a type's users do with it (`.read(`, `.read {`, `::new_with(`, `X.shared.currentTheme`). */
export async function typeUse(def: Definition, users: readonly Use[], ctx: AnalysisContext): Promise<TypeUse> {
  if (def.kind !== 'type') return { calls: [] };
  const methods = await methodsOf(def, ctx);
  const counts = new Map<string, number>();
  // The shared instance's accessors, by the files naming them, and what is used on each (`shared currentTheme`).
  const accessorFiles = new Map<string, number>();
  const onShared = new Map<string, number>();
  const files = [...new Set(users.map((x) => x.path))];
  const type = escapeName(def.name);
  const sharedUse = new RegExp(
    `\\b${type}\\.(shared\\w*|default\\w*|instance|current|standard)\\b(?!\\s*\\()(?:\\s*[?!]?\\.(\\w+))?`,
    'g',
  );
  for (const u of files) {
    const text = (await ctx.read(u)) ?? '';
    const seen = new Set<string>();
    for (const m of text.matchAll(sharedUse)) {
      if (!seen.has(m[1])) accessorFiles.set(m[1], (accessorFiles.get(m[1]) ?? 0) + 1);
      seen.add(m[1]);
      if (m[2] && !NOT_API.has(m[2]) && !m[2].startsWith('_')) {
        onShared.set(`${m[1]} ${m[2]}`, (onShared.get(`${m[1]} ${m[2]}`) ?? 0) + 1);
      }
    }
    if (methods.length === 0) continue;
    const receivers = [...receiversOf(text, def.name, def.family)].map(escapeName);
    const names = `(${methods.map(escapeName).join('|')})\\b\\s*[({]`;
    // On the type itself (`Platform.get(`, `Name::new(`), on what its accessor returns (`Platform.get().log(`), on a value of the type.
    const calls = [
      new RegExp(`\\b${type}\\s*(?:\\.|::)${names}`, 'g'),
      new RegExp(`\\b${type}(?:\\.|::)\\w+(?:\\(\\))?\\s*[?!]?\\.${names}`, 'g'),
      ...(receivers.length ? [new RegExp(`\\b(?:${receivers.join('|')})\\s*[?!]?\\s*(?:\\.|::|->)${names}`, 'g')] : []),
    ];
    for (const call of calls) for (const m of text.matchAll(call)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  const ranked = (entries: Iterable<[string, number]>) =>
    [...entries].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  // Reached through the shared instance only when most of its users do (a type some files create is not "a singleton").
  const [accessor, used] = [...accessorFiles].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (accessor && used >= 2 && used * 2 > files.length) {
    const members = ranked(
      [...onShared].filter(([k]) => k.startsWith(`${accessor} `)).map((
        [k, n],
      ): [string, number] => [k.slice(accessor.length + 1), n]),
    ).map(([name]) => name);
    // Calls not made on the shared instance are said apart (ArticleThemesManager's static `importErrorMessage`).
    const elsewhere = ranked(
      [...counts].map(([name, n]): [string, number] => [name, n - (onShared.get(`${accessor} ${name}`) ?? 0)]),
    );
    return {
      calls: elsewhere.slice(0, 3).map(([name, calls]) => ({ name, calls })),
      shared: { accessor: `${def.name}.${accessor}`, files: used, of: files.length, members: members.slice(0, 4) },
    };
  }
  return { calls: ranked(counts).slice(0, 3).map(([name, calls]) => ({ name, calls })) };
}

/** The members a type's outline shows: its shared accessor and what is used on it, then the other calls. */
export function outlined(use: TypeUse): string[] {
  const shared = use.shared
    ? [use.shared.accessor.slice(use.shared.accessor.lastIndexOf('.') + 1), ...use.shared.members]
    : [];
  return [...new Set([...shared, ...use.calls.map((c) => c.name)])];
}

/**
 * "Other files call its `read`, `write` and `value`" (most called first; counts left out: a reviewer recounting through fields
 * declared elsewhere found them off), "and use its `Images` and `Colors`"; or, for a type most files reach through its shared
 * instance, "Other files reach it as `X.shared` (9 of 11) and use its `currentTheme` and `start`; they also call `load`".
 * Within `budget` characters: the least used names go first, then the calls made elsewhere.
 */
export function callsSentence(use: TypeUse, nested: readonly string[] = [], budget = Infinity): string {
  const list = (items: readonly string[], room = Infinity) => nameList(items, room);
  if (use.shared) {
    const { accessor, files, of, members } = use.shared;
    const rest = use.calls.filter((c) => !members.includes(c.name)).map((c) => c.name);
    const say = (room: number, withRest: boolean) => {
      const reach = `Other files reach it as \`${accessor}\` (${files} of ${of})${
        members.length ? ` and use its ${list(members, room)}` : ''
      }`;
      // Not "on the type": a call made elsewhere may be on the type (a static method) or on a value of it.
      return `${reach}${withRest && rest.length ? `; they also call ${list(rest)}` : ''}${
        nested.length ? `; they use its ${list(nested)}` : ''
      }.`;
    };
    return [say(Infinity, true), say(Infinity, false), say(60, false), say(0, false)].find((x) => x.length <= budget)
      ?? '';
  }
  const called = use.calls.length ? `call its ${list(use.calls.map((c) => c.name))}` : '';
  const used = nested.length ? `use its ${list(nested)}` : '';
  return called || used ? `Other files ${[called, used].filter(Boolean).join(' and ')}.` : '';
}

/**
 * The types nested in `def` that other files reach through it (`Assets.Images.marsEdit`, `Assets.Colors.accent`),
 * most used first, each in two files or more: a registry of nested types is used that way, not by calls
 * (an `Assets` registry said by its one method would say little).
 */
export async function nestedTypesUsed(def: Definition, users: readonly Use[], ctx: AnalysisContext): Promise<string[]> {
  if (def.kind !== 'type' || def.family === 'go' || def.family === 'python') return [];
  const lines = ((await ctx.read(def.path)) ?? '').split('\n');
  const nested = new Set<string>();
  for (const [from, to, depth] of ownBodies(def, lines)) {
    for (let i = from; i < to; i++) {
      const m =
        /^\s+(?:(?:public|internal|private|fileprivate|static|final|data|sealed|enum|inner|@\w+(?:\([^)]*\))?)\s+)*(?:struct|enum|class|object|interface)\s+([A-Z]\w*)/
          .exec(lines[i]);
      if (m && /^\s*/.exec(lines[i])![0].length === depth) nested.add(m[1]);
    }
  }
  if (nested.size === 0) return [];
  const files = new Map<string, number>();
  const re = new RegExp(`\\b${escapeName(def.name)}\\.([A-Z]\\w*)\\b`, 'g');
  for (const u of new Set(users.map((x) => x.path))) {
    const seen = new Set<string>();
    for (const m of ((await ctx.read(u)) ?? '').matchAll(re)) if (nested.has(m[1])) seen.add(m[1]);
    for (const n of seen) files.set(n, (files.get(n) ?? 0) + 1);
  }
  return [...files].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3).map((
    [n],
  ) => n);
}

/**
 * The type's declaration with the signatures of `members` only (methods and properties), bodies elided
 * (`{ … }`): what other files call or a new implementation defines, where a 16-line excerpt from the
 * declaration showed its initialiser or private state (a lock wrapper showed `init`, not
 * `read`/`write`; a mutation base class its `Meta`). Undefined when a member is not found in the file,
 * or for Go and Rust, whose methods sit outside the type.
 */
export function outlineOf(source: string, def: Definition, members: readonly string[]): string | undefined {
  const method = memberPattern(def.family);
  if (!method || def.family === 'go' || def.family === 'rust' || members.length === 0) return undefined;
  const lines = source.split('\n');
  const python = def.family === 'python';
  // The declaration up to the line that opens its body.
  const head: string[] = [];
  for (let i = def.line - 1; i < Math.min(lines.length, def.line + 3); i++) {
    head.push(lines[i]);
    if (python ? /:\s*(#.*)?$/.test(lines[i]) : lines[i].includes('{')) break;
  }
  const last = head[head.length - 1] ?? '';
  if (!python && !last.includes('{')) return undefined;
  if (!python) head[head.length - 1] = last.slice(0, last.indexOf('{') + 1);
  const body: string[] = [];
  for (const name of members) {
    const at = lines.findIndex((l, i) => i >= def.line && method.exec(l)?.[1] === name);
    if (at < 0) {
      // A property requirement (`var identifier: String { get }`): its one line, a computed body elided.
      const prop = PROPERTY[def.family];
      const p = prop ? lines.findIndex((l, i) => i >= def.line && prop.exec(l)?.[1] === name) : -1;
      if (p < 0) return undefined;
      const l = lines[p].replace(/\s+$/, '');
      const brace = l.indexOf('{');
      const shown = brace >= 0 && !/\{\s*(?:get|set)\b/.test(l.slice(brace))
        ? `${l.slice(0, brace).replace(/\s+$/, '')} { … }`
        : l;
      body.push(`\t${shown.trimStart()}`);
      continue;
    }
    // With its attributes and decorators (`@classmethod`, `@MainActor`, `@Throws(…)`): they are part of what a caller or an override sees.
    let top = at;
    while (top > def.line && /^\s*@\w/.test(lines[top - 1]) && top > at - 3) top--;
    const signature: string[] = lines.slice(top, at).map((l) => l.replace(/\s+$/, ''));
    let depth = 0;
    let opened = false;
    for (let i = at; i < Math.min(lines.length, at + 8); i++) {
      const l = lines[i].replace(/\s+$/, '');
      // Where the parameters close on this line, if they do.
      let closeAt = -1;
      for (let k = 0; k < l.length && closeAt < 0; k++) {
        if (l[k] === '(') [depth, opened] = [depth + 1, true];
        else if (l[k] === ')' && --depth === 0 && opened) closeAt = k;
      }
      if (closeAt < 0) {
        signature.push(l);
        continue;
      }
      const rest = l.slice(closeAt);
      const brace = rest.indexOf('{');
      const expr = python ? -1 : rest.search(/\s=\s|\s=$/);
      if (python) signature.push(`${l.replace(/\s+#.*$/, '')} ...`);
      else if (brace >= 0 && (expr < 0 || brace < expr)) {
        signature.push(`${l.slice(0, closeAt + brace).replace(/\s+$/, '')} { … }`);
      } else if (expr >= 0) signature.push(`${l.slice(0, closeAt + expr)} = …`);
      else if (lines[i + 1]?.trim().startsWith('{')) signature.push(`${l} { … }`);
      // No body: a protocol's requirement, an abstract method.
      else signature.push(l);
      break;
    }
    // Each signature at the body's depth, whatever block it sits in (Kotlin's companion object).
    const own = signature[0].length - signature[0].trimStart().length;
    body.push(...signature.map((l) => `\t${l.slice(Math.min(own, l.length - l.trimStart().length))}`));
  }
  // The head without its own indentation; the body one step in, in the file's own unit (a tab, or its first indented line's spaces).
  const indent = Math.min(...head.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  const unit = /^(\t| {2,8})\S/m.exec(source)?.[1] ?? '    ';
  const out = [...head.map((l) => l.slice(indent)), ...(python ? [] : ['\t// …']), ...body, ...(python ? [] : ['}'])];
  return out.map((l) => l.replace(/^\t/, unit).replace(/\s+$/, '')).join('\n');
}
