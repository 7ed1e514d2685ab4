// The cold start drafts the guard rule a card states, stores it with the card (pending), and says what
// it reports on the repository: nothing where the code follows the card, the exceptions where it does not.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bootstrapKnowledge } from '../../src/core/domains/bootstrap';
import { listCandidates } from '../../src/core/domains/knowledge/candidates';
import { closeWorkspaces, workspaceWith } from './structure-helpers';

after(closeWorkspaces);

/** A Python package whose modules log through their own logger; its tests print. */
function loggingPackage(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "inventory"\n',
    'inventory/__init__.py': '',
  };
  for (const name of ['orders', 'stock', 'billing', 'shipping']) {
    files[`inventory/${name}.py`] = [
      'import logging',
      '',
      'logger = logging.getLogger(__name__)',
      '',
      '',
      `def handle_${name}(item):`,
      `    logger.info("handling ${name} %s", item)`,
      '    if not item:',
      `        logger.warning("empty ${name}")`,
      '    return item',
      '',
    ].join('\n');
  }
  files['tests/test_orders.py'] =
    'from inventory.orders import handle_orders\n\n\ndef test_it():\n    print(handle_orders(1))\n';
  return { ...files, ...extra };
}

test('the logging card carries its drafted rule, with nothing to report on code that follows it', async () => {
  const ws = await workspaceWith(loggingPackage());
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const card = listCandidates(ws).find((c) => c.category === 'logging');
  assert.ok(card, listCandidates(ws).map((c) => c.title).join('\n'));
  const guard = card.constraints?.guards?.[0];
  assert.ok(guard, 'the card carries a guard rule');
  assert.equal(guard.id, 'no-direct-output');
  assert.ok(
    guard.examples!.good!.some((g) => /^logger\.(info|warning)\(/.test(g)),
    "good examples are the repository's lines",
  );
  assert.deepEqual(card.guardReport?.rules.map((x) => x.total), [0]);
  assert.equal(card.status, 'pending');
  assert.ok(r.rules.drafted >= 1);
});

test('a card whose rule the code breaks in places lists those places for the person', async () => {
  const ws = await workspaceWith(
    loggingPackage({
      'inventory/debug.py': 'import logging\n\nlogger = logging.getLogger(__name__)\n\n\ndef dump(x):\n    print(x)\n',
    }),
  );
  const r = await bootstrapKnowledge(ws, {}, { actor: 'human' });
  const card = listCandidates(ws).find((c) => c.category === 'logging');
  assert.ok(card?.guardReport, 'the card carries its report');
  assert.deepEqual(card.guardReport.rules[0].findings.map((f) => `${f.path}:${f.line}:${f.column}`), [
    'inventory/debug.py:7:5',
  ]);
  assert.equal(r.rules.withFindings, 1);
});
