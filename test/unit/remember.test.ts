// Remembering in one step: a person's sentence becomes a published recipe, exported; an agent's proposes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { rememberCommand } from '../../src/cli/remember';
import { createCatalog } from '../../src/core/catalog';
import { rememberTool, titleOf } from '../../src/core/catalog/remember';
import { listCandidates } from '../../src/core/domains/knowledge';
import { Workspace } from '../../src/core/ground/workspace';

async function workspace(files: Record<string, string> = {}): Promise<Workspace> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'as-remember-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return Workspace.open(root);
}

function output() {
  const o = { stdout: '', stderr: '' };
  return { o, out: { stdout: (s: string) => void (o.stdout += s), stderr: (s: string) => void (o.stderr += s) } };
}

test('a title is the first sentence, cut at a word boundary', () => {
  assert.equal(titleOf('We wrap fetch in apiClient. It adds auth and retries.'), 'We wrap fetch in apiClient');
  const long = titleOf(
    'Every screen registers its route in the router table before it is exported from the feature module, so deep links work',
  );
  assert.ok(long.length <= 81 && long.endsWith('…') && !/\s…$/.test(long), long);
  assert.equal(titleOf('所有网络请求都走 apiClient。它会加上认证。'), '所有网络请求都走 apiClient');
});

test('the CLI: the sentence and code, one confirmation showing the file, then a published recipe listed in AGENTS.md', async () => {
  const ws = await workspace({
    'src/http.ts': 'import { apiClient } from "./api";\nexport const get = (u: string) => apiClient.get(u);\n',
  });
  try {
    const asked: string[] = [];
    const { o, out } = output();
    const code = await rememberCommand(
      ['We wrap fetch in apiClient.', '--code', 'src/http.ts:2'],
      async () => ws,
      out,
      async (q) => (asked.push(q), true),
    );
    assert.equal(code, 0, o.stderr);
    assert.equal(asked.length, 1, 'one confirmation');
    assert.match(asked[0], /Publish \.autosnippet\/recipes\/conventions\/[\w-]+\.md and update AGENTS\.md\?/);
    assert.match(o.stderr, /apiClient\.get\(u\)/, 'the preview shows the file it writes, code included');
    const file = /Published (\S+?);/.exec(o.stdout)![1];
    const recipe = readFileSync(path.join(ws.root, file), 'utf8');
    assert.match(recipe, /status: published/);
    assert.match(recipe, /language: typescript/);
    const agents = readFileSync(path.join(ws.root, 'AGENTS.md'), 'utf8');
    assert.match(agents, /We wrap fetch in apiClient/);
    const audit = await createCatalog().invoke(
      ws,
      'query_audit_log',
      { limit: 20 },
      { actor: 'human', channel: 'test' },
    );
    assert.ok(
      audit.ok && JSON.stringify(audit.data).includes('"remember"') && JSON.stringify(audit.data).includes('"human"'),
      'the audit names the person as the actor',
    );
  } finally {
    await ws.dispose();
  }
});

test('the CLI: a "no" writes nothing; the instruction files already chosen are the ones updated', async () => {
  const ws = await workspace({
    'CLAUDE.md':
      '# Notes\n\n<!-- autosnippet:begin — generated from the published recipes in .autosnippet/recipes; `autosnippet export` replaces this block, so write your own text outside it -->\n<!-- autosnippet:end -->\n',
  });
  try {
    const { o, out } = output();
    assert.equal(await rememberCommand(['Never block the main thread'], async () => ws, out, async () => false), 1);
    assert.match(o.stderr, /Nothing was written/);
    assert.equal(existsSync(path.join(ws.root, '.autosnippet', 'recipes')), false);
    const yes = output();
    assert.equal(
      await rememberCommand(['Never block the main thread', '--yes'], async () => ws, yes.out),
      0,
      yes.o.stderr,
    );
    assert.match(readFileSync(path.join(ws.root, 'CLAUDE.md'), 'utf8'), /Never block the main thread/);
    assert.equal(existsSync(path.join(ws.root, 'AGENTS.md')), false, 'no file the person did not choose');
  } finally {
    await ws.dispose();
  }
});

test("an agent's remember is a proposal: a pending candidate, no recipe file, no instruction file", async () => {
  const ws = await workspace();
  try {
    const r = await createCatalog().call(
      ws,
      rememberTool,
      { text: 'We wrap fetch in apiClient.' },
      { actor: 'external_agent', channel: 'mcp' },
    );
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.data.status, 'proposed');
    assert.deepEqual(listCandidates(ws).map((c) => [c.id, c.status]), [[r.data.candidate, 'pending']]);
    assert.equal(existsSync(path.join(ws.root, '.autosnippet', 'recipes')), false);
    assert.equal(existsSync(path.join(ws.root, 'AGENTS.md')), false);
  } finally {
    await ws.dispose();
  }
});

test('an instruction file that is a FIFO is passed over, not read: remember answers and writes AGENTS.md', async () => {
  const ws = await workspace();
  try {
    execFileSync('mkfifo', [path.join(ws.root, 'CLAUDE.md')]);
    const { o, out } = output();
    assert.equal(await rememberCommand(['Never block the main thread', '--yes'], async () => ws, out), 0, o.stderr);
    assert.match(readFileSync(path.join(ws.root, 'AGENTS.md'), 'utf8'), /Never block the main thread/);
  } finally {
    await ws.dispose();
  }
});
