/**
 * "Ask a person" over MCP: a yes/no form sent to the client's user through elicitation
 * (`elicitation/create`), when the client declared the capability. Anything but an accepted form with
 * the box ticked is a no.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolContext } from '../core/catalog';

/** How long the person may take to answer before the call is refused. */
const ANSWER_TIMEOUT_MS = 10 * 60_000;

/** The context's `confirm` for this client, or undefined when it cannot ask its user. */
export function elicitationConfirm(server: Server): ToolContext['confirm'] {
  const elicitation = server.getClientCapabilities()?.elicitation as { form?: unknown; url?: unknown } | undefined;
  // A client that declared only URL-mode elicitation cannot show a form.
  if (!elicitation || (elicitation.url !== undefined && elicitation.form === undefined)) return undefined;
  return async (question, signal) => {
    try {
      const answer = await server.elicitInput(
        {
          mode: 'form',
          message: `${question.title}\n\n${question.message}`,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Allow this call', default: false } },
            required: ['approve'],
          },
        },
        { signal, timeout: ANSWER_TIMEOUT_MS },
      );
      return answer.action === 'accept' && answer.content?.approve === true;
    } catch {
      return false;
    }
  };
}
