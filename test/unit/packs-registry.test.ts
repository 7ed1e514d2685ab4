// The npm path of knowledge packs, for real and offline: `npm pack` is pointed at a registry served
// here (node:http, a packument and the tarball `npm pack` made) through npm's own configuration
// (`npm_config_registry`), so the code that asks a registry for a pack, checks the integrity npm reports,
// pins and updates it is exercised without the network.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cli } from './cli-helpers';
import { writeFiles } from './guard-helpers';

process.env.AUTOSNIPPET_HOME = mkdtempSync(path.join(os.tmpdir(), 'as-registry-home-'));
process.env.npm_config_cache = mkdtempSync(path.join(os.tmpdir(), 'as-registry-npm-cache-'));
process.env.npm_config_update_notifier = 'false';
process.env.npm_config_fetch_retries = '0'; // a refused tarball fails at once instead of after npm's back-off

const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), `as-registry-${p}-`));

/** A pack folder at a version, packed with the real `npm pack`: the tarball's bytes. */
function packTarball(version: string, recipes: Record<string, string>): Buffer {
  const dir = tmp(`pack-${version}`);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: '@team/rules', version, files: ['autosnippet-pack.json', 'recipes'] }),
    'autosnippet-pack.json': JSON.stringify({ name: '@team/rules', version }),
    ...Object.fromEntries(
      Object.entries(recipes).map(([id, title]) => [
        `recipes/api/${id}.md`,
        `---\nid: ${id}\ntitle: ${title}\nlanguage: typescript\nknowledgeType: code-standard\nstatus: published\nsummary: ${title}.\n---\n\nText.\n`,
      ]),
    ),
  });
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
  return readFileSync(path.join(dir, (JSON.parse(out) as { filename: string }[])[0].filename));
}

/**
 * A registry of one package: its packument at /@team%2frules, each version's tarball under /-/. The
 * packument states the integrity of `claimed` (by default the tarballs served).
 */
function serve(
  versions: Map<string, Buffer>,
  requests: string[],
  claimed = versions,
): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = decodeURIComponent(req.url ?? '');
    if (url === '/@team/rules') {
      const latest = [...versions.keys()].pop()!;
      const packument = {
        name: '@team/rules',
        'dist-tags': { latest },
        versions: Object.fromEntries(
          [...claimed].map(([v, data]) => [v, {
            name: '@team/rules',
            version: v,
            dist: {
              tarball: `${base}/@team/rules/-/rules-${v}.tgz`,
              integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
              shasum: createHash('sha1').update(data).digest('hex'),
            },
          }]),
        ),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
      return;
    }
    const m = /^\/@team\/rules\/-\/rules-(.+)\.tgz$/.exec(url);
    const data = m && versions.get(m[1]);
    if (data) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(data);
    else res.writeHead(404).end('{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        close: () => server.close(),
      }))
  );
}

test('a pack from a registry: added by name, pinned with the integrity npm reports, updated to a new version', async () => {
  const v1 = packTarball('1.0.0', { 'api-client': 'Call the API through apiClient' });
  const versions = new Map([['1.0.0', v1]]);
  const requests: string[] = [];
  const registry = await serve(versions, requests);
  const before = process.env.npm_config_registry;
  process.env.npm_config_registry = registry.url;
  try {
    const project = tmp('project');
    writeFiles(project, { '.autosnippet/.gitignore': 'state/\n' });
    const added = await cli(project, 'packs', 'add', '@team/rules@^1');
    assert.equal(added.code, 0, added.stderr + added.stdout);
    assert.ok(
      requests.some((r) => /rules-1\.0\.0\.tgz$/.test(r)),
      `the tarball came from the registry: ${requests.join(' ')}`,
    );
    const pin = JSON.parse(readFileSync(path.join(project, '.autosnippet/packs.json'), 'utf8')).packs['@team/rules'];
    assert.equal(pin.kind, 'npm');
    assert.equal(pin.version, '1.0.0');
    assert.equal(pin.wanted, '^1');
    assert.equal(pin.integrity, `sha512-${createHash('sha512').update(v1).digest('base64')}`);
    const listed = await cli(project, 'list-recipes');
    assert.match(listed.stdout, /"name": "@team\/rules"/);

    versions.set(
      '1.1.0',
      packTarball('1.1.0', {
        'api-client': 'Call the API through apiClient',
        'api-retry': 'Retry idempotent calls twice',
      }),
    );
    const dry = await cli(project, 'packs', 'update', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout + dry.stderr, /1\.0\.0 → 1\.1\.0|1\.0\.0 -> 1\.1\.0/);
    assert.match(dry.stdout + dry.stderr, /\+api-retry/);
    const updated = await cli(project, 'packs', 'update');
    assert.equal(updated.code, 0, updated.stderr);
    const after = JSON.parse(readFileSync(path.join(project, '.autosnippet/packs.json'), 'utf8')).packs['@team/rules'];
    assert.equal(after.version, '1.1.0');

    // A registry that serves bytes other than the ones its packument's integrity names is refused.
    versions.set('1.2.0', packTarball('1.2.0', { 'api-client': 'Changed' }));
    const real = versions.get('1.2.0')!;
    const served = new Map(versions);
    served.set('1.2.0', Buffer.concat([real.subarray(0, real.length - 1), Buffer.from([real[real.length - 1] ^ 1])]));
    registry.close();
    const lying = await serve(served, requests, versions);
    process.env.npm_config_registry = lying.url;
    // Its packument still states the integrity of the honest tarball.
    const bad = await cli(project, 'packs', 'update');
    lying.close();
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /corrupt|integrity|PACK_TAMPERED/i);
    const kept = JSON.parse(readFileSync(path.join(project, '.autosnippet/packs.json'), 'utf8')).packs['@team/rules'];
    assert.equal(kept.version, '1.1.0', 'nothing pinned from a tarball that does not match');
  } finally {
    registry.close();
    if (before === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = before;
  }
});
