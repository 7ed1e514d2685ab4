import path from 'node:path';
import * as vscode from 'vscode';
import type { RuleStatus } from '../core/catalog/adapters';
import { languageForPath, ruleLanguagesFor } from '../core/ground/kernel/languages';
import { rulesByLanguages } from './guard-order';

/** Files looked at to learn the folder's languages: enough to rank them, quick on any repository. */
const SAMPLE_FILES = 3000;

/**
 * The folder's languages, most files first: a sample of its files by extension, plus the open
 * editors' languages (what the person is working on counts even when the sample misses it).
 */
export async function workspaceLanguages(root: string): Promise<string[]> {
  const counts = new Map<string, number>();
  const add = (lang: string | undefined, n = 1) => {
    if (lang) { for (const l of ruleLanguagesFor(lang)) counts.set(l, (counts.get(l) ?? 0) + n); }
  };
  const files = await vscode.workspace.findFiles(
    new vscode.RelativePattern(root, '**/*'),
    '**/{node_modules,.git,dist,build,out,vendor,Pods,.venv,venv}/**',
    SAMPLE_FILES,
  );
  for (const f of files) add(languageForPath(f.fsPath));
  for (const d of vscode.workspace.textDocuments) {
    if (d.uri.scheme === 'file' && !path.relative(root, d.uri.fsPath).startsWith('..')) {
      add(languageForPath(d.uri.fsPath), 1000);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l);
}

type RuleItem = vscode.QuickPickItem & { ruleId?: string };

/**
 * The rules to pick from: those of the folder's languages first (in the order of the languages),
 * the others after a separator; typing filters by id, languages and message.
 */
export async function pickGuardRule(
  rules: RuleStatus[],
  languages: string[],
  placeHolder: string,
): Promise<string | undefined> {
  const item = (s: RuleStatus): RuleItem => ({
    label: s.rule.id,
    description: `${s.severity} · ${s.rule.languages.join(', ')}`,
    detail: s.rule.message,
    ruleId: s.rule.id,
  });
  const { ours, others } = rulesByLanguages(rules, languages);
  const items: RuleItem[] = [
    ...(ours.length
      ? [{ label: vscode.l10n.t('Languages of this workspace'), kind: vscode.QuickPickItemKind.Separator }]
      : []),
    ...ours.map(item),
    ...(others.length ? [{ label: vscode.l10n.t('Other languages'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...others.map(item),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.ruleId;
}
