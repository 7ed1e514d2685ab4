import { confidence, percent, Tallies } from '../evidence';
import { factsOf } from '../facts';
import { FAMILY_LABEL } from '../source';
import { fileList, sampleCode, SignalAnalyzer, type Signal, type SignalView } from '../signals';
import type { AnalysisContext, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

const BRACE_CATCH: Family[] = ['jsts', 'java', 'kotlin', 'swift'];

/** Dimension 4, best practice: the error model, swallowed errors, logging, resource cleanup. */
export class BestPracticeAnalyzer extends SignalAnalyzer {
  protected readonly signals: Signal[] = [
    { id: 'catch', families: BRACE_CATCH, re: /\bcatch\b\s*(?:\([^)]*\))?\s*(?:let\s+\w+\s*)?\{/g },
    { id: 'catch-empty', families: BRACE_CATCH, re: /\bcatch\b\s*(?:\([^)]*\))?\s*\{\s*\}/g },
    { id: 'catch', families: ['python'], re: /^[ \t]*except\b[^:\n]*:/gm },
    { id: 'catch-empty', families: ['python'], re: /^[ \t]*except\b[^:\n]*:[ \t]*\n[ \t]*pass\b/gm },
    { id: 'logger', families: ['jsts', 'python', 'java', 'kotlin'], re: /(?<![\w$])(?:[\w$]+\.)?(?:log|logger|LOG|LOGGER|Log|_log|_logger)\s*\.\s*(?:debug|info|warn|warning|error|trace|fatal|exception)\s*\(/g },
    { id: 'logger', families: ['swift'], re: /\bLogger\s*\(|\bos_log\s*\(|(?<![\w$])(?:log|logger)\s*\.\s*(?:debug|info|notice|error|fault|warning)\s*\(/g },
    { id: 'logger', families: ['go'], re: /\bslog\.\w+\(|\blog\.(?:Print|Printf|Println|Fatal|Fatalf)\(|\bzap\.\w+|\blogrus\.\w+|\blogger\.\w+\(/g },
    { id: 'logger', families: ['rust'], re: /\b(?:tracing::)?(?:info|warn|error|debug|trace)!\s*\(/g },
    { id: 'logger', families: ['objc'], re: /\bos_log\w*\s*\(|\bDDLog\w+\s*\(/g },
    { id: 'console', families: ['jsts'], re: /\bconsole\.(?:log|debug|info|warn|error)\s*\(/g },
    { id: 'console', families: ['python', 'swift'], re: /(?<![\w.])print\s*\(/g },
    { id: 'console', families: ['go'], re: /\bfmt\.Print(?:ln|f)?\(/g },
    { id: 'console', families: ['rust'], re: /\b(?:println|eprintln)!\s*\(/g },
    { id: 'console', families: ['objc'], re: /\bNSLog\s*\(/g },
    { id: 'console', families: ['java'], re: /\bSystem\.(?:out|err)\.print/g },
    { id: 'console', families: ['kotlin'], re: /(?<![\w.])println\s*\(/g },
    { id: 'dispose', families: ['jsts'], re: /^[ \t]+(?:async\s+)?dispose\s*\(\s*\)\s*(?::\s*[\w<>| ]+)?\s*\{/gm },
    { id: 'finally', families: ['jsts', 'java', 'kotlin', 'python'], re: /\bfinally\b\s*:?\s*\{?/g },
    { id: 'defer-close', families: ['go'], re: /\bdefer\s+[\w.]+\.(?:Close|Unlock|Done|Stop|Cancel)\(\)|\bdefer\s+cancel\(\)/g },
    { id: 'defer', families: ['swift'], re: /\bdefer\s*\{/g },
    { id: 'with', families: ['python'], re: /^[ \t]*(?:async\s+)?with\s+[\w.]+\(/gm },
    { id: 'use', families: ['kotlin'], re: /\.use\s*\{/g },
    { id: 'try-with', families: ['java'], re: /\btry\s*\(/g },
  ];
  private readonly throws = new Tallies(6);
  private readonly errorTypes = new Map<string, { path: string; line: number; family: Family }>();

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.isTest || file.generated) return;
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

      const catches = v.get(fam, 'catch');
      const empty = v.get(fam, 'catch-empty');
      if (catches.count >= 10 && empty.count === 0) {
        out.push({
          title: `${lang} code never swallows errors with an empty ${fam === 'python' ? 'except' : 'catch'}`,
          knowledgeType: 'best-practice',
          dimension: 'best-practice',
          language,
          category: 'error-handling',
          summary: `None of the ${catches.count} ${fam === 'python' ? 'except' : 'catch'} blocks in ${catches.files.size} files is empty: each one handles, reports or rethrows the error.`,
          code: sampleCode(catches, 4),
          reasoning: { whyStandard: 'Counted over every handler in the scanned production code.', sources: catches.sources(), confidence: confidence(1, catches.count) },
          tags: ['error-handling', fam],
        });
      }

      const logger = v.get(fam, 'logger');
      const consoleCalls = v.get(fam, 'console');
      const total = logger.count + consoleCalls.count;
      if (logger.count >= 5 && logger.count / total >= 0.75) {
        out.push({
          title: `${lang} code logs through a logger, not ${consoleName(fam)}`,
          knowledgeType: 'best-practice',
          dimension: 'best-practice',
          language,
          category: 'logging',
          summary: `${logger.count} of ${total} log calls (${percent(logger.count, total)}) in ${logger.files.size} files go through a logger${consoleCalls.count ? `; ${consoleName(fam)} remains in ${fileList(consoleCalls)}` : ''}.`,
          code: sampleCode(logger, 5),
          reasoning: { whyStandard: 'Logger calls outnumber direct console output across the code base.', sources: logger.sources(), confidence: confidence(logger.count / total, total) },
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

function cleanup(v: SignalView, fam: Family, language: string): CandidateDraft[] {
  const rule = (id: string, min: number, title: string, summary: string): CandidateDraft | undefined => {
    const t = v.get(fam, id);
    if (t.count < min || t.files.size < 2) return undefined;
    return {
      title,
      knowledgeType: 'best-practice',
      dimension: 'best-practice',
      language,
      category: 'resources',
      summary: summary.replace('{n}', String(t.count)).replace('{files}', String(t.files.size)),
      code: sampleCode(t, 5),
      reasoning: { whyStandard: 'The same clean-up idiom recurs across files.', sources: t.sources(), confidence: confidence(0.8, t.count) },
      tags: ['resources', 'cleanup', fam],
    };
  };
  const drafts = [
    fam === 'jsts' ? rule('dispose', 3, 'Objects that hold resources implement `dispose()`', '{n} classes in {files} files release what they hold in a `dispose()` method; owners call it when they are done.') : undefined,
    fam === 'go' ? rule('defer-close', 3, 'Resources are released with `defer` right after they are acquired', '{n} `defer …Close()/Unlock()/cancel()` calls in {files} files.') : undefined,
    fam === 'swift' ? rule('defer', 3, 'Clean-up runs in `defer` blocks', '{n} `defer` blocks in {files} files.') : undefined,
    fam === 'python' ? rule('with', 5, 'Files, locks and sessions are opened with `with`', '{n} `with` statements in {files} files scope resources.') : undefined,
    fam === 'kotlin' ? rule('use', 3, 'Closeable resources are used with `.use { }`', '{n} `.use { }` blocks in {files} files.') : undefined,
    fam === 'java' ? rule('try-with', 3, 'Closeable resources are opened in try-with-resources', '{n} try-with-resources statements in {files} files.') : undefined,
  ];
  return drafts.filter((d): d is CandidateDraft => !!d);
}

function consoleName(fam: Family): string {
  return ({ jsts: 'console.log', python: 'print()', swift: 'print()', go: 'fmt.Println', rust: 'println!', objc: 'NSLog', java: 'System.out', kotlin: 'println' } as Record<string, string>)[fam] ?? 'direct output';
}

function builtinError(fam: Family): string {
  return ({ jsts: 'plain `Error`', python: 'built-in exceptions', java: 'generic exceptions', kotlin: 'generic exceptions', swift: 'ad-hoc errors' } as Record<string, string>)[fam] ?? 'generic errors';
}

