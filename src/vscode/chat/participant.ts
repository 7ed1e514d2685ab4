import * as vscode from 'vscode';
import type { ToolContext } from '../../core/catalog';
import { agentCommand } from '../../core/catalog/adapters';
import { candidatesIn, draftRecipesIn } from '../../core/catalog/adapters';
import { ChatModelError, ModelErrorCode } from '../../core/catalog/adapters';
import { buildSystemPrompt, DEFAULT_PROMPT_TOKENS } from '../../core/catalog/adapters';
import { type AgentEvent, type AgentRunResult, runAgent } from '../../core/catalog/adapters';
import { type AgentReference, type AgentToolbox, catalogToolbox, combineToolboxes } from '../../core/catalog/adapters';
import { guardAnswerCheck } from '../../core/catalog/adapters';
import { skillRegistry } from '../../core/catalog/adapters';
import { loadTokenCounter } from '../../core/catalog/adapters';
import type { Logger } from '../../core/ground/kernel/log';
import type { Workspace } from '../../core/ground/workspace';
import { type ExtensionHost, setting } from '../host';
import { rememberInChat } from '../knowledge/remember';
import type { ChatHost } from './chat-host';
import { runColdstart } from './coldstart';
import { compactTurn, historyMessages, type TurnMetadata } from './history';
import { LanguageModelChatModel, VSCODE_TOOL_LIMIT } from './lm-chat-model';
import { otherToolsToolbox } from './other-tools';
import { registerConfirmActionCommand, streamReviewButtons } from './review-actions';

export const PARTICIPANT_ID = 'autosnippet.agent';

/** What the handler needs of the extension: ExtensionHost has it; a test can build one. */
export type { ChatHost } from './chat-host';

/** `@autosnippet` in Copilot chat, with its follow-ups and the command behind its review buttons. */
export function registerChatParticipant(host: ExtensionHost): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, createChatRequestHandler(host));
  participant.iconPath = vscode.Uri.joinPath(host.context.extensionUri, 'media', 'autosnippet.svg');
  participant.followupProvider = { provideFollowups: (result) => followupsFor(result) };
  return vscode.Disposable.from(participant, registerConfirmActionCommand(host));
}

export function createChatRequestHandler(host: ChatHost): vscode.ChatRequestHandler {
  return async (request, context, stream, token) => {
    let ws: Workspace;
    try {
      ws = await host.getWorkspace();
    } catch (e) {
      return explain(stream, (e as Error).message, vscode.l10n.t('Open a folder in VS Code, then ask again.'));
    }
    if (request.command === 'remember') return rememberInChat(host, request.prompt, stream);
    const picked = request.model ?? (await vscode.lm.selectChatModels())[0];
    // The cold start writes its cards from the scan's evidence with the model, or records the scan's own without one.
    if (request.command === 'coldstart') {
      return runColdstart(host, ws, picked && lmModel(picked), stream, token);
    }
    if (!picked) {
      return explain(
        stream,
        vscode.l10n.t('No language model is available to AutoSnippet.'),
        vscode.l10n.t(
          'Install and sign in to GitHub Copilot (or another extension that provides chat models), pick a model in the chat, and ask again. Without a model you can still use the AutoSnippet tools from agent mode or any MCP client.',
        ),
      );
    }
    const model = lmModel(picked);

    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    if (token.isCancellationRequested) controller.abort();
    const command = agentCommand(request.command);
    const toolContext: Omit<ToolContext, 'signal'> = {
      actor: 'copilot_agent',
      channel: 'chat',
      model,
      progress: (p) => p.message && stream.progress(p.message),
      ...(host.dialogs
        ? { confirm: (q) => host.dialogs!.confirm(q.title, q.message, vscode.l10n.t('Allow')) }
        : {}),
    };
    try {
      const toolbox = chooseTools(host, ws, toolContext, request, model.maxTools, token);
      const counter = await loadTokenCounter();
      const system = buildSystemPrompt({
        tools: toolbox.specs.map((t) => ({ name: t.name, summary: t.description })),
        skills: skillsOf(ws, host.log),
        counter,
        maxTokens: Math.min(DEFAULT_PROMPT_TOKENS, Math.floor(model.maxInputTokens * 0.25)),
        textProtocol: !model.supportsToolCalling,
        command: request.command,
      });
      host.log.debug(
        `chat: ${model.id}, ${toolbox.specs.length} tools, system prompt ${system.tokens} tokens${
          system.skills.omitted.length ? `, ${system.skills.omitted.length} skills left out` : ''
        }`,
      );
      const prompt = await promptWithAttachments(
        request.prompt.trim() || command?.defaultPrompt || '',
        request.references,
      );

      const results: unknown[] = [];
      const run = await runAgent({
        model,
        toolbox,
        system: system.text,
        history: historyMessages(context.history, PARTICIPANT_ID),
        prompt,
        signal: controller.signal,
        onEvent: (e) => onAgentEvent(e, stream, host, results),
        reviewAnswer: guardAnswerCheck({ catalog: host.catalog, ws, context: toolContext }),
      });
      if (run.stoppedBy === 'max_rounds') {
        stream.markdown(
          '\n\n'
            + vscode.l10n.t(
              '_I used the {0} rounds of tool calls one request allows. Ask me to continue to go on._',
              run.rounds,
            ),
        );
      }
      const candidates = [...candidatesIn(results).values()];
      const recipes = [...draftRecipesIn(results).values()];
      if (run.stoppedBy !== 'cancelled') streamReviewButtons(stream, host.catalog, candidates, recipes);
      return { metadata: { autosnippet: metadataOf(run, request.command, candidates) } };
    } catch (e) {
      if (controller.signal.aborted) {
        return {
          metadata: {
            autosnippet: {
              version: 1,
              command: request.command,
              messages: [],
              references: [],
              candidates: [],
              stoppedBy: 'cancelled',
              rounds: 0,
              tools: [],
            } satisfies TurnMetadata,
          },
        };
      }
      host.log.error('chat request failed', e);
      if (e instanceof ChatModelError) return explain(stream, e.message, e.hint ?? '', e.code);
      return explain(
        stream,
        vscode.l10n.t('AutoSnippet failed: {0}', (e as Error).message ?? String(e)),
        vscode.l10n.t('The AutoSnippet log (command "AutoSnippet: Show Log") has the details.'),
      );
    } finally {
      cancel.dispose();
    }
  };
}

function lmModel(picked: vscode.LanguageModelChat): LanguageModelChatModel {
  return new LanguageModelChatModel(
    picked,
    vscode.l10n.t('AutoSnippet uses the model you picked to run its tools and to improve the candidates it proposes.'),
  );
}

/** Our agent tools, plus other extensions' tools by relevance when the setting allows, within the model's limit. */
function chooseTools(
  host: ChatHost,
  ws: Workspace,
  context: Omit<ToolContext, 'signal'>,
  request: vscode.ChatRequest,
  maxTools: number,
  token: vscode.CancellationToken,
): AgentToolbox {
  const ours = catalogToolbox({ catalog: host.catalog, ws, context });
  const useOthers = setting('agent.useOtherTools');
  const room = Math.min(maxTools, VSCODE_TOOL_LIMIT) - ours.specs.length;
  if (!useOthers || room <= 0) return ours;
  return combineToolboxes(ours, otherToolsToolbox(request.prompt, room, request.toolInvocationToken, token));
}

function onAgentEvent(e: AgentEvent, stream: vscode.ChatResponseStream, host: ChatHost, results: unknown[]): void {
  switch (e.type) {
    case 'text':
      stream.markdown(e.delta);
      break;
    case 'tool_started': {
      const tool = host.catalog.get(e.call.name);
      stream.progress(vscode.l10n.t('{0}…', tool?.title ?? e.call.name));
      break;
    }
    case 'tool_finished':
      if (e.result?.ok) results.push(e.result.data);
      if (!e.ok) {
        host.log.info(
          `chat: ${e.call.name} failed${
            e.result && !e.result.ok ? `: ${e.result.error.code} ${e.result.error.message}` : ''
          }`,
        );
      }
      break;
    case 'reference':
      streamReference(stream, e.reference);
      break;
    case 'correction':
      host.log.debug(`chat: corrected ${e.problems.length} unreadable action block(s)`);
      break;
    case 'review':
      if (e.final) {
        stream.markdown(
          '\n\n'
            + vscode.l10n.t(
              '_Guard still reports {0} problem(s) in the code above; check it before you use it._',
              e.findings,
            ),
        );
      } else {
        stream.progress(vscode.l10n.t('Guard found {0} problem(s) in the proposed code; fixing them…', e.findings));
      }
      break;
    default:
      break;
  }
}

function streamReference(stream: vscode.ChatResponseStream, ref: AgentReference): void {
  if (!ref.path) return;
  stream.reference(vscode.Uri.file(ref.path), new vscode.ThemeIcon(ref.kind === 'skill' ? 'book' : 'symbol-snippet'));
}

function skillsOf(ws: Workspace, log: Logger) {
  try {
    return skillRegistry(ws).list();
  } catch (e) {
    log.warn(`chat: the skills could not be listed: ${(e as Error).message}`);
    return [];
  }
}

/** The person's words plus what they attached with #file or a selection (bounded). */
async function promptWithAttachments(
  prompt: string,
  references: readonly vscode.ChatPromptReference[],
): Promise<string> {
  const parts: string[] = [];
  for (const ref of references.slice(0, 10)) {
    const value = ref.value;
    if (typeof value === 'string') parts.push(value.slice(0, 4000));
    else if (value instanceof vscode.Uri) parts.push(`Attached file: ${vscode.workspace.asRelativePath(value)}`);
    else if (value instanceof vscode.Location) {
      try {
        const doc = await vscode.workspace.openTextDocument(value.uri);
        const file = vscode.workspace.asRelativePath(value.uri);
        const text = doc.getText(value.range).slice(0, 8000);
        parts.push(
          `Attached from ${file}:${value.range.start.line + 1}-${
            value.range.end.line + 1
          } (${doc.languageId}):\n\`\`\`${doc.languageId}\n${text}\n\`\`\``,
        );
      } catch {
        parts.push(`Attached: ${value.uri.toString()}`);
      }
    }
  }
  return parts.length ? `${prompt}\n\n${parts.join('\n\n')}` : prompt;
}

function metadataOf(
  run: AgentRunResult,
  command: string | undefined,
  candidates: { id: string; title?: string }[],
): TurnMetadata {
  return {
    version: 1,
    command,
    messages: compactTurn(run.turn),
    references: run.references,
    candidates: candidates.slice(0, 100),
    stoppedBy: run.stoppedBy,
    rounds: run.rounds,
    tools: run.toolCalls.map((c) => ({ name: c.call.name, ok: c.ok })),
  };
}

/** A problem said in the chat: what happened and what to do, and the same as the result's error. */
function explain(
  stream: vscode.ChatResponseStream,
  message: string,
  whatToDo: string,
  code: string = ModelErrorCode.NoModel,
): vscode.ChatResult {
  stream.markdown(`**${message}**${whatToDo ? `\n\n${whatToDo}` : ''}`);
  return {
    errorDetails: { message: whatToDo ? `${message} ${whatToDo}` : message },
    metadata: {
      autosnippet: {
        version: 1,
        messages: [],
        references: [],
        candidates: [],
        stoppedBy: 'error',
        rounds: 0,
        tools: [],
      } satisfies TurnMetadata,
      errorCode: code,
    },
  };
}

export function followupsFor(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const meta = (result.metadata as { autosnippet?: TurnMetadata } | undefined)?.autosnippet;
  if (!meta || meta.stoppedBy === 'error' || meta.stoppedBy === 'cancelled') return [];
  const out: vscode.ChatFollowup[] = [];
  if (meta.stoppedBy === 'max_rounds') {
    out.push({ prompt: vscode.l10n.t('Continue where you stopped.'), label: vscode.l10n.t('Continue') });
  }
  if (meta.candidates.length) {
    out.push({
      prompt: vscode.l10n.t('Which of these candidates should I review first, and why?'),
      command: 'review',
      label: vscode.l10n.t('Review the candidates'),
    });
  }
  switch (meta.command) {
    case 'coldstart':
      out.push({
        prompt: vscode.l10n.t('What did the scan not cover that I should add by hand?'),
        label: vscode.l10n.t('What is missing?'),
      });
      break;
    case 'search':
      out.push({
        prompt: vscode.l10n.t('Save the pattern I am looking at as a recipe.'),
        command: 'create',
        label: vscode.l10n.t('Create a recipe'),
      });
      break;
    case 'guard':
      out.push({
        prompt: vscode.l10n.t('Propose a guard rule for what we just discussed.'),
        command: 'guard',
        label: vscode.l10n.t('Propose a rule'),
      });
      break;
    case undefined:
      if (!meta.candidates.length) {
        out.push({
          prompt: vscode.l10n.t('Which skills and tools can you use here?'),
          command: 'skills',
          label: vscode.l10n.t('What can you do?'),
        });
      }
      break;
    default:
      break;
  }
  return out.map((f) => ({ ...f, participant: PARTICIPANT_ID }));
}
