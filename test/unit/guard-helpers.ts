import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { guardCommand } from '../../src/cli/guard';
import type { ProjectRuleJson } from '../../src/core/domains/guard/project-rules';
import type { DeepPartial, Settings } from '../../src/core/ground/settings';
import { Workspace } from '../../src/core/ground/workspace';

/** A temporary workspace with the given files (path → content). */
export async function guardWorkspace(
  files: Record<string, string>,
  settings?: DeepPartial<Settings>,
): Promise<{ ws: Workspace; root: string; cleanup(): Promise<void> }> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-guard-'));
  writeFiles(root, files);
  const ws = await Workspace.open(root, { settings });
  return {
    ws,
    root,
    async cleanup() {
      await ws.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface GuardRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `autosnippet guard ARGS` on a workspace, in process (a workspace opened for the run, closed after). */
export async function runGuardCli(root: string, args: string[], cwd?: string): Promise<GuardRun> {
  let stdout = '';
  let stderr = '';
  let ws: Workspace | undefined;
  try {
    const code = await guardCommand(args, async () => (ws ??= await Workspace.open(root)), {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
    }, cwd);
    return { code, stdout, stderr };
  } finally {
    await ws?.dispose();
  }
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export function rulesFile(rules: Partial<ProjectRuleJson>[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      rules: rules.map((r) => ({
        message: 'project rule',
        languages: ['typescript'],
        why: 'because the team agreed',
        suggestion: 'do the other thing',
        ...r,
      })),
      ...extra,
    },
    null,
    2,
  );
}

/** Severity overrides that turn on every built-in rule that is off by default, so tests can reach them. */
export function allBuiltinsOn(
  rules: { id: string; severity: string; disabledByDefault?: boolean }[],
): Record<string, string> {
  return Object.fromEntries(rules.filter((r) => r.disabledByDefault).map((r) => [r.id, r.severity]));
}
