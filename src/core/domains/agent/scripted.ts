/**
 * A deterministic ChatModel that replays a script: what the tests, the benchmark and the fake
 * language-model provider of the VS Code tests answer with. A script is written once for both tool
 * protocols: when the model is told it has no native tool calling, its tool calls come out as
 * ```action blocks in the text, as a real model following the text protocol would write them.
 */
import type { ErrorCode } from '../../ground/kernel/errors';
import { formatAction } from './action-protocol';
import {
  abortableDelay,
  cancelledError,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  ModelErrorCode,
  type ToolCall,
} from './model';

export interface ScriptedToolCall {
  name: string;
  input?: Record<string, unknown>;
  id?: string;
}

/** One answer of the script, as plain data (so it can cross into the fake provider as JSON). */
export interface ScriptTurnData {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Fail this request with a ChatModelError of this code. */
  error?: { code: ErrorCode; message: string };
  /** Wait this long before answering (cancellation tests). */
  delayMs?: number;
}

/** A turn, or a function that decides the turn from the request (to answer what was asked). */
export type ScriptTurn =
  | ScriptTurnData
  | ((request: ChatRequest, index: number) => ScriptTurnData | Promise<ScriptTurnData>);

export interface ScriptedModelOptions {
  id?: string;
  supportsToolCalling?: boolean;
  maxInputTokens?: number;
  maxTools?: number;
  /** Characters per streamed text chunk. */
  chunkChars?: number;
  /** What to answer once the script is used up; default: fail with MODEL_FAILED, naming the request. */
  whenExhausted?: ScriptTurnData;
}

export class ScriptedModel implements ChatModel {
  readonly id: string;
  readonly name: string;
  readonly supportsToolCalling: boolean;
  readonly maxInputTokens?: number;
  readonly maxTools?: number;
  /** Every request received, in order (without the streaming callback). */
  readonly requests: Omit<ChatRequest, 'onText'>[] = [];
  private next = 0;

  constructor(private readonly script: readonly ScriptTurn[], private readonly options: ScriptedModelOptions = {}) {
    this.id = options.id ?? 'scripted';
    this.name = `Scripted model (${this.id})`;
    this.supportsToolCalling = options.supportsToolCalling ?? true;
    this.maxInputTokens = options.maxInputTokens;
    this.maxTools = options.maxTools;
  }

  /** Turns not yet used. */
  get remaining(): number {
    return this.script.length - this.next;
  }

  async send(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw cancelledError('The model request');
    const { onText, ...recorded } = request;
    this.requests.push(structuredClone(recorded));
    const index = this.next++;
    const step = this.script[index];
    const turn = step === undefined
      ? this.exhausted(request)
      : typeof step === 'function'
      ? await step(request, index)
      : step;
    if (turn.delayMs) await abortableDelay(turn.delayMs, signal);
    if (turn.error) throw new ChatModelError(turn.error.code, turn.error.message);
    const response = renderTurn(turn, this.supportsToolCalling, index);
    const chunk = Math.max(1, this.options.chunkChars ?? 16);
    for (let i = 0; i < response.text.length && onText; i += chunk) {
      if (signal?.aborted) throw cancelledError('The model request');
      onText(response.text.slice(i, i + chunk));
    }
    return response;
  }

  private exhausted(request: ChatRequest): ScriptTurnData {
    if (this.options.whenExhausted) return this.options.whenExhausted;
    throw new ChatModelError(
      ModelErrorCode.Failed,
      `The script of ${this.id} has no answer for request ${this.requests.length} (${request.purpose ?? 'unnamed'}).`,
    );
  }
}

/** A turn as the model would answer it: native tool calls, or ```action blocks appended to the text. */
export function renderTurn(turn: ScriptTurnData, nativeTools: boolean, index = 0): ChatResponse {
  const calls: ToolCall[] = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${index}_${i}`,
    name: c.name,
    input: c.input ?? {},
  }));
  if (nativeTools) return { text: turn.text ?? '', toolCalls: calls };
  const blocks = calls.map((c) => formatAction(c.name, c.input));
  return { text: [turn.text ?? '', ...blocks].filter(Boolean).join('\n\n'), toolCalls: [] };
}
