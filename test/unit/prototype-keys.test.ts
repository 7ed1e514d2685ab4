// Names that are also properties of every JavaScript object ("constructor", "toString", "__proto__")
// come from users' files: a folder, a heading, a relation, a language id. Each lookup table must treat
// them as the unknown names they are. A folder named `constructor` (TypeBox ships one) crashed the walker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { referenceSkillFor } from '../../src/core/domains/agent/pipelines';
import { workflowCommands } from '../../src/core/domains/bootstrap/commands';
import { normalizeRelation } from '../../src/core/domains/graph/relations';
import { normalizeCandidate } from '../../src/core/domains/knowledge/candidates';
import type { CandidateInput } from '../../src/core/domains/knowledge/types';
import { walkWorkspace } from '../../src/core/ground/files';
import { skippedFolderReason } from '../../src/core/ground/files/ignore';
import { lexFamily, normalizeLanguage } from '../../src/core/ground/kernel/languages';
import { tempTree } from './files-helpers';

const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf'];

test('a folder named like an Object property is walked like any folder', async () => {
  const root = tempTree(Object.fromEntries(NAMES.map((n) => [`src/type/${n}/index.ts`, 'export {};\n'])));
  const l = await walkWorkspace(root);
  assert.deepEqual(l.files, NAMES.map((n) => `src/type/${n}/index.ts`).sort());
  for (const n of NAMES) assert.equal(skippedFolderReason(n, new Set(['Cargo.toml'])), undefined, n);
});

test('relations, language ids and reference skills named like Object properties are unknown names', () => {
  for (const n of NAMES) {
    assert.equal(typeof normalizeRelation(n), 'string', n);
    assert.equal(normalizeLanguage(n), undefined, n);
    assert.equal(lexFamily(n), lexFamily('no-such-language'), n);
    assert.equal(referenceSkillFor(n), undefined, n);
  }
  assert.equal(normalizeRelation('constructor'), 'constructor');
});

test('a workflow step using ${{ env.constructor }} is left out as unresolved, not a crash', () => {
  const wf =
    'jobs:\n  t:\n    runs-on: x\n    steps:\n      - run: npm test -- ${{ env.constructor }}\n      - run: npm run lint\n';
  assert.deepEqual(workflowCommands('.github/workflows/ci.yml', wf).map((c) => c.command), ['npm run lint']);
});

test('a candidate whose knowledgeType is "constructor" is a code pattern, not a type named constructor', () => {
  for (const n of NAMES) {
    const c = normalizeCandidate(
      { title: 'Wrap fetch in apiClient', knowledgeType: n } as CandidateInput,
      'external_agent',
      '2026-01-01T00:00:00Z',
    );
    assert.equal(c.knowledgeType, 'code-pattern', n);
    assert.equal(typeof c.kind, 'string', n);
  }
});
