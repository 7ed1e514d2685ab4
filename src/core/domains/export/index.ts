/**
 * Export of the published recipes to the instruction files agents read on every request, so the
 * knowledge reaches agents that do not speak MCP. `planExport` computes every file's new text without
 * writing (a dry run, or VS Code applying it as an undoable edit); `writeExport` writes a plan.
 * Nothing is written unless a person asks.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { formatBytes, readRepoFile } from '../../ground/files';
import { AutoSnippetError, ErrorCode, isAutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { scopeFolder } from '../knowledge/folder-scope';
import { freshnessTracker } from '../knowledge/freshness';
import { listRecipes } from '../knowledge/recipes';
import { findBlock, outsideLength, withBlock } from './block';
import { destinationProblem, writeDestination } from './destination';
import {
  type ExportFileSpec,
  type ExportScope,
  type ExportTarget,
  filesFor,
  languageGroup,
  scopedFileFor,
  TARGETS,
} from './formats';
import { scopeNote } from './notes';
import { type ExportRecipe, renderBlock } from './render';

export { EXPORT_TARGETS, type ExportTarget, TARGETS } from './formats';

const MAX_EXISTING_BYTES = 1024 * 1024;
const BOM = '\uFEFF';

export interface PlannedFile {
  target: ExportTarget;
  path: string;
  /** `refused`: the destination is a link (or under one), not a regular file, or read-only; `note` says which and why. */
  action: 'create' | 'update' | 'unchanged' | 'skipped' | 'refused';
  /** The whole file as it would be written. */
  text: string;
  chars: number;
  budget: number;
  listed: string[];
  omitted: string[];
  /** Why a file is skipped (a link to a file this export writes) or refused. */
  note?: string;
  /** A refused link's real target: when this export writes that file, the link is merely skipped. */
  linksTo?: string;
}

export interface ExportPlan {
  published: number;
  files: PlannedFile[];
}

export interface ExportOptions {
  targets: ExportTarget[];
  /** Size budget per file in characters, instead of each target's default. */
  maxChars?: number;
}

/** Every file the export would write, with its new text, and what each lists and leaves out. */
export async function planExport(ws: Workspace, options: ExportOptions): Promise<ExportPlan> {
  const tracker = freshnessTracker(ws);
  await tracker.refresh();
  // A pack's recipes and the person's own stay out of the repository's files: they link to a git-ignored
  // copy, the pack is the team's way to share them, and a personal recipe reaches the project only when a
  // person adds that recipe (share_personal_recipe). A project recipe of the same id is exported.
  const recipes: ExportRecipe[] = listRecipes(ws, { status: 'published' }).filter((r) => !r.pack && !r.origin).map((
    r,
  ) => {
    const verdict = tracker.get(r.id);
    return {
      id: r.id,
      title: r.title,
      trigger: r.trigger,
      kind: r.kind,
      summary: r.summary,
      quality: r.quality,
      file: r.file,
      group: languageGroup(r.language),
      ...(r.paths?.length ? { paths: r.paths } : {}),
      ...(verdict?.freshness === 'stale' ? { stale: verdict.reason } : {}),
    };
  });
  const planned = plannedFiles(recipes, options);
  // Two passes: the notes name only files that will hold recipes, which the first pass tells.
  const first = await Promise.all(planned.map((p) => planFile(ws, p.spec, p.recipes, undefined)));
  const targets = planned.map((p, i) => ({ spec: p.spec, written: KEPT.has(first[i].action) }));
  const files: PlannedFile[] = [];
  for (const p of planned) files.push(await planFile(ws, p.spec, p.recipes, scopeNote(p.spec, targets)));
  return {
    published: recipes.length,
    files: linksToExported(ws.root, files).filter((f) => !(f.action === 'skipped' && !f.note)),
  };
}

const KEPT = new Set<PlannedFile['action']>(['create', 'update', 'unchanged']);

/**
 * Each file of each target with the recipes it lists: the recipes for the whole project in the root
 * files (by language where the target scopes by language), and each folder scope's recipes in the
 * target's file for that scope; a scope the target cannot write on its own goes into its root file.
 */
function plannedFiles(recipes: ExportRecipe[], options: ExportOptions) {
  const unscoped = recipes.filter((r) => !r.paths);
  const scopes = new Map<string, { scope: ExportScope; recipes: ExportRecipe[] }>();
  for (const r of recipes.filter((x) => x.paths)) {
    const paths = [...r.paths!].sort();
    const key = paths.join('\n');
    if (!scopes.has(key)) scopes.set(key, { scope: { paths, folder: scopeFolder(paths) }, recipes: [] });
    scopes.get(key)!.recipes.push(r);
  }
  const out: { spec: ExportFileSpec; recipes: ExportRecipe[] }[] = [];
  for (const target of [...new Set(options.targets)]) {
    const scoped = [...scopes.values()].map((s) => ({ ...s, spec: scopedFileFor(target, s.scope, options.maxChars) }));
    const root = [
      ...unscoped,
      ...scoped.filter((s) => !s.spec).flatMap((s) => s.recipes.map((r) => ({ ...r, appliesTo: s.scope.paths }))),
    ];
    for (const spec of filesFor(target, [...new Set(root.map((r) => r.group))], options.maxChars)) {
      out.push({ spec, recipes: spec.language === undefined ? root : root.filter((r) => r.group === spec.language) });
    }
    for (const s of scoped) if (s.spec) out.push({ spec: s.spec, recipes: s.recipes });
  }
  return out;
}

/**
 * A link to a file this export writes (CLAUDE.md is often a link to AGENTS.md) is not written
 * through, and needs no refusal either: it shows the block its target gets.
 */
function linksToExported(root: string, files: PlannedFile[]): PlannedFile[] {
  const realRoot = realpathSync(root);
  const exported = new Map(
    files.filter((f) => f.action !== 'refused' && f.action !== 'skipped').map((
      f,
    ) => [path.join(realRoot, f.path), f.path]),
  );
  return files.map((f) => {
    const target = f.action === 'refused' && f.linksTo ? exported.get(f.linksTo) : undefined;
    return target
      ? { ...f, action: 'skipped', note: `${f.path} is a link to ${target}, which this export writes.` }
      : f;
  });
}

async function planFile(
  ws: Workspace,
  spec: ExportFileSpec,
  recipes: ExportRecipe[],
  note: string | undefined,
): Promise<PlannedFile> {
  const base = { target: spec.target, path: spec.path, budget: spec.maxChars };
  const problem = destinationProblem(ws.root, spec.path);
  if (problem) {
    return {
      ...base,
      action: 'refused',
      text: '',
      chars: 0,
      listed: [],
      omitted: recipes.map((r) => r.id),
      note: problem.refusal,
      ...(problem.linksTo ? { linksTo: problem.linksTo } : {}),
    };
  }
  const read = await readExisting(ws.root, spec.path);
  // The markers are found at line starts, so a BOM before a block at the top is set aside and put back.
  const bom = read?.startsWith(BOM) ? BOM : '';
  const existing = bom ? read!.slice(bom.length) : read;
  // A file is created only when it has something to say; an existing block is always brought up to date.
  if (existing === undefined && recipes.length === 0) {
    return { ...base, action: 'skipped', text: '', chars: 0, listed: [], omitted: [] };
  }
  if (existing !== undefined && recipes.length === 0 && !findBlock(existing, spec.path)) {
    return { ...base, action: 'skipped', text: '', chars: 0, listed: [], omitted: [] };
  }
  const outside = existing === undefined
    ? (spec.frontmatter ? spec.frontmatter.length + 2 : 1)
    : outsideLength(existing, spec.path) + 2;
  const block = renderBlock(recipes, {
    file: spec.path,
    budget: Math.max(0, spec.maxChars - outside),
    sections: spec.language === undefined,
    scopeNote: note,
  });
  const text = bom + withBlock(existing, block.text, spec.path, spec.frontmatter);
  return {
    ...base,
    action: read === undefined ? 'create' : read === text ? 'unchanged' : 'update',
    text,
    chars: text.length,
    listed: block.listed.map((r) => r.id),
    omitted: block.omitted.map((r) => r.id),
  };
}

/** Writes the files of a plan that changed; answers the paths written. */
export async function writeExport(ws: Workspace, plan: ExportPlan): Promise<string[]> {
  const written: string[] = [];
  for (const f of plan.files) {
    if (f.action !== 'create' && f.action !== 'update') continue;
    await writeDestination(ws.root, f.path, f.text);
    written.push(f.path);
  }
  return written;
}

async function readExisting(root: string, rel: string): Promise<string | undefined> {
  try {
    return (await readRepoFile(root, rel, { kind: 'config', maxBytes: MAX_EXISTING_BYTES })).text;
  } catch (e) {
    if (isAutoSnippetError(e) && e.code === ErrorCode.NotFound) return undefined;
    if (isAutoSnippetError(e) && e.code === ErrorCode.FileTooLarge) {
      const size = Number(e.details?.size ?? 0);
      throw new AutoSnippetError(
        ErrorCode.ExportFileTooLarge,
        `${rel} is ${
          size ? formatBytes(size) : `over ${formatBytes(MAX_EXISTING_BYTES)}`
        }; an instruction file an export updates may be at most ${formatBytes(MAX_EXISTING_BYTES)}.`,
        `Shorten ${rel}, or export to another target. Nothing was written.`,
      );
    }
    throw e;
  }
}

export function describeTargets(): { id: ExportTarget; label: string; files: string; maxChars: number }[] {
  return (Object.keys(TARGETS) as ExportTarget[]).map((id) => ({
    id,
    label: TARGETS[id].label,
    files: TARGETS[id].describe,
    maxChars: TARGETS[id].maxChars,
  }));
}
