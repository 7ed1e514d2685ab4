import { confidence, percent, places, Tallies, type Sample, type Tally } from '../evidence';
import { factsOf } from '../facts';
import { FAMILY_LABEL } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';

type Style = 'kebab-case' | 'snake_case' | 'camelCase' | 'PascalCase';

/** Dimension 1, code standard: naming measured over files and declarations, formatting, exports, headers. */
export class CodeStandardAnalyzer implements Analyzer {
  private readonly fileStyles = new Tallies(6);
  private readonly declStyles = new Tallies(6);
  private readonly format = new Tallies(4);
  private readonly exportsTally = new Tallies(6);
  private readonly headers = new Tallies(6);
  private readonly filesByFamily = new Map<Family, number>();
  private readonly headerText = new Map<string, string>();

  visit(file: SourceFile): void {
    if (file.isTest || file.family === 'other') return;
    const fam = file.family;
    this.filesByFamily.set(fam, (this.filesByFamily.get(fam) ?? 0) + 1);

    const style = styleOf(baseName(file.path));
    if (style) this.fileStyles.get(`${fam}|${style}`).add(file, 1);

    for (const d of factsOf(file).decls) {
      const s = styleOf(d.name);
      if (d.kind === 'constant') this.declStyles.get(`${fam}|constant|${/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(d.name) ? 'UPPER_SNAKE_CASE' : s ?? 'single-word'}`).add(file, d.line);
      else if (s) this.declStyles.get(`${fam}|${d.kind}|${s}`).add(file, d.line);
    }

    const indent = indentation(file.lines);
    if (indent) this.format.get(`${fam}|indent|${indent.style}`).add(file, indent.line);
    if (fam === 'jsts') {
      const imp = /^[ \t]*import\b[^\n]*?\bfrom[ \t]*(['"])[^\n]*$|^[ \t]*import[ \t]*(['"])[^\n]*$/m.exec(file.text);
      if (imp) {
        const line = lineAt(file.text, imp.index);
        this.format.get(`jsts|quote|${(imp[1] ?? imp[2]) === "'" ? 'single' : 'double'}`).add(file, line);
        this.format.get(`jsts|semicolon|${/;\s*$/.test(imp[0]) ? 'yes' : 'no'}`).add(file, line);
      }
      const defaults = /^export\s+default\b/m.exec(file.code);
      const named = /^export\s+(?:async\s+)?(?:const|let|function|class|interface|type|enum|abstract)\b|^export\s*\{/m.exec(file.code);
      if (defaults) this.exportsTally.get('default').add(file, lineAt(file.code, defaults.index));
      else if (named) this.exportsTally.get('named').add(file, lineAt(file.code, named.index));
    }

    const first = file.lines.findIndex((l) => l.trim() !== '' && !l.startsWith('#!'));
    if (first >= 0) {
      const l = file.lines[first].trim();
      if (/^(\/\/|\/\*|#(?!import|include|define|if|pragma|!)|"""|''')/.test(l)) {
        const block = headerBlock(file.lines, first);
        const kind = /copyright|license|spdx/i.test(block) ? 'license' : 'comment';
        this.headers.get(`${fam}|${kind}`).add(file, first + 1);
        if (kind === 'license' && !this.headerText.has(fam)) this.headerText.set(fam, block);
      } else this.headers.get(`${fam}|none`).add(file, first + 1);
    }
  }

  finish(ctx: AnalysisContext): CandidateDraft[] {
    const out: CandidateDraft[] = [];
    for (const [fam, files] of this.filesByFamily) {
      if (files < 5) continue;
      const lang = FAMILY_LABEL[fam];
      const language = languageOf(fam, ctx);
      const fileNaming = dominant(this.fileStyles, `${fam}|`);
      if (fileNaming && fileNaming.total >= 5 && fileNaming.ratio >= 0.8) {
        const t = fileNaming.tally;
        const exceptions = fileNaming.others.flatMap(([, o]) => o.samples.slice(0, 2).map((s) => s.path)).slice(0, 4);
        out.push({
          title: `${lang} file names use ${fileNaming.key}`,
          knowledgeType: 'code-standard',
          dimension: 'code-standard',
          language,
          category: 'naming',
          summary: `${t.count} of ${fileNaming.total} multi-word ${lang} file names (${percent(t.count, fileNaming.total)}) are ${fileNaming.key}${exceptions.length ? `; exceptions include ${exceptions.join(', ')}` : ''}. Name new files the same way.`,
          code: t.samples.slice(0, 6).map((s) => s.path).join('\n'),
          reasoning: { whyStandard: `Measured over every scanned ${lang} source file whose name has more than one word.`, sources: t.sources(), confidence: confidence(fileNaming.ratio, t.count) },
          tags: ['naming', 'files', fam],
        });
      }
      const parts: string[] = [];
      const sources: string[] = [];
      const samples: Sample[] = [];
      let minRatio = 1;
      let support = 0;
      for (const kind of ['type', 'function', 'constant'] as const) {
        const d = dominant(this.declStyles, `${fam}|${kind}|`, kind === 'constant' ? ['single-word'] : []);
        if (!d || d.total < 5 || d.ratio < 0.85) continue;
        parts.push(`${kind === 'type' ? 'types' : kind === 'function' ? 'functions' : 'module constants'} ${d.key} (${percent(d.tally.count, d.total)} of ${d.total})`);
        sources.push(...d.tally.sources(2));
        samples.push(...d.tally.samples.slice(0, 2));
        minRatio = Math.min(minRatio, d.ratio);
        support += d.total;
      }
      if (parts.length >= 2) {
        out.push({
          title: `${lang} naming: ${parts.map((p) => p.replace(/ \(.*$/, '')).join(', ')}`,
          knowledgeType: 'code-standard',
          dimension: 'code-standard',
          language,
          category: 'naming',
          summary: `Declarations in ${lang} follow one naming scheme: ${parts.join('; ')}.`,
          code: places(samples),
          reasoning: { whyStandard: 'Counted over the top-level declarations of the scanned sources.', sources, confidence: confidence(minRatio, support) },
          tags: ['naming', fam],
        });
      }
      out.push(...this.formatting(fam, lang, language, ctx));
      const header = this.header(fam, lang, language);
      if (header) out.push(header);
    }
    const exportsDraft = this.exportStyle(ctx);
    if (exportsDraft) out.push(exportsDraft);
    return out;
  }

  private formatting(fam: Family, lang: string, language: string, ctx: AnalysisContext): CandidateDraft[] {
    const indent = dominant(this.format, `${fam}|indent|`);
    if (!indent || indent.total < 5 || indent.ratio < 0.8) return [];
    const bits = [`${indent.key === 'tabs' ? 'tab' : indent.key} indentation`];
    const sources = indent.tally.sources(3);
    let ratio = indent.ratio;
    if (fam === 'jsts') {
      const q = dominant(this.format, 'jsts|quote|');
      const semi = dominant(this.format, 'jsts|semicolon|');
      if (q && q.total >= 5 && q.ratio >= 0.85) {
        bits.push(`${q.key} quotes`);
        ratio = Math.min(ratio, q.ratio);
      }
      if (semi && semi.total >= 5 && semi.ratio >= 0.85) {
        bits.push(semi.key === 'yes' ? 'semicolons' : 'no semicolons');
        ratio = Math.min(ratio, semi.ratio);
      }
    }
    const configs = ctx.listing.filter((f) => /(^|\/)(\.editorconfig|\.prettierrc(\.\w+)?|prettier\.config\.\w+|\.swiftformat|\.swiftlint\.yml|rustfmt\.toml|\.clang-format|biome\.json|dprint\.json|\.rubocop\.yml)$/.test(f) && f.split('/').length <= 2);
    return [
      {
        title: `${lang} code uses ${bits.join(', ')}`,
        knowledgeType: 'code-style',
        dimension: 'code-standard',
        language,
        category: 'formatting',
        summary: `${percent(indent.tally.count, indent.total)} of ${indent.total} ${lang} files indent with ${indent.key === 'tabs' ? 'tabs' : indent.key.replace('-space', ' spaces')}.${configs.length ? ` Formatter configuration: ${configs.join(', ')}.` : ' No formatter configuration was found, so keep it by hand.'}`,
        code: indent.tally.samples.slice(0, 3).map((s) => `${s.path}:${s.line}`).join('\n'),
        reasoning: { whyStandard: 'Measured on the first indented line of every scanned file' + (fam === 'jsts' ? ' and on the import statements' : '') + '.', sources: [...sources, ...configs.map((c) => `${c}:1`)], confidence: confidence(ratio, indent.total) },
        tags: ['formatting', fam],
      },
    ];
  }

  private header(fam: Family, lang: string, language: string): CandidateDraft | undefined {
    const license = this.headers.peek(`${fam}|license`);
    const total = ['license', 'comment', 'none'].reduce((n, k) => n + (this.headers.peek(`${fam}|${k}`)?.count ?? 0), 0);
    if (!license || total < 5 || license.count / total < 0.6) return undefined;
    return {
      title: `${lang} source files start with a license header`,
      knowledgeType: 'code-standard',
      dimension: 'code-standard',
      language,
      category: 'file-layout',
      summary: `${license.count} of ${total} ${lang} files (${percent(license.count, total)}) open with a copyright/license comment. Start new files with the same header.`,
      code: this.headerText.get(fam) ?? '',
      reasoning: { whyStandard: 'Measured on the first lines of every scanned source file.', sources: license.sources(), confidence: confidence(license.count / total, total) },
      tags: ['license', 'header', fam],
    };
  }

  private exportStyle(ctx: AnalysisContext): CandidateDraft | undefined {
    const named = this.exportsTally.peek('named')?.count ?? 0;
    const defaults = this.exportsTally.peek('default')?.count ?? 0;
    const total = named + defaults;
    if (total < 8) return undefined;
    const useNamed = named / total >= 0.9;
    const useDefault = defaults / total >= 0.8;
    if (!useNamed && !useDefault) return undefined;
    const t = this.exportsTally.get(useNamed ? 'named' : 'default');
    const other = this.exportsTally.peek(useNamed ? 'default' : 'named');
    return {
      title: useNamed ? 'Modules use named exports, not default exports' : 'Each module has one default export',
      knowledgeType: 'code-standard',
      dimension: 'code-standard',
      language: languageOf('jsts', ctx),
      category: 'modules',
      summary: `${t.count} of ${total} modules with exports (${percent(t.count, total)}) use ${useNamed ? 'only named exports' : 'a default export'}.${other?.samples.length ? ` Exceptions: ${other.samples.slice(0, 3).map((s) => s.path).join(', ')}.` : ''}`,
      code: places(t.samples, 4),
      reasoning: { whyStandard: 'Counted over every scanned JS/TS module that exports something.', sources: t.sources(), confidence: confidence(t.count / total, total) },
      tags: ['modules', 'exports', 'jsts'],
    };
  }
}

/** The most frequent key under a prefix, its share, and the rest. */
export function dominant(tallies: Tallies, prefix: string, ignore: string[] = []): { key: string; tally: Tally; ratio: number; total: number; others: [string, Tally][] } | undefined {
  const entries = tallies.entries().filter(([k]) => k.startsWith(prefix) && !ignore.includes(k.slice(prefix.length)));
  if (entries.length === 0) return undefined;
  entries.sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
  const total = entries.reduce((n, [, t]) => n + t.count, 0);
  const [key, tally] = entries[0];
  return { key: key.slice(prefix.length), tally, ratio: tally.count / total, total, others: entries.slice(1) };
}

export function styleOf(name: string): Style | undefined {
  const n = name.replace(/^[_$]+|[_$]+$/g, '');
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(n)) return 'kebab-case';
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(n)) return 'snake_case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(n)) return 'camelCase';
  if (/^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)+$/.test(n) || /^[A-Z][a-z0-9]+$/.test(n)) return 'PascalCase';
  return undefined;
}

function baseName(p: string): string {
  const b = p.slice(p.lastIndexOf('/') + 1);
  return b.replace(/(\.(d|test|spec|stories|module|config|generated))?\.[^.]+$/, '');
}

function indentation(lines: string[]): { style: string; line: number } | undefined {
  for (let i = 0; i < lines.length && i < 400; i++) {
    const m = /^([ \t]+)\S/.exec(lines[i]);
    if (!m || lines[i].trimStart().startsWith('*')) continue;
    if (m[1].startsWith('\t')) return { style: 'tabs', line: i + 1 };
    const n = m[1].length;
    if (n === 2 || n === 4 || n === 3 || n === 8) return { style: `${n === 8 ? 4 : n}-space`, line: i + 1 };
  }
  return undefined;
}

function headerBlock(lines: string[], first: number): string {
  const out: string[] = [];
  for (let i = first; i < lines.length && out.length < 12; i++) {
    const l = lines[i];
    if (!/^\s*(\/\/|\/\*|\*|#|"""|''')/.test(l) && out.length) break;
    out.push(l.replace(/\s+$/, ''));
    if (/\*\/\s*$/.test(l)) break;
  }
  return out.join('\n');
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The VS Code language id to file a family's candidates under: the most common one among its targets and files. */
export function languageOf(fam: Family, ctx: AnalysisContext): string {
  const map: Record<Family, string> = { jsts: 'typescript', swift: 'swift', objc: 'objective-c', python: 'python', go: 'go', rust: 'rust', java: 'java', kotlin: 'kotlin', other: 'text' };
  if (fam === 'jsts' && !ctx.listing.some((f) => /\.(ts|tsx|mts|cts)$/.test(f))) return 'javascript';
  return map[fam];
}
