/**
 * For every tool the server publishes: one valid call and one invalid call (with the field the error
 * must name). The MCP test fails when a published tool has no entry here, so new tools get covered.
 */
export interface Sample {
  valid: Record<string, unknown>;
  /** When the valid call is answered by a deliberate refusal (a setting is off), its error code. */
  validError?: string;
  invalid: Record<string, unknown>;
  invalidField: string;
}

export const toolSamples: Record<string, Sample> = {
  health: { valid: {}, invalid: { verbose: true }, invalidField: 'verbose' },
  capabilities: { valid: { domain: 'system' }, invalid: { includeReview: 'yes' }, invalidField: 'includeReview' },
  get_tool_info: { valid: { name: 'autosnippet_health' }, invalid: {}, invalidField: 'name' },
};
toolSamples.query_audit_log = { valid: { limit: 5 }, invalid: { actor: 'robot' }, invalidField: 'actor' };
toolSamples.list_skills = { valid: { filter: 'guard' }, invalid: { source: 'somewhere' }, invalidField: 'source' };
toolSamples.load_skill = { valid: { name: 'autosnippet-intent', section: 'Steps' }, invalid: { section: 'Steps' }, invalidField: 'name' };
toolSamples.load_skill_chunk = { valid: { skill: 'autosnippet-coldstart', chunk: 'examples' }, invalid: { skill: 'autosnippet-coldstart' }, invalidField: 'chunk' };
toolSamples.read_skill_resource = { valid: { skill: 'autosnippet-intent', path: 'SKILL.md' }, invalid: { skill: 'autosnippet-intent', path: '' }, invalidField: 'path' };
toolSamples.search_skills = { valid: { query: 'set up knowledge for a new project', limit: 3 }, invalid: { query: 'x', limit: 0 }, invalidField: 'limit' };
// Scripts are off unless the workspace is trusted and the setting is on: a valid call is refused cleanly.
toolSamples.run_skill_script = { valid: { skill: 'autosnippet-intent', script: 'check.sh' }, validError: 'SCRIPTS_DISABLED', invalid: { skill: 'autosnippet-intent', script: 'x', args: 'a b' }, invalidField: 'args' };
