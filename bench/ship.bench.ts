// What ships: the size of each bundle and of the .vsix a user installs. The checkout's sources are
// copied to a temporary folder, built there with `--production` (what `npm run package` ships) and
// packaged with the real `vsce package --no-dependencies` (it works offline), so dist/ is left as the
// other benchmarks use it. BENCH_BASELINE=/path/to/another/checkout (its node_modules installed or
// linked) adds that checkout's figures in the same run (before/after).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BenchTable } from './lib';

/** What `npm run package` needs from a checkout, besides node_modules. */
const PACKAGE_INPUTS = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  '.vscodeignore',
  'scripts',
  'src',
  'skills',
  'media',
  'l10n',
  'schemas',
];

interface Shipped {
  bundles: Map<string, number>;
  vendor: number;
  dist: number;
  vsix: number;
  vsixFiles: number;
}

function packageCheckout(checkout: string, temp: string): Shipped {
  const dir = mkdtempSync(path.join(temp, 'pkg-'));
  for (const f of PACKAGE_INPUTS) {
    if (existsSync(path.join(checkout, f))) cpSync(path.join(checkout, f), path.join(dir, f), { recursive: true });
  }
  symlinkSync(path.join(checkout, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: dir, stdio: 'ignore' });
  const vsce = path.join(checkout, 'node_modules', '@vscode', 'vsce', 'vsce');
  const vsix = path.join(dir, 'out.vsix');
  const listing = execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '-o', vsix], {
    cwd: dir,
    encoding: 'utf8',
  });
  const dist = path.join(dir, 'dist');
  const bundles = new Map(
    readdirSync(dist).filter((f) => f.endsWith('.js')).map((f) => [f, statSync(path.join(dist, f)).size]),
  );
  return {
    bundles,
    vendor: folderBytes(path.join(dist, 'vendor')),
    dist: folderBytes(dist),
    vsix: statSync(vsix).size,
    vsixFiles: Number(/Packaged: .*\((\d+) files/.exec(listing)?.[1] ?? NaN),
  };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

const kb = (
  n: number | undefined,
) => (n === undefined
  ? '-'
  : n >= 2 ** 20
  ? `${(n / 2 ** 20).toFixed(2)} MB`
  : n >= 10240
  ? `${(n / 1024).toFixed(0)} KB`
  : `${(n / 1024).toFixed(1)} KB`);

export async function run(): Promise<BenchTable[]> {
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-ship-'));
  try {
    const ours = packageCheckout(path.join(__dirname, '..'), temp);
    const baselineDir = process.env.BENCH_BASELINE;
    const base = baselineDir ? packageCheckout(path.resolve(baselineDir), temp) : undefined;
    const names = [...new Set([...(base?.bundles.keys() ?? []), ...ours.bundles.keys()])].sort();
    const row = (
      label: string,
      now: number | undefined,
      before: number | undefined,
    ) => (base ? [label, kb(before), kb(now)] : [label, kb(now)]);
    return [
      {
        title: 'What ships: production bundles and the .vsix',
        columns: base ? ['file', 'baseline', 'this checkout'] : ['file', 'size'],
        rows: [
          ...names.map((n) => row(`dist/${n}`, ours.bundles.get(n), base?.bundles.get(n))),
          row('dist/vendor/ (loaded on first use)', ours.vendor, base?.vendor),
          row('dist/ in all', ours.dist, base?.dist),
          row(`.vsix (${ours.vsixFiles} files)`, ours.vsix, base?.vsix),
        ],
        notes: [
          'Built with `scripts/build.mjs --production` (minified, no source maps) in a copy of the checkout and packaged with `vsce package --no-dependencies`, as `npm run package` does.',
          ...(base ? [`baseline: ${baselineDir} (${base.vsixFiles} files in its .vsix)`] : []),
        ],
      },
    ];
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
