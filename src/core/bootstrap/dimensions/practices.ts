import { confidence, percent, Tallies } from '../evidence';
import { factsOf } from '../facts';
import { nameList } from '../form';
import { FAMILY_LABEL } from '../source';
import { fileList, SignalAnalyzer, type Signal, type SignalView } from '../signals';
import type { AnalysisContext, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

/**
 * Dimension 4, best practice, over production code: the project's error model (its own error types
 * thrown instead of built-in ones), how it logs, and its own clean-up protocol.
 */
export class BestPracticeAnalyzer extends SignalAnalyzer {
  protected readonly signals: Signal[] = [
    { id: 'logger', families: ['jsts', 'python', 'java', 'kotlin'], re: /(?<![\w$])(?:[\w$]+\.)?(?:log|logger|LOG|LOGGER|Log|_log|_logger)\s*\.\s*(?:debug|info|warn|warning|error|trace|fatal|exception)\s*\(/g, hints: ['log', 'LOG', 'Log'] },
    { id: 'logger', families: ['swift'], re: /\bLogger\s*\(|\bos_log\s*\(|(?<![\w$])(?:log|logger)\s*\.\s*(?:debug|info|notice|error|fault|warning)\s*\(/g },
    { id: 'logger', families: ['go'], re: /\bslog\.\w+\(|\blog\.(?:Print|Printf|Println|Fatal|Fatalf)\(|\bzap\.\w+|\blogrus\.\w+|\blogger\.\w+\(/g },
    { id: 'logger', families: ['rust'], re: /\b(?:log::|tracing::)(?:info|warn|error|debug|trace)!\s*\(|(?<![\w:])(?:info|warn|error|debug|trace)!\s*\(/g },
    { id: 'logger', families: ['objc'], re: /\bos_log\w*\s*\(|\bDDLog\w+\s*\(/g },
    { id: 'console', families: ['jsts'], re: /\bconsole\.(?:log|debug|info|warn|error)\s*\(/g },
    { id: 'console', families: ['python', 'swift'], re: /(?<![\w.])print\s*\(/g },
    { id: 'console', families: ['go'], re: /\bfmt\.Print(?:ln|f)?\(/g },
    { id: 'console', families: ['rust'], re: /\b(?:println|eprintln)!\s*\(/g },
    { id: 'console', families: ['objc'], re: /\bNSLog\s*\(/g },
    { id: 'console', families: ['java'], re: /\bSystem\.(?:out|err)\.print/g },
    { id: 'console', families: ['kotlin'], re: /(?<![\w.])println\s*\(/g },
    { id: 'dispose', families: ['jsts'], re: /^[ \t]+(?:async\s+)?dispose\s*\(\s*\)\s*(?::\s*[\w<>| ]+)?\s*\{/gm },
  ];
  private readonly throws = new Tallies(6);
  /** The project's own output macros (`message!`, `err_message!` wrapping `eprintln!`): how it talks to its user. */
  private readonly outputMacros = new Map<string, { path: string; line: number }>();
  private readonly errorTypes = new Map<string, { path: string; line: number; family: Family }>();

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.kind !== 'production') return;
    if (file.family === 'rust' && file.text.includes('macro_rules!')) {
      for (const m of file.text.matchAll(/macro_rules!\s+(\w+)\s*\{([\s\S]{0,600}?)\n\}/g)) {
        if (/\be?println(_locked)?!|\bmessage!/.test(m[2]) && !this.outputMacros.has(m[1])) this.outputMacros.set(m[1], { path: file.path, line: file.text.slice(0, m.index).split('\n').length });
      }
    }
    for (const d of factsOf(file).decls) {
      if (d.kind === 'type' && (/(Error|Exception|Failure)$/.test(d.name) || /^(Error|Exception|RuntimeException|BaseException)$/.test(d.base ?? ''))) {
        if (!this.errorTypes.has(d.name)) this.errorTypes.set(d.name, { path: file.path, line: d.line, family: file.family });
      }
    }
    const re = file.family === 'python' ? /\braise\s+([A-Z]\w*)/g : file.family === 'swift' ? /\bthrow\s+([A-Z]\w*)/g : file.family === 'go' || file.family === 'rust' ? null : /\bthrow\s+(?:new\s+)?([A-Z]\w*)/g;
    if (!re) return;
    let line = 1;
    let scanned = 0;
    for (let m = re.exec(file.code); m; m = re.exec(file.code)) {
      for (let i = scanned; i < m.index; i++) if (file.code.charCodeAt(i) === 10) line++;
      scanned = m.index;
      this.throws.get(`${file.family}|${m[1]}`).add(file, line);
    }
  }

  protected async propose(v: SignalView): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    for (const fam of v.families()) {
      if (v.files(fam) < 3 || fam === 'other') continue;
      const language = languageOf(fam, v.ctx);
      const lang = FAMILY_LABEL[fam];
      const errorModel = await this.errorModel(fam, language, lang, v.ctx);
      if (errorModel) out.push(errorModel);

      const logger = v.get(fam, 'logger');
      const consoleCalls = v.get(fam, 'console');
      const total = logger.count + consoleCalls.count;
      if (logger.count >= 5 && logger.count / total >= 0.75) {
        // The project's own output macros are what an agent would miss: they lead when there are some (ripgrep's `message!`).
        const macros = fam === 'rust' && this.outputMacros.size ? [...this.outputMacros.keys()].slice(0, 3).map((n) => `${n}!`) : [];
        // Direct output inside the files that define those macros is the macros at work.
        const macroFiles = new Set([...this.outputMacros.values()].map((m) => m.path));
        const elsewhere = macros.length ? [...consoleCalls.files].filter((f) => !macroFiles.has(f)) : [...consoleCalls.files];
        const logged = `${logger.count} of ${total} log calls (${percent(logger.count, total)}) in ${logger.files.size} files go through a logger${elsewhere.length ? `; ${consoleName(fam)} remains in ${fileList(consoleCalls)}` : ''}.`;
        out.push({
          title: macros.length ? `${lang} output for the user goes through ${nameList(macros, 40)}, logs through a logger` : `${lang} code logs through a logger, not ${consoleName(fam)}`,
          knowledgeType: 'best-practice',
          dimension: 'best-practice',
          language,
          category: 'logging',
          summary: macros.length ? `Output for the user goes through ${nameList(macros, 80)} (${[...this.outputMacros.values()][0].path}), not ${consoleName(fam)}; ${logged.charAt(0).toLowerCase()}${logged.slice(1)}` : logged,
          code: '',
          reasoning: { whyStandard: 'Logger calls outnumber direct console output across the code base.', sources: [...(fam === 'rust' ? [...this.outputMacros.values()].slice(0, 2).map((m) => `${m.path}:${m.line}`) : []), ...logger.sources()].slice(0, 8), confidence: confidence(logger.count / total, total) },
          tags: ['logging', fam],
        });
      }
      out.push(...cleanup(v, fam, language));
    }
    return out;
  }

  /** Project error types thrown more than the built-in ones: the error model. */
  private async errorModel(fam: Family, language: string, lang: string, ctx: AnalysisContext): Promise<CandidateDraft | undefined> {
    const throws = this.throws.entries().filter(([k]) => k.startsWith(fam + '|'));
    const total = throws.reduce((n, [, t]) => n + t.count, 0);
    const custom = throws.filter(([k]) => this.errorTypes.get(k.split('|')[1])?.family === fam);
    const customCount = custom.reduce((n, [, t]) => n + t.count, 0);
    if (customCount < 3 || customCount / total < 0.6) return undefined;
    custom.sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
    const [topKey, top] = custom[0];
    const name = topKey.split('|')[1];
    const def = this.errorTypes.get(name)!;
    const verb = fam === 'python' ? 'Raise' : 'Throw';
    return {
      title: `${verb} the project's \`${name}\`${custom.length > 1 ? ' (and its sibling error types)' : ''}, not ${builtinError(fam)}`,
      knowledgeType: 'best-practice',
      dimension: 'best-practice',
      language,
      category: 'error-handling',
      summary: `${customCount} of ${total} ${verb.toLowerCase()} sites (${percent(customCount, total)}) use project error types (${custom.slice(0, 4).map(([k, t]) => `${k.split('|')[1]} ×${t.count}`).join(', ')}). \`${name}\` is defined at ${def.path}:${def.line}.`,
      code: await ctx.excerpt(def.path, def.line, 14),
      reasoning: { whyStandard: `Counted over every ${verb.toLowerCase()} statement of the scanned ${lang} code.`, sources: [`${def.path}:${def.line}`, ...top.sources(5)], confidence: confidence(customCount / total, total) },
      tags: ['error-handling', 'errors', fam],
    };
  }
}

/** Only clean-up idioms that are the project's own design (a `dispose()` protocol), not the language's (`defer`, `with`, `use`). */
function cleanup(v: SignalView, fam: Family, language: string): CandidateDraft[] {
  const t = v.get(fam, 'dispose');
  if (fam !== 'jsts' || t.count < 3 || t.files.size < 2) return [];
  return [
    {
      title: 'Objects that hold resources implement `dispose()`',
      knowledgeType: 'best-practice',
      dimension: 'best-practice',
      language,
      category: 'resources',
      summary: `${t.count} classes in ${t.files.size} production files release what they hold in a \`dispose()\` method; owners call it when they are done.`,
      code: '',
      reasoning: { whyStandard: 'The same clean-up protocol recurs across production files.', sources: t.sources(), confidence: confidence(0.8, t.count) },
      tags: ['resources', 'cleanup', fam],
    },
  ];
}

function consoleName(fam: Family): string {
  return ({ jsts: 'console.log', python: 'print()', swift: 'print()', go: 'fmt.Println', rust: 'println!', objc: 'NSLog', java: 'System.out', kotlin: 'println' } as Record<string, string>)[fam] ?? 'direct output';
}

function builtinError(fam: Family): string {
  return ({ jsts: 'plain `Error`', python: 'built-in exceptions', java: 'generic exceptions', kotlin: 'generic exceptions', swift: 'ad-hoc errors' } as Record<string, string>)[fam] ?? 'generic errors';
}

