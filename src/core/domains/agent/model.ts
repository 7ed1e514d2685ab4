/**
 * The one interface every AI step goes through. Adapters: `vscode.lm` (src/vscode/chat), MCP sampling
 * (src/mcp/sampling.ts), and the scripted model of the tests (./scripted.ts). Handlers never reach a
 * model any other way.
 */
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import type { JsonSchema } from '../../ground/kernel/result';

/** A tool as a model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ToolCall {
  /** Pairs the call with its result; adapters keep the model's own id when it has one. */
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ChatPart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; callId: string; name: string; text: string; isError?: boolean };

/** Models take no system role everywhere (vscode.lm has none), so the system prompt travels in `ChatRequest.system`. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  parts: ChatPart[];
}

export interface ChatRequest {
  system?: string;
  messages: ChatMessage[];
  /** Offered natively when the model supports tool calling; ignored otherwise. */
  tools?: ToolSpec[];
  toolMode?: 'auto' | 'required';
  maxOutputTokens?: number;
  temperature?: number;
  /** Receives the answer's text as it streams. */
  onText?(delta: string): void;
  /** What the request is for (`react`, `enrich_candidate`, …), for logs, tests and consent prompts. */
  purpose?: string;
}

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  usage?: { inputTokens?: number; outputTokens?: number };
}

export interface ChatModel {
  /** Vendor/model, for logs. */
  readonly id: string;
  readonly name: string;
  /** False: the ReAct loop uses the ```action text protocol instead of native tool calls. */
  readonly supportsToolCalling: boolean;
  readonly maxInputTokens?: number;
  /** How many tools one request may carry, when the model says. */
  readonly maxTools?: number;
  /** Rejects with a ChatModelError; with CANCELLED when `signal` aborts. */
  send(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

/** Why a model call failed, in words a person can act on; `code` is stable. */
export const ModelErrorCode = {
  NoModel: 'NO_MODEL',
  NoPermission: 'MODEL_NO_PERMISSION',
  Blocked: 'MODEL_BLOCKED',
  NotFound: 'MODEL_NOT_FOUND',
  Failed: 'MODEL_FAILED',
  BadAnswer: 'MODEL_BAD_ANSWER',
  Cancelled: ErrorCode.Cancelled,
} as const;

export class ChatModelError extends AutoSnippetError {
  constructor(code: ErrorCode, message: string, hint?: string, details?: Record<string, unknown>) {
    super(code, message, hint, details);
    this.name = 'ChatModelError';
  }
}

export function cancelledError(what = 'The request'): ChatModelError {
  return new ChatModelError(ModelErrorCode.Cancelled, `${what} was cancelled.`);
}

export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted) throw cancelledError(what);
}

/** Waits `ms`; rejects with CANCELLED as soon as `signal` aborts. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError('The wait'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError('The wait'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function isCancellation(e: unknown, signal?: AbortSignal): boolean {
  return (e instanceof AutoSnippetError && e.code === ErrorCode.Cancelled)
    || (e instanceof Error && e.name === 'AbortError') || Boolean(signal?.aborted);
}

// ------------------------------------------------------------------ messages

export const userText = (text: string): ChatMessage => ({ role: 'user', parts: [{ type: 'text', text }] });
export const assistantText = (text: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'text', text }] });

export function assistantTurn(text: string, calls: readonly ToolCall[]): ChatMessage {
  const parts: ChatPart[] = text ? [{ type: 'text', text }] : [];
  for (const c of calls) parts.push({ type: 'tool_call', id: c.id, name: c.name, input: c.input });
  return { role: 'assistant', parts };
}

export function textOf(message: ChatMessage): string {
  return message.parts.filter((p): p is Extract<ChatPart, { type: 'text' }> => p.type === 'text').map((p) => p.text)
    .join('');
}

/** Everything a request sends, as text: what token counts are measured on. */
export function requestText(request: ChatRequest): string {
  const parts: string[] = [];
  if (request.system) parts.push(request.system);
  for (const m of request.messages) {
    for (const p of m.parts) {
      if (p.type === 'text') parts.push(p.text);
      else if (p.type === 'tool_call') parts.push(`${p.name} ${JSON.stringify(p.input)}`);
      else parts.push(p.text);
    }
  }
  for (const t of request.tools ?? []) parts.push(`${t.name}: ${t.description} ${JSON.stringify(t.inputSchema)}`);
  return parts.join('\n');
}

// ------------------------------------------------------------------ one-shot completions for the AI-assisted tools

export interface CompleteOptions {
  system?: string;
  signal?: AbortSignal;
  maxOutputTokens?: number;
  purpose?: string;
}

/**
 * One question whose answer must be a JSON value that `check` accepts (it returns a list of problems).
 * A bad answer is sent back once with the problems named; a second bad answer is MODEL_BAD_ANSWER.
 */
export async function completeJson<T>(
  model: ChatModel,
  prompt: string,
  check: (value: unknown) => string[],
  options: CompleteOptions = {},
): Promise<T> {
  const messages: ChatMessage[] = [userText(prompt)];
  let problems: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await model.send({
      system: options.system,
      messages,
      maxOutputTokens: options.maxOutputTokens,
      purpose: options.purpose,
      temperature: 0,
    }, options.signal);
    const parsed = extractJson(response.text);
    problems = parsed.ok ? check(parsed.value) : [parsed.error];
    if (problems.length === 0) return (parsed as { ok: true; value: T }).value;
    messages.push(
      assistantText(response.text),
      userText(`That answer cannot be used: ${problems.join('; ')}. Answer again with only the JSON, fixed.`),
    );
  }
  throw new ChatModelError(
    ModelErrorCode.BadAnswer,
    `The model's answer could not be used: ${problems.join('; ')}.`,
    'Try again, or pick another model.',
  );
}

/** The JSON in an answer: a ```json block, else the outermost {…} or […]. */
export function extractJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/.exec(text)?.[1];
  // The outermost object or array: whichever opens first.
  const bare = [outermost(text, '{', '}'), outermost(text, '[', ']')].filter((c): c is string => Boolean(c)).sort((
    a,
    b,
  ) => text.indexOf(a) - text.indexOf(b));
  const candidates = [fenced, ...bare].filter((c): c is string => Boolean(c?.trim()));
  if (candidates.length === 0) return { ok: false, error: 'the answer contains no JSON' };
  let error = '';
  for (const c of candidates) {
    for (const attempt of [c, repairJson(c)]) {
      try {
        return { ok: true, value: JSON.parse(attempt) };
      } catch (e) {
        error = `the JSON does not parse (${(e as Error).message})`;
      }
    }
  }
  return { ok: false, error };
}

function outermost(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start !== -1 && end > start ? text.slice(start, end + 1) : undefined;
}

/** Mends what models most often get wrong in JSON: trailing commas and typographic quotes. */
export function repairJson(text: string): string {
  return text.replace(/[\u201c\u201d]/g, '"').replace(/,\s*([}\]])/g, '$1');
}
