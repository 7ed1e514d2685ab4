// Knowledge packs in VS Code: "Add Knowledge Pack…" with a tarball from the real `npm pack` pins the
// pack and its recipe shows in the Recipes view with the pack's name and version; "Remove Knowledge
// Pack…" takes it out again. The commands take an argument that replaces their prompts ({ source },
// { name }); the pin and the pack's copy are removed at the end, so the other suites see the fixture
// as it was.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AutoSnippetApi } from '../../../src/vscode/extension';
import { test } from './collector';
import { activateExtension, eventually, toolResultJson, workspaceRoot } from './expect';

const PACK = 'suite-pack';
const TITLE = 'Suite pack rule: call the API through apiClient';

/** A pack folder with one published recipe, packed by npm into a tarball; answers the tarball's path. */
function packTarball(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-suite-pack-'));
  writeFileSync(path.join(dir, 'autosnippet-pack.json'), JSON.stringify({ name: PACK, version: '1.0.0' }));
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: PACK, version: '1.0.0', files: ['autosnippet-pack.json', 'recipes/'] }),
  );
  mkdirSync(path.join(dir, 'recipes', 'suite-packs'), { recursive: true });
  writeFileSync(
    path.join(dir, 'recipes', 'suite-packs', 'api-client.md'),
    `---\nid: suite-pack-api-client\ntitle: "${TITLE}"\nlanguage: typescript\ncategory: suite-packs\nknowledgeType: code-standard\nstatus: published\nsummary: Every request goes through apiClient.\n---\n\nUse apiClient.\n`,
  );
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts'], { cwd: dir, encoding: 'utf8' });
  return path.join(dir, (JSON.parse(out) as { filename: string }[])[0].filename);
}

test('"Add Knowledge Pack…" pins a tarball and its recipe shows with name@version; "Remove" takes it out', async () => {
  const api = (await activateExtension()) as unknown as AutoSnippetApi;
  const pins = path.join(workspaceRoot(), '.autosnippet', 'packs.json');
  const hadPins = existsSync(pins) ? readFileSync(pins, 'utf8') : undefined;
  // The Recipes view's row as a person reads it; an installed extension (production mode) has no view
  // hook, and then the row's text is made from what list_recipes answers, as the view makes it.
  const shown = async (): Promise<string | undefined> => {
    if (api.testing) {
      return (await api.testing.recipesTree()).flatMap((c) => c.children ?? []).find((l) => l.startsWith(TITLE));
    }
    const listed = toolResultJson(
      await vscode.lm.invokeTool('autosnippet_list_recipes', {
        input: { status: 'any', category: 'suite-packs' },
        toolInvocationToken: undefined,
      }),
    );
    const r = (listed.data?.recipes ?? []).find((x: { title: string }) => x.title === TITLE);
    return r ? `${r.title} — ${r.pack ? `${r.pack.name}@${r.pack.version}` : ''}` : undefined;
  };
  try {
    const added = await vscode.commands.executeCommand('autosnippet.packs.add', { source: packTarball() });
    assert.equal(added, PACK);
    assert.ok(JSON.parse(readFileSync(pins, 'utf8')).packs[PACK], 'pinned in .autosnippet/packs.json');
    await eventually('the pack recipe shows in the Recipes view', async () => (await shown()) !== undefined, 15_000);
    assert.match((await shown())!, /suite-pack@1\.0\.0/, 'the row says which pack and version it comes from');

    const removed = await vscode.commands.executeCommand('autosnippet.packs.remove', { name: PACK });
    assert.equal(removed, PACK);
    await eventually('the pack recipe leaves the Recipes view', async () => (await shown()) === undefined, 15_000);
    assert.ok(!JSON.parse(readFileSync(pins, 'utf8')).packs?.[PACK], 'the pin is gone');
  } finally {
    if (hadPins === undefined) rmSync(pins, { force: true });
    else writeFileSync(pins, hadPins);
    rmSync(path.join(workspaceRoot(), '.autosnippet', 'state', 'packs'), { recursive: true, force: true });
  }
});
