import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolErrorBody, ToolResult } from '../../src/core/catalog/types';
import { discoverStructure, type ProjectStructure, type Target } from '../../src/core/domains/structure';
import { walkWorkspace } from '../../src/core/ground/files';
import { Workspace } from '../../src/core/ground/workspace';

export const ECOSYSTEM_FIXTURES = path.join(__dirname, '..', 'fixtures', 'ecosystems');
export const REPO_SKILLS = path.join(__dirname, '..', '..', 'skills');

export const human: ToolContext = { actor: 'human', channel: 'test' };
export const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

const opened: { ws: Workspace; dir: string }[] = [];

/** A fresh copy of a fixture in a temp folder, opened as a workspace with a real store. */
export async function fixtureWorkspace(name: string, prepare?: (dir: string) => void): Promise<Workspace> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `as-${name}-`));
  cpSync(path.join(ECOSYSTEM_FIXTURES, name), dir, { recursive: true });
  prepare?.(dir);
  const ws = await Workspace.open(dir, { bundledSkillsDir: REPO_SKILLS });
  opened.push({ ws, dir });
  return ws;
}

export async function emptyWorkspace(): Promise<Workspace> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-graph-'));
  const ws = await Workspace.open(dir);
  opened.push({ ws, dir });
  return ws;
}

/** A workspace holding these files (workspace-relative path → text), opened after they are written. */
export async function workspaceWith(files: Record<string, string>): Promise<Workspace> {
  const ws = await emptyWorkspace();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws.root, rel)), { recursive: true });
    writeFileSync(path.join(ws.root, rel), text);
  }
  return ws;
}

export async function closeWorkspaces(): Promise<void> {
  for (const { ws, dir } of opened.splice(0)) {
    await ws.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Discovery straight on the fixture folder (read-only, no store). */
export async function discoverFixture(name: string): Promise<ProjectStructure> {
  const root = path.join(ECOSYSTEM_FIXTURES, name);
  const listing = await walkWorkspace(root);
  return discoverStructure(root, listing.files);
}

export function target(s: ProjectStructure, name: string): Target {
  const t = s.targets.find((x) => x.name === name);
  assert.ok(t, `no target ${name}; have ${s.targets.map((x) => x.name).join(', ')}`);
  return t;
}

/** Internal dependencies as "from -> to" lines, sorted. */
export function internalEdges(s: ProjectStructure): string[] {
  return s.targets.flatMap((t) => t.dependencies.filter((d) => d.target).map((d) => `${t.name} -> ${d.target}`)).sort();
}

/** Asserts a `path:line` evidence points at a line of `root` that contains `needle`. */
export function assertEvidence(root: string, evidence: string | undefined, needle: string): void {
  assert.ok(evidence, `missing evidence for ${needle}`);
  const m = /^(.*):(\d+)$/.exec(evidence);
  assert.ok(m, `not path:line: ${evidence}`);
  const line = readFileSync(path.join(root, m[1]), 'utf8').split('\n')[Number(m[2]) - 1];
  assert.ok(line?.includes(needle), `${evidence} is "${line}", expected it to contain ${needle}`);
}

/** The data of a successful tool result; fails the test with the error otherwise. */
export function dataOf(r: ToolResult): any {
  if (!r.ok) assert.fail(`${r.tool} failed: ${r.error.code}: ${r.error.message}`);
  return r.data;
}

/** The error of a failed tool result; fails the test when it succeeded. */
export function errorOf(r: ToolResult): ToolErrorBody {
  if (r.ok) assert.fail(`${r.tool} succeeded; expected an error`);
  return r.error;
}
