/**
 * A ChatModel over MCP sampling: the client's own model, asked through `sampling/createMessage`. Used
 * by the AI-assisted tools when the client declared the `sampling` capability; with `sampling.tools`
 * the model also gets native tool calls (tool_use / tool_result), otherwise the text protocol.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CreateMessageRequest, SamplingMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  cancelledError,
  type ChatMessage,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  ModelErrorCode,
  type ToolCall,
  toTextProtocol,
} from '../core/catalog/adapters';

export interface SamplingOptions {
  /** Answer length when the request does not say; sampling requires one. */
  maxOutputTokens?: number;
  /** How long to wait for the client (it may ask its user first). */
  timeoutMs?: number;
}

/**
 * The client's model, or undefined when the client cannot sample. Call it per tool call: the
 * capabilities are known only after initialization.
 */
export function samplingModel(server: Server, options: SamplingOptions = {}): ChatModel | undefined {
  const sampling = server.getClientCapabilities()?.sampling;
  if (!sampling) return undefined;
  return new McpSamplingModel(server, Boolean((sampling as { tools?: unknown }).tools), options);
}

type SamplingParams = CreateMessageRequest['params'];
type SamplingContent = Extract<SamplingMessage['content'], unknown[]>[number];

export class McpSamplingModel implements ChatModel {
  readonly id: string;
  readonly name: string;

  constructor(
    private readonly server: Server,
    readonly supportsToolCalling: boolean,
    private readonly options: SamplingOptions = {},
  ) {
    const client = server.getClientVersion();
    this.id = `mcp-sampling:${client?.name ?? 'client'}`;
    this.name = `${client?.title ?? client?.name ?? 'MCP client'} (sampling)`;
  }

  async send(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) throw cancelledError('The sampling request');
    const nativeTools = this.supportsToolCalling && Boolean(request.tools?.length);
    const params: SamplingParams = {
      messages: toSamplingMessages(this.supportsToolCalling ? request.messages : toTextProtocol(request.messages)),
      maxTokens: request.maxOutputTokens ?? this.options.maxOutputTokens ?? 4000,
      includeContext: 'none',
      ...(request.system ? { systemPrompt: request.system } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.purpose ? { metadata: { purpose: `autosnippet:${request.purpose}` } } : {}),
      ...(nativeTools
        ? {
          tools: request.tools!.map((t) => ({
            name: t.name,
            description: t.description,
            inputSchema: { ...t.inputSchema, type: 'object' as const },
          })),
          toolChoice: { mode: request.toolMode === 'required' ? ('required' as const) : ('auto' as const) },
        }
        : {}),
    };
    let result: Awaited<ReturnType<Server['createMessage']>>;
    try {
      result = await this.server.createMessage(params, { signal, timeout: this.options.timeoutMs ?? 300_000 });
    } catch (e) {
      if (signal?.aborted) throw cancelledError('The sampling request');
      throw new ChatModelError(
        ModelErrorCode.Failed,
        `The MCP client did not answer the sampling request: ${(e as Error).message}`,
        'The client or its user may have declined it. Without sampling, the tool answers in diagnostic mode with the prompt to run yourself.',
      );
    }
    const content = (Array.isArray(result.content) ? result.content : [result.content]) as {
      type: string;
      text?: string;
      id?: string;
      name?: string;
      input?: Record<string, unknown>;
    }[];
    const text = content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
    const toolCalls: ToolCall[] = content.filter((c) => c.type === 'tool_use').map((c, i) => ({
      id: c.id ?? `tool_${i}`,
      name: c.name ?? '',
      input: c.input ?? {},
    }));
    if (text) request.onText?.(text);
    return { text, toolCalls };
  }
}

/** Our messages as sampling messages: text, tool_use and tool_result blocks. */
export function toSamplingMessages(messages: readonly ChatMessage[]): SamplingMessage[] {
  return messages.map((m) => {
    const content: SamplingContent[] = m.parts.map((p): SamplingContent => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      if (p.type === 'tool_call') return { type: 'tool_use', id: p.id, name: p.name, input: p.input };
      return {
        type: 'tool_result',
        toolUseId: p.callId,
        content: [{ type: 'text', text: p.text }],
        ...(p.isError ? { isError: true } : {}),
      };
    });
    return { role: m.role, content: content.length === 1 ? content[0] : content } as SamplingMessage;
  });
}
