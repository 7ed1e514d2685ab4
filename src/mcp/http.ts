import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { Logger } from '../core/ground/kernel/log';

export interface HttpOptions {
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Extra allowed Origin values besides loopback ones (e.g. a local web client). */
  allowedOrigins?: string[];
  log: Logger;
  /** A new MCP server for each session. */
  createServer(): { server: Server; dispose(): void };
  /** Sessions open at once (default 100): a new one closes the longest-idle one, or is refused with 503. */
  maxSessions?: number;
  /** A session with no request in flight for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A body over the limit is read to its end (so the client can read the 413) up to this much, then the connection is cut. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_SESSIONS = 100;
const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
/** Headers whose one value the checks below rely on: a second copy is refused rather than guessed at. */
const SINGLE_HEADERS = ['host', 'origin', 'authorization', 'mcp-session-id', 'content-length'];

interface Session {
  transport: StreamableHTTPServerTransport;
  dispose(): void;
  lastSeen: number;
  /** Requests in flight, an open event stream included: a session is idle only at 0. */
  active: number;
}

class BodyTooLarge extends Error {}

/**
 * Streamable HTTP on 127.0.0.1 only. As the MCP specification asks of local servers, the Host and
 * Origin headers are checked on every request so a web page cannot reach the server through DNS
 * rebinding, and an optional bearer token keeps other local users' programs out. Sessions are
 * capped and expire when idle, so abandoned clients cannot grow the server without bound.
 */
export async function startHttpServer(
  options: HttpOptions,
): Promise<{ port: number; url: string; sessionCount(): number; close(): Promise<void> }> {
  const sessions = new Map<string, Session>();
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  let port = options.port;

  const refuse = (
    res: http.ServerResponse,
    status: number,
    message: string,
    code = -32000,
    extra: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...extra });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  };

  /** Closes the longest-idle session when the cap is reached; false when every session is busy. */
  const makeRoom = async (): Promise<boolean> => {
    if (sessions.size < maxSessions) return true;
    let oldest: Session | undefined;
    for (const s of sessions.values()) if (s.active === 0 && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s;
    if (!oldest) return false;
    options.log.info(`http: closing the longest-idle session to make room (${maxSessions} sessions at most)`);
    await oldest.transport.close();
    return true;
  };

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const s of sessions.values()) {
      if (s.active === 0 && now - s.lastSeen > idleMs) {
        options.log.info(
          `http: closing session ${s.transport.sessionId} after ${Math.round(idleMs / 1000)} s without a request`,
        );
        void s.transport.close();
      }
    }
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweep.unref();

  const httpServer = http.createServer(async (req, res) => {
    try {
      const refusal = checkRequest(req, port, options);
      if (refusal) {
        refuse(
          res,
          refusal.status,
          refusal.message,
          -32000,
          refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
        );
        options.log.warn(`http: refused ${req.method} ${req.url}: ${refusal.message}`);
        return;
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionId = header(req, 'mcp-session-id');
      let session = sessionId ? sessions.get(sessionId) : undefined;
      if (!session) {
        if (sessionId || req.method !== 'POST' || !isInitializeRequest(body)) {
          refuse(
            res,
            sessionId ? 404 : 400,
            sessionId ? 'Unknown or expired session: send initialize again' : 'No session: send initialize first',
          );
          return;
        }
        if (!(await makeRoom())) {
          refuse(
            res,
            503,
            `Too many sessions: ${maxSessions} are open and busy. Close one (DELETE /mcp with its Mcp-Session-Id) or retry later.`,
            -32000,
            { 'retry-after': '5' },
          );
          return;
        }
        const { server, dispose } = options.createServer();
        const fresh: Session = {
          transport: new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void sessions.set(id, fresh),
          }),
          dispose,
          lastSeen: Date.now(),
          active: 0,
        };
        fresh.transport.onclose = () => {
          if (fresh.transport.sessionId) sessions.delete(fresh.transport.sessionId);
          fresh.dispose();
        };
        await server.connect(fresh.transport);
        session = fresh;
      }
      const current = session;
      current.active++;
      current.lastSeen = Date.now();
      res.once('close', () => {
        current.active--;
        current.lastSeen = Date.now();
      });
      await current.transport.handleRequest(req, res, body);
      // An initialize that did not start a session leaves a server nobody can reach: let it go.
      if (!current.transport.sessionId) await current.transport.close();
    } catch (e) {
      if (e instanceof BodyTooLarge) {
        options.log.warn(`http: refused ${req.method} ${req.url}: ${e.message}`);
        if (!res.headersSent) refuse(res, 413, e.message, -32600, { connection: 'close' });
        return;
      }
      options.log.error('http: request failed', e);
      if (!res.headersSent) refuse(res, 400, 'Invalid request body', -32700);
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
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      for (const s of [...sessions.values()]) await s.transport.close();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}

function checkRequest(
  req: http.IncomingMessage,
  port: number,
  options: HttpOptions,
): { status: number; message: string } | undefined {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== '/mcp') return { status: 404, message: 'Not found: the MCP endpoint is /mcp' };
  const twice = SINGLE_HEADERS.find((h) => (req.headersDistinct[h]?.length ?? 0) > 1);
  if (twice) return { status: 400, message: `The ${twice} header appears more than once` };
  const host = header(req, 'host');
  if (!host || !LOOPBACK_HOSTS.some((h) => host === `${h}:${port}`)) {
    return { status: 403, message: `Forbidden Host header: ${host ?? '(none)'}` };
  }
  const origin = header(req, 'origin');
  if (origin !== undefined && !isAllowedOrigin(origin, options.allowedOrigins ?? [])) {
    return { status: 403, message: `Forbidden Origin: ${origin}` };
  }
  if (options.token !== undefined) {
    const auth = header(req, 'authorization') ?? '';
    const given = Buffer.from(auth.startsWith('Bearer ') ? auth.slice(7) : '');
    const want = Buffer.from(options.token);
    if (given.length !== want.length || !timingSafeEqual(given, want)) {
      return { status: 401, message: 'Missing or wrong bearer token' };
    }
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

/**
 * Reads a JSON body. One over MAX_BODY_BYTES is refused with BodyTooLarge once the client has sent
 * it (the rest is read and dropped, so the client sees the 413 instead of a reset), or at once when
 * Content-Length announces more than the server will ever drain.
 */
function readJson(req: http.IncomingMessage): Promise<unknown> {
  const tooLarge = (size: string) =>
    new BodyTooLarge(`Request body too large: ${size}; the limit is ${MAX_BODY_BYTES} bytes (4 MiB).`);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_DRAIN_BYTES) {
    req.resume();
    return Promise.reject(tooLarge(`${declared} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_DRAIN_BYTES) {
        reject(tooLarge(`over ${MAX_DRAIN_BYTES} bytes`));
        req.destroy();
      } else if (size <= MAX_BODY_BYTES) {
        chunks.push(c);
      }
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(tooLarge(`${size} bytes`));
      try {
        resolve(size === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e);
      }
    });
    req.on('error', reject);
  });
}
