import * as vscode from 'vscode';
import type { GuardEngine, RuleStatus } from '../core/catalog/adapters';

/** Rule explanations are read-only Markdown documents under this scheme: autosnippet-rule:/<id>.md */
export const RULE_DOC_SCHEME = 'autosnippet-rule';

export function ruleDocUri(ruleId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RULE_DOC_SCHEME, path: `/${ruleId}.md` });
}

export function ruleIdOf(uri: vscode.Uri): string {
  return uri.path.replace(/^\//, '').replace(/\.md$/, '');
}

/** Serves the explanation of a rule (the same content guard_explain returns to agents). */
export class RuleDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly engine: Pick<GuardEngine, 'rule'>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = ruleIdOf(uri);
    try {
      return ruleMarkdown(await this.engine.rule(id));
    } catch (e) {
      return `# ${id}\n\n${(e as Error).message}\n`;
    }
  }
}

export function ruleMarkdown(s: RuleStatus): string {
  const r = s.rule;
  const info = fenceLanguage(r.languages[0]);
  const fence = (code: string, lang = '') => '```' + lang + '\n' + code + '\n```';
  const pattern = r.pattern.kind === 'regex'
    ? `Regular expression (${r.pattern.scope ?? 'code'}): \`${r.pattern.regex}\`${
      r.pattern.flags ? ` flags \`${r.pattern.flags}\`` : ''
    }`
    : `Tree-sitter query:\n\n${fence(r.pattern.query)}`;
  const lines = [
    `# ${r.id}`,
    '',
    `**${r.message}** — ${s.severity}, ${r.languages.join(', ')}`,
    '',
    s.active ? '' : `> ${vscode.l10n.t('This rule does not run here: {0}', s.reason ?? '')}\n`,
    `## ${vscode.l10n.t('Why it matters')}`,
    '',
    r.why,
    '',
    `## ${vscode.l10n.t('What to do instead')}`,
    '',
    r.suggestion,
    '',
    ...(r.fix === undefined
      ? []
      : r.fix === ''
      ? [vscode.l10n.t('The quick fix removes the match.'), '']
      : [vscode.l10n.t('The quick fix replaces the match with {0}.', `\`${r.fix}\``), '']),
    ...(r.examples ?? []).flatMap((ex, i) => [
      `## ${vscode.l10n.t('Example {0}', i + 1)}`,
      '',
      ...(ex.bad !== undefined ? [vscode.l10n.t('Reported:'), '', fence(ex.bad, info), ''] : []),
      ...(ex.good !== undefined ? [vscode.l10n.t('Instead:'), '', fence(ex.good, info), ''] : []),
    ]),
    `## ${vscode.l10n.t('Pattern')}`,
    '',
    pattern,
    '',
    `${vscode.l10n.t('Source')}: ${r.origin} (${r.source}). ${
      vscode.l10n.t('To silence it once, put this comment on the line above:')
    } \`autosnippet-guard-disable-next-line ${r.id}\``,
    '',
  ];
  return lines.join('\n');
}

export async function showRule(ruleId: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(ruleDocUri(ruleId));
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.commands.executeCommand('markdown.showPreview', doc.uri).then(
    undefined,
    () => vscode.window.showTextDocument(doc, { preview: true }),
  );
}

/** The Markdown fence info string for a guard language id (the preview highlights by it). */
function fenceLanguage(language: string | undefined): string {
  const map: Record<string, string> = {
    typescriptreact: 'tsx',
    javascriptreact: 'jsx',
    'objective-c': 'objectivec',
    'objective-cpp': 'objectivec',
    shellscript: 'sh',
  };
  return language ? map[language] ?? language : '';
}

/**
 * A rule's explanation is read rendered: when its document opens as text (the rule link in a hover or
 * in the Problems panel does that), the Markdown preview replaces the text editor.
 */
export function renderRuleDocsAsPreview(): vscode.Disposable {
  return vscode.window.onDidChangeActiveTextEditor(async (editor) => {
    const doc = editor?.document;
    if (doc?.uri.scheme !== RULE_DOC_SCHEME) return;
    await showRule(ruleIdOf(doc.uri));
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === doc.uri.toString()) {
          await vscode.window.tabGroups.close(tab);
        }
      }
    }
  });
}
