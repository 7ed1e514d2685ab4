/**
 * `@autosnippet /coldstart`: the chat's model writes the cold-start cards from the scan's evidence
 * (write_coldstart_cards), with the scan's progress in the chat and the chat's stop button cancelling
 * it. With no model the scan's own cards are recorded (bootstrap_knowledge). Both go through the
 * catalog, so the Gateway and the audit log see them as any other call.
 */
import * as vscode from 'vscode';
import type { ToolResult } from '../../core/catalog';
import type { BootstrapResult, ChatModel, ColdstartCardsReport } from '../../core/catalog/adapters';
import { candidatesIn } from '../../core/catalog/adapters';
import type { Workspace } from '../../core/ground/workspace';
import type { ChatHost } from './chat-host';
import type { TurnMetadata } from './history';
import { streamReviewButtons } from './review-actions';

export async function runColdstart(
  host: ChatHost,
  ws: Workspace,
  model: ChatModel | undefined,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  if (token.isCancellationRequested) controller.abort();
  const context = {
    actor: 'copilot_agent' as const,
    channel: 'chat' as const,
    signal: controller.signal,
    progress: (p: { message?: string }) => p.message && stream.progress(p.message),
    ...(model ? { model } : {}),
  };
  try {
    stream.progress(
      model
        ? vscode.l10n.t('Scanning the workspace; {0} then writes the cards from what the scan found…', model.name)
        : vscode.l10n.t('Scanning the workspace (no language model: the scan writes the cards)…'),
    );
    const r: ToolResult = model
      ? await host.catalog.invoke(ws, 'write_coldstart_cards', {}, context)
      : await host.catalog.invoke(ws, 'bootstrap_knowledge', {}, context);
    if (controller.signal.aborted || (!r.ok && r.error.code === 'CANCELLED')) {
      stream.markdown(vscode.l10n.t('Cold start cancelled; no candidates were recorded.'));
      return { metadata: { autosnippet: turn('cancelled', []) } };
    }
    if (!r.ok) {
      stream.markdown(`**${r.error.message}**${r.error.hint ? `\n\n${r.error.hint}` : ''}`);
      return { errorDetails: { message: r.error.message }, metadata: { autosnippet: turn('error', []) } };
    }
    const data = r.data as ColdstartCardsReport | BootstrapResult;
    const result = 'result' in data ? data.result : data;
    stream.markdown(summaryOf(data, result));
    const candidates = [...candidatesIn(result).values()];
    streamReviewButtons(stream, host.catalog, candidates, []);
    return { metadata: { autosnippet: turn('done', candidates) } };
  } finally {
    cancel.dispose();
  }
}

function summaryOf(data: ColdstartCardsReport | BootstrapResult, result: BootstrapResult): string {
  const lines: string[] = [];
  lines.push(
    'mode' in data
      ? vscode.l10n.t(
        '{0} wrote {1} cards from the scan of {2} files ({3} requests); {4} are new candidates.',
        data.model,
        data.written,
        result.scanned.files,
        data.requests,
        result.candidates.created,
      )
      : vscode.l10n.t(
        'The scan of {0} files proposed {1} cards; {2} are new candidates.',
        result.scanned.files,
        result.candidates.proposed,
        result.candidates.created,
      ),
  );
  const perDimension = result.dimensions.filter((d) => d.created.length + d.existing.length > 0)
    .map((d) => `- ${d.id}: ${d.created.length}${d.existing.length ? ` (+${d.existing.length})` : ''}`);
  if (perDimension.length) lines.push('', ...perDimension);
  if ('mode' in data) {
    if (data.flagged.length) {
      lines.push('', vscode.l10n.t('Check before approving (cited lines the scan did not show):'));
      for (const f of data.flagged) lines.push(`- **${f.title}**: ${f.note}`);
    }
    if (data.refused.length) {
      lines.push('', vscode.l10n.t('Refused (their sources do not hold):'));
      for (const f of data.refused) lines.push(`- ${f.title}: ${f.problem}`);
    }
    for (const f of data.fallback) {
      lines.push('', vscode.l10n.t("The scan's own cards stand for {0}: {1}", f.dimensions.join(', '), f.reason));
    }
  }
  lines.push('', vscode.l10n.t('Review them in the Candidates view.'));
  return lines.join('\n');
}

function turn(stoppedBy: string, candidates: { id: string; title?: string }[]): TurnMetadata {
  return {
    version: 1,
    command: 'coldstart',
    messages: [],
    references: [],
    candidates: candidates.slice(0, 100),
    stoppedBy,
    rounds: 0,
    tools: [],
  };
}
