import { Gateway } from '../domains/gateway/gateway';
import { ACTORS, CHANNELS } from '../ground/kernel/actors';
import { Input, Name, Opt, Out, StringEnum, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const RESULTS = ['ok', 'error', 'denied'] as const;

export const queryAuditLog = defineTool({
  name: 'query_audit_log',
  title: 'Query the audit log',
  domain: 'system',
  summary: 'Who changed what through the Gateway, allowed or denied, newest first.',
  description:
    'Reads the Gateway audit log: every write decision (allowed or denied) with actor (human, copilot_agent, external_agent), channel, action (the tool), resource, a digest of the arguments, result, error code and duration. Filter by actor, action, result or time; newest first; paged with cursor.',
  inputSchema: Input({
    actor: Opt(StringEnum(ACTORS)),
    action: Opt(Name('A tool name, e.g. approve_candidate.')),
    result: Opt(StringEnum(RESULTS)),
    since: Opt(Name('ISO date-time; only entries at or after it.')),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  }),
  outputSchema: Out({
    total: Type.Integer(),
    entries: Type.Array(Out({
      id: Type.String(),
      time: Type.String(),
      actor: StringEnum(ACTORS),
      channel: StringEnum(CHANNELS),
      action: Type.String(),
      requested: Opt(Type.String()),
      resource: Opt(Type.String()),
      argsDigest: Type.String(),
      decision: StringEnum(['allowed', 'denied']),
      result: Opt(StringEnum(RESULTS)),
      error: Opt(Type.String()),
      durationMs: Opt(Type.Number()),
    })),
  }),
  access: 'read',
  maxOutputChars: 16000,
  paginate: 'entries',
  handler(ws, input) {
    const since = input.since ? Date.parse(input.since) : undefined;
    const all = Gateway.for(ws).audit.read();
    const entries = all
      .filter((e) =>
        (!input.actor || e.actor === input.actor) && (!input.action || e.action === input.action)
        && (!input.result || e.result === input.result)
      )
      .filter((e) => since === undefined || Date.parse(e.time) >= since)
      .slice(0, input.limit ?? 100);
    return { total: entries.length, entries };
  },
});

export const auditTools: AnyTool[] = [queryAuditLog];
