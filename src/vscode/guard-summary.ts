import * as vscode from 'vscode';

/** What Guard last found in the current folder: the workspace scan's file count once one ran, and the findings shown now. */
export interface GuardSummary {
  /** Files of the last workspace scan; undefined until one ran in this window. */
  scannedFiles?: number;
  error: number;
  warning: number;
}

const changed = new vscode.EventEmitter<void>();
let current: GuardSummary | undefined;

/** Fires whenever the summary may have changed (a scan ended, a file's findings changed, the folder changed). */
export const onDidChangeGuardSummary = changed.event;

export function guardSummary(): GuardSummary | undefined {
  return current;
}

export function setGuardSummary(summary: GuardSummary): void {
  if (
    current && current.scannedFiles === summary.scannedFiles && current.error === summary.error
    && current.warning === summary.warning
  ) return;
  current = summary;
  changed.fire();
}
