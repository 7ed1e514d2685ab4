// The workspace listing: the one walker (nested .gitignores, always-skipped folders, no links), cold
// and cached, side by side in the same run with what a user would reach for instead: `rg --files`
// (ripgrep's own .gitignore-aware walker) and `git ls-files --others --exclude-standard` (git's).
// Workspaces: a generated tree (20,000 files in 2,000 folders, nested .gitignores, a node_modules
// that must be skipped) and, when present, the public repositories under AUTOSNIPPET_REPOS
// (default /work/repos; each folder a checkout, not a git repository).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkspaceFiles } from '../src/core/ground/files';
import { type BenchTable, median, ms, ratio, sample } from './lib';

const RG = '/usr/bin/rg';
const REPOS = process.env.AUTOSNIPPET_REPOS ?? '/work/repos';
const REAL = ['trpc+trpc', 'square+okhttp', 'BurntSushi+ripgrep', 'Alamofire+Alamofire'];

/** 20 top folders × 10 × 10 leaves, 10 files each, with .gitignores at two levels and a node_modules. */
function generatedTree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'as-bench-files-'));
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n*.log\nbuild/\n');
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 10; b++) {
      const mid = path.join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(mid, { recursive: true });
      if (b === 0) writeFileSync(path.join(root, `pkg${a}`, '.gitignore'), 'generated/\n!keep.log\n');
      for (let c = 0; c < 10; c++) {
        const leaf = path.join(mid, `part${c}`);
        mkdirSync(leaf);
        for (let f = 0; f < 10; f++) writeFileSync(path.join(leaf, f === 9 ? 'trace.log' : `file${f}.ts`), '');
      }
    }
  }
  const nm = path.join(root, 'node_modules', 'dep', 'lib');
  mkdirSync(nm, { recursive: true });
  for (let f = 0; f < 2000; f++) writeFileSync(path.join(nm, `m${f}.js`), '');
  return root;
}

function tool(cmd: string, args: string[], cwd: string): number {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean).length;
}

async function measure(name: string, root: string, gitRepo: boolean): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  let files = 0;
  const cold = await sample(5, async () => {
    files = (await new WorkspaceFiles(root).list()).files.length;
  });
  // Same listing asked again after the freshness window: one stat per folder, nothing read again.
  const cached = new WorkspaceFiles(root, { freshMs: 0 });
  await cached.list();
  const revalidate = await sample(9, () => cached.list());
  // One file added: its folder is read again.
  const leaf = (await cached.list()).files[Math.floor(files / 2)];
  let n = 0;
  const added = await sample(9, async () => {
    writeFileSync(path.join(root, path.dirname(leaf), `added-${n++}.ts`), '');
    await cached.list();
  });
  for (let i = 0; i < n; i++) rmSync(path.join(root, path.dirname(leaf), `added-${i}.ts`), { force: true });
  const rg = existsSync(RG)
    ? await sample(5, () => tool(RG, ['--files', '--no-config', '--hidden', '--glob', '!.git'], root))
    : [];
  const git = gitRepo ? await sample(5, () => tool('git', ['ls-files', '--others', '--exclude-standard'], root)) : [];
  const base = median(cold);
  rows.push([name, files, 'walk, cold', ms(base), '-']);
  rows.push([name, files, 'asked again (stat per folder)', ms(median(revalidate)), ratio(median(revalidate), base)]);
  rows.push([name, files, 'asked again after a new file', ms(median(added)), ratio(median(added), base)]);
  if (rg.length) rows.push([name, files, 'rg --files (spawn included)', ms(median(rg)), ratio(median(rg), base)]);
  if (git.length) {
    rows.push([name, files, 'git ls-files --others --exclude-standard', ms(median(git)), ratio(median(git), base)]);
  }
  return rows;
}

export async function run(): Promise<BenchTable[]> {
  const rows: (string | number)[][] = [];
  const tree = generatedTree();
  try {
    spawnSync('git', ['init', '-q'], { cwd: tree });
    rows.push(...(await measure('generated (20k files, 2k folders)', tree, true)));
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
  const present = existsSync(REPOS) ? readdirSync(REPOS).filter((r) => REAL.includes(r)) : [];
  for (const repo of present) rows.push(...(await measure(repo, path.join(REPOS, repo), false)));
  return [{
    title:
      'Workspace listing: one walker (nested .gitignore, skipped folders, no links), cold and cached, vs ripgrep and git',
    columns: ['workspace', 'files', 'what', 'median', 'vs cold walk'],
    rows,
    notes: [
      '"asked again": what every tool call after the first costs without a file watcher (the MCP server, the CLI): one stat per listed folder and .gitignore, and only changed folders are read again. With a watcher (invalidate), a call reads nothing.',
      'rg and git print paths only; ours also applies the always-skipped folders (dist, vendor, target beside Cargo.toml…) and reports special files and bad ignore lines. Counts differ for that reason.',
    ],
  }];
}
