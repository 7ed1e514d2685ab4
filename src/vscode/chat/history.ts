// Conversation history across chat turns. Each answer keeps its turn (prompt, tool calls, results,
// answer) in the result metadata; the next request rebuilds the messages from it, so the model sees
// what the tools returned before, not only the prose. Type-only vscode imports: testable in Node.
import type * as vscode from 'vscode';
import type { ChatMessage, ChatPart } from '../../core/catalog/adapters';
import type { AgentReference } from '../../core/catalog/adapters';

export interface TurnMetadata {
  version: 1;
  command?: string;
  /** The turn as the agent saw it, tool results shortened. */
  messages: ChatMessage[];
  references: AgentReference[];
  /** Candidates the turn created or touched, for the buttons and follow-ups. */
  candidates: { id: string; title?: string }[];
  stoppedBy: string;
  rounds: number;
  tools: { name: string; ok: boolean }[];
}

/** Characters kept of each tool result in the metadata. */
const RESULT_CHARS = 3000;
/** Earlier turns sent to the model. */
const MAX_TURNS = 8;

export function compactTurn(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => ({
    role: m.role,
    parts: m.parts.map((
      p,
    ): ChatPart => (p.type === 'tool_result' && p.text.length > RESULT_CHARS
      ? { ...p, text: `${p.text.slice(0, RESULT_CHARS)}… (${p.text.length - RESULT_CHARS} more characters not kept)` }
      : p)
    ),
  }));
}

type HistoryTurn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/** The messages of the earlier turns with this participant, oldest first, the last `MAX_TURNS` of them. */
export function historyMessages(history: readonly HistoryTurn[], participant: string): ChatMessage[] {
  const turns: ChatMessage[][] = [];
  let prompt: string | undefined;
  for (const turn of history) {
    if (turn.participant !== participant) continue;
    if ('prompt' in turn) {
      prompt = turn.command ? `/${turn.command} ${turn.prompt}`.trim() : turn.prompt;
      continue;
    }
    const meta = (turn.result.metadata as { autosnippet?: TurnMetadata } | undefined)?.autosnippet;
    if (meta?.version === 1 && Array.isArray(meta.messages) && meta.messages.length) {
      turns.push(meta.messages);
    } else {
      const answer = responseText(turn);
      const messages: ChatMessage[] = [];
      if (prompt) messages.push({ role: 'user', parts: [{ type: 'text', text: prompt }] });
      if (answer) messages.push({ role: 'assistant', parts: [{ type: 'text', text: answer }] });
      if (messages.length) turns.push(messages);
    }
    prompt = undefined;
  }
  return turns.slice(-MAX_TURNS).flat();
}

function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map((part) => {
      const value = (part as { value?: unknown }).value;
      return value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string'
        ? (value as { value: string }).value
        : '';
    })
    .join('');
}
