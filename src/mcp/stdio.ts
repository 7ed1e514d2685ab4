// The MCP server's stdio transport: newline-delimited JSON-RPC on stdin and stdout, like the SDK's
// StdioServerTransport, except at the edges. There, one message over the size limit makes the SDK's
// transport close (and the process exit without a word); a line that is not JSON-RPC is dropped
// unanswered. Here each gets a JSON-RPC error, with the request's id when it can be found, and the
// server keeps reading. A message over the limit is never held in memory: its bytes are skipped.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/ground/kernel/log';

/** The SDK's limit for one message on stdio. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** How much of a skipped message is kept to find its id: the id is the first or the last member in practice. */
const EDGE_BYTES = 512;

type RequestId = string | number | null;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the bytes of a message over the limit are being skipped. */
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly log: Logger,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pending = [];
    this.skipping = undefined;
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, from);
      this.take(bytes.subarray(from, nl === -1 ? bytes.length : nl));
      if (nl === -1) return;
      this.endOfLine();
      from = nl + 1;
    }
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]), EDGE_BYTES);
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxMessageBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const seen = Buffer.concat([...this.pending, piece]);
    this.skipping = { bytes: seen.length, head: seen.subarray(0, EDGE_BYTES), tail: lastBytes(seen, EDGE_BYTES) };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endOfLine(): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = undefined;
      const id = idOf(skipped.head.toString('utf8'), skipped.tail.toString('utf8'));
      const message =
        `Message too large: ${skipped.bytes} bytes; one message may have at most ${this.maxMessageBytes} bytes (10 MiB). It was not read.`;
      this.log.warn(`stdio: ${message}${id !== null ? ` (request id ${JSON.stringify(id)})` : ''}`);
      void this.sendError(id, INVALID_REQUEST, message);
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.log.warn(`stdio: a line that is not JSON: ${(e as Error).message}`);
      void this.sendError(null, PARSE_ERROR, `Parse error: the line is not JSON (${(e as Error).message}).`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = (json as { id?: unknown })?.id;
      void this.sendError(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        INVALID_REQUEST,
        'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.',
      );
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private sendError(id: RequestId, code: number, message: string): Promise<void> {
    return this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}

function lastBytes(b: Buffer, n: number): Buffer {
  return b.length <= n ? b : Buffer.from(b.subarray(b.length - n));
}

const ID_VALUE = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":…` or `{"id":…` at the start. */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE);
/** `…,"id":…}` at the very end: a member of the outer object, since one brace closes it. */
const TRAILING_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/** The id of a message seen only by its first and last bytes, so its error reaches the request waiting for it. */
function idOf(head: string, tail: string): RequestId {
  const m = LEADING_ID.exec(head) ?? TRAILING_ID.exec(tail.replace(/\r$/, ''));
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as string | number;
  } catch {
    return null;
  }
}
