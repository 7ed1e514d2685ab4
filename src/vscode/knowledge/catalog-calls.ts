import * as vscode from 'vscode';
import type { ExtensionHost } from '../host';
import type { Workspace } from '../../core/workspace';

/** A folder to act on instead of the current one (the folder of the active editor). */
export type FolderTarget = vscode.Uri | vscode.WorkspaceFolder;

/** Calls a catalog tool as the person at the keyboard; a refusal or failure becomes an error message. */
export async function invoke<T = any>(host: ExtensionHost, tool: string, input: Record<string, unknown>, target?: FolderTarget): Promise<T | undefined> {
  let ws: Workspace;
  try {
    ws = await host.getWorkspace(target);
  } catch (e) {
    showError(host, (e as Error).message);
    return undefined;
  }
  const result = await host.catalog.invoke(ws, tool, input, { actor: 'human', channel: 'vscode' });
  if (!result.ok) {
    host.log.warn(`${tool} failed: ${result.error.code} ${result.error.message}`);
    showError(host, result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message);
    return undefined;
  }
  return result.data as T;
}

/** Every page of a paged tool's array (the catalog bounds each answer), quietly: for views. */
export async function invokeAll<T>(host: ExtensionHost, tool: string, input: Record<string, unknown>, field: string, target?: FolderTarget): Promise<T[]> {
  const ws = await host.getWorkspace(target);
  const out: T[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await host.catalog.invoke(ws, tool, { ...input, ...(cursor !== undefined ? { cursor } : {}) }, { actor: 'human', channel: 'vscode' });
    if (!result.ok) throw new Error(result.error.message);
    out.push(...((result.data as Record<string, T[]>)[field] ?? []));
    cursor = result.truncated?.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}


/** An error the person can act on: the message, and the log with the details one click away. */
export function showError(host: ExtensionHost, message: string): void {
  const log = vscode.l10n.t('Show Log');
  void vscode.window.showErrorMessage(message, log).then((picked) => {
    if (picked === log) host.output.show();
  });
}
