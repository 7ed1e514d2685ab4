import * as vscode from 'vscode';
import type { ToolDefinition } from '../../core/catalog';
import type { Static, TObject, TSchema } from '../../core/catalog/schema';
import type { Workspace } from '../../core/ground/workspace';
import type { ExtensionHost } from '../host';

const person = { actor: 'human', channel: 'vscode' } as const;

/** A folder to act on instead of the current one (the folder of the active editor). */
export type FolderTarget = vscode.Uri | vscode.WorkspaceFolder;

/** Calls a catalog tool as the person at the keyboard; a refusal or failure becomes an error message. */
export async function invoke<I extends TObject, O extends TSchema>(
  host: ExtensionHost,
  tool: ToolDefinition<I, O>,
  input: Static<I>,
  target?: FolderTarget,
): Promise<Static<O> | undefined> {
  let ws: Workspace;
  try {
    ws = await host.getWorkspace(target);
  } catch (e) {
    showError(host, (e as Error).message);
    return undefined;
  }
  const result = await host.catalog.call(ws, tool, input, person);
  if (!result.ok) {
    host.log.warn(`${tool.name} failed: ${result.error.code} ${result.error.message}`);
    showError(host, result.error.hint ? `${result.error.message} ${result.error.hint}` : result.error.message);
    return undefined;
  }
  return result.data;
}

/** A catalog tool's answer as the person, quietly: undefined when it failed (for previews and completions). */
export async function quietly<I extends TObject, O extends TSchema>(
  host: ExtensionHost,
  tool: ToolDefinition<I, O>,
  input: Static<I>,
): Promise<Static<O> | undefined> {
  const result = await host.catalog.call(await host.getWorkspace(), tool, input, person);
  return result.ok ? result.data : undefined;
}

type ItemOf<T> = T extends readonly (infer E)[] ? E : never;

/** Every page of a paged tool's list (the catalog bounds each answer), quietly: for views. */
export async function invokeAll<I extends TObject, O extends TSchema, F extends keyof Static<O>>(
  host: ExtensionHost,
  tool: ToolDefinition<I, O>,
  input: Static<I>,
  field: F,
  target?: FolderTarget,
): Promise<ItemOf<Static<O>[F]>[]> {
  const ws = await host.getWorkspace(target);
  const out: ItemOf<Static<O>[F]>[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await host.catalog.call(ws, tool, { ...input, ...(cursor !== undefined ? { cursor } : {}) }, person);
    if (!result.ok) throw new Error(result.error.message);
    out.push(...((result.data[field] ?? []) as ItemOf<Static<O>[F]>[]));
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
