// Skills inside VS Code: validation problems in the Problems panel, and the skills tools.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import { test } from './collector';
import { activateExtension, eventually, toolResultJson, workspaceRoot } from './expect';

test('a SKILL.md with a bad name shows a problem in the Problems panel', async () => {
  await activateExtension();
  const uri = vscode.Uri.file(path.join(workspaceRoot(), '.github', 'skills', 'Bad_Skill', 'SKILL.md'));
  const problems = await eventually('a diagnostic on Bad_Skill/SKILL.md', () => {
    const d = vscode.languages.getDiagnostics(uri);
    return d.length > 0 ? d : undefined;
  }, 20_000);
  assert.ok(
    problems.some((d) => /name/i.test(d.message) && d.severity === vscode.DiagnosticSeverity.Error),
    problems.map((d) => d.message).join('\n'),
  );
  const good = vscode.Uri.file(path.join(workspaceRoot(), '.github', 'skills', 'team-conventions', 'SKILL.md'));
  assert.equal(
    vscode.languages.getDiagnostics(good).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length,
    0,
    'a valid skill has no errors',
  );
});

test('list_skills through vscode.lm sees the 13 bundled skills and the workspace one', async () => {
  await activateExtension();
  const json = toolResultJson(
    await vscode.lm.invokeTool('autosnippet_list_skills', { input: {}, toolInvocationToken: undefined }),
  );
  assert.equal(json.ok, true, JSON.stringify(json).slice(0, 500));
  const names: string[] = JSON.stringify(json.data).match(/"name":"([a-z0-9-]+)"/g)?.map((m: string) => m.slice(8, -1))
    ?? [];
  assert.equal(names.filter((n) => n.startsWith('autosnippet-')).length, 13, names.join(', '));
  assert.ok(names.includes('team-conventions'), names.join(', '));
});
