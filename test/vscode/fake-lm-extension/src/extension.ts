// Test-only extension: registers the language-model vendor `autosnippet-fake` with two models that
// replay a script set by the test (`scripted` with native tool calling, `scripted-text` without, so
// the text protocol is used). The test reaches it through this extension's exports.
import * as vscode from 'vscode';
import { renderTurn, type ScriptTurnData } from '../../../../src/core/domains/agent/scripted';

export const VENDOR = 'autosnippet-fake';

/** A request as the test sees it. */
export interface RecordedRequest {
  model: string;
  /** Every message's text, joined: tool results included. */
  text: string;
  /** The text of the last message. */
  lastText: string;
  tools: string[];
}

export type FakeTurn = ScriptTurnData | ((request: RecordedRequest) => ScriptTurnData);

export interface FakeLmApi {
  vendor: string;
  /** The answers to give, in order; `intercept` answers matching requests out of order (e.g. a tool's own model call). */
  setScript(turns: FakeTurn[], intercept?: (request: RecordedRequest) => ScriptTurnData | undefined): void;
  readonly requests: readonly RecordedRequest[];
  /** Script turns not used yet. */
  readonly remaining: number;
}

interface FakeModel extends vscode.LanguageModelChatInformation {
  toolCalling: boolean;
}

const MODELS: FakeModel[] = [
  {
    id: 'scripted',
    name: 'Scripted (tools)',
    family: 'autosnippet-fake',
    version: '1',
    maxInputTokens: 128_000,
    maxOutputTokens: 8_000,
    capabilities: { toolCalling: true },
    toolCalling: true,
  },
  {
    id: 'scripted-text',
    name: 'Scripted (text protocol)',
    family: 'autosnippet-fake',
    version: '1',
    maxInputTokens: 128_000,
    maxOutputTokens: 8_000,
    capabilities: { toolCalling: false },
    toolCalling: false,
  },
];

export function activate(context: vscode.ExtensionContext): FakeLmApi {
  let script: FakeTurn[] = [];
  let next = 0;
  let intercept: ((request: RecordedRequest) => ScriptTurnData | undefined) | undefined;
  const requests: RecordedRequest[] = [];

  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      provideLanguageModelChatInformation: () => MODELS,
      async provideLanguageModelChatResponse(model, messages, options, progress, token) {
        const texts = messages.map(textOf);
        const request: RecordedRequest = {
          model: model.id,
          text: texts.join('\n'),
          lastText: texts[texts.length - 1] ?? '',
          tools: (options.tools ?? []).map((t) => t.name),
        };
        requests.push(request);
        const intercepted = intercept?.(request);
        const step = intercepted ?? script[next++];
        const turn: ScriptTurnData = step === undefined
          ? { text: 'The fake model has no more scripted answers.' }
          : typeof step === 'function'
          ? step(request)
          : step;
        if (turn.error) throw new Error(turn.error.message);
        const response = renderTurn(turn, (model as FakeModel).toolCalling, requests.length);
        for (let i = 0; i < response.text.length && !token.isCancellationRequested; i += 24) {
          progress.report(new vscode.LanguageModelTextPart(response.text.slice(i, i + 24)));
        }
        for (const call of response.toolCalls) {
          progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, call.input));
        }
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
    }),
  );

  return {
    vendor: VENDOR,
    setScript(turns, interceptor) {
      script = turns;
      next = 0;
      intercept = interceptor;
      requests.length = 0;
    },
    get requests() {
      return requests;
    },
    get remaining() {
      return script.length - next;
    },
  };
}

function textOf(message: vscode.LanguageModelChatRequestMessage): string {
  return message.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelToolResultPart) {
        return part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : '')).join('');
      }
      if (part instanceof vscode.LanguageModelToolCallPart) return `call ${part.name} ${JSON.stringify(part.input)}`;
      return '';
    })
    .join('');
}

export function deactivate(): void {}
