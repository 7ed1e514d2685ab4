// The cold-start and candidate skills, the tool descriptions and the schemas tell one story: what the
// skills show or state is checked against the catalog an agent will call.
import Ajv from 'ajv';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { EVIDENCE_PAGE_CHARS } from '../../src/core/catalog/coldstart';
import { referenceSkillFor } from '../../src/core/domains/agent/pipelines';
import { validateCandidate } from '../../src/core/domains/knowledge/validate';
import { knownLanguages } from '../../src/core/ground/kernel/languages';

const SKILLS = path.join(__dirname, '..', '..', 'skills');
const STORY = ['autosnippet-coldstart', 'autosnippet-candidates'];
const catalog = createCatalog();
const skillText = (name: string) => readFileSync(path.join(SKILLS, name, 'SKILL.md'), 'utf8');
const ajv = new Ajv({ allErrors: true, strict: false });

function jsonBlocks(text: string): unknown[] {
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
}

test("every candidate shown as JSON in the skills is accepted by submit_candidate's schema", () => {
  const validate = ajv.compile(catalog.inputSchema(catalog.get('submit_candidate')!));
  let shown = 0;
  for (const name of STORY) {
    for (const block of jsonBlocks(skillText(name))) {
      if (typeof block !== 'object' || !block || !('title' in block)) continue;
      shown++;
      assert.ok(validate(block), `${name}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  assert.ok(shown >= 1, 'the skills show a complete candidate');
});

test('the batch limits the skills state are the batch limit of submit_candidates, its schema and its description', () => {
  const tool = catalog.get('submit_candidates')!;
  const max = tool.batch!.max;
  const schema = catalog.inputSchema(tool) as { properties: { candidates: { maxItems: number } } };
  assert.equal(schema.properties.candidates.maxItems, max, 'schema');
  assert.match(tool.description, new RegExp(`at most ${max}\\b`), 'description');
  const stated: string[] = [];
  for (const name of STORY) {
    for (const m of skillText(name).matchAll(/batch(?:es)? of (?:at most )?(\d+)/gi)) stated.push(`${name}: ${m[0]}`);
  }
  assert.ok(stated.length >= 2, 'the skills state the limit');
  for (const s of stated) assert.match(s, new RegExp(`\\b${max}$`), s);
});

test('the tools the skills name exist, and gaps are filled with the tool enrich_candidates names', () => {
  for (const name of STORY) {
    for (const m of skillText(name).matchAll(/`autosnippet_([a-z_]+)`/g)) {
      assert.ok(catalog.get(m[1]), `${name} names autosnippet_${m[1]}`);
    }
  }
  assert.match(catalog.get('enrich_candidates')!.description, /update_candidate/);
  for (const name of STORY) {
    const fillWith = [...skillText(name).matchAll(/fill (?:the gaps|them)[^.]*?with\s+`autosnippet_([a-z_]+)`/gi)].map((
      m,
    ) => m[1]);
    assert.ok(fillWith.length, `${name} says how gaps are filled`);
    // The one-card and the batch form take the same fields.
    for (const tool of fillWith) {
      assert.ok(['update_candidate', 'update_candidates'].includes(tool), `${name}: ${tool}`);
    }
  }
});

test('every field validation can report missing is one update_candidate and enrich_candidate can set', () => {
  const reported = new Set<string>();
  const empty = validateCandidate({
    title: '',
    scope: 'target',
    trigger: 'a b',
    constraints: { guards: [{ pattern: '(', message: 'm' }] },
  });
  const thin = validateCandidate({
    title: 'x',
    code: 'todo',
    language: 'klingon',
    reasoning: { sources: ['a'], confidence: 0.1 },
  });
  for (const i of [...empty.issues, ...thin.issues]) reported.add(i.field.split(/[.[]/)[0]);
  const update = catalog.inputSchema(catalog.get('update_candidate')!) as { properties: Record<string, unknown> };
  const enrich = catalog.inputSchema(catalog.get('enrich_candidate')!) as {
    properties: { fields: { properties: Record<string, unknown> } };
  };
  for (const field of reported) {
    assert.ok(field in update.properties, `update_candidate cannot set ${field}`);
    if (field !== 'title' || 'title' in enrich.properties.fields.properties) {
      assert.ok(
        field in enrich.properties.fields.properties || field === 'constraints' || field === 'target',
        `enrich_candidate cannot set ${field}`,
      );
    }
  }
  assert.ok(reported.has('code') && 'code' in enrich.properties.fields.properties);
});

test('the cold-start skill asks for a language companion only where one exists', () => {
  const text = skillText('autosnippet-coldstart');
  const named = new Set([...text.matchAll(/`(autosnippet-reference-[a-z]+)`/g)].map((m) => m[1]));
  const existing = new Set(knownLanguages().map((l) => referenceSkillFor(l)).filter((s): s is string => Boolean(s)));
  assert.deepEqual(
    [...named].sort(),
    [...existing].sort(),
    'the companions the skill names are the ones the pipeline loads',
  );
  for (const skill of named) assert.match(skillText(skill), /<chunk id="look-for"/, `${skill} has chunk look-for`);
  const withoutCompanion = knownLanguages().filter((l) => !referenceSkillFor(l));
  assert.ok(withoutCompanion.length > 0);
  assert.match(text, /Any other language has\s+none: skip them/);
  // The packs carry each dimension's look-for from the companions: the skill says not to load them.
  assert.match(text, /Each pack already carries what its dimension\s+looks for/);
});

test('every tool call the cold-start skill shows is accepted by the schema of the tool it names', () => {
  const calls = jsonBlocks(skillText('autosnippet-coldstart')).filter((b): b is { name: string; arguments: unknown } =>
    typeof b === 'object' && b !== null && 'name' in b && 'arguments' in b
  );
  assert.ok(calls.length >= 3, 'the skill shows the calls of its path');
  const callTool = ajv.compile(catalog.inputSchema(catalog.get('call_tool')!));
  for (const c of calls) {
    assert.ok(callTool(c), `call_tool: ${ajv.errorsText(callTool.errors)}`);
    const tool = catalog.get(c.name);
    assert.ok(tool, `no tool ${c.name}`);
    const validate = ajv.compile(catalog.inputSchema(tool));
    assert.ok(validate(c.arguments), `${c.name}: ${ajv.errorsText(validate.errors)}`);
  }
  assert.ok(calls.some((c) => c.name === 'coldstart_evidence' && 'cursor' in (c.arguments as object)), 'a second page');
});

test('the page size, the cursor and the batch limit the skill states are those of the evidence tool and its schema', () => {
  const text = skillText('autosnippet-coldstart');
  const tool = catalog.get('coldstart_evidence')!;
  const page = /Pages hold about ([\d,]+) characters/.exec(text);
  assert.ok(page, 'the skill states the page size');
  assert.equal(Number(page[1].replace(/,/g, '')), EVIDENCE_PAGE_CHARS);
  assert.match(tool.description, new RegExp(`about ${EVIDENCE_PAGE_CHARS} characters`));
  assert.ok(tool.maxOutputChars >= EVIDENCE_PAGE_CHARS, 'a page fits the bound');
  assert.equal(tool.paginate, 'packs');
  assert.ok('cursor' in (catalog.inputSchema(tool) as { properties: object }).properties);
  assert.match(text, /while `hasMore` is true, call again with\s+`cursor: nextCursor`/);
  const max = catalog.get('submit_candidates')!.batch!.max;
  assert.match(tool.description, new RegExp(`at most ${max} per call`));
  assert.match(catalog.get('write_coldstart_cards')!.description, /coldstart_evidence/);
});
