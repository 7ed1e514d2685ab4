import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyCommand } from '../../src/webview/review/keys';

/** A key press as the page's listener sees it, on an element of `tagName` (and input `type`). */
const press = (
  key: string,
  tagName = 'BODY',
  extra: Partial<{ type: string; ctrlKey: boolean; isContentEditable: boolean }> = {},
) =>
  keyCommand({
    key,
    ctrlKey: extra.ctrlKey ?? false,
    metaKey: false,
    altKey: false,
    defaultPrevented: false,
    target: { tagName, type: extra.type, isContentEditable: extra.isContentEditable ?? false },
  });

test('one key per decision on the page: j/k and the arrows move, a r e u act', () => {
  assert.deepEqual(['j', 'ArrowDown', 'k', 'ArrowUp', 'a', 'r', 'e', 'u'].map((k) => press(k)), [
    'next',
    'next',
    'previous',
    'previous',
    'approve',
    'reject',
    'edit',
    'undo',
  ]);
  // On a row's button or its checkbox the keys act too: that is where focus rests while reviewing.
  assert.equal(press('a', 'BUTTON'), 'approve');
  assert.equal(press('j', 'INPUT', { type: 'checkbox' }), 'next');
  assert.equal(press('x'), undefined);
});

test('letters typed into a field, a select or the code never act, nor with a modifier', () => {
  for (
    const [tag, type] of [
      ['INPUT', 'text'],
      ['INPUT', 'search'],
      ['TEXTAREA', undefined],
      ['SELECT', undefined],
      ['PRE', undefined],
    ] as const
  ) {
    assert.equal(press('a', tag, { type }), undefined, `${tag} ${type ?? ''}`);
    assert.equal(press('ArrowDown', tag, { type }), undefined, `${tag} ${type ?? ''}`);
  }
  assert.equal(press('r', 'DIV', { isContentEditable: true }), undefined);
  assert.equal(press('a', 'BODY', { ctrlKey: true }), undefined, 'Ctrl+A selects text, it does not approve');
});
