/**
 * The ReAct loop: ask the model, run the tools it calls, give it the results, repeat until it answers
 * without calling a tool. Native tool calls when the model has them, the ```action text protocol when
 * it does not. At most `maxRounds` rounds of tool calls; cancellable at any point.
 */
import type { ToolResult } from '../../ground/kernel/result';
import {
  ActionBlockFilter,
  type ActionProblem,
  correctionMessage,
  formatResultText,
  parseActions,
  protocolInstructions,
  toTextProtocol,
} from './action-protocol';
import type { AnswerReview } from './answer-check';
import {
  assistantText,
  assistantTurn,
  type ChatMessage,
  type ChatModel,
  type ChatResponse,
  isCancellation,
  type ToolCall,
  userText,
} from './model';
import type { AgentReference, AgentToolbox, ToolOutcome } from './toolbox';

export const MAX_TOOL_ROUNDS = 6;

export type AgentEvent =
  | { type: 'request'; round: number }
  | { type: 'text'; delta: string }
  | { type: 'tool_started'; call: ToolCall; round: number }
  | { type: 'tool_finished'; call: ToolCall; round: number; ok: boolean; ms: number; result?: ToolResult }
  | { type: 'reference'; reference: AgentReference }
  | { type: 'correction'; round: number; problems: ActionProblem[] }
  /** The answer's code was checked: `findings` left to fix (`final`: after the one correction). */
  | { type: 'review'; findings: number; final: boolean }
  | { type: 'limit'; rounds: number };

export interface AgentRunOptions {
  model: ChatModel;
  toolbox: AgentToolbox;
  system: string;
  /** Earlier turns of the conversation. */
  history?: readonly ChatMessage[];
  prompt: string;
  maxRounds?: number;
  signal?: AbortSignal;
  onEvent?(event: AgentEvent): void;
  /** Default: native when the model supports tool calling. */
  protocol?: 'native' | 'text';
  /**
   * Checks a final answer before the person sees it (guard on the code it proposes): what it returns
   * is sent to the model once, and the corrected answer is what is shown. With it, the final answer is
   * streamed when it is complete, not as it arrives.
   */
  reviewAnswer?(answer: string, signal?: AbortSignal): Promise<AnswerReview | undefined>;
}

export interface AgentToolRecord {
  round: number;
  call: ToolCall;
  ok: boolean;
  ms: number;
  /** The error code, for failed calls. */
  code?: string;
}

export interface AgentRunResult {
  /** The final answer (without action blocks). */
  text: string;
  stoppedBy: 'answer' | 'max_rounds' | 'cancelled';
  protocol: 'native' | 'text';
  /** Rounds of tool calls (a round with only unreadable action blocks counts). */
  rounds: number;
  /** Model requests made. */
  requests: number;
  toolCalls: AgentToolRecord[];
  references: AgentReference[];
  /** This turn as messages (prompt, calls, results, answer): the next turn's history. */
  turn: ChatMessage[];
  /** As the model reported it; zero when it did not. */
  usage: { inputTokens: number; outputTokens: number };
}

const LIMIT_MESSAGE = (n: number) =>
  `You have used all ${n} rounds of tool calls for this request. Do not call tools now: answer the person with what you have, and say what is left to do.`;

export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const { model, toolbox, signal } = options;
  const maxRounds = options.maxRounds ?? MAX_TOOL_ROUNDS;
  const protocol = options.protocol ?? (model.supportsToolCalling ? 'native' : 'text');
  const emit = (e: AgentEvent) => options.onEvent?.(e);
  const system = protocol === 'text' && !options.system.includes('```action')
    ? `${options.system}\n\n${protocolInstructions(maxRounds)}`
    : options.system;
  const history = protocol === 'text' ? toTextProtocol(options.history ?? []) : [...(options.history ?? [])];

  const turn: ChatMessage[] = [userText(options.prompt)];
  const records: AgentToolRecord[] = [];
  const references = new Map<string, AgentReference>();
  const usage = { inputTokens: 0, outputTokens: 0 };
  let rounds = 0;
  let requests = 0;
  let reviewed = false;
  const result = (text: string, stoppedBy: AgentRunResult['stoppedBy']): AgentRunResult => ({
    text,
    stoppedBy,
    protocol,
    rounds,
    requests,
    toolCalls: records,
    references: [...references.values()],
    turn,
    usage,
  });

  for (;;) {
    const lastRequest = rounds >= maxRounds;
    if (lastRequest) {
      emit({ type: 'limit', rounds });
      turn.push(userText(LIMIT_MESSAGE(maxRounds)));
    }
    if (signal?.aborted) return result('', 'cancelled');
    emit({ type: 'request', round: rounds + 1 });
    let response: ChatResponse;
    const filter = protocol === 'text' ? new ActionBlockFilter() : undefined;
    // Held until the answer is known to need no correction; narration before tool calls is let through then.
    let held = '';
    const show = (delta: string) => (options.reviewAnswer ? (held += delta) : emit({ type: 'text', delta }));
    try {
      response = await model.send(
        {
          system,
          messages: [...history, ...turn],
          tools: protocol === 'native' && !lastRequest ? [...toolbox.specs] : undefined,
          purpose: 'react',
          onText: (delta) => {
            const shown = filter ? filter.push(delta) : delta;
            if (shown) show(shown);
          },
        },
        signal,
      );
    } catch (e) {
      if (isCancellation(e, signal)) return result('', 'cancelled');
      throw e;
    }
    requests++;
    const rest = filter?.end();
    if (rest) show(rest);
    usage.inputTokens += response.usage?.inputTokens ?? 0;
    usage.outputTokens += response.usage?.outputTokens ?? 0;

    const parsed = protocol === 'text' ? parseActions(response.text) : undefined;
    const calls = parsed
      ? parsed.actions.map((a, i): ToolCall => ({ id: `action_${rounds + 1}_${i}`, name: a.tool, input: a.params }))
      : response.toolCalls;
    const problems = parsed?.problems ?? [];
    const answer = parsed ? parsed.text : response.text;
    if (lastRequest || (calls.length === 0 && problems.length === 0)) {
      const review = options.reviewAnswer ? await options.reviewAnswer(answer, signal) : undefined;
      if (signal?.aborted) return result('', 'cancelled');
      turn.push(assistantText(answer));
      if (review && !reviewed) {
        reviewed = true;
        emit({ type: 'review', findings: review.findings, final: false });
        turn.push(userText(review.prompt));
        continue;
      }
      if (held) emit({ type: 'text', delta: held });
      if (review) emit({ type: 'review', findings: review.findings, final: true });
      return result(answer, lastRequest ? 'max_rounds' : 'answer');
    }
    if (held) emit({ type: 'text', delta: held });

    rounds++;
    turn.push(protocol === 'native' ? assistantTurn(response.text, calls) : assistantText(response.text));
    const outcomes: { call: ToolCall; outcome: ToolOutcome }[] = [];
    for (const call of calls) {
      if (signal?.aborted) return result('', 'cancelled');
      emit({ type: 'tool_started', call, round: rounds });
      const started = Date.now();
      const outcome = await invokeSafely(toolbox, call, signal);
      const ms = Date.now() - started;
      records.push({
        round: rounds,
        call,
        ok: outcome.ok,
        ms,
        ...(outcome.result && !outcome.result.ok ? { code: outcome.result.error.code } : {}),
      });
      emit({ type: 'tool_finished', call, round: rounds, ok: outcome.ok, ms, result: outcome.result });
      for (const ref of outcome.references) {
        const key = `${ref.kind}:${ref.path ?? ref.name}`;
        if (references.has(key)) continue;
        references.set(key, ref);
        emit({ type: 'reference', reference: ref });
      }
      outcomes.push({ call, outcome });
    }
    if (signal?.aborted) return result('', 'cancelled');
    if (problems.length) emit({ type: 'correction', round: rounds, problems });

    if (protocol === 'native') {
      turn.push({
        role: 'user',
        parts: outcomes.map(({ call, outcome }) => ({
          type: 'tool_result',
          callId: call.id,
          name: call.name,
          text: outcome.text,
          ...(outcome.ok ? {} : { isError: true }),
        })),
      });
    } else {
      const texts = outcomes.map(({ call, outcome }) => formatResultText(call, outcome.text, !outcome.ok));
      if (problems.length) texts.push(correctionMessage(problems, outcomes.length));
      turn.push(userText(texts.join('\n\n')));
    }
  }
}

async function invokeSafely(toolbox: AgentToolbox, call: ToolCall, signal?: AbortSignal): Promise<ToolOutcome> {
  try {
    return await toolbox.invoke(call, signal);
  } catch (e) {
    const error = {
      code: isCancellation(e, signal) ? 'CANCELLED' : 'TOOL_FAILED',
      message: `${call.name} failed: ${(e as Error).message ?? String(e)}`,
    };
    return { ok: false, text: JSON.stringify({ ok: false, tool: call.name, error }), references: [] };
  }
}
