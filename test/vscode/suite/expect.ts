// Helpers for assertions inside the extension host.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'autosnippet.autosnippet';

/** The MCP server definitions the extension's API hands out (the contract with src/vscode). */
export interface McpServerDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface AutoSnippetApi {
  mcpServerDefinitions(): McpServerDefinition[];
}

/** Activates the extension (once) and returns the API its activate() returned. */
export async function activateExtension(): Promise<AutoSnippetApi> {
  const ext = vscode.extensions.getExtension<AutoSnippetApi>(EXTENSION_ID);
  assert.ok(
    ext,
    `extension ${EXTENSION_ID} is not installed; extensions seen: ${
      vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')).join(', ') || '(none)'
    }`,
  );
  const api = await ext.activate();
  assert.ok(ext.isActive, `${EXTENSION_ID} did not become active`);
  return api;
}

export { eventually } from './poll';

/** The JSON in a tool result's first text part. */
export function toolResultJson(result: vscode.LanguageModelToolResult): any {
  const parts = result.content.filter((p): p is vscode.LanguageModelTextPart =>
    p instanceof vscode.LanguageModelTextPart
  );
  assert.ok(
    parts.length > 0,
    `the tool result has no LanguageModelTextPart: ${JSON.stringify(result.content).slice(0, 500)}`,
  );
  const text = parts.map((p) => p.value).join('');
  try {
    return JSON.parse(text);
  } catch {
    assert.fail(`the tool result is not JSON: ${text.slice(0, 500)}`);
  }
}

/** The first workspace folder's path (the tests open exactly one). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  return folder.uri.fsPath;
}

/** Compares two paths after resolving symlinks (temp folders are often behind one). */
export function assertSamePath(actual: unknown, expected: string, what: string): void {
  assert.equal(typeof actual, 'string', `${what} is not a string: ${JSON.stringify(actual)}`);
  const norm = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  assert.equal(norm(actual as string), norm(expected), `${what}: ${actual} is not ${expected}`);
}

/** process.env plus `extra`, without undefined values (what a spawned child should see). */
export function mergedEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}
