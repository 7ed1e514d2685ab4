// Guard inside VS Code: squiggles on open, the quick fix, the workspace scan into the Problems panel.
// The files are written into the fixture workspace by the tests themselves and removed afterwards.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { test } from './collector';
import { activateExtension, eventually, workspaceRoot } from './expect';

const SOURCE = 'AutoSnippet Guard';

function guardDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

function fixtureFile(name: string, content: string): vscode.Uri {
  const dir = path.join(workspaceRoot(), 'guard-suite');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return vscode.Uri.file(file);
}

test('opening a file shows guard squiggles with the rule id linking to its explanation', async () => {
  await activateExtension();
  const uri = fixtureFile(
    'open.ts',
    'export function f(m: Map<string, unknown>, k: string) {\n  return (m.get(k) as any).length + eval("1");\n}\n',
  );
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const ds = await eventually(
      'guard diagnostics on open.ts',
      () => (guardDiagnostics(uri).length >= 2 ? guardDiagnostics(uri) : undefined),
      20_000,
    );
    assert.deepEqual(ds.map(codeOf).sort(), ['ts/no-eval', 'ts/no-explicit-any-cast']);
    const evalDiag = ds.find((d) => codeOf(d) === 'ts/no-eval')!;
    assert.equal(evalDiag.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(evalDiag.range.start.line, 1);
    const target = typeof evalDiag.code === 'object' ? evalDiag.code.target : undefined;
    assert.ok(target, 'the code links to the explanation');
    const doc = await vscode.workspace.openTextDocument(target);
    assert.match(doc.getText(), /# ts\/no-eval/);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(uri.fsPath, { force: true });
  }
});

test("the quick fix applies the rule's fix to the text", async () => {
  await activateExtension();
  const uri = fixtureFile('fix.ts', 'export const n = (m: Map<string, unknown>) => m.get("k") as any;\n');
  try {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const [d] = await eventually('an any-cast diagnostic', () => {
      const ds = guardDiagnostics(uri).filter((x) => codeOf(x) === 'ts/no-explicit-any-cast');
      return ds.length ? ds : undefined;
    }, 20_000);
    // VS Code cancels a code-action request when the diagnostics change under it (the check after
    // opening can land late), so ask again until an answer comes back.
    const actions = await eventually('the quick fixes', async () => {
      const current = guardDiagnostics(uri).find((x) => codeOf(x) === 'ts/no-explicit-any-cast') ?? d;
      return vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        current.range,
        vscode.CodeActionKind.QuickFix.value,
      );
    }, 10_000);
    const fix = actions.find((a) => a.isPreferred && a.edit);
    assert.ok(fix, `no preferred fix among: ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(actions.some((a) => /Disable ts\/no-explicit-any-cast for this line/.test(a.title)));
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.equal(editor.document.getText(), 'export const n = (m: Map<string, unknown>) => m.get("k") as unknown;\n');
    await eventually('the diagnostic goes away', () => guardDiagnostics(uri).length === 0, 10_000);
  } finally {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    rmSync(uri.fsPath, { force: true });
  }
});

test('"Mark reviewed" is offered for a finding, records it in the baseline file with the reason, and the squiggle goes away', async () => {
  await activateExtension();
  const uri = fixtureFile('reviewed.ts', 'export const run = (code: string) => eval(code);\n');
  const baseline = path.join(workspaceRoot(), '.autosnippet/guard/baseline.json');
  const before = existsSync(baseline) ? readFileSync(baseline, 'utf8') : undefined;
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const d = await eventually(
      'an eval diagnostic',
      () => guardDiagnostics(uri).find((x) => codeOf(x) === 'ts/no-eval'),
      20_000,
    );
    const actions = await eventually('the quick fixes', async () => {
      const current = guardDiagnostics(uri).find((x) => codeOf(x) === 'ts/no-eval') ?? d;
      return vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        current.range,
        vscode.CodeActionKind.QuickFix.value,
      );
    }, 10_000);
    const mark = actions.find((a) => /Mark this ts\/no-eval finding reviewed/.test(a.title));
    assert.ok(mark?.command, `no "mark reviewed" among: ${actions.map((a) => a.title).join(', ')}`);
    const [target, line, rule] = mark.command.arguments ?? [];
    assert.equal(String(target), String(uri));
    assert.deepEqual([line, rule], [1, 'ts/no-eval']);
    // The quick fix asks the person for the reason in an input box (VS Code's own); the command also
    // takes it as an argument, which is how this test gives it.
    await vscode.commands.executeCommand(
      mark.command.command,
      ...mark.command.arguments!,
      'The playground runs what its user typed, in their own tab.',
    );
    await eventually('the squiggle goes away', () => guardDiagnostics(uri).length === 0, 10_000);
    const written = JSON.parse(readFileSync(baseline, 'utf8')) as {
      reviewed?: Record<string, { rule: string; reason: string }[]>;
    };
    assert.deepEqual(written.reviewed?.['guard-suite/reviewed.ts']?.map((e) => [e.rule, e.reason]), [[
      'ts/no-eval',
      'The playground runs what its user typed, in their own tab.',
    ]]);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(uri.fsPath, { force: true });
    if (before === undefined) rmSync(baseline, { force: true });
    else writeFileSync(baseline, before);
  }
});

test('"Scan workspace" fills the Problems panel for files that are not open', async () => {
  await activateExtension();
  const uri = fixtureFile('closed.py', 'try:\n    run()\nexcept:\n    pass\n');
  try {
    await vscode.commands.executeCommand('autosnippet.guard.scanWorkspace');
    const ds = await eventually(
      'scan diagnostics on closed.py',
      () => (guardDiagnostics(uri).length ? guardDiagnostics(uri) : undefined),
      30_000,
    );
    // py/except-pass is off by default (like Ruff's S110); the bare except is reported.
    assert.deepEqual(ds.map(codeOf).sort(), ['py/bare-except']);
  } finally {
    rmSync(path.dirname(uri.fsPath), { recursive: true, force: true });
  }
}, { timeoutMs: 60_000 });

test("a published recipe's guard constraint shows as a squiggle, and follows edits of the recipe", async () => {
  await activateExtension();
  const recipeFile = path.join(workspaceRoot(), '.autosnippet/recipes/guard-suite/use-getjson.md');
  const recipe = (pattern: string, message: string) =>
    `---\ntitle: Network calls go through getJson\ntrigger: "@getjson"\nlanguage: typescript\ncategory: guard-suite\nknowledgeType: code-standard\nstatus: published\nsummary: Call the network through getJson, never fetch directly.\nconstraints:\n  guards:\n    - pattern: "${pattern}"\n      message: ${message}\n---\n\n\`\`\`ts\nconst users = await getJson('/users');\n\`\`\`\n`;
  mkdirSync(path.dirname(recipeFile), { recursive: true });
  writeFileSync(recipeFile, recipe('\\\\bfetch\\\\(', 'Use getJson instead of fetch.'));
  const uri = fixtureFile(
    'recipe.ts',
    'export const load = () => fetch("/users");\nexport const other = () => axios.get("/users");\n',
  );
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const ds = await eventually('the recipe rule squiggle', () => {
      const found = guardDiagnostics(uri).filter((d) => codeOf(d) === 'recipe/guard-suite/use-getjson');
      return found.length ? found : undefined;
    }, 30_000);
    assert.equal(ds[0].range.start.line, 0);
    assert.match(ds[0].message, /Use getJson instead of fetch\./);
    writeFileSync(recipeFile, recipe('\\\\baxios\\\\.', 'Use getJson instead of axios.'));
    await eventually('the squiggle follows the edited recipe', () => {
      const found = guardDiagnostics(uri).filter((d) => codeOf(d) === 'recipe/guard-suite/use-getjson');
      return found.length === 1 && found[0].range.start.line === 1 ? found : undefined;
    }, 30_000);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(path.dirname(recipeFile), { recursive: true, force: true });
    rmSync(path.dirname(uri.fsPath), { recursive: true, force: true });
  }
}, { timeoutMs: 90_000 });
