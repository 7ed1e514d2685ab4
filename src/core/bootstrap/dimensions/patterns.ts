import { confidence, Tallies } from '../evidence';
import { slicer } from '../slices';
import { factsOf, type DeclFact } from '../facts';
import { FAMILY_LABEL } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

interface Definition extends DeclFact {
  path: string;
  family: Family;
  target?: string;
}

/** Names too generic to call a project pattern even when they are everywhere. */
const GENERIC = new Set(['main', 'init', 'setup', 'test', 'run', 'start', 'stop', 'get', 'set', 'create', 'update', 'delete', 'render', 'handler', 'handle', 'log', 'debug', 'assert', 'expect', 'describe', 'it', 'default', 'index', 'value', 'error', 'toString', 'equals', 'hashCode', 'description', 'body', 'New', 'String', 'Error', 'Result']);

const MAX_DEFINITIONS = 50_000;
const LINE_SPAN = 2 ** 20;

/**
 * Dimension 2, code pattern: the project's own helpers and types that many files call (its wrappers),
 * base classes with several subclasses, factory functions, and shared instances.
 */
export class CodePatternAnalyzer implements Analyzer {
  private readonly definitions = new Map<string, Definition[]>();
  /** name → production files that use it, packed as `fileIndex * 2^20 + line` to stay small on large trees. */
  private readonly uses = new Map<string, number[]>();
  private readonly paths: string[] = [];
  private readonly subclasses = new Tallies(8);
  private readonly singletons = new Tallies(6);
  private readonly factories = new Tallies(6);
  private defined = 0;

  visit(file: SourceFile): void {
    if (file.isTest || file.generated || file.family === 'other') return;
    const facts = factsOf(file);
    for (const d of facts.decls) {
      if (d.base && d.kind === 'type') this.subclasses.get(`${file.family}|${d.base}`).add(file, d.line);
      if (d.kind === 'function' && d.exported && isFactory(d.name, file.lines[d.line - 1] ?? '')) this.factories.get(file.family).add(file, d.line);
      // Error types are the best-practice dimension's (the error model), not a shared helper.
      if (/(Error|Exception)$/.test(d.name) || /(Error|Exception)$/.test(d.base ?? '')) continue;
      if (!d.exported || d.name.length < 4 || GENERIC.has(d.name) || this.defined >= MAX_DEFINITIONS) continue;
      const list = this.definitions.get(d.name) ?? [];
      list.push({ ...d, path: file.path, family: file.family, ...(file.target ? { target: file.target } : {}) });
      this.definitions.set(d.name, list);
      this.defined++;
    }
    const fileIndex = this.paths.push(file.path) - 1;
    for (const [name, line] of facts.uses) {
      const packed = fileIndex * LINE_SPAN + Math.min(line, LINE_SPAN - 1);
      const list = this.uses.get(name);
      if (list) list.push(packed);
      else this.uses.set(name, [packed]);
    }
    const shared = /(?:static\s+(?:let|var|val|final)\s+(?:shared|instance|default|sharedInstance)\b|\+\s*\(instancetype\)\s*shared\w*|static\s+getInstance\s*\(|companion\s+object\s*\{[^}]*\bINSTANCE\b)/g;
    for (let m = shared.exec(file.code); m; m = shared.exec(file.code)) this.singletons.get(file.family).add(file, lineOf(file.code, m.index));
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    return [...(await this.helpers(ctx)), ...(await this.baseClasses(ctx)), ...this.factoryDrafts(ctx), ...this.singletonDrafts(ctx)];
  }

  /** Defined once, used from at least three other production files: the project's own vocabulary. */
  private async helpers(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const ranked: { def: Definition; users: { path: string; line: number }[] }[] = [];
    const checkpoint = slicer();
    for (const [name, defs] of this.definitions) {
      await checkpoint();
      if (defs.length !== 1) continue;
      const def = defs[0];
      const users = (this.uses.get(name) ?? []).map((p) => ({ path: this.paths[Math.floor(p / LINE_SPAN)], line: p % LINE_SPAN })).filter((u) => u.path !== def.path);
      if (users.length >= 3) ranked.push({ def, users });
    }
    ranked.sort((a, b) => b.users.length - a.users.length || (a.def.name < b.def.name ? -1 : 1));
    const out: CandidateDraft[] = [];
    for (const { def, users } of ranked.slice(0, 8)) {
      const text = await ctx.read(def.path);
      if (text === undefined) continue;
      const code = await ctx.excerpt(def.path, def.line, 16);
      const folders = new Set(users.map((u) => u.path.split('/').slice(0, -1).join('/')));
      const what = def.kind === 'type' ? `type \`${def.name}\`` : `\`${def.name}()\``;
      out.push({
        title: `Use ${what} from ${def.path}`,
        knowledgeType: 'code-pattern',
        dimension: 'code-pattern',
        language: languageOf(def.family, ctx),
        category: 'shared-code',
        summary: `${what} is defined once (${def.path}:${def.line}) and used from ${users.length} other files in ${folders.size} folders. Reuse it instead of writing a local variant.`,
        code,
        reasoning: {
          whyStandard: `A project definition used across ${users.length} files is how this code base does that job.`,
          sources: [`${def.path}:${def.line}`, ...users.slice(0, 5).map((u) => `${u.path}:${u.line}`)],
          confidence: confidence(Math.min(1, 0.6 + users.length / 25), users.length),
        },
        tags: ['shared', 'wrapper', def.family],
        ...(def.target ? { target: def.target } : {}),
      });
    }
    return out;
  }

  private async baseClasses(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    const entries = this.subclasses.entries().filter(([k, t]) => t.files.size >= 3 && !/^(Error|Exception|RuntimeException|NSObject|Object|Codable|Equatable|Hashable|Sendable|Identifiable|View|Decodable|Encodable)$/.test(k.split('|')[1]));
    entries.sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
    for (const [key, t] of entries.slice(0, 4)) {
      const [fam, base] = key.split('|') as [Family, string];
      const def = this.definitions.get(base)?.[0];
      const code = def ? await ctx.excerpt(def.path, def.line, 14) : t.samples.map((s) => s.text).join('\n');
      out.push({
        title: `${FAMILY_LABEL[fam]} types extend \`${base}\``,
        knowledgeType: 'inheritance',
        dimension: 'code-pattern',
        language: languageOf(fam, ctx),
        category: 'types',
        summary: `${t.count} types in ${t.files.size} files derive from \`${base}\`${def ? ` (defined at ${def.path}:${def.line})` : ''}: ${t.samples.slice(0, 4).map((s) => s.text.replace(/\s*\{?\s*$/, '')).join('; ')}. A new one of the same role follows suit.`,
        code,
        reasoning: { whyStandard: 'Several independent types share this base, so it is the project\'s extension point.', sources: [...(def ? [`${def.path}:${def.line}`] : []), ...t.sources(5)], confidence: confidence(0.85, t.count) },
        tags: ['inheritance', fam],
      });
    }
    return out;
  }

  private factoryDrafts(ctx: AnalysisContext): CandidateDraft[] {
    return this.factories
      .entries()
      .filter(([, t]) => t.files.size >= 3)
      .map(([fam, t]) => ({
        title: `${FAMILY_LABEL[fam as Family]} objects are built by \`create…()\` factory functions`,
        knowledgeType: 'code-pattern' as const,
        dimension: 'code-pattern',
        language: languageOf(fam as Family, ctx),
        category: 'construction',
        summary: `${t.count} exported factory functions in ${t.files.size} files (${t.samples.slice(0, 4).map((s) => s.text.replace(/\s*\{\s*$/, '')).join('; ')}). Expose new services the same way rather than exporting classes to instantiate.`,
        code: t.samples.slice(0, 5).map((s) => s.text).join('\n'),
        reasoning: { whyStandard: 'The factory naming recurs across modules.', sources: t.sources(), confidence: confidence(0.8, t.count) },
        tags: ['factory', fam],
      }));
  }

  private singletonDrafts(ctx: AnalysisContext): CandidateDraft[] {
    return this.singletons
      .entries()
      .filter(([, t]) => t.files.size >= 2)
      .map(([fam, t]) => ({
        title: `Shared instances are exposed as ${fam === 'objc' ? '`+shared…` class methods' : fam === 'kotlin' ? '`object` / companion instances' : '`static … shared`'}`,
        knowledgeType: 'code-pattern' as const,
        dimension: 'code-pattern',
        language: languageOf(fam as Family, ctx),
        category: 'construction',
        summary: `${t.count} types publish a shared instance (${t.samples.slice(0, 4).map((s) => s.path).join(', ')}).`,
        code: t.samples.slice(0, 5).map((s) => s.text).join('\n'),
        reasoning: { whyStandard: 'The same singleton accessor appears in several types.', sources: t.sources(), confidence: confidence(0.75, t.count) },
        tags: ['singleton', fam],
      }));
  }
}

/** `createLogger(…): Logger`, `makeStore(): Store<…>`: a function named after the type it returns. */
function isFactory(name: string, line: string): boolean {
  const m = /^(?:create|make|new)([A-Z]\w*)$/.exec(name);
  if (!m) return false;
  const noun = m[1];
  return new RegExp(`\\)\\s*:\\s*(?:Promise<\\s*)?I?${noun}\\b|\\breturn\\s+new\\s+${noun}\\b|->\\s*${noun}\\b|\\)\\s*${noun}\\s*\\{`).test(line);
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
