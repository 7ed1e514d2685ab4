import Ajv from 'ajv';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import schema from '../../schemas/guard-rules.schema.json';
import { candidateProperties } from '../../src/core/catalog/knowledge-schemas';
import { problemLocation } from '../../src/core/domains/guard/problem-location';
import {
  RECIPE_GUARD_FIELDS,
  RULE_FIELD_ALIASES,
  RULE_FIELDS,
  RULE_SCOPES,
} from '../../src/core/domains/knowledge/guard-format';

const REPO = path.join(__dirname, '..', '..');

test('the published schema names exactly the fields the loader reads (and their older names)', () => {
  const props = Object.keys(schema.definitions.rule.properties).sort();
  assert.deepEqual(props, [...RULE_FIELDS, ...Object.keys(RULE_FIELD_ALIASES)].sort());
  assert.deepEqual(schema.definitions.rule.properties.in.enum, [...RULE_SCOPES]);
  for (const [alias, field] of Object.entries(RULE_FIELD_ALIASES)) {
    assert.match(
      (schema.definitions.rule.properties as Record<string, { deprecationMessage?: string }>)[alias].deprecationMessage
        ?? '',
      new RegExp(`\`${field}\``),
      alias,
    );
  }
});

test('a recipe guard as an agent proposes it (submit_candidate) takes rule fields only, plus mode', () => {
  const guard = (candidateProperties.constraints as unknown as {
    properties: { guards: { items: { properties: Record<string, unknown> } } };
  }).properties.guards.items.properties;
  const valid = new Set<string>([...RULE_FIELDS, ...RECIPE_GUARD_FIELDS]);
  for (const k of Object.keys(guard)) {
    assert.ok(valid.has(k), `constraints.guards takes "${k}", which is not a rule field`);
  }
});

test('VS Code validates .autosnippet/guard/*.json with the published schema', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const entry = pkg.contributes.jsonValidation.find((v: { url: string }) =>
    v.url === './schemas/guard-rules.schema.json'
  );
  assert.ok(entry, 'package.json contributes the schema');
  assert.ok([entry.fileMatch].flat().includes('.autosnippet/guard/*.json'));
});

test('the schema accepts the rule format and refuses an unknown field', () => {
  const validate = new Ajv({ strict: false }).compile(schema);
  assert.equal(
    validate({
      rules: [{
        id: 'p/a',
        message: 'm',
        languages: ['python'],
        pattern: 'x',
        in: 'strings',
        examples: { bad: ['x'], good: 'y' },
      }],
    }),
    true,
    JSON.stringify(validate.errors),
  );
  assert.equal(
    validate({
      rules: [{
        id: 'p/a',
        message: 'm',
        languages: ['python'],
        regex: 'x',
        suggestedFix: 's',
        examples: [{ bad: 'x', good: 'y' }],
      }],
    }),
    true,
    JSON.stringify(validate.errors),
  );
  assert.equal(
    validate({ rules: [{ id: 'p/a', message: 'm', languages: ['python'], pattern: 'x', exlude: [] }] }),
    false,
  );
});

test('a rule problem is placed on its field inside its rule, in a JSON rule file and in a recipe', () => {
  const json =
    '{\n  "rules": [\n    { "id": "p/a", "pattern": "x" },\n    {\n      "id": "p/b",\n      "pattern": "y",\n      "examples": { "bad": ["z"] }\n    }\n  ]\n}\n';
  assert.deepEqual(
    problemLocation(json, {
      source: '.autosnippet/guard/r.json',
      ruleId: 'p/b',
      field: 'examples.bad[0]',
      code: 'INVALID_RULE',
      message: '',
    }),
    { line: 6, column: 20, length: 6 },
  );
  assert.deepEqual(
    problemLocation(json, {
      source: '.autosnippet/guard/r.json',
      ruleId: 'p/b',
      field: 'pattern',
      code: 'INVALID_RULE',
      message: '',
    }),
    { line: 5, column: 6, length: 10 },
  );
  const md =
    '---\ntitle: T\nconstraints:\n  guards:\n    - pattern: "a"\n      message: A\n    - id: second\n      pattern: "b"\n      message: B\n---\n';
  const at = problemLocation(md, {
    source: 'recipe:x/y',
    file: '.autosnippet/recipes/x/y.md',
    ruleId: 'recipe/x/y/second',
    field: 'pattern',
    code: 'INVALID_RULE',
    message: '',
  });
  assert.equal(at.line, 7);
  const unnamed = problemLocation(md, {
    source: 'recipe:x/y',
    file: '.autosnippet/recipes/x/y.md',
    ruleId: 'recipe/x/y',
    field: 'pattern',
    code: 'INVALID_RULE',
    message: '',
  });
  assert.equal(unnamed.line, 4);
});
