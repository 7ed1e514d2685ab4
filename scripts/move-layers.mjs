// Moves the folders of src/core into folders named by their tier (eslint/layers.mjs, TIERS):
//   shared ground → src/core/ground/<folder>, domains → src/core/domains/<folder>,
//   the catalog (src/core/catalog) → src/core/catalog; the adapters (src/cli, mcp, vscode, webview) stay.
// Then rewrites every relative import in src/, test/, bench/, scripts/ and eslint/ so it names the
// same file, and the paths written as text (`src/core/ground/kernel/…`, `core/catalog`, `'src', 'core', 'ground', 'text'`)
// in code, comments, eslint/layers.mjs, eslint.config.mjs, the build script, tsconfig files and docs/.
//
//   node scripts/move-layers.mjs            move, rewrite, report
//   node scripts/move-layers.mjs --dry-run  report what would move, change nothing
//
// Re-runnable: a folder already in its tier folder is left alone, so after a merge brings new files
// under an old path (or a new folder, once placed in TIERS), running it again moves just those.
// Moves use `git mv`, so history follows the files. Fixtures and benchmark data are not rewritten:
// they are other repositories' text.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { relativeImports, sourceFiles } = require('./import-graph.cjs');

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const src = path.join(root, 'src');
const dryRun = process.argv.includes('--dry-run');

/** Where each tier's folders go, under src/. A tier with one folder becomes that folder. */
const TIER_DIRS = { ground: 'core/ground', domains: 'core/domains', catalog: 'core/catalog' };
/** Source roots whose relative imports are rewritten; text roots whose paths are rewritten as text too. */
const CODE_ROOTS = ['src', 'test', 'bench', 'scripts', 'eslint'];
const SKIP = /(^|\/)(node_modules|fixtures|dist|out|\.cache|data|\.vscode-test|test-output)(\/|$)/;
const TEXT_FILES = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json)$/;
const ROOT_TEXT = ['eslint.config.mjs', 'tsconfig.json', 'README.md', 'dprint.json', '.vscodeignore', 'package.json'];

const { TIERS } = await import(pathToFileURL(path.join(root, 'eslint', 'layers.mjs')).href);

/** [from, to] under src/ (no extension), for every placed folder or module not yet in its tier folder. */
function plannedMoves() {
  const moves = [];
  for (const [tier, paths] of Object.entries(TIERS)) {
    const dir = TIER_DIRS[tier];
    if (!dir) continue;
    for (const p of paths) {
      const to = TIERS[tier].length === 1 ? dir : `${dir}/${path.posix.basename(p)}`;
      if (p === to || p.startsWith(`${dir}/`)) continue;
      moves.push([p, to]);
    }
  }
  return moves;
}

/** What is on disk for a placed path: the folder, or the module file. */
function onDisk(p) {
  const abs = path.join(src, p);
  if (existsSync(abs) && statSync(abs).isDirectory()) return abs;
  return ['.ts', '.tsx', '.mts'].map((e) => abs + e).find((f) => existsSync(f));
}

/** Folders and modules of src/core that no tier places: moving around them would leave them behind. */
function unplaced() {
  const placed = new Set(Object.values(TIERS).flat());
  const tierDirs = new Set(Object.values(TIER_DIRS));
  const walk = (dir) =>
    readdirSync(path.join(src, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name.replace(/\.(ts|tsx|mts)$/, '')}`;
      if (e.isDirectory() && tierDirs.has(rel) && !placed.has(rel)) return walk(rel);
      return (e.isDirectory() || /\.(ts|tsx|mts)$/.test(e.name)) && !e.name.endsWith('.d.ts') ? [rel] : [];
    });
  return walk('core').filter((p) => !placed.has(p));
}

/** An absolute path before the moves → after (a path inside a moved folder, or a moved module with any extension). */
function mapper(moves) {
  const abs = moves.map(([from, to]) => [path.join(src, from), path.join(src, to)]);
  return (p) => {
    for (const [from, to] of abs) {
      if (p === from || p.startsWith(from + path.sep)) return to + p.slice(from.length);
      if (p.startsWith(from + '.') && !p.slice(from.length + 1).includes(path.sep)) return to + p.slice(from.length);
    }
    return p;
  };
}

/** A specifier from `fromDir` to `target`, in the form of the original (leading ./ kept). */
function specifierFor(fromDir, target) {
  const rel = path.relative(fromDir, target).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Paths written as text: `src/core/ground/kernel/…`, `core/catalog`, and path.join's `'src', 'core', 'ground', 'text'`. */
function textRewriter(moves) {
  const byName = new Map(moves.map(([from, to]) => [from.slice('core/'.length), to.slice('core/'.length)]));
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).join('|');
  if (!names) return (text) => text;
  // `core/` at the start of a path, or after src/, ../, ./ or @/ (not inside another repository's path).
  const inline = new RegExp(`(?<=^|[^\\w./-]|src/|\\.\\./|\\./|@/)core/(${names})(?![\\w-])`, 'gm');
  const segments = new RegExp(`(['"])core\\1(\\s*,\\s*)(['"])(${names})\\3`, 'g');
  return (text) =>
    text.replace(inline, (_, name) => `core/${byName.get(name)}`).replace(
      segments,
      (_, q, sep, q2, name) =>
        `${q}core${q}${sep}${byName.get(name).split('/').map((s) => `${q2}${s}${q2}`).join(', ')}`,
    );
}

function textFiles() {
  const walk = (dir) => {
    if (!existsSync(dir)) return [];
    return readdirSync(dir).flatMap((name) => {
      const p = path.join(dir, name);
      if (SKIP.test(path.relative(root, p))) return [];
      if (statSync(p).isDirectory()) return walk(p);
      return TEXT_FILES.test(name) ? [p] : [];
    });
  };
  return [
    ...[...CODE_ROOTS, 'docs'].flatMap((d) => walk(path.join(root, d))),
    ...ROOT_TEXT.map((f) => path.join(root, f)).filter((f) => existsSync(f)),
  ];
}

const missing = unplaced();
if (missing.length) {
  console.error(`Not placed in a tier (eslint/layers.mjs, TIERS): ${missing.join(', ')}. Place them first.`);
  process.exit(1);
}
const moves = plannedMoves().filter(([from]) => onDisk(from));
if (moves.length === 0) {
  console.log('Every folder of src/core is already in its tier folder; nothing to move.');
  process.exit(0);
}
for (const [from, to] of moves) console.log(`${dryRun ? 'would move' : 'move'} src/${from} → src/${to}`);
if (dryRun) process.exit(0);

// 1. Every relative import, read while the files are where they were.
const codeFiles = CODE_ROOTS.flatMap((d) => sourceFiles(path.join(root, d)))
  .concat([path.join(root, 'eslint.config.mjs')]).filter((f) => existsSync(f));
const imports = new Map(codeFiles.map((f) => [f, relativeImports(readFileSync(f, 'utf8'))]));

// 2. The moves.
for (const [from, to] of moves) {
  const fromAbs = onDisk(from);
  const toAbs = path.join(src, to) + (fromAbs.endsWith(path.join(src, from)) ? '' : path.extname(fromAbs));
  mkdirSync(path.dirname(toAbs), { recursive: true });
  execFileSync('git', ['mv', path.relative(root, fromAbs), path.relative(root, toAbs)], { cwd: root });
}
const moved = mapper(moves);

// 3. Imports: each specifier names the same file from the file's new place.
let rewritten = 0;
const changed = new Set();
for (const [file, list] of imports) {
  const now = moved(file);
  let text = readFileSync(now, 'utf8');
  for (const imp of [...list].sort((a, b) => b.start - a.start)) {
    const target = moved(path.resolve(path.dirname(file), imp.specifier));
    const spec = specifierFor(path.dirname(now), target);
    if (spec === imp.specifier) continue;
    text = text.slice(0, imp.start) + spec + text.slice(imp.end);
    rewritten++;
  }
  if (text !== readFileSync(now, 'utf8')) {
    writeFileSync(now, text);
    changed.add(now);
  }
}

// 4. Paths written as text, in code, comments, configuration and docs.
const rewrite = textRewriter(moves);
for (const file of textFiles()) {
  const before = readFileSync(file, 'utf8');
  const after = rewrite(before);
  if (after === before) continue;
  writeFileSync(file, after);
  changed.add(file);
}

// 5. Folders the moves left empty.
for (const [from] of moves) {
  const abs = path.join(src, from);
  if (existsSync(abs) && statSync(abs).isDirectory() && readdirSync(abs).length === 0) rmdirSync(abs);
}
// 6. The formatter orders imports by specifier, and a longer path may need a new line break.
const dprint = path.join(root, 'node_modules', 'dprint', 'bin.cjs');
const formattable = [...changed].filter((f) => /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md)$/.test(f));
if (existsSync(dprint) && formattable.length) {
  execFileSync(process.execPath, [dprint, 'fmt', ...formattable.map((f) => path.relative(root, f))], {
    cwd: root,
    stdio: 'inherit',
  });
}
console.log(`${moves.length} moved; ${rewritten} import specifiers rewritten; ${changed.size} files changed.`);
console.log('Next: npx tsc -b . src/webview && npm run lint && npm run test:unit');
