/**
 * One real MCP server process and the MCP SDK's client talking to it, over stdio or Streamable HTTP.
 * A call answers with what came back (a tool result or a JSON-RPC error), or says that the server
 * stopped answering (timeout) or went away (closed). A server that went away is started again, so a
 * run goes on and counts every crash.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode as RpcCode,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { serverJs, testHome } from '../../mcp/client';

/** `ms`: wall-clock time of the call; `cpuMs`: CPU time the server process used meanwhile (Linux only). */
export type Outcome =
  & (
    | { kind: 'result'; result: CallToolResult }
    | { kind: 'rpc-error'; code: number; message: string }
    | { kind: 'http-status'; status: number; message: string }
    | { kind: 'timeout' }
    | { kind: 'closed'; message: string }
    | { kind: 'client-error'; message: string }
  )
  & { ms: number; cpuMs?: number };

export interface LaneOptions {
  transport: 'stdio' | 'http';
  workspace: string;
  env?: Record<string, string>;
}

const HTTP_TOKEN = 'fuzz-token';
/** Linux's USER_HZ, the unit of /proc/PID/stat times: 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;

export class ServerLane {
  private client!: Client;
  private child: ChildProcess | undefined;
  private pidValue: number | undefined;
  private stderrTail = '';
  private closed = false;
  /** Peak resident memory of each server process this lane started, in KiB. */
  readonly peakRssKb: number[] = [];
  restarts = 0;

  private constructor(readonly options: LaneOptions) {}

  static async start(options: LaneOptions): Promise<ServerLane> {
    const lane = new ServerLane(options);
    await lane.connect();
    return lane;
  }

  get transport(): 'stdio' | 'http' {
    return this.options.transport;
  }

  get pid(): number | undefined {
    return this.pidValue;
  }

  /** The last lines the server wrote to stderr (for a crash report). */
  get stderr(): string {
    return this.stderrTail;
  }

  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /**
   * tools/call with raw `arguments` (not checked by the client), answered within `timeoutMs`. The
   * client's own check of structuredContent against outputSchema is bypassed on purpose: the caller
   * checks it and reports what was wrong.
   */
  async call(name: string, args: unknown, timeoutMs: number): Promise<Outcome> {
    const cpu0 = this.cpuMs();
    const outcome = await this.timedCall(name, args, timeoutMs);
    const cpu1 = this.cpuMs();
    return cpu0 !== undefined && cpu1 !== undefined ? { ...outcome, cpuMs: cpu1 - cpu0 } : outcome;
  }

  /** CPU time (user + system, all threads) the server process has used so far, from /proc; undefined elsewhere. */
  private cpuMs(): number | undefined {
    if (!this.pidValue || this.closed) return undefined;
    try {
      // Fields 14 and 15 (utime, stime) in clock ticks, counted after the parenthesised command name.
      const fields = readFileSync(`/proc/${this.pidValue}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }

  private async timedCall(name: string, args: unknown, timeoutMs: number): Promise<Outcome> {
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    if (this.closed) return { kind: 'closed', message: 'the server had already exited', ms: 0 };
    try {
      const result = await this.client.request(
        { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
        CallToolResultSchema,
        { timeout: timeoutMs },
      );
      return { kind: 'result', result, ms: ms() };
    } catch (e) {
      if (e instanceof McpError) {
        if (e.code === RpcCode.RequestTimeout) return { kind: 'timeout', ms: ms() };
        if (e.code === RpcCode.ConnectionClosed || this.closed) return { kind: 'closed', message: e.message, ms: ms() };
        return { kind: 'rpc-error', code: e.code, message: e.message, ms: ms() };
      }
      const status = (e as { code?: unknown }).code;
      if (this.options.transport === 'http' && typeof status === 'number' && status >= 400) {
        return { kind: 'http-status', status, message: (e as Error).message, ms: ms() };
      }
      if (this.closed) return { kind: 'closed', message: (e as Error).message, ms: ms() };
      return { kind: 'client-error', message: (e as Error).message ?? String(e), ms: ms() };
    }
  }

  /** True when the server answers `health` within `timeoutMs`. */
  async healthy(timeoutMs = 5000): Promise<boolean> {
    const o = await this.call('autosnippet_health', {}, timeoutMs);
    if (o.kind !== 'result') return false;
    const text = (o.result.content?.[0] as { text?: string } | undefined)?.text ?? '';
    return /^\{"ok":true/.test(text);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Starts the server again (after a crash or a hang). */
  async restart(): Promise<void> {
    this.restarts++;
    await this.close();
    await this.connect();
  }

  async close(): Promise<void> {
    this.recordRss();
    const child = this.child;
    try {
      await Promise.race([this.client.close(), new Promise((r) => setTimeout(r, 3000))]);
    } catch {
      // already gone
    }
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (!child && this.pidValue && !this.closed) {
      try {
        process.kill(this.pidValue, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  private recordRss(): void {
    if (!this.pidValue) return;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pidValue}/status`, 'utf8'));
      if (m) this.peakRssKb.push(Number(m[1]));
    } catch {
      // not Linux, or the process is gone
    }
  }

  /** The server's resident memory now, in KiB (undefined when it cannot be read). */
  rssKb(): number | undefined {
    if (!this.pidValue) return undefined;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pidValue}/status`, 'utf8'));
      return m ? Number(m[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Samples the server's peak memory now (the process may be gone at close). */
  sampleRss(): void {
    this.recordRss();
  }

  private noteStderr = (d: Buffer) => {
    this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
  };

  private async connect(): Promise<void> {
    this.closed = false;
    this.client = new Client({ name: 'autosnippet-fuzz', version: '0.0.0' });
    this.client.onclose = () => (this.closed = true);
    // A temporary home (no real trust store is read), and --trust: the worst case, a person who trusted
    // the hostile workspace, so its project rules run and are attacked too.
    const env = { ...(process.env as Record<string, string>), AUTOSNIPPET_HOME: testHome(), ...this.options.env };
    if (this.options.transport === 'stdio') {
      // Every tool listed with its output schema: the judge checks each answer against it.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [serverJs, '--workspace', this.options.workspace, '--trust', '--log-level', 'warn', '--tools', 'all'],
        stderr: 'pipe',
        env,
      });
      transport.stderr?.on('data', this.noteStderr);
      await this.client.connect(transport);
      this.child = undefined;
      this.pidValue = transport.pid ?? undefined;
      return;
    }
    const child = spawn(process.execPath, [
      serverJs,
      '--workspace',
      this.options.workspace,
      '--trust',
      '--http',
      '0',
      '--token',
      HTTP_TOKEN,
      '--log-level',
      'info',
      '--tools',
      'all',
    ], { stdio: ['ignore', 'ignore', 'pipe'], env });
    this.child = child;
    this.pidValue = child.pid;
    child.stderr!.on('data', this.noteStderr);
    child.once('exit', () => (this.closed = true));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the HTTP server did not start: ${this.stderrTail}`)), 20_000);
      const look = () => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(this.stderrTail);
        if (m) {
          clearTimeout(timer);
          child.stderr!.off('data', look);
          resolve(Number(m[1]));
        }
      };
      child.stderr!.on('data', look);
    });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${HTTP_TOKEN}` } },
    });
    await this.client.connect(transport);
  }
}
