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
  list_tools: { valid: { domain: 'graph' }, invalid: { domain: 5 }, invalidField: 'domain' },
  call_tool: { valid: { name: 'get_targets', arguments: {} }, invalid: { arguments: {} }, invalidField: 'name' },
};
toolSamples.query_audit_log = { valid: { limit: 5 }, invalid: { actor: 'robot' }, invalidField: 'actor' };
toolSamples.list_skills = { valid: { filter: 'guard' }, invalid: { source: 'somewhere' }, invalidField: 'source' };
toolSamples.load_skill = {
  valid: { name: 'autosnippet-intent', section: 'Steps' },
  invalid: { section: 'Steps' },
  invalidField: 'name',
};
toolSamples.load_skill_chunk = {
  valid: { skill: 'autosnippet-coldstart', chunk: 'examples' },
  invalid: { skill: 'autosnippet-coldstart' },
  invalidField: 'chunk',
};
toolSamples.read_skill_resource = {
  valid: { skill: 'autosnippet-intent', path: 'SKILL.md' },
  invalid: { skill: 'autosnippet-intent', path: '' },
  invalidField: 'path',
};
toolSamples.search_skills = {
  valid: { query: 'set up knowledge for a new project', limit: 3 },
  invalid: { query: 'x', limit: 0 },
  invalidField: 'limit',
};
// Scripts are off unless the workspace is trusted and the setting is on: a valid call is refused cleanly.
toolSamples.run_skill_script = {
  valid: { skill: 'autosnippet-intent', script: 'check.sh' },
  validError: 'SCRIPTS_DISABLED',
  invalid: { skill: 'autosnippet-intent', script: 'x', args: 'a b' },
  invalidField: 'args',
};
toolSamples.guard_check = {
  valid: { code: 'const f = eval("1 + 1");\n', language: 'typescript', path: 'src/x.ts' },
  invalid: { code: 'x' },
  invalidField: 'language',
};
toolSamples.guard_audit_files = {
  valid: { paths: ['src/index.ts'] },
  invalid: { paths: 'src/index.ts' },
  invalidField: 'paths',
};
toolSamples.scan_project = { valid: {}, invalid: { minSeverity: 'fatal' }, invalidField: 'minSeverity' };
toolSamples.guard_rules = { valid: { language: 'swift' }, invalid: { origin: 'nowhere' }, invalidField: 'origin' };
toolSamples.compliance_report = { valid: {}, invalid: { rescan: 'yes' }, invalidField: 'rescan' };
toolSamples.guard_explain = { valid: { ruleId: 'ts/no-eval' }, invalid: {}, invalidField: 'ruleId' };
toolSamples.summarize_code = {
  valid: { code: 'export const add = (a: number, b: number) => a + b;', language: 'typescript' },
  invalid: { code: 'x' },
  invalidField: 'language',
};
toolSamples.enrich_candidate = {
  valid: { id: 'cand-000000000000' },
  validError: 'CANDIDATE_NOT_FOUND',
  invalid: { id: 'cand-1', overwrite: 'yes' },
  invalidField: 'overwrite',
};
toolSamples.refine_bootstrap_candidates = { valid: { limit: 5 }, invalid: { limit: 0 }, invalidField: 'limit' };
toolSamples.discover_relations = { valid: { limit: 10 }, invalid: { limit: 1 }, invalidField: 'limit' };
toolSamples.generate_guard_rule = {
  valid: { description: 'no console.log', language: 'typescript', badExamples: ['console.log(1)'] },
  invalid: { description: 'no console.log', language: 'typescript', badExamples: [] },
  invalidField: 'badExamples',
};
toolSamples.run_pipeline = {
  valid: { name: 'bootstrap_full_pipeline', input: { maxFiles: 50 } },
  invalid: { name: 'nope' },
  invalidField: 'name',
};
toolSamples.submit_candidate = {
  valid: {
    title: 'Wrap HTTP calls in withRetry',
    summary: 'Retry transient failures.',
    code: 'await withRetry(() => fetch(url));',
    language: 'typescript',
    category: 'networking',
  },
  invalid: { summary: 'no title' },
  invalidField: 'title',
};
toolSamples.submit_candidates = {
  valid: { candidates: [{ title: 'Log errors with context' }] },
  invalid: { candidates: 'x' },
  invalidField: 'candidates',
};
toolSamples.submit_draft_recipes = {
  valid: { drafts: [{ markdown: '---\ntitle: Cache GET responses\nsummary: Cache GET responses for 60 s.\n---\n' }] },
  invalid: { drafts: [{}] },
  invalidField: 'drafts.0.markdown',
};
toolSamples.validate_candidate = {
  valid: { candidate: { title: 'Use the logger' } },
  invalid: { candidate: {} },
  invalidField: 'candidate.title',
};
toolSamples.check_duplicate = { valid: { title: 'Fetch with retry' }, invalid: { limit: 0 }, invalidField: 'limit' };
toolSamples.enrich_candidates = { valid: {}, invalid: { limit: 0 }, invalidField: 'limit' };
toolSamples.update_candidate = {
  valid: { id: 'cand-000000000000', summary: 'x' },
  validError: 'CANDIDATE_NOT_FOUND',
  invalid: { summary: 'x' },
  invalidField: 'id',
};
// An unknown id is listed under `failed`, not refused: the call itself answers ok.
toolSamples.update_candidates = {
  valid: { updates: [{ id: 'cand-000000000000', summary: 'x' }] },
  invalid: { updates: [{ summary: 'x' }] },
  invalidField: 'updates.0.id',
};
toolSamples.list_candidates = { valid: { status: 'pending' }, invalid: { status: 'open' }, invalidField: 'status' };
toolSamples.get_candidate = {
  valid: { id: 'cand-000000000000' },
  validError: 'CANDIDATE_NOT_FOUND',
  invalid: {},
  invalidField: 'id',
};
toolSamples.list_recipes = { valid: {}, invalid: { kind: 'snippet' }, invalidField: 'kind' };
for (const t of ['list_rules', 'list_patterns', 'list_facts']) {
  toolSamples[t] = { valid: {}, invalid: { status: 'live' }, invalidField: 'status' };
}
toolSamples.get_recipe = { valid: { id: 'net/nope' }, validError: 'RECIPE_NOT_FOUND', invalid: {}, invalidField: 'id' };
toolSamples.recipe_insights = { valid: {}, invalid: { id: 3 }, invalidField: 'id' };
toolSamples.confirm_usage = {
  valid: { id: 'net/nope' },
  validError: 'RECIPE_NOT_FOUND',
  invalid: { id: 'x', event: 'liked' },
  invalidField: 'event',
};
for (const t of ['search', 'keyword_search', 'semantic_search']) {
  toolSamples[t] = { valid: { query: 'retry' }, invalid: { query: '' }, invalidField: 'query' };
}
toolSamples.context_search = {
  valid: { query: 'add an HTTP call', currentFile: 'src/api.ts' },
  invalid: { query: 'x', limit: 0 },
  invalidField: 'limit',
};
toolSamples.rebuild_index = { valid: {}, invalid: { force: 'yes' }, invalidField: 'force' };
toolSamples.graph_query = {
  valid: { node: 'sample-workspace' },
  invalid: { node: 'x', direction: 'up' },
  invalidField: 'direction',
};
toolSamples.graph_impact = {
  valid: { node: 'sample-workspace', depth: 2 },
  invalid: { node: 'x', depth: 9 },
  invalidField: 'depth',
};
toolSamples.graph_path = {
  valid: { from: 'src/index.ts', to: 'sample-workspace', directed: false },
  invalid: { from: 'a' },
  invalidField: 'to',
};
toolSamples.add_graph_edge = {
  valid: { from: 'file:src/profile.ts', to: 'file:src/http.ts', relation: 'calls', evidence: 'src/profile.ts:1' },
  invalid: { from: 'src/profile.ts', to: 'src/http.ts' },
  invalidField: 'relation',
};
toolSamples.graph_stats = { valid: {}, invalid: { top: 0 }, invalidField: 'top' };
toolSamples.get_targets = { valid: {}, invalid: { kind: 'widget' }, invalidField: 'kind' };
toolSamples.get_target_files = { valid: { target: 'sample-workspace' }, invalid: {}, invalidField: 'target' };
toolSamples.get_target_metadata = {
  valid: { target: 'sample-workspace' },
  invalid: { target: '' },
  invalidField: 'target',
};
toolSamples.bootstrap_knowledge = { valid: { maxFiles: 50 }, invalid: { maxFiles: 0 }, invalidField: 'maxFiles' };
toolSamples.coldstart_evidence = {
  valid: { maxFiles: 50 },
  invalid: { tokensPerPack: 10 },
  invalidField: 'tokensPerPack',
};
toolSamples.write_coldstart_cards = { valid: { maxFiles: 50 }, invalid: { maxFiles: 0 }, invalidField: 'maxFiles' };
toolSamples.check_recipe_freshness = {
  valid: { problemsOnly: true },
  invalid: { status: 'stale' },
  invalidField: 'status',
};
// An agent's remember is a proposal: a candidate, recorded.
toolSamples.remember = {
  valid: { text: 'Every HTTP call goes through getJson.' },
  invalid: { text: 'ok' },
  invalidField: 'text',
};
// The sample workspace names no other MCP server: the list is empty, and a named one does not exist.
toolSamples.list_mcp_servers = { valid: {}, invalid: { server: 'x' }, invalidField: 'server' };
toolSamples.get_mcp_instructions = {
  valid: { server: 'notes' },
  validError: 'NOT_FOUND',
  invalid: {},
  invalidField: 'server',
};
toolSamples.call_mcp_tool = {
  valid: { server: 'notes', tool: 'read_note', arguments: { key: 'a' } },
  validError: 'NOT_FOUND',
  invalid: { server: 'notes' },
  invalidField: 'tool',
};
// The sample workspace pins no knowledge pack: the list is empty.
toolSamples.list_packs = { valid: {}, invalid: { name: 'x' }, invalidField: 'name' };
// A rule is proposed for a pending candidate; the sample workspace has none of this id.
toolSamples.propose_guard_rule = {
  valid: { candidateId: 'cand-000000000000' },
  validError: 'CANDIDATE_NOT_FOUND',
  invalid: { candidateId: 'cand-000000000000', rule: { message: 'x', severity: 'fatal' } },
  invalidField: 'rule.severity',
};
