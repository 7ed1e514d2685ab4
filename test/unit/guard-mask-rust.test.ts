// The masker on Rust string literals that span lines, from real code (test/fixtures/real/ripgrep-guard).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CODE, maskText, STRING } from '../../src/core/ground/text/mask';

test('Rust: a "…" literal after a lifetime (`&\'static str = "\\`) spans lines until its closing quote; the code after it is code again', () => {
  const text = readFileSync(path.join(__dirname, '..', 'fixtures', 'real', 'ripgrep-guard', 'standard.rs'), 'utf8');
  const { code, kinds } = maskText(text, 'rust');
  const lines = text.split('\n');
  const masked = code.split('\n');
  const offsetOf = (line: number) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  const kindsOf = (line: number) => [...kinds.slice(offsetOf(line), offsetOf(line) + lines[line - 1].length)];
  // Lines 10-15 and 19-24 are inside the two string literals: nothing of them is code.
  for (const line of [10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24]) {
    assert.ok(kindsOf(line).every((k) => k === STRING), `line ${line} is string: ${lines[line - 1]}`);
    assert.equal(masked[line - 1].trim(), '', `line ${line} is blanked`);
  }
  assert.match(masked[8], /^\s+const SHERLOCK: &'static str = " $/);
  assert.match(masked[15], /^";$/);
  // The code after the literals is code: the function and its call are visible, not taken for a string.
  assert.match(masked[27], /fn printer_contents\(printer: &mut Standard<NoColor<Vec<u8>>>\) -> String \{/);
  assert.ok(kindsOf(29).every((k) => k === CODE), masked[28]);
});
