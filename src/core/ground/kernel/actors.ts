/** Who is calling, and through which channel: what the Gateway decides on and the audit log records. */

export const ACTORS = ['human', 'copilot_agent', 'external_agent'] as const;

/** A person at the keyboard (`human`), the `@autosnippet` chat agent, or any other agent (MCP, agent mode). */
export type Actor = (typeof ACTORS)[number];

export const CHANNELS = ['vscode', 'lm-tool', 'chat', 'mcp', 'cli', 'test'] as const;

/** The adapter a call came through. */
export type Channel = (typeof CHANNELS)[number];

/**
 * Who may call a tool. `read` changes nothing; `propose` writes proposals an agent may make
 * (candidates, usage confirmations); `review` is for people only (approve, publish, delete, install):
 * such tools are never offered to agents, and run from commands, views and the CLI.
 */
export type AccessClass = 'read' | 'propose' | 'review';

export function isAgent(actor: Actor): boolean {
  return actor !== 'human';
}
