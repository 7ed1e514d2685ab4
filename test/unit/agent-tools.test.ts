import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditTools } from '../../src/core/catalog/audit';
import { Input, Opt, Type } from '../../src/core/catalog/schema';
import { searchSkillsTool } from '../../src/core/catalog/skills';
import { type AnyTool, defineTool, type ToolContext } from '../../src/core/catalog/types';
import { type ChatRequest, textOf } from '../../src/core/domains/agent/model';
import { rerankSkills } from '../../src/core/domains/agent/routing';
import { ScriptedModel } from '../../src/core/domains/agent/scripted';
import { getCandidate, submitCandidates } from '../../src/core/domains/knowledge/candidates';
import { validateCandidate } from '../../src/core/domains/knowledge/validate';
import type { Workspace } from '../../src/core/ground/workspace';
import { seedCandidates, tempWorkspace, testCatalog } from './agent-helpers';

const agentCtx = (model?: ScriptedModel): ToolContext => ({
  actor: 'copilot_agent',
  channel: 'test',
  ...(model ? { model } : {}),
});
const json = (v: unknown) => ({ text: '```json\n' + JSON.stringify(v) + '\n```' });
const userOf = (r: Omit<ChatRequest, 'onText'>) => textOf(r.messages[r.messages.length - 1]);

/** Stand-ins for the knowledge domain's scan and gap list, answering in the shapes of the real ones. */
function coldStartStubs(created: { ids: string[] }): AnyTool[] {
  return [
    defineTool({
      name: 'bootstrap_knowledge',
      title: 'scan',
      domain: 'knowledge',
      summary: 's',
      description: 's',
      access: 'propose',
      maxOutputChars: 8000,
      inputSchema: Input({ maxFiles: Opt(Type.Integer()) }),
      outputSchema: Type.Any(),
      async handler(ws: Workspace) {
        created.ids = await seedCandidates(ws, 6);
        return {
          scanned: { files: 12, languages: { swift: 10, 'objective-c': 2 } },
          candidates: { proposed: 6, created: 6, existing: 0, weak: 0 },
          dimensions: [
            { id: 'code-pattern', created: created.ids.slice(0, 4), existing: [] },
            { id: 'best-practice', created: created.ids.slice(4), existing: [] },
          ],
        };
      },
    }),
    defineTool({
      name: 'enrich_candidates',
      title: 'gaps',
      domain: 'knowledge',
      summary: 'g',
      description: 'g',
      access: 'read',
      maxOutputChars: 8000,
      inputSchema: Input({ ids: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }) }),
      outputSchema: Type.Any(),
      handler: (ws: Workspace, input) => ({
        candidates: input.ids.map((id) => ({
          id,
          missing: validateCandidate(getCandidate(ws, id)).issues.map((i) => i.field),
        })),
      }),
    }),
  ];
}

test('without a model every AI-assisted tool answers in diagnostic mode: what is missing and the prompt, never an error', async () => {
  const ws = await tempWorkspace();
  const catalog = testCatalog();
  const [id] = await seedCandidates(ws, 2);
  const calls: [string, Record<string, unknown>, RegExp][] = [
    [
      'summarize_code',
      { code: 'func greet(name: String) -> String { "Hi \\(name)" }', language: 'swift' },
      /Summarize this swift code/,
    ],
    ['enrich_candidate', { id }, /The candidate:/],
    ['refine_bootstrap_candidates', {}, /Candidates to refine:/],
    ['discover_relations', {}, /The items:/],
    ['generate_guard_rule', {
      description: 'no print in production code',
      language: 'swift',
      badExamples: ['print("x")'],
    }, /Code the rule must report/],
  ];
  for (const [tool, input, prompt] of calls) {
    const result = await catalog.invoke(ws, tool, input, agentCtx());
    assert.equal(result.ok, true, `${tool}: ${JSON.stringify(result)}`);
    const data = (result as { data: any }).data;
    assert.equal(data.mode, 'diagnostic', tool);
    assert.deepEqual(data.missing, ['model']);
    assert.match(data.reason, /No language model is available/);
    assert.match(data.prompt.user, prompt, tool);
    assert.ok(data.prompt.system.length > 20 && data.answerFormat && data.next, tool);
  }
  const summary = await catalog.invoke(ws, 'summarize_code', {
    code: 'class A {}\nfunction b() {}',
    language: 'typescript',
  }, agentCtx());
  assert.deepEqual((summary as any).data.outline, { lines: 2, declarations: ['A', 'b'] });
  const enrich = await catalog.invoke(ws, 'enrich_candidate', { id }, agentCtx());
  // One story across tools and skills: fields an agent writes itself go through update_candidate.
  assert.match((enrich as any).data.next, new RegExp(`update_candidate \\{"id": "${id}"`));
});

test('summarize_code asks the model and returns its checked answer', async () => {
  const ws = await tempWorkspace();
  const model = new ScriptedModel([
    { text: 'not json' },
    json({ summary: 'Greets a user by name.', keyPoints: ['pure'], apis: ['greet'] }),
  ]);
  const result = await testCatalog().invoke(
    ws,
    'summarize_code',
    { code: 'func greet() {}', language: 'swift' },
    agentCtx(model),
  );
  assert.equal(result.ok, true);
  assert.equal((result as any).data.mode, 'model');
  assert.equal((result as any).data.summary, 'Greets a user by name.');
  assert.match(
    userOf(model.requests[1]),
    /cannot be used: the answer contains no JSON/,
    'a bad answer is sent back once',
  );
});

test('enrich_candidate fills only what is missing, with the model or with supplied fields, and validates after', async () => {
  const ws = await tempWorkspace();
  const catalog = testCatalog();
  const [id, other] = await seedCandidates(ws, 2);
  const model = new ScriptedModel([
    json({
      summary: 'All HTTP goes through APIClient.send, which adds auth and retries.',
      usageGuide: 'Call `APIClient.send(_:)` with a Request.',
      title: 'SHOULD NOT REPLACE',
      category: 'networking',
    }),
  ]);
  const result = await catalog.invoke(ws, 'enrich_candidate', { id }, agentCtx(model));
  assert.equal(result.ok, true, JSON.stringify(result));
  const data = (result as any).data;
  assert.equal(data.mode, 'model');
  assert.ok(data.changed.includes('summary') && data.changed.includes('usageGuide'));
  assert.ok(!data.changed.includes('title'), 'a good title is kept');
  const after = getCandidate(ws, id);
  assert.equal(after.summary, 'All HTTP goes through APIClient.send, which adds auth and retries.');
  assert.equal(after.title, 'Network calls go through APIClient.send');
  assert.equal(after.status, 'pending');

  const supplied = await catalog.invoke(ws, 'enrich_candidate', {
    candidateId: other,
    fields: { summary: 'View models run on the main actor.', tags: ['swift', 'concurrency'] },
  }, agentCtx());
  assert.equal((supplied as any).data.mode, 'applied');
  assert.deepEqual(getCandidate(ws, other).tags, ['swift', 'concurrency']);
  const bad = await catalog.invoke(ws, 'enrich_candidate', { id, fields: { knowledgeType: 'nonsense' } }, agentCtx());
  assert.equal(bad.ok, false);
  assert.equal((bad as any).error.code, 'INVALID_INPUT');
});

test('refine_bootstrap_candidates: batches of five, relations kept only between known candidates, confidence and tags applied', async () => {
  const ws = await tempWorkspace();
  const ids = await seedCandidates(ws, 6);
  const model = new ScriptedModel([
    json(
      ids.slice(0, 5).map((id, i) => ({
        id,
        summary: `Sharper summary ${i}`,
        insight: `Why ${i}`,
        confidence: 0.8,
        tags: ['Swift'],
        relations: { related: [ids[(i + 1) % 6], 'cand-unknown', id] },
      })),
    ),
    json([{ id: ids[5], summary: 'Sharper summary 5', confidence: 1.5 }]),
    json([{ id: ids[5], summary: 'Sharper summary 5', confidence: 0.6 }]),
  ]);
  const progress: string[] = [];
  const result = await testCatalog().invoke(
    ws,
    'refine_bootstrap_candidates',
    { candidateIds: ids, languageGuide: 'Look for @MainActor.' },
    { ...agentCtx(model), progress: (p) => progress.push(p.message ?? '') },
  );
  assert.equal(result.ok, true, JSON.stringify(result));
  const data = (result as any).data;
  assert.equal(data.mode, 'model');
  assert.equal(data.refined.length, 6);
  assert.equal(data.requests, 2);
  assert.match(userOf(model.requests[0]), /Look for @MainActor\./);
  const first = getCandidate(ws, ids[0]);
  assert.equal(first.summary, 'Sharper summary 0');
  assert.equal(first.rationale, 'Why 0');
  assert.equal(first.reasoning.confidence, 0.8);
  assert.deepEqual(first.relations, { related: [ids[1]] }, 'unknown ids and self-relations are dropped');
  assert.ok(first.tags.includes('swift'));
  assert.equal(
    getCandidate(ws, ids[5]).reasoning.confidence,
    0.6,
    'an out-of-range confidence was sent back and corrected',
  );
  assert.ok(progress.some((m) => /Refining candidates 1–5 of 6/.test(m)));

  const supplied = await testCatalog().invoke(ws, 'refine_bootstrap_candidates', {
    refinements: [{ id: ids[1], summary: 'By hand' }, { id: 'cand-missing', summary: 'x' }],
  }, agentCtx());
  assert.equal((supplied as any).data.mode, 'applied');
  assert.equal(getCandidate(ws, ids[1]).summary, 'By hand');
  assert.equal((supplied as any).data.failed[0].id, 'cand-missing');
});

test('discover_relations keeps only relations between the given candidates and records nothing', async () => {
  const ws = await tempWorkspace();
  const ids = await seedCandidates(ws, 3);
  const model = new ScriptedModel([json([
    { from: ids[0], to: ids[1], relation: 'dependsOn', reason: 'uses it' },
    { from: ids[0], to: ids[1], relation: 'dependsOn', reason: 'duplicate' },
    { from: ids[1], to: ids[1], relation: 'related', reason: 'self' },
    { from: ids[2], to: 'cand-elsewhere', relation: 'extends', reason: 'unknown' },
  ])]);
  const result = await testCatalog().invoke(ws, 'discover_relations', { candidateIds: ids }, agentCtx(model));
  const data = (result as any).data;
  assert.deepEqual(data.relations, [{ from: ids[0], to: ids[1], relation: 'dependsOn', reason: 'uses it' }]);
  assert.equal(data.dropped, 3);
  assert.equal(getCandidate(ws, ids[0]).relations, undefined);
});

test('generate_guard_rule checks each proposal against the examples and sends failures back to the model', async () => {
  const ws = await tempWorkspace();
  const input = {
    description: 'no print() in app code',
    language: 'swift',
    badExamples: ['print("debug")', 'let x = 1; print(x)'],
    goodExamples: ['logger.info("x")', '// print("commented out")', 'let s = "print(x)"'],
  };
  const rule = (regex: string) => ({
    id: 'no-print',
    message: 'Use Logger instead of print()',
    regex,
    why: 'print output is lost in release builds',
    suggestion: 'logger.info(...)',
  });
  const model = new ScriptedModel([
    json(rule('print|logger')),
    json({ id: 'no-print' }),
    json(rule('\\bprint\\s*\\(')),
  ]);
  const result = await testCatalog().invoke(ws, 'generate_guard_rule', input, agentCtx(model));
  assert.equal(result.ok, true, JSON.stringify(result));
  const data = (result as any).data;
  assert.equal(data.proposed, true);
  assert.equal(data.attempts, 3);
  assert.equal(data.rule.pattern.regex, '\\bprint\\s*\\(');
  assert.equal(data.rule.languages[0], 'swift');
  assert.equal(data.check.examples.length, 5);
  assert.ok(data.check.examples.every((e: { ok: boolean }) => e.ok));
  assert.match(
    userOf(model.requests[1]),
    /The rule fails its examples: .*it reports the good example "logger.info\(\\"x\\"\)"/,
  );
  assert.match(userOf(model.requests[2]), /"message" must be a non-empty string/);

  const checked = await testCatalog().invoke(
    ws,
    'generate_guard_rule',
    { ...input, rule: rule('print|logger') },
    agentCtx(),
  );
  const c = (checked as any).data;
  assert.equal(c.mode, 'checked');
  assert.equal(c.proposed, false);
  assert.ok(c.check.problems.some((p: string) => /reports the good example/.test(p)), c.check.problems.join('; '));
  const empty = await testCatalog().invoke(ws, 'generate_guard_rule', { ...input, rule: rule('x*') }, agentCtx());
  assert.match((empty as any).data.check.problems[0], /matches empty text/);
});

test('run_pipeline bootstrap_full_pipeline: scan → (gaps ∥ language skill) → refine, every step through the catalog', async () => {
  const ws = await tempWorkspace();
  const created = { ids: [] as string[] };
  const catalog = testCatalog(coldStartStubs(created));
  const model = new ScriptedModel([
    (req) => {
      assert.match(userOf(req), /What to look for in this language/, 'the reference skill reached the refine prompt');
      return json(created.ids.slice(0, 5).map((id) => ({ id, summary: `Refined ${id}`, confidence: 0.7 })));
    },
    () => json([{ id: created.ids[5], summary: 'Refined last' }]),
  ]);
  const progress: string[] = [];
  const result = await catalog.invoke(
    ws,
    'run_pipeline',
    { name: 'bootstrap_full_pipeline', input: { maxFiles: 100 } },
    { ...agentCtx(model), progress: (p) => progress.push(p.message ?? '') },
  );
  assert.equal(result.ok, true, JSON.stringify(result));
  const data = (result as any).data;
  assert.equal(data.status, 'ok', JSON.stringify(data.steps));
  assert.deepEqual(data.layers, [['bootstrap'], ['gaps', 'language_skill'], ['refine']]);
  assert.deepEqual(data.steps.map((s: any) => [s.id, s.status]), [
    ['bootstrap', 'ok'],
    ['gaps', 'ok'],
    ['language_skill', 'ok'],
    ['refine', 'ok'],
  ]);
  assert.deepEqual(data.candidateIds, created.ids);
  const skill = data.steps.find((s: any) => s.id === 'language_skill').data;
  assert.equal(skill.skill, 'autosnippet-reference-swift');
  assert.equal(skill.chunk, 'look-for');
  assert.match(skill.file, /SKILL\.md$/, 'the skill file survives the compaction, for references');
  assert.equal(getCandidate(ws, created.ids[0]).summary, `Refined ${created.ids[0]}`);
  assert.ok(progress.some((m) => /bootstrap_full_pipeline: refine/.test(m)));

  // A second run: the scan is idempotent, nothing new to refine is fine.
  const unknown = await catalog.invoke(ws, 'run_pipeline', { name: 'no_such_pipeline' }, agentCtx());
  assert.equal((unknown as any).error.code, 'INVALID_INPUT');
  const badInput = await catalog.invoke(ws, 'run_pipeline', {
    name: 'bootstrap_full_pipeline',
    input: { maxFiles: 'many' },
  }, agentCtx());
  assert.equal((badInput as any).error.code, 'INVALID_INPUT');
  assert.match((badInput as any).error.message, /maxFiles/);
});

test('run_pipeline without the knowledge tools is rejected before anything runs', async () => {
  const ws = await tempWorkspace();
  const result = await testCatalog().invoke(ws, 'run_pipeline', { name: 'bootstrap_full_pipeline' }, agentCtx());
  assert.equal(result.ok, false);
  assert.equal((result as any).error.code, 'PIPELINE_INVALID');
  assert.match((result as any).error.message, /unknown tool "bootstrap_knowledge"/);
});

test('rerankSkills: the model re-ranks the BM25 candidates; without a model, or with a bad answer, BM25 stands', async () => {
  const candidates = [
    { name: 'autosnippet-recipes', description: 'Use when writing code.' },
    { name: 'autosnippet-coldstart', description: 'Use on first setup.' },
    { name: 'autosnippet-guard', description: 'Use when checking code.' },
  ];
  const model = new ScriptedModel([json({ matched_skills: ['autosnippet-coldstart', 'autosnippet-guard'] })]);
  assert.deepEqual(await rerankSkills(model, 'set up the project', candidates, { limit: 2 }), {
    matched_skills: [candidates[1], candidates[2]],
    ranking: 'llm',
  });
  const none = await rerankSkills(undefined, 'x', candidates, { limit: 1 });
  assert.deepEqual(none.matched_skills, [candidates[0]]);
  assert.equal(none.ranking, 'bm25');
  const wrong = await rerankSkills(
    new ScriptedModel([json({ matched_skills: ['made-up'] }), json({ matched_skills: ['made-up'] })]),
    'x',
    candidates,
  );
  assert.equal(wrong.ranking, 'bm25');
  assert.match(wrong.note ?? '', /not names from the list: made-up/);
});

test('the Gateway sees the agent tools as proposals: writes are audited under the agent actor', async () => {
  const ws = await tempWorkspace();
  const [id] = await submitCandidates(ws, [{
    title: 'Errors are wrapped in AppError before crossing a module',
    language: 'swift',
  }], 'copilot_agent').then((r) => r.created);
  const catalog = testCatalog(auditTools);
  const result = await catalog.invoke(ws, 'enrich_candidate', { id, fields: { category: 'errors' } }, agentCtx());
  assert.equal(result.ok, true);
  const log = await catalog.invoke(
    ws,
    'query_audit_log',
    { action: 'enrich_candidate' },
    { actor: 'human', channel: 'test' },
  );
  assert.equal(log.ok, true);
  const entries = (log as any).data.entries as { actor: string; decision?: string }[];
  assert.ok(entries.some((e) => e.actor === 'copilot_agent' && e.decision === 'allowed'), JSON.stringify(entries));
  assert.equal(catalog.get('enrich_candidate')?.access, 'propose');
  assert.equal(catalog.get('run_pipeline')?.access, 'propose');
  assert.equal(catalog.get('summarize_code')?.access, 'read');
});

test('search_skills mode "llm" re-ranks with the model and answers {matched_skills: [{name, description}]}; without a model it falls back to BM25', async () => {
  const ws = await tempWorkspace();
  const catalog = testCatalog([searchSkillsTool]);
  const model = new ScriptedModel([json({ matched_skills: ['autosnippet-guard'] })]);
  const withModel = await catalog.invoke(ws, 'search_skills', {
    query: 'check my code against the project rules',
    mode: 'llm',
    limit: 1,
  }, agentCtx(model));
  assert.equal(withModel.ok, true, JSON.stringify(withModel));
  const data = (withModel as any).data;
  assert.equal(data.ranking, 'llm');
  assert.deepEqual(Object.keys(data.matched_skills[0]).sort(), ['description', 'name']);
  assert.equal(data.matched_skills[0].name, 'autosnippet-guard');
  const without = await catalog.invoke(ws, 'search_skills', {
    query: 'check my code against the project rules',
    mode: 'llm',
    limit: 2,
  }, agentCtx());
  assert.equal((without as any).data.ranking, 'bm25');
  assert.ok((without as any).data.matched_skills.length >= 1);
  assert.equal((without as any).data.matched_skills[0].name, 'autosnippet-guard');
  await ws.dispose();
});

test('search_skills mode "llm" gives the model the whole catalog, so it answers where the words find nothing; an empty choice is no_match', async () => {
  const ws = await tempWorkspace();
  const catalog = testCatalog([searchSkillsTool]);
  // A request in Chinese that shares no word with any bundled skill: the lexical ranking finds nothing.
  const query = '那个东西到底该怎么弄才好';
  const lexical = await catalog.invoke(ws, 'search_skills', { query }, agentCtx());
  assert.equal((lexical as any).data.no_match, true);
  const model = new ScriptedModel([json({ matched_skills: ['autosnippet-intent'] }), json({ matched_skills: [] })]);
  const chosen = await catalog.invoke(ws, 'search_skills', { query, mode: 'llm', limit: 1 }, agentCtx(model));
  const data = (chosen as any).data;
  assert.equal(data.ranking, 'llm');
  assert.equal(data.no_match, false);
  assert.equal(data.matched_skills[0].name, 'autosnippet-intent');
  assert.equal(data.considered, 13, 'every bundled skill was offered');
  const prompt = JSON.stringify(model.requests[0].messages);
  for (const name of ['autosnippet-guard', 'autosnippet-coldstart', 'autosnippet-structure']) {
    assert.ok(prompt.includes(name), `${name} offered to the model`);
  }
  const none =
    (await catalog.invoke(ws, 'search_skills', { query: '今晚想做番茄炒蛋', mode: 'llm' }, agentCtx(model)) as any)
      .data;
  assert.equal(none.ranking, 'llm');
  assert.equal(none.no_match, true);
  assert.deepEqual(none.matched_skills, []);
  await ws.dispose();
});
