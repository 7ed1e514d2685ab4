// Start with the answer: the stdio entry point answers `initialize` and `tools/list` from the manifest
// generated at build time (manifest.ts) while the server proper (the SDK, the catalog, every domain)
// loads. Only Node built-ins are imported here. Everything else a client sends waits, in order, and is
// handed to the server's own stdio transport once it has loaded, preceded by the `initialize` request
// (so the server knows the client's capabilities: sampling, roots…), whose second answer is dropped.
// Anything unusual — a line that is not JSON, a batch, a message near the size limit, a second
// `initialize` — is simply handed over, so the server's transport answers it as it always did.
import { PassThrough, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { McpManifest } from './manifest';

/** Lines longer than this are not looked at here: the server's transport handles (and bounds) them. */
const MAX_FRONT_LINE = 1024 * 1024;
/** With no request the front could answer, the server loads anyway this long after start. */
const IDLE_LOAD_MS = 150;

type Json = Record<string, unknown>;

export interface FrontOptions {
  manifest: McpManifest;
  /** The tools/list answer; without it (the surface depends on a settings file) the server answers. */
  tools?: McpManifest['tools'];
  /** Loads and starts the server on these streams (called once). */
  load: (stdio: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }) => void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

export function startFront(
  { manifest, tools, load, stdin = process.stdin, stdout = process.stdout }: FrontOptions,
): void {
  const decoder = new StringDecoder('utf8');
  /** Lines for the server, in the order they came (the `initialize` request included). */
  const handOver: string[] = [];
  let partial = '';
  let initializeId: string | number | undefined;
  let ended = false;
  let loaded = false;
  let giveUp = false;

  const write = (message: Json) => stdout.write(JSON.stringify(message) + '\n');

  const onLine = (line: string) => {
    const message = giveUp ? undefined : parse(line);
    const id = message?.id;
    if (
      message && initializeId === undefined && message.method === 'initialize' && isId(id)
      && validInitialize(message.params)
    ) {
      initializeId = id;
      write({
        jsonrpc: '2.0',
        id,
        result: initializeResult(manifest, (message.params as Json).protocolVersion as string),
      });
      handOver.push(line);
      return;
    }
    if (
      tools && message && initializeId !== undefined && message.method === 'tools/list' && isId(id)
      && noCursor(message.params)
    ) {
      write({ jsonrpc: '2.0', id, result: { tools } });
      setImmediate(start); // the client has what it asked first; the rest loads now
      return;
    }
    handOver.push(line);
    // Only a notification (`notifications/initialized`) can wait for the idle timer; a request needs the server.
    if (!(message && message.id === undefined && typeof message.method === 'string')) setImmediate(start);
  };

  const onData = (chunk: Buffer | string) => {
    const lines = (partial + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
    if (partial.length > MAX_FRONT_LINE) {
      giveUp = true;
      setImmediate(start);
    }
  };
  const onEnd = () => {
    ended = true;
    start();
  };

  const timer = setTimeout(() => start(), IDLE_LOAD_MS);
  const signals = (['SIGTERM', 'SIGINT'] as const).map((sig) => {
    const stop = () => process.exit(0); // nothing was done yet that needs closing
    process.once(sig, stop);
    return () => process.off(sig, stop);
  });

  function start(): void {
    if (loaded) return;
    loaded = true;
    clearTimeout(timer);
    signals.forEach((off) => off());
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    const input = new PassThrough();
    const rest = partial + decoder.end();
    for (const line of handOver) input.write(line + '\n');
    if (rest) input.write(rest);
    if (ended) input.end();
    else stdin.pipe(input);
    load({ stdin: input, stdout: initializeId === undefined ? stdout : withoutSecondAnswer(stdout, initializeId) });
  }

  stdin.on('data', onData);
  stdin.on('end', onEnd);
}

/** What the SDK's Server answers to `initialize`: the client's protocol version when it speaks it, else its latest. */
export function initializeResult(manifest: McpManifest, requested: string): Json {
  return {
    protocolVersion: manifest.protocolVersions.includes(requested) ? requested : manifest.latestProtocolVersion,
    capabilities: manifest.capabilities,
    serverInfo: manifest.serverInfo,
    instructions: manifest.instructions,
  };
}

/** The server's stdout, minus its own answer to the replayed `initialize` (the client has one already). */
function withoutSecondAnswer(stdout: NodeJS.WritableStream, id: string | number): NodeJS.WritableStream {
  let dropped = false;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!dropped) {
        const message = parse(chunk.toString('utf8').trim());
        if (message && message.id === id && ('result' in message || 'error' in message)) {
          dropped = true;
          done();
          return;
        }
      }
      if (stdout.write(chunk)) done();
      else stdout.once('drain', () => done());
    },
  });
}

function parse(line: string): Json | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) && (value as Json).jsonrpc === '2.0'
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

const isId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

/** The shape the SDK checks before it answers: anything else is left to it (and its error). */
function validInitialize(params: unknown): boolean {
  if (!params || typeof params !== 'object') return false;
  const p = params as Json;
  const info = p.clientInfo as Json | undefined;
  return typeof p.protocolVersion === 'string' && !!p.capabilities && typeof p.capabilities === 'object'
    && !Array.isArray(p.capabilities)
    && !!info && typeof info === 'object' && typeof info.name === 'string' && typeof info.version === 'string';
}

function noCursor(params: unknown): boolean {
  return params === undefined
    || (typeof params === 'object' && params !== null && !Array.isArray(params)
      && (params as Json).cursor === undefined);
}
