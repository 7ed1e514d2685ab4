// Multi-root workspaces in a real VS Code: the suite in test/vscode/multiroot runs in a window with two
// folders (see that file for what it checks).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeServerEntry, describeRun, repoRoot, VSCodeSession } from './harness';

const suite = path.join(repoRoot, 'out/test/vscode/multiroot/index.js');

describe('AutoSnippet in a multi-root workspace', { timeout: 240_000 }, () => {
  let session: VSCodeSession;
  let tmp: string;
  let workspaceFile: string;

  before(async () => {
    if (!existsSync(codeServerEntry)) {
      assert.equal(spawnSync('bash', [path.join(repoRoot, 'scripts/setup-vscode.sh')], { stdio: 'inherit' }).status, 0);
    }
    if (!existsSync(suite)) {
      assert.equal(
        spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit', cwd: repoRoot })
          .status,
        0,
      );
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-multiroot-'));
    const alpha = path.join(tmp, 'alpha');
    cpSync(path.join(repoRoot, 'test/fixtures/sample-workspace'), alpha, { recursive: true });
    const beta = path.join(tmp, 'beta');
    mkdirSync(path.join(beta, 'src'), { recursive: true });
    mkdirSync(path.join(beta, '.autosnippet/recipes/beta'), { recursive: true });
    mkdirSync(path.join(beta, '.autosnippet/skills/beta-release-notes'), { recursive: true });
    // beta lints with typescript-eslint's recommended set, so guard reports `as any` there as its linter would.
    writeFileSync(
      path.join(beta, 'eslint.config.mjs'),
      "import tseslint from 'typescript-eslint';\n\nexport default tseslint.config(...tseslint.configs.recommended);\n",
    );
    writeFileSync(
      path.join(beta, 'src/api.ts'),
      'export async function load(names: Map<string, string>, k: string) {\n  const res = await fetch("/api");\n  return (names.get(k) as any).length + (await res.text()).length;\n}\n',
    );
    writeFileSync(
      path.join(beta, '.autosnippet/recipes/beta/log-with-context.md'),
      '---\ntitle: Log errors with their context\nlanguage: typescript\nknowledgeType: best-practice\nsummary: Pass the request id to every log line.\n---\n\n```ts\nlog.error("failed", { requestId });\n```\n',
    );
    writeFileSync(
      path.join(beta, '.autosnippet/skills/beta-release-notes/SKILL.md'),
      '---\nname: beta-release-notes\ndescription: Use when writing release notes for beta.\n---\n\n# Release notes\n\n## Steps\n\n1. List the user-facing changes.\n',
    );
    workspaceFile = path.join(tmp, 'two-folders.code-workspace');
    writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }] }, null, 2));
    session = await VSCodeSession.start({ workspace: alpha, name: 'multiroot' });
  });

  after(async () => {
    await session?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("each folder's recipes, skills and squiggles are its own", async (t) => {
    const result = await session.runExtensionTests({
      extensionTestsPath: suite,
      folder: workspaceFile,
      timeoutMs: 150_000,
    });
    for (const line of describeRun(result).split('\n')) t.diagnostic(line);
    assert.ok(result.suiteLines.length > 0, describeRun(result));
    assert.equal(result.exitCode, 0, describeRun(result));
  });
});
