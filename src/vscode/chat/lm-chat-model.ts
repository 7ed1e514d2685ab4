import * as vscode from 'vscode';
import {
  cancelledError,
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  ModelErrorCode,
  type ToolCall,
} from '../../core/catalog/adapters';

/** VS Code's limit on the tools of one request. */
export const VSCODE_TOOL_LIMIT = 128;

/**
 * The model the person picked in Copilot chat (`request.model`) as a ChatModel. The system prompt
 * goes first as a user message (vscode.lm has no system role); tool calls are native when the model
 * says it supports them.
 */
export class LanguageModelChatModel implements ChatModel {
  readonly id: string;
  readonly name: string;
  readonly supportsToolCalling: boolean;
  readonly maxInputTokens: number;
  readonly maxTools = VSCODE_TOOL_LIMIT;

  constructor(private readonly model: vscode.LanguageModelChat, private readonly justification?: string) {
    this.id = `${model.vendor}/${model.id}`;
    this.name = model.name;
    // `capabilities` is on the runtime object of VS Code 1.104 but not yet in its typings.
    this.supportsToolCalling =
      (model as { capabilities?: { supportsToolCalling?: boolean } }).capabilities?.supportsToolCalling ?? true;
    this.maxInputTokens = model.maxInputTokens;
  }

  /** `maxOutputTokens` and `temperature` are not sent: vscode.lm has no standard option for them. */
  async send(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw cancelledError('The model request');
    const source = new vscode.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const messages = toLanguageModelMessages(request.messages, request.system);
      const tools = this.supportsToolCalling && request.tools?.length
        ? request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))
        : undefined;
      const response = await this.model.sendRequest(
        messages,
        {
          justification: this.justification,
          ...(tools
            ? {
              tools,
              toolMode: request.toolMode === 'required'
                ? vscode.LanguageModelChatToolMode.Required
                : vscode.LanguageModelChatToolMode.Auto,
            }
            : {}),
        },
        source.token,
      );
      let text = '';
      const toolCalls: ToolCall[] = [];
      for await (const part of response.stream) {
        if (signal?.aborted) throw cancelledError('The model request');
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          request.onText?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push({ id: part.callId, name: part.name, input: (part.input ?? {}) as Record<string, unknown> });
        }
      }
      return { text, toolCalls };
    } catch (e) {
      if (signal?.aborted || source.token.isCancellationRequested) throw cancelledError('The model request');
      throw toChatModelError(e, this.name);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

export function toLanguageModelMessages(
  messages: readonly ChatMessage[],
  system?: string,
): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = system ? [vscode.LanguageModelChatMessage.User(system)] : [];
  for (const m of messages) {
    if (m.role === 'user') {
      const parts = m.parts.map((p) =>
        p.type === 'tool_result'
          ? new vscode.LanguageModelToolResultPart(p.callId, [new vscode.LanguageModelTextPart(p.text)])
          : new vscode.LanguageModelTextPart(p.type === 'text' ? p.text : JSON.stringify(p.input))
      );
      out.push(vscode.LanguageModelChatMessage.User(parts));
    } else {
      const parts = m.parts.map((
        p,
      ) => (p.type === 'tool_call'
        ? new vscode.LanguageModelToolCallPart(p.id, p.name, p.input)
        : new vscode.LanguageModelTextPart(p.text))
      );
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    }
  }
  return out;
}

/** LanguageModelError codes as our stable codes, with what a person can do about each. */
export function toChatModelError(e: unknown, modelName: string): ChatModelError {
  if (e instanceof ChatModelError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = e instanceof vscode.LanguageModelError ? e.code : undefined;
  switch (code) {
    case 'NoPermissions':
      return new ChatModelError(
        ModelErrorCode.NoPermission,
        vscode.l10n.t('AutoSnippet may not use {0}: {1}', modelName, message),
        vscode.l10n.t('Allow AutoSnippet to use the model when VS Code asks, or pick another model in the chat.'),
      );
    case 'Blocked':
      return new ChatModelError(
        ModelErrorCode.Blocked,
        vscode.l10n.t('{0} refused the request: {1}', modelName, message),
        vscode.l10n.t('You may have reached a quota or rate limit. Wait a moment, or pick another model in the chat.'),
      );
    case 'NotFound':
      return new ChatModelError(
        ModelErrorCode.NotFound,
        vscode.l10n.t('The model {0} is no longer available: {1}', modelName, message),
        vscode.l10n.t('Pick another model in the chat.'),
      );
    default:
      return new ChatModelError(
        ModelErrorCode.Failed,
        vscode.l10n.t('{0} failed: {1}', modelName, message),
        vscode.l10n.t('Try again, or pick another model in the chat.'),
      );
  }
}
