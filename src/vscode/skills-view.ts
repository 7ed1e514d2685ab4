import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ToolCatalog } from '../core/catalog';
import type {
  ShadowedSkill,
  Skill,
  SkillChunk,
  SkillSection,
  SkillSource,
  SkippedSkill,
} from '../core/catalog/adapters';
import {
  catalogEntry,
  isValidSkillName,
  nameProblems,
  type SkillRegistry,
  skillRegistry,
  summaryOf,
} from '../core/catalog/adapters';
import { createSkillTool, installSkillTool } from '../core/catalog/skills';
import type { Workspace } from '../core/ground/workspace';
import type { ExtensionHost } from './host';
import { SkillDiagnostics } from './skills-diagnostics';

type Node =
  | { kind: 'source'; source: SkillSource; skills: Skill[]; shadowed: ShadowedSkill[]; skipped: SkippedSkill[] }
  | { kind: 'skill'; skill: Skill; shadowedBy?: string }
  | { kind: 'section'; skill: Skill; section: SkillSection }
  | { kind: 'chunk'; skill: Skill; chunk: SkillChunk }
  | { kind: 'skipped'; item: SkippedSkill };

/**
 * The Skills view: sources → skills → sections and chunks of the current folder; a click opens
 * SKILL.md at that line. Commands copy a skill's catalog entry, validate, refresh, reveal a skill,
 * create or install one. Every folder's own skills are validated into the Problems panel (a folder is
 * served once its Workspace opens, and dropped when it is removed). Registered synchronously.
 */
export function registerSkillsView(host: ExtensionHost): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const folders = new Map<string, FolderSkills>();
  const start = (ws: Workspace) => {
    if (folders.has(ws.root)) return;
    const f = folderSkills(ws, () => {
      if (host.workspace === ws) update();
    });
    folders.set(ws.root, f);
  };
  const current = async (): Promise<FolderSkills> => {
    const ws = await host.getWorkspace();
    start(ws);
    return folders.get(ws.root)!;
  };
  const provider = new SkillsTreeProvider(
    () => (host.workspace ? folders.get(host.workspace.root)?.registry : undefined),
    changed.event,
  );
  const view = vscode.window.createTreeView('autosnippet.skills', {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  const update = () => {
    const registry = host.workspace && folders.get(host.workspace.root)?.registry;
    changed.fire();
    if (!registry) return;
    const own = registry.list().some((x) => x.source.id !== 'bundled')
      || registry.skipped().some((x) => x.source.id !== 'bundled');
    view.message = own
      ? undefined
      : vscode.l10n.t(
        'No skills in this workspace yet: only the bundled ones. Add a folder with a SKILL.md under .autosnippet/skills (or .github/skills, .claude/skills, .agents/skills).',
      );
  };
  const foldersChanged = () => {
    const roots = new Set(host.folders.map((f) => f.uri.fsPath));
    for (const [root, f] of folders) {
      if (!roots.has(root)) {
        f.dispose();
        folders.delete(root);
      }
    }
    // The view shows the current folder: open it (lazily) and show it.
    void current().then(update, () => changed.fire());
  };
  if (host.workspace) start(host.workspace);
  void current().then(update, () => undefined);

  return vscode.Disposable.from(
    changed,
    view,
    host.onDidOpenWorkspace((ws) => {
      start(ws);
      if (host.workspace === ws) update();
    }),
    host.onDidChangeFolder(foldersChanged),
    new vscode.Disposable(() => folders.forEach((f) => f.dispose())),
    vscode.commands.registerCommand('autosnippet.skills.refresh', async () => {
      const f = await current();
      f.registry.refresh();
      update();
    }),
    vscode.commands.registerCommand('autosnippet.skills.validate', async () => {
      const f = await current();
      f.registry.refresh();
      const r = f.diagnostics.refreshAll();
      if (!r.errors && !r.warnings) {
        vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Workspace skills checked: no problems'), 5000);
        return;
      }
      const message = vscode.l10n.t('Workspace skills checked: {0}.', problemCount(r.errors, r.warnings));
      const show = vscode.l10n.t('Show Problems');
      if ((await vscode.window.showWarningMessage(message, show)) === show) {
        await vscode.commands.executeCommand('workbench.actions.view.problems');
      }
    }),
    vscode.commands.registerCommand('autosnippet.skills.copyCatalogEntry', async (node?: Node) => {
      const skill = node?.kind === 'skill' ? node.skill : await pickSkill((await current()).registry);
      if (!skill) return;
      await vscode.env.clipboard.writeText(catalogEntry(skill, skill.description, 'xml'));
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the catalog entry of {0}', skill.name), 3000);
    }),
    vscode.commands.registerCommand('autosnippet.skills.open', (file: string, line?: number) => openAt(file, line)),
    vscode.commands.registerCommand('autosnippet.skills.reveal', (node?: Node) => {
      const file = node?.kind === 'skill' ? node.skill.file : node?.kind === 'skipped' ? node.item.file : undefined;
      if (file) return vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(file));
    }),
    vscode.commands.registerCommand(
      'autosnippet.skills.new',
      async () => createSkill(host.catalog, await host.getWorkspace()),
    ),
    vscode.commands.registerCommand(
      'autosnippet.skills.install',
      async () => installSkillFromUi(host.catalog, await host.getWorkspace()),
    ),
  );
}

/** One folder's skills: its registry, its Problems, and a watcher that follows edits on disk. */
interface FolderSkills extends vscode.Disposable {
  registry: SkillRegistry;
  diagnostics: SkillDiagnostics;
}

function folderSkills(ws: Workspace, changed: () => void): FolderSkills {
  const registry = skillRegistry(ws);
  const diagnostics = new SkillDiagnostics(registry);
  diagnostics.refreshAll();
  // The watcher makes the view and the Problems panel follow at once, and lets requests trust the registry for 30 s.
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(vscode.Uri.file(ws.root), '{.autosnippet,.github,.claude,.agents}/skills/**'),
  );
  let timer: NodeJS.Timeout | undefined;
  registry.setWatched(true);
  const onDisk = () => {
    registry.invalidate();
    clearTimeout(timer);
    timer = setTimeout(() => registry.refresh(), 150);
  };
  {
    watcher.onDidCreate(onDisk);
    watcher.onDidChange(onDisk);
    watcher.onDidDelete(onDisk);
  }
  const sub = registry.onDidChange(() => {
    diagnostics.refreshAll();
    changed();
  });
  return {
    registry,
    diagnostics,
    dispose: () => {
      clearTimeout(timer);
      registry.setWatched(false);
      sub.dispose();
      watcher.dispose();
      diagnostics.dispose();
    },
  };
}

class SkillsTreeProvider implements vscode.TreeDataProvider<Node> {
  constructor(
    private readonly registryOf: () => SkillRegistry | undefined,
    readonly onDidChangeTreeData: vscode.Event<void>,
  ) {}

  getChildren(node?: Node): Node[] {
    if (!node) {
      const registry = this.registryOf();
      if (!registry) return [];
      const skills = registry.list();
      const shadowed = registry.shadowed();
      const skipped = registry.skipped();
      return registry.sources
        .map((source): Node => ({
          kind: 'source',
          source,
          skills: skills.filter((s) => s.source === source),
          shadowed: shadowed.filter((s) => s.skill.source === source),
          skipped: skipped.filter((s) => s.source === source),
        }))
        .filter((n) => n.kind === 'source' && n.skills.length + n.shadowed.length + n.skipped.length > 0);
    }
    switch (node.kind) {
      case 'source':
        return [
          ...node.skills.map((skill): Node => ({ kind: 'skill', skill })),
          ...node.shadowed.map((s): Node => ({ kind: 'skill', skill: s.skill, shadowedBy: s.shadowedBy.source })),
          ...node.skipped.map((item): Node => ({ kind: 'skipped', item })),
        ];
      case 'skill': {
        const inSections = new Set(node.skill.sections.flatMap((s) => s.chunkIds));
        return [
          ...node.skill.chunks.filter((c) =>
            !inSections.has(c.id) && c.line < (node.skill.sections[0]?.line ?? Infinity)
          ).map((chunk): Node => ({ kind: 'chunk', skill: node.skill, chunk })),
          ...node.skill.sections.map((section): Node => ({ kind: 'section', skill: node.skill, section })),
          ...node.skill.chunks.filter((c) =>
            !inSections.has(c.id) && c.line >= (node.skill.sections[0]?.line ?? Infinity)
          ).map((chunk): Node => ({ kind: 'chunk', skill: node.skill, chunk })),
        ];
      }
      case 'section':
        return node.skill.chunks.filter((c) => node.section.chunkIds.includes(c.id)).map((chunk): Node => ({
          kind: 'chunk',
          skill: node.skill,
          chunk,
        }));
      default:
        return [];
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const Collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    const None = vscode.TreeItemCollapsibleState.None;
    switch (node.kind) {
      case 'source': {
        const item = new vscode.TreeItem(
          sourceLabel(node.source),
          node.source.id === 'bundled' ? Collapsed : vscode.TreeItemCollapsibleState.Expanded,
        );
        item.description = String(node.skills.length);
        item.tooltip = node.source.dir;
        item.iconPath = new vscode.ThemeIcon(SOURCE_ICONS[node.source.id] ?? 'folder-library');
        item.contextValue = 'skillSource';
        item.id = `source:${node.source.id}`;
        return item;
      }
      case 'skill': {
        const { skill } = node;
        const item = new vscode.TreeItem(skill.name, skill.sections.length + skill.chunks.length ? Collapsed : None);
        item.id = `skill:${skill.file}`;
        item.description = node.shadowedBy
          ? vscode.l10n.t('shadowed by {0}', sourceName(node.shadowedBy))
          : summaryOf(skill, 80);
        const tip = new vscode.MarkdownString(undefined, true);
        tip.appendMarkdown(`**${skill.name}**\n\n`).appendText(skill.description);
        tip.appendMarkdown(`\n\n${sectionsAndChunks(skill.sections.length, skill.chunks.length)} · `).appendText(
          skill.file,
        );
        const warnings = skill.problems.filter((p) => p.severity !== 'info');
        if (warnings.length) tip.appendMarkdown('\n\n').appendText(warnings.map((p) => `⚠ ${p.message}`).join('\n'));
        item.tooltip = tip;
        item.iconPath = new vscode.ThemeIcon(node.shadowedBy ? 'eye-closed' : warnings.length ? 'warning' : 'book');
        item.contextValue = node.shadowedBy ? 'skill.shadowed' : 'skill';
        item.resourceUri = vscode.Uri.file(skill.file);
        item.command = openCommand(skill.file, 1);
        return item;
      }
      case 'section': {
        const item = new vscode.TreeItem(node.section.heading, node.section.chunkIds.length ? Collapsed : None);
        item.id = `section:${node.skill.file}:${node.section.line}`;
        item.description = vscode.l10n.t('line {0}', node.section.line);
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.contextValue = 'skillSection';
        item.command = openCommand(node.skill.file, node.section.line);
        return item;
      }
      case 'chunk': {
        const item = new vscode.TreeItem(node.chunk.id, None);
        item.id = `chunk:${node.skill.file}:${node.chunk.id}`;
        item.description = node.chunk.description;
        item.tooltip = vscode.l10n.t(
          'Chunk "{0}" (level 3), lines {1}–{2}: {3}',
          node.chunk.id,
          node.chunk.line,
          node.chunk.endLine,
          node.chunk.description,
        );
        item.iconPath = new vscode.ThemeIcon('symbol-snippet');
        item.contextValue = 'skillChunk';
        item.command = openCommand(node.skill.file, node.chunk.line);
        return item;
      }
      case 'skipped': {
        const item = new vscode.TreeItem(path.basename(node.item.dir), None);
        item.id = `skipped:${node.item.file}`;
        item.description = vscode.l10n.t('not loaded: {0}', node.item.reason);
        item.tooltip = node.item.file;
        item.iconPath = new vscode.ThemeIcon('error');
        item.contextValue = 'skill.skipped';
        item.command = node.item.folder
          ? {
            command: 'revealInExplorer',
            title: vscode.l10n.t('Reveal in Explorer'),
            arguments: [vscode.Uri.file(node.item.file)],
          }
          : openCommand(node.item.file, node.item.problems[0]?.line ?? 1);
        return item;
      }
    }
  }
}

function sectionsAndChunks(sections: number, chunks: number): string {
  const s = sections === 1 ? vscode.l10n.t('1 section') : vscode.l10n.t('{0} sections', sections);
  const c = chunks === 1 ? vscode.l10n.t('1 chunk') : vscode.l10n.t('{0} chunks', chunks);
  return `${s}, ${c}`;
}

function problemCount(errors: number, warnings: number): string {
  const e = errors === 1 ? vscode.l10n.t('1 error') : vscode.l10n.t('{0} errors', errors);
  const w = warnings === 1 ? vscode.l10n.t('1 warning') : vscode.l10n.t('{0} warnings', warnings);
  return `${e}, ${w}`;
}

function sourceLabel(source: SkillSource): string {
  switch (source.id) {
    case 'project':
      return vscode.l10n.t('Project (.autosnippet/skills)');
    case 'github':
      return vscode.l10n.t('GitHub (.github/skills)');
    case 'claude':
      return vscode.l10n.t('Claude (.claude/skills)');
    case 'agents':
      return vscode.l10n.t('Agents (.agents/skills)');
    case 'personal':
      return vscode.l10n.t('Personal (~/.autosnippet/skills)');
    case 'pack':
      return vscode.l10n.t('Knowledge packs (.autosnippet/packs.json)');
    case 'bundled':
      return vscode.l10n.t('Bundled with AutoSnippet');
    default:
      return source.label;
  }
}

const SOURCE_ICONS: Partial<Record<string, string>> = { bundled: 'package', personal: 'account', pack: 'library' };

function sourceName(id: string): string {
  return ({
    project: '.autosnippet/skills',
    github: '.github/skills',
    claude: '.claude/skills',
    agents: '.agents/skills',
    personal: vscode.l10n.t('personal'),
    pack: vscode.l10n.t('pack'),
    bundled: vscode.l10n.t('bundled'),
  } as Record<string, string>)[id] ?? id;
}

function openCommand(file: string, line: number): vscode.Command {
  return { command: 'autosnippet.skills.open', title: vscode.l10n.t('Open'), arguments: [file, line] };
}

async function openAt(file: string, line = 1): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
}

async function pickSkill(registry: SkillRegistry): Promise<Skill | undefined> {
  const picked = await vscode.window.showQuickPick(
    registry.list().map((s) => ({ label: s.name, description: summaryOf(s, 80), skill: s })),
    { placeHolder: vscode.l10n.t('Pick a skill') },
  );
  return picked?.skill;
}

/** Asks for a name and a description, then writes the skill through the catalog (so the Gateway audits it). */
async function createSkill(catalog: ToolCatalog, ws: Workspace): Promise<void> {
  const root = path.join(ws.root, '.autosnippet', 'skills');
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('New skill'),
    prompt: vscode.l10n.t('Name: lowercase letters, digits and hyphens, e.g. release-checklist'),
    validateInput: (v) => {
      if (!isValidSkillName(v)) return nameProblems(v)[0]?.message;
      return existsSync(path.join(root, v)) ? vscode.l10n.t('A skill named {0} already exists.', v) : undefined;
    },
  });
  if (!name) return;
  const description = await vscode.window.showInputBox({
    title: vscode.l10n.t('New skill'),
    prompt: vscode.l10n.t('Description: what it does and when to use it'),
    value: 'Use when …',
    validateInput: (
      v,
    ) => (v.trim() ? undefined : vscode.l10n.t('A description is needed: agents choose skills by it.')),
  });
  if (description === undefined) return;
  const result = await catalog.call(ws, createSkillTool, { name, description }, { actor: 'human', channel: 'vscode' });
  if (!result.ok) {
    void vscode.window.showErrorMessage(
      result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message,
    );
    return;
  }
  await openAt(result.data.file, result.data.line);
}

/** Asks for a folder, a .zip or a git URL and installs it through the catalog (so the Gateway audits it). */
async function installSkillFromUi(catalog: ToolCatalog, ws: Workspace): Promise<void> {
  const folder = vscode.l10n.t('From a folder…');
  const zip = vscode.l10n.t('From a .zip file…');
  const git = vscode.l10n.t('From a git URL…');
  const how = await vscode.window.showQuickPick([folder, zip, git], {
    title: vscode.l10n.t('Install a skill into .autosnippet/skills'),
  });
  let source: string | undefined;
  if (how === folder || how === zip) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: how === zip,
      canSelectFolders: how === folder,
      filters: how === zip ? { Zip: ['zip'] } : undefined,
      openLabel: vscode.l10n.t('Install'),
    });
    source = picked?.[0]?.fsPath;
  } else if (how === git) {
    source = await vscode.window.showInputBox({
      title: vscode.l10n.t('Install a skill from git'),
      prompt: vscode.l10n.t('https or ssh URL; add #sub/folder for a skill inside the repository'),
      placeHolder: 'https://github.com/owner/repo#skills/name',
    });
  }
  if (!source) return;
  const from = source;
  const call = (overwrite: boolean) =>
    vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Installing skill…'),
    }, () => catalog.call(ws, installSkillTool, { source: from, overwrite }, { actor: 'human', channel: 'vscode' }));
  let result = await call(false);
  if (!result.ok && result.error.code === 'SKILL_EXISTS') {
    const replace = vscode.l10n.t('Replace');
    if ((await vscode.window.showWarningMessage(result.error.message, { modal: true }, replace)) !== replace) return;
    result = await call(true);
  }
  if (!result.ok) {
    const problems = (result.error.details?.problems as { line?: number; message: string }[] | undefined)?.map((p) =>
      `${p.line ?? 1}: ${p.message}`
    ).join('\n');
    // A failing git or unzip writes pages of output: the first line says what happened, the modal the rest.
    const [headline, ...rest] = result.error.message.split('\n');
    const detail = [problems ?? rest.join('\n').trim(), result.error.hint].filter(Boolean).join('\n\n');
    const retry = vscode.l10n.t('Retry');
    const picked = await vscode.window.showErrorMessage(vscode.l10n.t('The skill was not installed: {0}', headline), {
      modal: Boolean(detail),
      detail,
    }, retry);
    if (picked === retry) await installSkillFromUi(catalog, ws);
    return;
  }
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Installed skill {0}', result.data.name), 5000);
  await openAt(path.join(ws.root, result.data.installedTo, 'SKILL.md'), 1).catch(() => undefined);
}
