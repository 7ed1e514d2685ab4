import type { ToolCatalog } from '../../core/catalog';
import type { Logger } from '../../core/ground/kernel/log';
import type { Workspace } from '../../core/ground/workspace';
import type { Dialogs } from '../host';

/** What the chat participant and its commands need of the extension. */
export interface ChatHost {
  catalog: ToolCatalog;
  log: Logger;
  getWorkspace(): Promise<Workspace>;
  /** Modal questions to the person: another MCP server's tool whose permission is `ask`. */
  dialogs?: Dialogs;
}
