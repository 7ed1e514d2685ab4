import * as vscode from 'vscode';
import type { InputOf, ToolDefinition } from '../../core/catalog';
import { realPathInside, reviewChecklist } from '../../core/catalog/adapters';
import {
  checkDuplicateTool,
  getCandidateTool,
  listCandidatesTool,
  updateCandidateTool,
} from '../../core/catalog/knowledge';
import { approveCandidateTool, rejectCandidateTool, reopenCandidateTool } from '../../core/catalog/knowledge-review';
import type { Static, TObject, TSchema } from '../../core/catalog/schema';
import type { Workspace } from '../../core/ground/workspace';
import {
  type CandidateEdit,
  type ChecklistEntry,
  parseSource,
  type ReviewDetail,
  type ReviewGuard,
  type ReviewListItem,
  type ReviewOutcome,
  type ToExtension,
  type ToPage,
} from '../../webview/review/protocol';
import type { ExtensionHost } from '../host';
import { dimensionLabel, dimensionOf, knowledgeTypeLabels, plainText, proposerLabel } from '../labels';
import { pageHtml } from './page';
import { folderOfLabel, showAgain } from './restored-tabs';
import { checklistMessage, reviewStrings } from './strings';

export const REVIEW_VIEW_TYPE = 'autosnippet.review';

/**
 * The candidate review panel: a webview that lists the candidates (grouped, filtered, sorted),
 * renders one in full (claim, why, code, sources, confidence, similar knowledge), edits it in place,
 * and approves or rejects several at once after one confirmation. Every write is a catalog tool run
 * as the person; the page only sends messages.
 */
export class ReviewPanel implements vscode.Disposable {
  /** One panel per workspace folder, by the folder's URI: each reviews its own folder's candidates. */
  private static readonly open = new Map<string, ReviewPanel>();
  private readonly disposables: vscode.Disposable[] = [];
  private selected: string | undefined;

  private constructor(
    private readonly host: ExtensionHost,
    readonly panel: vscode.WebviewPanel,
    private readonly folder: vscode.WorkspaceFolder | undefined,
  ) {
    ReviewPanel.open.set(keyOf(folder), this);
    panel.title = panelTitle(host, folder);
    const webview = panel.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(host.context.extensionUri, 'dist', 'webview')],
    };
    webview.html = pageHtml(webview, host.context.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(host.context.extensionUri, 'media', 'autosnippet.svg');
    this.disposables.push(
      webview.onDidReceiveMessage((m: ToExtension) => void this.receive(m).catch((e) => this.fail(e))),
      host.onDidChangeData(() => void this.sendList()),
      // Folders added or removed: the title names the folder only when there are several.
      host.onDidChangeFolder(() => {
        panel.title = panelTitle(host, folder);
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Opens the panel (or brings it forward), showing `candidateId` when given. */
  static show(host: ExtensionHost, candidateId?: string): ReviewPanel {
    const folder = host.folder;
    const shown = ReviewPanel.open.get(keyOf(folder));
    if (shown) shown.panel.reveal(undefined, false);
    const panel = shown ?? ReviewPanel.create(host, folder, { viewColumn: vscode.ViewColumn.Active });
    if (candidateId) panel.focus(candidateId);
    return panel;
  }

  private static create(
    host: ExtensionHost,
    folder: vscode.WorkspaceFolder | undefined,
    show: { viewColumn: vscode.ViewColumn; preserveFocus?: boolean },
  ): ReviewPanel {
    const panel = vscode.window.createWebviewPanel(REVIEW_VIEW_TYPE, panelTitle(host, folder), show, {
      enableScripts: true,
      enableFindWidget: true,
    });
    return new ReviewPanel(host, panel, folder);
  }

  /**
   * VS Code restores a review tab with the title it was saved with and revives it only when it is
   * shown, so after a display-language switch a hidden tab keeps the old language's title. Each such
   * tab is reopened in the current language (a second tab of a folder that has one is closed), and
   * the editor that was in front of its group is put back. The page's own state (filters, selection)
   * of a tab that was never shown is not reachable, so the reopened panel starts afresh.
   */
  static async retitleRestored(host: ExtensionHost): Promise<void> {
    const current = new Set([undefined, ...host.folders].map((f) => panelTitle(host, f)));
    // The tab in front is revived as it is shown, and its constructor sets the title.
    const isStale = (tab: vscode.Tab) =>
      tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(REVIEW_VIEW_TYPE)
      && !tab.isActive && !current.has(tab.label);
    const labels = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter(isStale).map((t) => t.label)));
    for (const label of labels) {
      // Looked up afresh each time: opening and closing tabs gives a group new tab objects.
      const group = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => isStale(t) && t.label === label));
      const tab = group?.tabs.find((t) => isStale(t) && t.label === label);
      if (!group || !tab) continue;
      const front = group.activeTab;
      const folder = folderOfLabel(host, label);
      await vscode.window.tabGroups.close(tab, true);
      if (ReviewPanel.open.has(keyOf(folder))) continue;
      ReviewPanel.create(host, folder, { viewColumn: group.viewColumn, preserveFocus: true });
      if (front) await showAgain(front, group.viewColumn);
    }
  }

  /** After a window reload: VS Code hands back the panel it kept; its page restores its own state. */
  static revive(host: ExtensionHost, panel: vscode.WebviewPanel, state: unknown): void {
    const saved = (state as { folder?: unknown } | undefined)?.folder;
    const folder = host.folders.find((f) => f.uri.fsPath === saved) ?? host.folder;
    if (ReviewPanel.open.has(keyOf(folder))) {
      // That folder's panel is open already (the command ran first, or two tabs were saved): one is enough.
      panel.dispose();
      return;
    }
    // The constructor sets the title: the restored one is in the display language it was saved in.
    new ReviewPanel(host, panel, folder);
  }

  static disposeAll(): void {
    for (const p of [...ReviewPanel.open.values()]) p.dispose();
  }

  private focus(id: string): void {
    this.selected = id;
    void this.post({ type: 'focus', id });
  }

  private post(message: ToPage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private async workspace(): Promise<Workspace> {
    return this.host.getWorkspace(this.folder);
  }

  /** A catalog tool as the person; a refusal comes back as the error body, never as a toast. */
  private async call<I extends TObject, O extends TSchema>(
    tool: ToolDefinition<I, O>,
    input: Static<I>,
  ): Promise<{ ok: true; data: Static<O> } | { ok: false; message: string; field?: string }> {
    const ws = await this.workspace();
    const r = await this.host.catalog.call(ws, tool, input, { actor: 'human', channel: 'vscode' });
    if (r.ok) return { ok: true, data: r.data };
    this.host.log.warn(`${tool.name}: ${r.error.code} ${r.error.message}`);
    return {
      ok: false,
      message: r.error.hint ? `${r.error.message} ${r.error.hint}` : r.error.message,
      ...(r.error.field ? { field: r.error.field } : {}),
    };
  }

  private async receive(m: ToExtension): Promise<void> {
    switch (m.type) {
      case 'ready':
        await this.post({
          type: 'setup',
          setup: {
            strings: reviewStrings(),
            knowledgeTypes: Object.entries(knowledgeTypeLabels()).map(([value, label]) => ({ value, label })),
            folder: (await this.workspace()).root,
            dimensions: dimensionLabels(),
          },
        });
        await this.sendList();
        if (this.selected) await this.post({ type: 'focus', id: this.selected });
        return;
      case 'refresh':
        return this.sendList();
      case 'select':
        this.selected = m.id;
        return this.sendDetail(m.id);
      case 'openSource':
        return this.openSource(m.source);
      case 'openFile':
        return this.openSource(`${m.file}:1`);
      case 'approve':
        return this.approve(m.ids);
      case 'reject':
        return this.reject(m.ids, m.reason);
      case 'edit':
        return this.edit(m.id, m.edit);
      case 'undo':
        return this.undo(m.ids);
      case 'checklist':
        return this.sendChecklist(m.id, m.edit);
    }
  }

  private async sendList(): Promise<void> {
    const items: ReviewListItem[] = [];
    let cursor: number | undefined;
    const ws = await this.workspace();
    for (let page = 0; page < 100; page++) {
      const r = await this.host.catalog.call(
        ws,
        listCandidatesTool,
        { status: 'any', limit: 1000, ...(cursor !== undefined ? { cursor } : {}) },
        { actor: 'human', channel: 'vscode' },
      );
      if (!r.ok) return this.fail(new Error(r.error.message));
      const page_ = r.data.candidates;
      items.push(
        ...page_.map((c) => ({
          ...c,
          proposer: proposerLabel(c.origin, c.createdBy),
          dimension: dimensionOf(c.origin),
        })),
      );
      cursor = r.truncated?.nextCursor;
      if (cursor === undefined) break;
    }
    await this.post({ type: 'list', items });
  }

  private async sendDetail(id: string): Promise<void> {
    const got = await this.call(getCandidateTool, { id });
    if (!got.ok) {
      await this.post({ type: 'detailMissing', id, message: got.message });
      return;
    }
    const c = got.data;
    const duplicates = c.status === 'pending' ? await this.call(checkDuplicateTool, { id, limit: 5 }) : undefined;
    const similar: ReviewDetail['similar'] = duplicates?.ok
      ? [
        ...duplicates.data.recipes.filter((r) => r.similarity >= 0.5).map((r) => ({
          id: r.id,
          title: r.title,
          similarity: r.similarity,
          kind: 'recipe' as const,
          status: r.status,
        })),
        ...duplicates.data.candidates.filter((r) => r.similarity >= 0.5).map((r) => ({
          id: r.id,
          title: r.title,
          similarity: r.similarity,
          kind: 'candidate' as const,
        })),
      ].sort((a, b) => b.similarity - a.similarity).slice(0, 5)
      : [];
    const detail: ReviewDetail = {
      id: c.id,
      title: c.title,
      status: c.status,
      trigger: c.trigger,
      language: c.language,
      category: c.category,
      knowledgeType: c.knowledgeType,
      summary: c.summary,
      usageGuide: c.usageGuide,
      rationale: c.rationale,
      code: c.code,
      tags: c.tags ?? [],
      reasoning: c.reasoning,
      origin: c.origin,
      proposer: proposerLabel(c.origin, c.createdBy),
      ...(c.decidedBy ? { decider: proposerLabel('', c.decidedBy) } : {}),
      createdBy: c.createdBy,
      createdAt: c.createdAt,
      decidedBy: c.decidedBy,
      decidedAt: c.decidedAt,
      rejectionReason: c.rejectionReason,
      recipeId: c.recipeId,
      checklist: checklistOf(c),
      similar,
      ...(c.constraints?.guards?.length ? { guards: reviewGuards(c) } : {}),
    };
    await this.post({ type: 'detail', detail });
  }

  /** Opens `path:line` of the workspace in an editor, at that line; refuses paths outside the workspace. */
  private async openSource(source: string): Promise<void> {
    const parsed = parseSource(source) ?? { file: source, line: 1 };
    const ws = await this.workspace();
    // By its real path: a link inside the workspace may lead out of it.
    const target = await realPathInside(ws.root, parsed.file);
    if (!target.ok) {
      void vscode.window.showWarningMessage(
        target.reason === 'outside'
          ? vscode.l10n.t(
            '{0} is outside the workspace; it was not opened.',
            target.real ? `${parsed.file} → ${target.real}` : parsed.file,
          )
          : vscode.l10n.t('{0} does not exist (any more) in this workspace.', parsed.file),
      );
      return;
    }
    const uri = vscode.Uri.file(target.real);
    const start = new vscode.Position(parsed.line - 1, 0);
    const end = new vscode.Position((parsed.endLine ?? parsed.line) - 1, 0);
    await vscode.window.showTextDocument(uri, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      selection: new vscode.Range(start, end),
    });
  }

  private async titlesOf(ids: string[]): Promise<Map<string, string>> {
    const titles = new Map<string, string>();
    for (const id of ids) {
      const r = await this.call(getCandidateTool, { id });
      titles.set(id, r.ok ? r.data.title : id);
    }
    return titles;
  }

  /**
   * One candidate is approved at once (it only becomes a draft recipe, and the banner's Undo takes it
   * back); several are confirmed once, with their count.
   */
  private async approve(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const titles = await this.titlesOf(ids);
    if (ids.length > 1) {
      const detail = [
        ...[...titles.values()].map((t) => `• ${plainText(t)}`),
        '',
        vscode.l10n.t(
          'Each becomes a draft recipe file under .autosnippet/recipes/ that you can still edit. Agents use a recipe only once you publish it.',
        ),
      ].join('\n');
      if (
        !(await this.host.dialogs.confirm(
          vscode.l10n.t('Approve {0} candidates?', ids.length),
          detail,
          vscode.l10n.t('Approve'),
        ))
      ) return;
    }
    await this.post({ type: 'busy', busy: true });
    const files: NonNullable<ReviewOutcome['files']> = [];
    const failed: NonNullable<ReviewOutcome['failed']> = [];
    const done: string[] = [];
    for (const id of ids) {
      const r = await this.call(approveCandidateTool, { id });
      if (r.ok) done.push(id);
      if (r.ok && r.data.recipe) files.push({ title: titles.get(id)!, file: r.data.recipe.file });
      else if (!r.ok) failed.push({ title: titles.get(id)!, message: r.message });
    }
    const message = done.length === 1
      ? vscode.l10n.t(
        'Approved "{0}": it is a draft recipe now. Publish it from the Recipes view when it reads well.',
        plainText(titles.get(done[0])!),
      )
      : vscode.l10n.t(
        'Approved {0} candidates: their draft recipes are below. Publish them from the Recipes view when they read well.',
        done.length,
      );
    await this.post({
      type: 'outcome',
      outcome: {
        kind: failed.length && !done.length ? 'error' : 'approved',
        message,
        files,
        ...(done.length ? { undo: done } : {}),
        ...(failed.length ? { failed } : {}),
      },
    });
    await this.post({ type: 'busy', busy: false });
    await this.sendList();
    refreshViews();
  }

  /** The reason is asked inline by the page; one candidate is rejected at once, several after one confirmation. */
  private async reject(ids: string[], reason: string): Promise<void> {
    if (!ids.length || !reason.trim()) return;
    const titles = await this.titlesOf(ids);
    if (ids.length > 1) {
      const detail = [
        ...[...titles.values()].map((t) => `• ${plainText(t)}`),
        '',
        vscode.l10n.t('Reason: {0}', reason.trim()),
        vscode.l10n.t('Agents read the reason and do not propose the same again.'),
      ].join('\n');
      if (
        !(await this.host.dialogs.confirm(
          vscode.l10n.t('Reject {0} candidates?', ids.length),
          detail,
          vscode.l10n.t('Reject'),
        ))
      ) return;
    }
    await this.post({ type: 'busy', busy: true });
    const failed: NonNullable<ReviewOutcome['failed']> = [];
    const done: string[] = [];
    for (const id of ids) {
      const r = await this.call(rejectCandidateTool, { id, reason: reason.trim() });
      if (r.ok) done.push(id);
      else failed.push({ title: titles.get(id)!, message: r.message });
    }
    const message = done.length === 1
      ? vscode.l10n.t(
        'Rejected "{0}". It stays listed under "Rejected" with its reason.',
        plainText(titles.get(done[0])!),
      )
      : vscode.l10n.t(
        'Rejected {0} of {1}. Rejected candidates stay listed under "Rejected" with their reason.',
        done.length,
        ids.length,
      );
    await this.post({
      type: 'outcome',
      outcome: {
        kind: failed.length && !done.length ? 'error' : 'rejected',
        message,
        ...(done.length ? { undo: done } : {}),
        ...(failed.length ? { failed } : {}),
      },
    });
    await this.post({ type: 'busy', busy: false });
    await this.sendList();
    refreshViews();
  }

  /** The banner's Undo: the decided candidates are pending again (an approval's unedited draft is removed). */
  private async undo(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.post({ type: 'busy', busy: true });
    const titles = await this.titlesOf(ids);
    const failed: NonNullable<ReviewOutcome['failed']> = [];
    for (const id of ids) {
      const r = await this.call(reopenCandidateTool, { id });
      if (!r.ok) failed.push({ title: titles.get(id)!, message: r.message });
    }
    const done = ids.length - failed.length;
    await this.post({
      type: 'outcome',
      outcome: {
        kind: failed.length && !done ? 'error' : 'undone',
        message: vscode.l10n.t('Undone: {0} of {1} back to pending.', done, ids.length),
        ...(failed.length ? { failed } : {}),
      },
    });
    await this.post({ type: 'busy', busy: false });
    await this.sendList();
    refreshViews();
  }

  /** The checklist with the form's unsaved values, so an item clears as its field is filled. */
  private async sendChecklist(id: string, edit: CandidateEdit): Promise<void> {
    const got = await this.call(getCandidateTool, { id });
    if (!got.ok) return;
    const { whyStandard, ...fields } = edit;
    const c = got.data;
    const draft = {
      ...c,
      ...fields,
      knowledgeType: (fields.knowledgeType ?? c.knowledgeType) as typeof c.knowledgeType,
      reasoning: { ...c.reasoning, ...(whyStandard !== undefined ? { whyStandard } : {}) },
    };
    await this.post({ type: 'checklist', id, items: checklistOf(draft) });
  }

  private async edit(id: string, edit: CandidateEdit): Promise<void> {
    const { whyStandard, ...fields } = edit;
    // The page's fields as they came; the tool's schema checks them (a knowledgeType it does not know is refused).
    const input = { id, ...fields, ...(whyStandard !== undefined ? { reasoning: { whyStandard } } : {}) } as InputOf<
      typeof updateCandidateTool
    >;
    const r = await this.call(updateCandidateTool, input);
    await this.post({ type: 'editResult', id, ok: r.ok, ...(r.ok ? {} : { message: r.message, field: r.field }) });
    if (r.ok) {
      await this.sendList();
      await this.sendDetail(id);
      refreshViews();
    }
  }

  private async fail(e: unknown): Promise<void> {
    this.host.log.error('review panel', e);
    await this.post({ type: 'outcome', outcome: { kind: 'error', message: (e as Error).message } });
  }

  dispose(): void {
    if (ReviewPanel.open.get(keyOf(this.folder)) === this) ReviewPanel.open.delete(keyOf(this.folder));
    this.disposables.splice(0).forEach((d) => d.dispose());
    this.panel.dispose();
  }
}

/** The checklist in the person's language; each item names the form field that clears it. */
/** The candidate's guard rules with what each reported when it was drafted (the report is matched by position). */
function reviewGuards(c: {
  constraints?: {
    guards?: {
      id?: string;
      message: string;
      pattern?: string;
      query?: string;
      in?: string;
      include?: string[];
      exclude?: string[];
    }[];
  };
  guardReport?: {
    files: number;
    rules: { total: number; findings: { path: string; line: number; column: number; text: string }[] }[];
  };
}): ReviewGuard[] {
  return (c.constraints?.guards ?? []).map((g, i) => {
    const r = c.guardReport?.rules[i];
    const where = [
      g.in ? `in: ${g.in}` : '',
      g.include?.length ? `include: ${g.include.join(', ')}` : '',
      g.exclude?.length ? `exclude: ${g.exclude.join(', ')}` : '',
    ].filter(Boolean).join(' · ');
    return {
      ...(g.id ? { id: g.id } : {}),
      message: g.message,
      matches: g.pattern ?? g.query ?? '',
      ...(where ? { where } : {}),
      ...(r && c.guardReport
        ? {
          files: c.guardReport.files,
          total: r.total,
          findings: r.findings.slice(0, 20).map((f) => ({ source: `${f.path}:${f.line}:${f.column}`, text: f.text })),
        }
        : {}),
    };
  });
}

function checklistOf(c: Parameters<typeof reviewChecklist>[0]): ChecklistEntry[] {
  return reviewChecklist(c).map((i) => ({
    field: i.field,
    severity: i.severity,
    message: checklistMessage(i.field, i.severity, i.message),
  }));
}

function keyOf(folder: vscode.WorkspaceFolder | undefined): string {
  return folder?.uri.toString() ?? '';
}

/** In the current display language; with several folders open, it names the panel's folder. */
function panelTitle(host: ExtensionHost, folder: vscode.WorkspaceFolder | undefined): string {
  return folder && host.folders.length > 1
    ? vscode.l10n.t('Review Candidates: {0}', folder.name)
    : vscode.l10n.t('Review Candidates');
}

function dimensionLabels(): Record<string, string> {
  const ids = [
    'code-standard',
    'code-pattern',
    'best-practice',
    'architecture',
    'event-data-flow',
    'agent-guidelines',
    'project-profile',
  ];
  return Object.fromEntries(ids.map((id) => [id, dimensionLabel(id)]));
}

/** The Candidates and Recipes views show what the panel changed. */
function refreshViews(): void {
  void vscode.commands.executeCommand('autosnippet.candidates.refresh').then(undefined, () => undefined);
}

/** The command, the tree's click and the serializer that restores the panel after a reload. */
export function registerReviewPanel(host: ExtensionHost): vscode.Disposable {
  void ReviewPanel.retitleRestored(host).catch((e) => host.log.error('review panel: retitling restored tabs', e));
  return vscode.Disposable.from(
    vscode.commands.registerCommand('autosnippet.candidates.review', (arg?: unknown) => {
      ReviewPanel.show(host, candidateIdOf(arg));
    }),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, {
      async deserializeWebviewPanel(panel, state) {
        ReviewPanel.revive(host, panel, state);
      },
    }),
    new vscode.Disposable(() => ReviewPanel.disposeAll()),
  );
}

/** The command's argument: a Candidates tree node, a candidate id, or nothing. */
function candidateIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const node = arg as { type?: string; candidate?: { id?: unknown } };
    if (node.type === 'candidate' && typeof node.candidate?.id === 'string') return node.candidate.id;
  }
  return undefined;
}
