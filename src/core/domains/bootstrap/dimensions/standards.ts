import path from 'node:path';
import { languageForPath } from '../../../ground/kernel/languages';
import { confidence, percent, type Sample, Tallies, type Tally } from '../evidence';
import { factsOf } from '../facts';
import { nameList } from '../form';
import { FAMILY_LABEL, familyOf } from '../source';
import type { AnalysisContext, Analyzer, CandidateDraft, Family, SourceFile } from '../types';

type Style = 'kebab-case' | 'snake_case' | 'camelCase' | 'PascalCase';

/** The naming each language's own conventions (and compilers, linters) already impose: not project knowledge. */
const FILE_NORM: Partial<Record<Family, Style[]>> = {
  swift: ['PascalCase'],
  objc: ['PascalCase'],
  kotlin: ['PascalCase'],
  java: ['PascalCase'],
  python: ['snake_case'],
  rust: ['snake_case'],
  go: ['snake_case'],
};
const DECL_NORM: Partial<Record<Family, Record<'type' | 'function', Style[]>>> = {
  swift: { type: ['PascalCase'], function: ['camelCase'] },
  objc: { type: ['PascalCase'], function: ['camelCase'] },
  kotlin: { type: ['PascalCase'], function: ['camelCase'] },
  java: { type: ['PascalCase'], function: ['camelCase'] },
  python: { type: ['PascalCase'], function: ['snake_case'] },
  rust: { type: ['PascalCase'], function: ['snake_case'] },
  go: { type: ['PascalCase', 'camelCase'], function: ['PascalCase', 'camelCase'] },
  jsts: { type: ['PascalCase'], function: ['camelCase'] },
};

/**
 * Dimension 1, code standard, over production files only: file naming where the language leaves it
 * open (JS/TS) or the project departs from its language's norm, declaration naming only where it
 * departs, the license header the files share, and the export style of JS/TS modules. What the
 * language or its standard tools already impose is not proposed.
 */
export class CodeStandardAnalyzer implements Analyzer {
  // More samples than are cited: the cited ones are taken from the biggest packages (zod's were bundle-size fixtures).
  private readonly fileStyles = new Tallies(40);
  /** Production files per package-sized folder (the first two segments of the path). */
  private readonly filesByPackage = new Map<string, number>();
  private readonly declStyles = new Tallies(6);
  private readonly exportsTally = new Tallies(6);
  /** Modules whose default export a tool requires (a jscodeshift transform, a Next.js page), and which tool. */
  private readonly defaultRequired = new Map<string, string>();
  private readonly filesByFamily = new Map<Family, number>();
  /** The folders of each family's production files: a convention held in one of many is that folder's. */
  private readonly foldersByFamily = new Map<Family, Set<string>>();
  /** Normalised header text → files that open with it. */
  private readonly headers = new Map<
    string,
    { family: Family; text: string; files: Sample[]; years: Map<string, number>; newest: number }
  >();
  private readonly headerCounts = new Map<Family, number>();

  visit(file: SourceFile): void {
    if (file.kind !== 'production' || file.family === 'other') return;
    const fam = file.family;
    this.filesByFamily.set(fam, (this.filesByFamily.get(fam) ?? 0) + 1);
    const folders = this.foldersByFamily.get(fam) ?? new Set<string>();
    folders.add(path.posix.dirname(file.path));
    this.foldersByFamily.set(fam, folders);

    const pkg = packageOf(file.path);
    this.filesByPackage.set(pkg, (this.filesByPackage.get(pkg) ?? 0) + 1);
    const base = baseName(file.path);
    // Names the language or its tools fix: module-info, package-info, index, __init__, main, mod, lib.
    const style = /^(module-info|package-info|index|__init__|__main__|main|mod|lib)$/.test(base)
      ? undefined
      : styleOf(base);
    if (style) this.fileStyles.get(`${fam}|${style}`).add(file, 1);

    for (const d of factsOf(file).decls) {
      if (d.kind === 'constant') continue;
      const s = styleOf(d.name);
      if (s) this.declStyles.get(`${fam}|${d.kind}|${s}`).add(file, d.line);
    }

    if (fam === 'jsts') {
      const defaults = /^export\s+default\b/m.exec(file.code);
      const named = /^export\s+(?:async\s+)?(?:const|let|function|class|interface|type|enum|abstract)\b|^export\s*\{/m
        .exec(file.code);
      if (defaults) {
        this.exportsTally.get('default').add(file, lineAt(file.code, defaults.index));
        const why = requiredDefault(file);
        if (why) this.defaultRequired.set(file.path, why);
      } else if (named) this.exportsTally.get('named').add(file, lineAt(file.code, named.index));
    }

    this.headerCounts.set(fam, (this.headerCounts.get(fam) ?? 0) + 1);
    const first = file.lines.findIndex((l) =>
      l.trim() !== '' && !l.startsWith('#!') && !/^\/\/\s*swift-tools-version/.test(l)
    );
    if (first >= 0 && /^(\/\/|\/\*|#(?!import|include|define|if|pragma|!)|"""|\'\'\')/.test(file.lines[first].trim())) {
      const block = headerBlock(file.lines, first);
      if (/copyright|license|spdx|\(c\)/i.test(block)) {
        // Years and file names differ from file to file; the header is the same.
        const key = `${fam}|${
          block.replace(/\d{4}(\s*[-–]\s*\d{4})?/g, 'YEAR').replace(
            /^\s*(\/\/|\*|#)\s*[\w+.-]+\.(swift|m|h|kt|java|go|rs|py|ts|js)\s*$/gim,
            '$1 FILE',
          ).replace(/\s+/g, ' ')
        }`;
        const h = this.headers.get(key)
          ?? { family: fam, text: block, files: [], years: new Map<string, number>(), newest: 0 };
        h.files.push({ path: file.path, line: first + 1, text: file.lines[first].trim() });
        const years = /\d{4}(?:\s*[-–]\s*\d{4})?/.exec(block)?.[0];
        if (years) {
          h.years.set(years, (h.years.get(years) ?? 0) + 1);
          const last = Number(years.slice(-4));
          // The newest file's header (a year a file was written in): the text with that year is shown.
          if (last > h.newest) Object.assign(h, { newest: last, text: block });
        }
        this.headers.set(key, h);
      }
    }
  }

  async finish(ctx: AnalysisContext): Promise<CandidateDraft[]> {
    const out: CandidateDraft[] = [];
    for (const [fam, files] of this.filesByFamily) {
      if (files < 5) continue;
      const lang = FAMILY_LABEL[fam];
      const language = languageOf(fam, ctx);
      const fileNaming = dominant(this.fileStyles, `${fam}|`);
      const norm = FILE_NORM[fam];
      if (fileNaming && fileNaming.total >= 5 && fileNaming.ratio >= 0.8 && !norm?.includes(fileNaming.key as Style)) {
        const t = fileNaming.tally;
        const exceptions = fileNaming.others.flatMap(([, o]) => o.samples.slice(0, 2).map((s) => s.path)).slice(0, 3);
        // Exceptions that all sit in one folder are that folder's older habit (zod's v3), said as such.
        const odd = fileNaming.others.flatMap(([, o]) => [...o.files]);
        const oddDir = commonDir(odd);
        const inOddDir = oddDir ? [...t.files].filter((f) => f.startsWith(oddDir + '/')).length : 0;
        const exceptionText = oddDir && odd.length >= 3 && oddDir.split('/').length >= 2 && inOddDir < odd.length
          ? `; the ${odd.length} exceptions are all in ${oddDir}/ (${
            odd.slice(0, 2).map((f) => f.slice(oddDir.length + 1)).join(', ')
          }…)`
          : exceptions.length
          ? `; exceptions include ${exceptions.join(', ')}`
          : '';
        const weight = (p: string) => this.filesByPackage.get(packageOf(p)) ?? 0;
        const cited = [...t.samples].sort((a, b) => weight(b.path) - weight(a.path)).slice(0, 6).map((x) =>
          `${x.path}:${x.line}`
        );
        // A lint rule that enforces the case (`unicorn/filename-case`) makes it a rule, with its exceptions.
        const rule = fam === 'jsts' ? await fileNameRule(ctx) : undefined;
        const enforced = rule?.style === fileNaming.key ? rule : undefined;
        out.push({
          title: `${
            norm
              ? `${lang} file names use ${fileNaming.key}, not the usual ${norm[0]}`
              : `${lang} file names use ${fileNaming.key}`
          }${enforced ? ` (ESLint \`${enforced.name}\`)` : ''}`,
          knowledgeType: 'code-standard',
          dimension: 'code-standard',
          language,
          category: 'naming',
          summary: enforced
            ? `ESLint's \`${enforced.name}\` requires ${fileNaming.key} file names${
              enforced.ignore.length ? `, except names matching ${nameList(enforced.ignore, 70)}` : ''
            }; ${t.count} of ${fileNaming.total} multi-word file names (${
              percent(t.count, fileNaming.total)
            }) follow it. Name new files the same way.`
            : `${t.count} of ${fileNaming.total} multi-word file names (${
              percent(t.count, fileNaming.total)
            }) are ${fileNaming.key}${exceptionText}. Name new files the same way.`,
          code: '',
          reasoning: {
            whyStandard: enforced
              ? `Enforced by ESLint (${enforced.source}); measured over every scanned production ${lang} file whose name has more than one word.`
              : `Measured over every scanned production ${lang} file whose name has more than one word${
                norm ? '' : "; the language sets no convention for file names, so this one is the project's"
              }.`,
            sources: enforced ? [enforced.source, ...cited.slice(0, 4)] : cited,
            confidence: enforced ? 0.9 : confidence(fileNaming.ratio, t.count),
          },
          tags: ['naming', 'files', fam],
          trigger: `${fam}-file-names`,
        });
      }
      for (const kind of ['type', 'function'] as const) {
        const d = dominant(this.declStyles, `${fam}|${kind}|`);
        const usual = DECL_NORM[fam]?.[kind] ?? [];
        if (!d || d.total < 10 || d.ratio < 0.85 || usual.includes(d.key as Style)) continue;
        // A folder's habit is not the project's: PascalCase functions can be 31 of 33 in
        // one folder with camelCase everywhere else.
        const folders = new Map<string, number>();
        for (const f of d.tally.files) {
          folders.set(path.posix.dirname(f), (folders.get(path.posix.dirname(f)) ?? 0) + 1);
        }
        if (
          folders.size > 0 && Math.max(...folders.values()) / d.tally.files.size > 0.5
          && (this.foldersByFamily.get(fam)?.size ?? 0) > 2
        ) continue;
        out.push({
          title: `${lang} ${kind === 'type' ? 'types' : 'functions'} are named in ${d.key}, not the usual ${usual[0]}`,
          knowledgeType: 'code-standard',
          dimension: 'code-standard',
          language,
          category: 'naming',
          summary: `${d.tally.count} of ${d.total} top-level ${kind === 'type' ? 'types' : 'functions'} (${
            percent(d.tally.count, d.total)
          }) use ${d.key}, where ${lang} code usually uses ${usual.join(' or ')}. Follow the project.`,
          code: '',
          reasoning: {
            whyStandard:
              'Counted over the top-level declarations of the scanned production sources; the project departs from the language convention.',
            sources: d.tally.sources(),
            confidence: confidence(d.ratio, d.total),
          },
          tags: ['naming', fam],
        });
      }
      // The build files are read only for a language whose files share a header.
      const header = [...this.headers.values()].some((h) => h.family === fam)
        ? this.header(fam, lang, language, await spotlessHeader(ctx, fam))
        : undefined;
      if (header) out.push(header);
    }
    const exportsDraft = this.exportStyle(ctx);
    if (exportsDraft) out.push(exportsDraft);
    return out;
  }

  /** The license header most production files of a language open with (years aside). */
  private header(
    fam: Family,
    lang: string,
    language: string,
    spotless?: { source: string; apply: string },
  ): CandidateDraft | undefined {
    const total = this.headerCounts.get(fam) ?? 0;
    const variants = [...this.headers.values()].filter((h) => h.family === fam).sort((a, b) =>
      b.files.length - a.files.length
    );
    const withAny = variants.reduce((n, h) => n + h.files.length, 0);
    const common = variants[0];
    if (!common || total < 5 || withAny / total < 0.6 || common.files.length / total < 0.4) return undefined;
    // The header new files get: the one of the newest files, when a few files already use it (a
    // "The Project Authors" that replaced "Example, Inc."); else the most common.
    const current =
      variants.filter((v) => v.files.length >= 3).sort((a, b) =>
        b.newest - a.newest || b.files.length - a.files.length
      )[0] ?? common;
    const top = current.newest > common.newest ? current : common;
    // One range in every file (2013-2023) is copied as it is; single years are the year a file was written.
    const yearsAlike = top.years.size === 1 && [...top.years.values()][0] === top.files.length
      && /[-–]/.test([...top.years.keys()][0]);
    // Cite the folder that holds most of the code first (the main library's, not a small side module).
    const head = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '');
    const weight = new Map<string, number>();
    for (const f of top.files) weight.set(head(f.path), (weight.get(head(f.path)) ?? 0) + 1);
    const files = [...top.files].sort((a, b) =>
      (weight.get(head(b.path)) ?? 0) - (weight.get(head(a.path)) ?? 0) || (a.path < b.path ? -1 : 1)
    );
    // A line that names the file (`//  Request.swift`) names each file's own: the template says so.
    const FILE_LINE = /^(\s*(?:\/\/|\*|#)\s*)[\w+.-]+\.(?:swift|m|h|kt|java|go|rs|py|ts|js)(\s*)$/im;
    const named = FILE_LINE.test(top.text);
    const template = top.text.replace(new RegExp(FILE_LINE.source, 'gim'), '$1<file name>$2');
    // Years differ from file to file unless one range is in all of them: the template says which to write.
    const code = yearsAlike ? template : template.replace(/\d{4}(\s*[-–]\s*\d{4})?/g, '<year>');
    return {
      title: `${lang} source files start with the project's license header`,
      knowledgeType: 'code-standard',
      dimension: 'code-standard',
      language,
      category: 'file-layout',
      summary: `${withAny} of the ${total} production ${lang} files scanned (${
        percent(withAny, total)
      }) open with a copyright and license comment; ${top.files.length} use this one${
        top === common
          ? ''
          : `, the newest (${top.newest}) among them, while ${common.files.length} older ones name another holder`
      }. Start new files with it${named ? ", the file's own name in it" : ''}${
        yearsAlike
          ? `, years as they are: every one says ${[...top.years.keys()][0]}`
          : top.years.size
          ? ', with the current year for <year>'
          : ''
      }.${spotless ? ` Spotless checks it and \`${spotless.apply}\` writes it.` : ''}`,
      code,
      reasoning: {
        whyStandard: 'Measured on the first lines of every scanned production source file.',
        sources: [
          ...(spotless ? [spotless.source] : []),
          ...files.slice(0, spotless ? 5 : 6).map((s) => `${s.path}:${s.line}`),
        ],
        confidence: confidence(withAny / total, total),
      },
      tags: ['license', 'header', fam],
      trigger: `${fam}-license-header`,
    };
  }

  /**
   * The modules that export the other way, by folder when a few folders hold them all (a project's
   * named-only helpers are in src/common and src/options), and why when a tool requires it (a codemod's
   * jscodeshift transforms).
   */
  private exceptions(files: string[], useNamed: boolean): string {
    const tools = useNamed ? [...new Set(files.map((f) => this.defaultRequired.get(f)))] : [];
    const why = tools.length === 1 && tools[0] ? ` (${tools[0]})` : '';
    const folders = [...new Set(files.map((f) => path.posix.dirname(f)))];
    // By folder, each file named (a reviewer read "the 9 modules in src/common" as all of src/common).
    if (files.length > 2 && files.length <= 12 && folders.length <= 3) {
      return `Exceptions: ${
        folders.map((d) =>
          `${d}/ ${files.filter((f) => path.posix.dirname(f) === d).map((f) => path.posix.basename(f)).join(', ')}`
        ).join('; ')
      }${why}.`;
    }
    if (files.length > 2 && folders.length <= 3) {
      return `Exceptions: ${files.length} modules in ${nameList(folders, 120, false)}${why}.`;
    }
    return `Exceptions: ${files.slice(0, 3).join(', ')}${
      files.length > 3 ? ` and ${files.length - 3} more` : ''
    }${why}.`;
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
      // "Each module" at 80 % overclaims.
      title: useNamed
        ? 'Modules use named exports, not default exports'
        : t.count / total >= 0.95
        ? 'Each module has one default export'
        : `Most modules have a default export (${percent(t.count, total)})`,
      knowledgeType: 'code-standard',
      dimension: 'code-standard',
      language: languageOf('jsts', ctx),
      category: 'modules',
      summary: `${t.count} of ${total} production modules with exports (${percent(t.count, total)}) use ${
        useNamed ? 'only named exports' : 'a default export'
      }.${other?.files.size ? ` ${this.exceptions([...other.files], useNamed)}` : ''}`,
      code: '',
      reasoning: {
        whyStandard: 'Counted over every scanned production JS/TS module that exports something.',
        sources: t.sources(),
        confidence: confidence(t.count / total, total),
      },
      tags: ['modules', 'exports', 'jsts'],
      ...(useNamed
        ? {
          ruleSeed: {
            kind: 'forbid-construct' as const,
            language: languageOf('jsts', ctx),
            construct: 'default-export' as const,
            goodAt: t.sources(3),
          },
        }
        : {}),
    };
  }
}

/** The most frequent key under a prefix, its share, and the rest. */
export function dominant(
  tallies: Tallies,
  prefix: string,
  ignore: string[] = [],
): { key: string; tally: Tally; ratio: number; total: number; others: [string, Tally][] } | undefined {
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

/** The whole comment a file opens with (a license runs to 30 lines or so), up to 40 lines. */
function headerBlock(lines: string[], first: number): string {
  const out: string[] = [];
  for (let i = first; i < lines.length && out.length < 40; i++) {
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
  const map: Record<Family, string> = {
    jsts: 'typescript',
    swift: 'swift',
    objc: 'objective-c',
    python: 'python',
    go: 'go',
    rust: 'rust',
    java: 'java',
    kotlin: 'kotlin',
    other: 'text',
  };
  if (fam === 'jsts' && !ctx.listing.some((f) => /\.(ts|tsx|mts|cts)$/.test(f))) return 'javascript';
  return map[fam];
}

/**
 * Where the build makes Spotless write the license header (`licenseHeaderFile(…)` in a Gradle
 * convention, `<licenseHeader>` in a Maven pom), with the command that applies it: a header
 * enforced by build-logic is not seen in the files' headers alone.
 */
async function spotlessHeader(
  ctx: AnalysisContext,
  family: Family,
): Promise<{ source: string; apply: string } | undefined> {
  const builds = ctx.listing.filter((f) =>
    /^(build-logic|buildSrc)\/.*\.(kts?|gradle)$|^[^/]*\.gradle(\.kts)?$|^pom\.xml$/.test(f)
  );
  for (const f of builds) {
    const text = (await ctx.read(f)) ?? '';
    // The language's own rule, by the header file it names (a kotlin block names
    // copyright.kt; an xml block comes first); a header given inline counts when it is the only rule.
    const hits = [...text.matchAll(/\blicenseHeader(File)?\s*\(([^\n]*)|<licenseHeader>/g)];
    const ruleFamily = (args = '') => {
      const named = /["']([^"']+)["']/.exec(args)?.[1];
      const language = named && languageForPath(named);
      return language ? familyOf(language) : undefined;
    };
    const hit = hits.find((m) => m[1] && ruleFamily(m[2]) === family)
      ?? (hits.length === 1 && !hits[0][1] ? hits[0] : undefined);
    if (!hit) continue;
    const apply = f.endsWith('pom.xml')
      ? 'mvn spotless:apply'
      : `${ctx.has('gradlew') ? './gradlew' : 'gradle'} spotlessApply`;
    return { source: `${f}:${text.slice(0, hit.index).split('\n').length}`, apply };
  }
  return undefined;
}

/** The package-sized folder of a path: its first two segments (`packages/zod`, `src/core`). */
function packageOf(p: string): string {
  return p.split('/').slice(0, 2).join('/');
}

const ESLINT_CASES: Record<string, Style> = {
  camelCase: 'camelCase',
  kebabCase: 'kebab-case',
  pascalCase: 'PascalCase',
  snakeCase: 'snake_case',
};

/**
 * The file-name case an ESLint configuration enforces with `unicorn/filename-case` (one `case`, at
 * error or warn), with the patterns it ignores and the line that sets it.
 */
async function fileNameRule(
  ctx: AnalysisContext,
): Promise<{ name: string; style: Style; ignore: string[]; source: string } | undefined> {
  const configs = ctx.listing.filter((f) =>
    /^(eslint\.config\.[cm]?[jt]s|\.eslintrc(\.(js|cjs|json|ya?ml))?)$/.test(f)
  );
  for (const f of configs) {
    const text = (await ctx.read(f)) ?? '';
    const at = text.search(/['"]unicorn\/filename-case['"]\s*:\s*\[\s*['"]?(error|warn|2|1)\b/);
    if (at < 0) continue;
    // The rule's options: up to the bracket that closes them.
    let depth = 0;
    let end = text.indexOf('[', at);
    for (; end < text.length; end++) {
      if (text[end] === '[') depth++;
      else if (text[end] === ']' && --depth === 0) break;
    }
    const options = text.slice(at, end);
    const style = ESLINT_CASES[/\bcase['"]?\s*:\s*['"](\w+)['"]/.exec(options)?.[1] ?? ''];
    if (!style) continue;
    const ignoreList = /\bignore['"]?\s*:\s*\[([\s\S]*?)\]\s*[,}]/.exec(options)?.[1] ?? '';
    const ignore = [...ignoreList.matchAll(/['"]([^'"]+)['"]|\/((?:\\.|[^/\n])+)\/[a-z]*/g)].map((m) =>
      (m[1] ?? m[2]).replace(/\\\\/g, '\\')
    );
    return { name: 'unicorn/filename-case', style, ignore, source: `${f}:${text.slice(0, at).split('\n').length}` };
  }
  return undefined;
}

/** Why a tool needs this module's default export, if one does. */
function requiredDefault(file: SourceFile): string | undefined {
  if (/\bfrom\s+['"]jscodeshift['"]/.test(file.text)) {
    return 'jscodeshift transforms, which must export their transform by default';
  }
  if (/(^|\/)pages\/|(^|\/)app\/(.*\/)?(page|layout|route|loading|error|not-found)\.[jt]sx?$/.test(file.path)) {
    return 'Next.js pages, which must be default exports';
  }
  if (/\.stories\.[jt]sx?$/.test(file.path)) return 'Storybook stories, whose metadata is the default export';
  if (/(^|\/)[\w.-]+\.config\.[cm]?[jt]s$/.test(file.path)) {
    return 'configuration files, which their tools read from the default export';
  }
  return undefined;
}

/** The deepest folder that holds all these paths, or undefined. */
function commonDir(paths: readonly string[]): string | undefined {
  if (!paths.length) return undefined;
  let dir = path.posix.dirname(paths[0]);
  while (dir !== '.' && !paths.every((p) => p.startsWith(dir + '/'))) dir = path.posix.dirname(dir);
  return dir === '.' ? undefined : dir;
}
