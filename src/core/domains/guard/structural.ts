import type * as TS from '@vscode/tree-sitter-wasm';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { lookup } from '../../ground/kernel/tables';

/**
 * Structural patterns: tree-sitter queries over grammars compiled to WebAssembly
 * (@vscode/tree-sitter-wasm, the grammars VS Code itself ships), so nothing native is built per
 * platform. Measured on a 5,000-line file: a full parse takes ~40 ms and a re-parse after an edit
 * ~0.6 ms, against ~5 ms for all regex rules — so regexes stay the default and only rules that need
 * the syntax tree pay for parsing.
 */

/** Language id → grammar file name (without tree-sitter- and .wasm). */
const GRAMMARS: Record<string, string> = {
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  python: 'python',
  go: 'go',
  java: 'java',
  rust: 'rust',
  c: 'cpp',
  cpp: 'cpp',
  csharp: 'c-sharp',
  ruby: 'ruby',
  shellscript: 'bash',
};

export function grammarFor(language: string): string | undefined {
  return lookup(GRAMMARS, language);
}

export function structuralLanguages(): string[] {
  return Object.keys(GRAMMARS);
}

/** Where the wasm files are: beside the bundle (dist/tree-sitter/) or in node_modules when unbundled. */
export function treeSitterWasmDir(): string {
  const bundled = path.join(__dirname, 'tree-sitter');
  if (existsSync(path.join(bundled, 'tree-sitter.wasm'))) return bundled;
  const pkg = '@vscode/tree-sitter-wasm/package.json'; // resolved at run time, not bundled
  return path.join(path.dirname(require.resolve(pkg)), 'wasm');
}

/** A grammar's wasm: its file, or the bytes of its compressed copy (the package ships NAME.wasm.br). */
function grammarWasm(grammar: string): string | Uint8Array {
  const file = path.join(treeSitterWasmDir(), `tree-sitter-${grammar}.wasm`);
  return existsSync(file) ? file : brotliDecompressSync(readFileSync(`${file}.br`));
}

type TreeSitterModule = typeof TS;

export interface StructuralMatch {
  /** Index of the query pattern (one rule per pattern group, see StructuralRuleSet). */
  patternIndex: number;
  start: number;
  end: number;
}

/** Loads the runtime and grammars once, compiles queries, parses with reuse of the previous tree. */
export class TreeSitterHost {
  private module?: Promise<TreeSitterModule>;
  private readonly languages = new Map<string, Promise<TS.Language>>();
  private readonly ready = new Map<string, TS.Language>();
  private readonly parsers = new Map<string, TS.Parser>();

  private load(): Promise<TreeSitterModule> {
    this.module ??= (async () => {
      const mod = require('@vscode/tree-sitter-wasm') as TreeSitterModule;
      const dir = treeSitterWasmDir();
      await mod.Parser.init({ locateFile: (file: string) => path.join(dir, file) });
      return mod;
    })();
    return this.module;
  }

  async prepare(grammar: string): Promise<TS.Language> {
    let p = this.languages.get(grammar);
    if (!p) {
      p = (async () => {
        const mod = await this.load();
        const lang = await mod.Language.load(grammarWasm(grammar));
        this.ready.set(grammar, lang);
        return lang;
      })();
      this.languages.set(grammar, p);
    }
    return p;
  }

  isReady(grammar: string): boolean {
    return this.ready.has(grammar);
  }

  /** Compiles a query; throws with tree-sitter's message when it does not fit the grammar. */
  async compileQuery(grammar: string, source: string): Promise<TS.Query> {
    const lang = await this.prepare(grammar);
    const mod = await this.load();
    return new mod.Query(lang, source);
  }

  /** Parses `text`, re-using `old` (already edited) when given. Synchronous once prepared. */
  parse(grammar: string, text: string, old?: TS.Tree, deadline?: number): TS.Tree | undefined {
    const lang = this.ready.get(grammar);
    if (!lang) return undefined;
    let parser = this.parsers.get(grammar);
    if (!parser) {
      parser = new (require('@vscode/tree-sitter-wasm') as TreeSitterModule).Parser();
      parser.setLanguage(lang);
      this.parsers.set(grammar, parser);
    }
    const options = deadline === undefined ? undefined : { progressCallback: () => performance.now() > deadline };
    const tree = parser.parse(text, old ?? null, options as TS.ParseOptions | undefined);
    return tree ?? undefined;
  }

  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
  }
}

/** Runs one compiled query over a tree (optionally a window of it) and reports the `@match` nodes. */
export function runQuery(
  query: TS.Query,
  tree: TS.Tree,
  from: number,
  to: number,
  deadline?: number,
): { matches: StructuralMatch[]; complete: boolean } {
  let stopped = false;
  // The wasm binding takes query ranges in bytes of the UTF-16 text it parsed (two per code unit),
  // while nodes report code-unit offsets: without the factor only the first half of a text is queried.
  const options: TS.QueryOptions = { startIndex: from * 2, endIndex: to * 2 };
  if (deadline !== undefined) {
    (options as { progressCallback?: () => boolean }).progressCallback = () => {
      if (performance.now() > deadline) stopped = true;
      return stopped;
    };
  }
  const matches: StructuralMatch[] = [];
  for (const m of query.matches(tree.rootNode, options)) {
    const cap = m.captures.find((c) => c.name === 'match') ?? m.captures[0];
    if (!cap) continue;
    matches.push({ patternIndex: m.patternIndex, start: cap.node.startIndex, end: cap.node.endIndex });
  }
  return { matches, complete: !stopped };
}
