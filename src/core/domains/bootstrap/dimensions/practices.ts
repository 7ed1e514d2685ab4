import { confidence, percent, Tallies } from '../evidence';
import { factsOf } from '../facts';
import { fit, nameList, shownTarget } from '../form';
import { fileList, type Signal, SignalAnalyzer, type SignalView } from '../signals';
import { FAMILY_LABEL } from '../source';
import type { AnalysisContext, CandidateDraft, Family, SourceFile } from '../types';
import { languageOf } from './standards';

/**
 * Dimension 4, best practice, over production code: the project's error model (its own error types
 * thrown instead of built-in ones), how it logs, and its own clean-up protocol.
 */
export class BestPracticeAnalyzer extends SignalAnalyzer {
  protected readonly signals: Signal[] = [
    // `this.log.info(`, `self.logger.error(`: the name before the dot is not matched, only the logger after it, whose
    // line is the same; an optional `[\w$]+\.` prefix made every identifier a start to backtrack from (~70 ms on 5,000 files).
    {
      id: 'logger',
      families: ['jsts', 'python', 'java', 'kotlin'],
      re:
        /(?<![\w$])(?:log|logger|LOG|LOGGER|Log|_log|_logger)\s*\.\s*(?:debug|info|warn|warning|error|trace|fatal|exception)\s*\(/g,
      hints: ['log', 'LOG', 'Log'],
    },
    {
      id: 'logger',
      families: ['swift'],
      re: /\bLogger\s*\(|\bos_log\s*\(|(?<![\w$])(?:log|logger)\s*\.\s*(?:debug|info|notice|error|fault|warning)\s*\(/g,
    },
    {
      id: 'logger',
      families: ['go'],
      re: /\bslog\.\w+\(|\blog\.(?:Print|Printf|Println|Fatal|Fatalf)\(|\bzap\.\w+|\blogrus\.\w+|\blogger\.\w+\(/g,
    },
    {
      id: 'logger',
      families: ['rust'],
      re: /\b(?:log::|tracing::)(?:info|warn|error|debug|trace)!\s*\(|(?<![\w:])(?:info|warn|error|debug|trace)!\s*\(/g,
    },
    { id: 'logger', families: ['objc'], re: /\bos_log\w*\s*\(|\bDDLog\w+\s*\(/g },
    { id: 'console', families: ['jsts'], re: /\bconsole\.(?:log|debug|info|warn|error)\s*\(/g },
    { id: 'console', families: ['python', 'swift'], re: /(?<![\w.])print\s*\(/g },
    { id: 'console', families: ['go'], re: /\bfmt\.Print(?:ln|f)?\(/g },
    { id: 'console', families: ['rust'], re: /\b(?:println|eprintln)!\s*\(/g },
    { id: 'console', families: ['objc'], re: /\bNSLog\s*\(/g },
    { id: 'console', families: ['java'], re: /\bSystem\.(?:out|err)\.print/g },
    { id: 'console', families: ['kotlin'], re: /(?<![\w.])println\s*\(/g },
    {
      id: 'dispose',
      families: ['jsts'],
      re: /^[ \t]+(?:async\s+)?dispose\s*\(\s*\)\s*(?::\s*[\w<>| ]+)?\s*\{/gm,
      hints: ['dispose'],
    },
  ];
  private readonly throws = new Tallies(6);
  /** The project's own output macros (`message!`, `err_message!` wrapping `eprintln!`): how it talks to its user. */
  private readonly outputMacros = new Map<string, { path: string; line: number }>();
  private readonly errorTypes = new Map<
    string,
    { path: string; line: number; family: Family; target?: string; member: boolean }
  >();

  /** How files get their logger (`logger = logging.getLogger(__name__)`), by normalised form, per family. */
  private readonly loggerSetups = new Tallies(4);

  override visit(file: SourceFile): void {
    super.visit(file);
    if (file.kind !== 'production') return;
    const setup = LOGGER_SETUP[file.family];
    if (setup) {
      setup.lastIndex = 0;
      const m = setup.exec(file.code);
      if (m) {
        const line = file.code.slice(0, m.index).split('\n').length;
        const text = (file.lines[line - 1] ?? '').trim();
        // The category or name argument differs per file; the form is what they share.
        const form = text.replace(/(["'])(?:(?!\1).)*\1/g, '"…"').replace(/\s+/g, ' ').slice(0, 120);
        this.loggerSetups.get(`${file.family}|${form}`).add(file, line);
      }
    }
    if (file.family === 'rust' && file.text.includes('macro_rules!')) {
      for (const m of file.text.matchAll(/macro_rules!\s+(\w+)\s*\{([\s\S]{0,600}?)\n\}/g)) {
        if (/\be?println(_locked)?!|\bmessage!/.test(m[2]) && !this.outputMacros.has(m[1])) {
          this.outputMacros.set(m[1], { path: file.path, line: file.text.slice(0, m.index).split('\n').length });
        }
      }
    }
    for (const d of factsOf(file).decls) {
      if (
        d.kind === 'type'
        && (/(Error|Exception|Failure)$/.test(d.name)
          || /^(Error|Exception|RuntimeException|BaseException)$/.test(d.base ?? ''))
      ) {
        if (!this.errorTypes.has(d.name)) {
          this.errorTypes.set(d.name, {
            path: file.path,
            line: d.line,
            family: file.family,
            target: file.target,
            member: d.member,
          });
        }
      }
    }
    const re = file.family === 'python'
      ? /\braise\s+([A-Z]\w*)/g
      : file.family === 'swift'
      ? /\bthrow\s+([A-Z]\w*)/g
      : file.family === 'go' || file.family === 'rust'
      ? null
      : /\bthrow\s+(?:new\s+)?([A-Z]\w*)/g;
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
        // The project's own output macros are what an agent would miss: they lead when there are some (a `message!` macro).
        const macros = fam === 'rust' && this.outputMacros.size
          ? [...this.outputMacros.keys()].slice(0, 3).map((n) => `${n}!`)
          : [];
        // "Log through a logger" alone is any language's advice (rejected blind as generic): it is the
        // project's knowledge with how its files get their logger, or the lint rule that bans printing.
        const setup =
          this.loggerSetups.entries().filter(([k]) => k.startsWith(`${fam}|`)).sort((a, b) =>
            b[1].files.size - a[1].files.size
          )[0];
        const own = setup && setup[1].files.size >= 3
          ? { form: setup[0].slice(fam.length + 1), tally: setup[1] }
          : undefined;
        const ban = await printBan(fam, v.ctx);
        if (!macros.length && !own && !ban) {
          out.push(...cleanup(v, fam, language));
          continue;
        }
        // Direct output inside the files that define those macros is the macros at work.
        const macroFiles = new Set([...this.outputMacros.values()].map((m) => m.path));
        const elsewhere = macros.length
          ? [...consoleCalls.files].filter((f) => !macroFiles.has(f))
          : [...consoleCalls.files];
        // What the logger is made with (`Logger(subsystem: Logger.nnwSubsystem, category: "…")`), without the declaration.
        const made = own?.form.replace(/^[^=]*=\s*/, '').replace(/\s*\{$/, '');
        const setupSentence = own ? `${own.tally.files.size} files get their logger with \`${own.form}\`. ` : '';
        const remains = elsewhere.length
          ? `; ${consoleName(fam)} remains in ${consoleCalls.files.size} file${
            consoleCalls.files.size === 1 ? '' : 's'
          } (${fileList(consoleCalls, 2)})`
          : '';
        const logged = `${setupSentence}${logger.count} of ${total} log calls (${
          percent(logger.count, total)
        }) in ${logger.files.size} files go through a logger${remains}.${ban ? ` ${ban.text} (${ban.source}).` : ''}`;
        out.push({
          title: fit(
            macros.length
              ? `${lang} output for the user goes through ${nameList(macros, 40)}, logs through a logger`
              : made
              ? `${lang} code logs through \`${made}\` loggers, not ${consoleName(fam)}`
              : `${lang} code logs through a logger: ${ban!.short}`,
            100,
          ),
          knowledgeType: 'best-practice',
          dimension: 'best-practice',
          language,
          category: 'logging',
          summary: macros.length
            ? `Output for the user goes through ${nameList(macros, 80)} (${
              [...this.outputMacros.values()][0].path
            }), not ${consoleName(fam)}; ${logged.charAt(0).toLowerCase()}${logged.slice(1)}`
            : logged,
          code: '',
          reasoning: {
            whyStandard: ban
              ? `Logger calls outnumber direct output, and the project's linter bans printing.`
              : 'Logger calls outnumber direct console output across the code base.',
            sources: [
              ...(ban ? [ban.source] : []),
              ...(fam === 'rust' ? [...this.outputMacros.values()].slice(0, 2).map((m) => `${m.path}:${m.line}`) : []),
              ...(own ? own.tally.sources(2) : []),
              ...logger.sources(),
            ].slice(0, 8),
            confidence: confidence(logger.count / total, total),
          },
          tags: ['logging', fam],
          // Where the project's own output macros print, printing is theirs: no rule is drafted.
          ...(macros.length ? {} : {
            ruleSeed: {
              kind: 'no-direct-output' as const,
              language,
              instead: made ? `\`${made}\` loggers` : 'the logger',
              goodAt: [...(own ? own.tally.sources(2) : []), ...logger.sources(4)],
            },
          }),
        });
      }
      out.push(...cleanup(v, fam, language));
    }
    return out;
  }

  /** Project error types thrown more than the built-in ones: the error model. */
  private async errorModel(
    fam: Family,
    language: string,
    lang: string,
    ctx: AnalysisContext,
  ): Promise<CandidateDraft | undefined> {
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
    const shown = custom.slice(0, 4);
    // Each module with its own error type (AccountError in Account, WebserviceError in Web): the rule is the
    // module's own type, not the most thrown one (a title on one type over-centres it).
    const typeOf = (k: string) => this.errorTypes.get(k.split('|')[1]);
    const perModule = new Set(shown.map(([k]) => typeOf(k)?.target).filter(Boolean)).size >= 2;
    // A type nested as plain `Error` in several types (a WebSocketRequest.Error) is said as such, not as `Error ×3`.
    const label = (k: string) => {
      const n = k.split('|')[1];
      return /^(Error|Exception)$/.test(n) && typeOf(k)?.member ? `nested \`${n}\` types` : n;
    };
    const where = (k: string) => (perModule && typeOf(k)?.target ? ` in ${shownTarget(typeOf(k)!.target)}` : '');
    return {
      title: perModule
        ? fit(
          `${verb} each module's own error type (${
            nameList(shown.map(([k]) => k.split('|')[1]).filter((n) => !/^(Error|Exception)$/.test(n)), 50)
          }), not ${builtinError(fam)}`,
          100,
        )
        : `${verb} the project's \`${name}\`${custom.length > 1 ? ' (and its sibling error types)' : ''}, not ${
          builtinError(fam)
        }`,
      knowledgeType: 'best-practice',
      dimension: 'best-practice',
      language,
      category: 'error-handling',
      summary: `${customCount} of ${total} ${verb.toLowerCase()} sites (${
        percent(customCount, total)
      }) use project error types${perModule ? ', each module its own' : ''} (${
        shown.map(([k, t]) => `${label(k)} ×${t.count}${where(k)}`).join(', ')
      }). \`${name}\` is defined at ${def.path}:${def.line}.`,
      code: await ctx.excerpt(def.path, def.line, 14),
      reasoning: {
        whyStandard: `Counted over every ${verb.toLowerCase()} statement of the scanned ${lang} code.`,
        sources: [`${def.path}:${def.line}`, ...top.sources(5)],
        confidence: confidence(customCount / total, total),
      },
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
      summary:
        `${t.count} classes in ${t.files.size} production files release what they hold in a \`dispose()\` method; owners call it when they are done.`,
      code: '',
      reasoning: {
        whyStandard: 'The same clean-up protocol recurs across production files.',
        sources: t.sources(),
        confidence: confidence(0.8, t.count),
      },
      tags: ['resources', 'cleanup', fam],
    },
  ];
}

/** How a file gets its logger, per language: the first such line of a file is its setup. */
const LOGGER_SETUP: Partial<Record<Family, RegExp>> = {
  python: /^[ \t]*\w+[ \t]*=[ \t]*(?:logging\.)?getLogger\s*\(/gm,
  swift: /\b(?:let|var)\s+\w+\s*=\s*Logger\s*\(\s*subsystem\s*:/g,
  kotlin: /\b(?:val|var)\s+\w+\s*=\s*(?:LoggerFactory\.getLogger|Logger\.getLogger|KotlinLogging\.logger)\b/g,
  java: /\bLogger\s+\w+\s*=\s*(?:LoggerFactory\.getLogger|Logger\.getLogger|LogManager\.getLogger)\s*\(/g,
  go: /\b\w+\s*(?::=|=)\s*(?:slog\.New|zap\.New\w*|logrus\.New)\s*\(/g,
};

/** The project's linter banning direct printing: ruff/flake8's T20 (T201), ESLint's no-console, Clippy's print_stdout. */
async function printBan(
  fam: Family,
  ctx: AnalysisContext,
): Promise<{ text: string; short: string; source: string } | undefined> {
  const find = async (files: string[], re: RegExp) => {
    for (const f of files.filter((x) => ctx.has(x))) {
      const text = (await ctx.read(f)) ?? '';
      const i = text.split('\n').findIndex((l) => re.test(l));
      if (i >= 0) return `${f}:${i + 1}`;
    }
    return undefined;
  };
  if (fam === 'python') {
    const at = await find(
      ['pyproject.toml', 'ruff.toml', '.ruff.toml', 'setup.cfg', '.flake8', 'tox.ini'],
      /["'\s,=[]T20\d?["'\s,\]]|\bT201\b/,
    );
    return at
      ? { text: "The linter's T20 rules ban print()", short: 'print() is banned (T20)', source: at }
      : undefined;
  }
  if (fam === 'jsts') {
    const configs = ctx.listing.filter((f) =>
      /^(\.eslintrc(\.\w+)?|eslint\.config\.[cm]?[jt]s|package\.json)$/.test(f)
    );
    const at = await find(configs, /["']?no-console["']?\s*:\s*\[?\s*["']?(error|warn|2|1)\b/);
    return at
      ? { text: "ESLint's no-console rule reports console calls", short: 'console is banned (no-console)', source: at }
      : undefined;
  }
  if (fam === 'rust') {
    const roots = ctx.listing.filter((f) =>
      /(^|\/)(Cargo\.toml|clippy\.toml|src\/(main|lib)\.rs)$/.test(f) && f.split('/').length <= 3
    );
    const at = await find(roots, /\bprint_(stdout|stderr)\b/);
    return at
      ? {
        text: "Clippy's print_stdout/print_stderr lints are on",
        short: 'printing is linted (print_stdout)',
        source: at,
      }
      : undefined;
  }
  return undefined;
}

function consoleName(fam: Family): string {
  return ({
    jsts: 'console.log',
    python: 'print()',
    swift: 'print()',
    go: 'fmt.Println',
    rust: 'println!',
    objc: 'NSLog',
    java: 'System.out',
    kotlin: 'println',
  } as Record<string, string>)[fam] ?? 'direct output';
}

function builtinError(fam: Family): string {
  return ({
    jsts: 'plain `Error`',
    python: 'built-in exceptions',
    java: 'generic exceptions',
    kotlin: 'generic exceptions',
    swift: 'ad-hoc errors',
  } as Record<string, string>)[fam] ?? 'generic errors';
}
