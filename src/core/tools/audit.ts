import { defineTool } from './types';
import { Gateway } from '../gateway/gateway';

export const auditTools = [
  defineTool({
    name: 'query_audit_log',
    title: 'Query the audit log',
    domain: 'system',
    summary: 'Who changed what through the Gateway, allowed or denied, newest first.',
    description:
      'Reads the Gateway audit log: every write decision (allowed or denied) with actor (human, copilot_agent, external_agent), channel, action (the tool), resource, a digest of the arguments, result, error code and duration. Filter by actor, action, result or time; newest first; paged with cursor.',
    inputSchema: {
      type: 'object',
      properties: {
        actor: { enum: ['human', 'copilot_agent', 'external_agent'] },
        action: { type: 'string', description: 'A tool name, e.g. approve_candidate.' },
        result: { enum: ['ok', 'error', 'denied'] },
        since: { type: 'string', description: 'ISO date-time; only entries at or after it.' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
      },
      additionalProperties: false,
    },
    access: 'read',
    maxOutputChars: 16000,
    paginate: 'entries',
    handler(ws, input: { actor?: string; action?: string; result?: string; since?: string; limit: number }) {
      const since = input.since ? Date.parse(input.since) : undefined;
      const all = Gateway.for(ws).audit.read();
      const entries = all
        .filter((e) => (!input.actor || e.actor === input.actor) && (!input.action || e.action === input.action) && (!input.result || e.result === input.result))
        .filter((e) => since === undefined || Date.parse(e.time) >= since)
        .slice(0, input.limit);
      return { total: entries.length, entries };
    },
  }),
];
