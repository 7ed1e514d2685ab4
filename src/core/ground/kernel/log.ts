/** Where the core writes what it does. Adapters route it: VS Code's output channel, stderr for MCP and the CLI. */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A logger that writes to stderr only: stdout belongs to protocols (MCP over stdio, CLI JSON output). */
export function stderrLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(level);
  const write = (l: string) => (message: string, ...args: unknown[]) => {
    if (order.indexOf(l) < min) return;
    const extra = args.length
      ? ' '
        + args.map((a) => (a instanceof Error ? a.stack ?? a.message : typeof a === 'string' ? a : JSON.stringify(a)))
          .join(' ')
      : '';
    process.stderr.write(`[autosnippet] ${l}: ${message}${extra}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
