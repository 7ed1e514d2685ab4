import http from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Logger } from '../core/kernel/log';

export interface HttpOptions {
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra allowed Origin values besides loopback ones (e.g. a local web client). */
  allowedOrigins?: string[];
  log: Logger;
  /** A new MCP server for each session. */
  createServer(): { server: Server; dispose(): void };
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP on 127.0.0.1 only. As the MCP specification asks of local servers, the Host and
 * Origin headers are checked on every request so a web page cannot reach the server through DNS
 * rebinding, and an optional bearer token keeps other local users' programs out.
 */
export async function startHttpServer(options: HttpOptions): Promise<{ port: number; url: string; close(): Promise<void> }> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; dispose(): void }>();
  let port = options.port;

  const httpServer = http.createServer(async (req, res) => {
    try {
      const refusal = checkRequest(req, port, options);
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json', ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null }));
        options.log.warn(`http: refused ${req.method} ${req.url}: ${refusal.message}`);
        return;
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionId = header(req, 'mcp-session-id');
      let session = sessionId ? sessions.get(sessionId) : undefined;
      if (!session) {
        if (sessionId || req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(sessionId ? 404 : 400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: sessionId ? 'Unknown or expired session' : 'No session: send initialize first' }, id: null }));
          return;
        }
        const { server, dispose } = options.createServer();
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, { transport, dispose }),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
          dispose();
        };
        await server.connect(transport);
        session = { transport, dispose };
      }
      await session.transport.handleRequest(req, res, body);
    } catch (e) {
      options.log.error('http: request failed', e);
      if (!res.headersSent) {
        const tooLarge = (e as Error).message === 'body too large';
        res.writeHead(tooLarge ? 413 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: tooLarge ? 'Request body too large' : 'Invalid request body' }, id: null }));
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (httpServer.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const s of sessions.values()) await s.transport.close();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}

function checkRequest(req: http.IncomingMessage, port: number, options: HttpOptions): { status: number; message: string } | undefined {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/mcp') return { status: 404, message: 'Not found: the MCP endpoint is /mcp' };
  const host = header(req, 'host');
  if (!host || !LOOPBACK_HOSTS.some((h) => host === `${h}:${port}`)) return { status: 403, message: `Forbidden Host header: ${host ?? '(none)'}` };
  const origin = header(req, 'origin');
  if (origin !== undefined && !isAllowedOrigin(origin, options.allowedOrigins ?? [])) return { status: 403, message: `Forbidden Origin: ${origin}` };
  if (options.token !== undefined) {
    const auth = header(req, 'authorization') ?? '';
    const given = Buffer.from(auth.startsWith('Bearer ') ? auth.slice(7) : '');
    const want = Buffer.from(options.token);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return { status: 401, message: 'Missing or wrong bearer token' };
  }
  return undefined;
}

function isAllowedOrigin(origin: string, extra: string[]): boolean {
  if (extra.includes(origin)) return true;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_HOSTS.includes(u.hostname);
  } catch {
    return false;
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(size === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}
