/**
 * The text protocol for models without native tool calling: a tool call is a fenced block
 *
 *   ```action
 *   {"tool": "load_skill", "params": {"name": "autosnippet-coldstart"}}
 *   ```
 *
 * An answer may hold several blocks (run in order); an answer with none is the final answer. A block
 * that cannot be read is reported back to the model as a correction, never as a crash.
 */
import type { ChatMessage, ChatPart, ToolCall } from './model';
import { repairJson } from './model';

export interface ParsedAction {
  tool: string;
  params: Record<string, unknown>;
  /** 0-based position of the block among the answer's action blocks. */
  index: number;
}

export interface ActionProblem {
  index: number;
  /** The block's text, shortened, so the model sees which one is meant. */
  excerpt: string;
  message: string;
}

export interface ParsedAnswer {
  /** The answer without its action blocks. */
  text: string;
  actions: ParsedAction[];
  problems: ActionProblem[];
}

const OPEN = /```[ \t]*action\b[ \t]*\r?\n?/gi;

export function parseActions(answer: string): ParsedAnswer {
  const actions: ParsedAction[] = [];
  const problems: ActionProblem[] = [];
  const kept: string[] = [];
  let cursor = 0;
  let index = 0;
  OPEN.lastIndex = 0;
  for (let open = OPEN.exec(answer); open; open = OPEN.exec(answer), index++) {
    kept.push(answer.slice(cursor, open.index));
    const bodyStart = open.index + open[0].length;
    const close = answer.indexOf('```', bodyStart);
    const body = answer.slice(bodyStart, close === -1 ? answer.length : close);
    cursor = close === -1 ? answer.length : close + 3;
    OPEN.lastIndex = cursor;
    if (close === -1) {
      problems.push({ index, excerpt: excerpt(body), message: 'the block is not closed with ```' });
      break;
    }
    const parsed = parseBlock(body);
    if ('message' in parsed) problems.push({ index, excerpt: excerpt(body), message: parsed.message });
    else actions.push({ ...parsed, index });
  }
  kept.push(answer.slice(cursor));
  return { text: kept.join('').replace(/\n{3,}/g, '\n\n').trim(), actions, problems };
}

function parseBlock(body: string): { tool: string; params: Record<string, unknown> } | { message: string } {
  const source = body.trim();
  if (!source) return { message: 'the block is empty' };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    try {
      value = JSON.parse(repairJson(source));
    } catch (e) {
      return { message: `the block is not valid JSON (${(e as Error).message})` };
    }
  }
  if (!isRecord(value)) return { message: 'the block must be one JSON object {"tool": "...", "params": {...}}' };
  // Names other protocols use for the same two fields are accepted.
  const tool = value.tool ?? value.name;
  if (typeof tool !== 'string' || !tool.trim()) return { message: 'the object has no "tool" string' };
  const params = value.params ?? value.arguments ?? value.input ?? {};
  if (!isRecord(params)) return { message: '"params" must be an object of named arguments' };
  return { tool: tool.trim(), params };
}

/** How a model writes a call in this protocol. */
export function formatAction(tool: string, params: Record<string, unknown>): string {
  return '```action\n' + JSON.stringify({ tool, params }) + '\n```';
}

/** The message that answers unreadable blocks: what was wrong and the exact form expected. */
export function correctionMessage(problems: readonly ActionProblem[], ranActions: number): string {
  const lines = problems.map((p) => `- action block ${p.index + 1} (${p.excerpt}): ${p.message}`);
  return [
    `${problems.length === 1 ? 'One action block' : `${problems.length} action blocks`} could not be read${
      ranActions ? `; the other ${ranActions} ran` : ''
    }:`,
    ...lines,
    'Write each tool call as its own block, exactly:',
    formatAction('tool_name', { argument: 'value' }),
    'Or answer without any action block when you are done.',
  ].join('\n');
}

/** The instructions the system prompt carries when the text protocol is in use. */
export function protocolInstructions(maxRounds: number): string {
  return [
    '## Calling tools',
    'To call a tool, write a fenced block with the language `action` holding one JSON object:',
    formatAction('load_skill', { name: 'autosnippet-coldstart', section: 'Steps' }),
    'Several blocks in one answer run in order. After them, stop and wait: the results come back in the next message.',
    `At most ${maxRounds} rounds of tool calls per request. An answer with no action block is your final answer to the person.`,
  ].join('\n');
}

/** A tool result as the text protocol returns it to the model. */
export function formatResultText(call: Pick<ToolCall, 'name'>, text: string, isError = false): string {
  return `Result of ${call.name}${isError ? ' (error)' : ''}:\n\`\`\`json\n${text}\n\`\`\``;
}

/**
 * Messages of another turn (possibly recorded with native tool calls) in the text protocol: tool
 * calls become action blocks and results become text, so a model without tool calling can read them.
 */
export function toTextProtocol(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.parts.every((p) => p.type === 'text')) return m;
    const text = m.parts
      .map((
        p: ChatPart,
      ) => (p.type === 'text'
        ? p.text
        : p.type === 'tool_call'
        ? formatAction(p.name, p.input)
        : formatResultText(p, p.text, p.isError))
      )
      .join('\n\n');
    return { role: m.role, parts: [{ type: 'text', text }] };
  });
}

/**
 * Streams an answer's text while holding back action blocks (they are calls, not prose for the
 * person). `push` returns what may be shown now; `end` returns the rest.
 */
export class ActionBlockFilter {
  private buffer = '';
  private inside = false;

  push(delta: string): string {
    this.buffer += delta;
    let out = '';
    for (;;) {
      if (!this.inside) {
        OPEN.lastIndex = 0;
        const open = OPEN.exec(this.buffer);
        if (!open || (open.index + open[0].length === this.buffer.length && !open[0].endsWith('\n'))) {
          // Keep back a tail that could be the start of a fence.
          const hold = open ? this.buffer.length - open.index : heldTail(this.buffer);
          out += this.buffer.slice(0, this.buffer.length - hold);
          this.buffer = this.buffer.slice(this.buffer.length - hold);
          return out;
        }
        out += this.buffer.slice(0, open.index);
        this.buffer = this.buffer.slice(open.index + open[0].length);
        this.inside = true;
      } else {
        const close = this.buffer.indexOf('```');
        if (close === -1) {
          this.buffer = this.buffer.slice(Math.max(0, this.buffer.length - 2));
          return out;
        }
        this.buffer = this.buffer.slice(close + 3);
        this.inside = false;
      }
    }
  }

  end(): string {
    const rest = this.inside ? '' : this.buffer;
    this.buffer = '';
    this.inside = false;
    return rest;
  }
}

/** Length of the tail of `text` that could be the start of a "```action" fence. */
function heldTail(text: string): number {
  const m = /`{1,3}[ \t]*[a-z]{0,6}$/i.exec(text);
  if (!m) return 0;
  return '```action'.startsWith(m[0].replace(/[ \t]+/, '').toLowerCase()) ? m[0].length : 0;
}

function excerpt(body: string): string {
  const one = body.replace(/\s+/g, ' ').trim();
  return one.length > 60 ? `${one.slice(0, 57)}...` : one || '(empty)';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
