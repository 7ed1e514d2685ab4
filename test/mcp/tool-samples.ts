/**
 * For every tool the server publishes: one valid call and one invalid call (with the field the error
 * must name). The MCP test fails when a published tool has no entry here, so new tools get covered.
 */
export interface Sample {
  valid: Record<string, unknown>;
  invalid: Record<string, unknown>;
  invalidField: string;
}

export const toolSamples: Record<string, Sample> = {
  health: { valid: {}, invalid: { verbose: true }, invalidField: 'verbose' },
  capabilities: { valid: { domain: 'system' }, invalid: { includeReview: 'yes' }, invalidField: 'includeReview' },
  get_tool_info: { valid: { name: 'autosnippet_health' }, invalid: {}, invalidField: 'name' },
};
toolSamples.query_audit_log = { valid: { limit: 5 }, invalid: { actor: 'robot' }, invalidField: 'actor' };
