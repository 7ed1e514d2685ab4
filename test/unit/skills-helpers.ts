// Shared by the skills-*.test.ts files: temporary copies of the fixture workspace and a
// real Workspace for the tool handlers.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { DeepPartial, Settings } from '../../src/core/ground/settings';
import { Workspace } from '../../src/core/ground/workspace';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'skills');
export const BUNDLED_FIXTURE = path.join(FIXTURES, 'bundled');
export const REPO_SKILLS = path.join(__dirname, '..', '..', 'skills');

const temps: string[] = [];
const workspaces: Workspace[] = [];
after(async () => {
  for (const ws of workspaces.splice(0)) await ws.dispose();
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

export function tempDir(prefix = 'as-skills-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A fresh copy of test/fixtures/skills (workspace/ and bundled/), safe to edit. */
export function tempFixture(): { root: string; bundled: string; base: string } {
  const base = tempDir();
  cpSync(FIXTURES, base, { recursive: true });
  return { root: path.join(base, 'workspace'), bundled: path.join(base, 'bundled'), base };
}

export function writeSkill(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  writeFileSync(file, text);
  return file;
}

/** A SKILL.md text from frontmatter lines and a body. */
export function skillText(frontmatter: string, body = 'Do the thing.\n'): string {
  return `---\n${frontmatter.trim()}\n---\n\n${body}`;
}

/** A real Workspace over `root` (sql.js store included), disposed after the test file. */
export async function openWorkspace(
  root: string,
  options: { bundledDir?: string; settings?: DeepPartial<Settings> } = {},
): Promise<Workspace> {
  const ws = await Workspace.open(root, { bundledSkillsDir: options.bundledDir, settings: options.settings });
  workspaces.push(ws);
  return ws;
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
