import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { queryShapeProblem } from '../../src/core/domains/guard/query-check';
import { neverMatchesInCode } from '../../src/core/domains/guard/regex-reach';

test('patterns that need text inside an opening quote never match the code view; closing quotes and optional quotes do not count', () => {
  const never = [
    `from\\s+['"]\\.\\./`,
    `require\\(\\s*"@app/`,
    `(?:from|require\\()\\s*['"]\\.\\./[^/]+/src/`,
    `import\\s+['"]lodash`,
    `a"\\)`,
  ];
  const may = [`['"]\\.length`, `\\bfetch\\(`, `['"]?src/`, `from ['"]a|b`, `(?:from|require\\s*)\\s*['"]x`, `\\s"\\)`];
  for (const s of never) assert.ok(neverMatchesInCode(s), s);
  for (const s of may) assert.equal(neverMatchesInCode(s), undefined, s);
  // `'` is code in Swift: a pattern over both quotes may match there.
  assert.equal(neverMatchesInCode(`from\\s+['"]x`, '"'), undefined);
  assert.ok(neverMatchesInCode(`from\\s+"x`, '"'));
});

test('no built-in rule is taken for one that can never match (every code-scope regex, the ones with quotes included)', () => {
  const code = builtinRules().filter((r) => r.pattern.kind === 'regex' && (r.pattern.scope ?? 'code') === 'code');
  assert.ok(code.length >= 40);
  assert.ok(code.filter((r) => /['"`]/.test((r.pattern as { regex: string }).regex)).length >= 4);
  assert.deepEqual(code.filter((r) => neverMatchesInCode((r.pattern as { regex: string }).regex)).map((r) => r.id), []);
});

test('query shapes: a predicate beside the pattern and an unknown predicate are found; comments and strings are skipped', () => {
  assert.match(queryShapeProblem('(call) @match (#match? @match "x")')!.message, /#match\? .* outside every pattern/);
  assert.match(queryShapeProblem('((call) @match (#matches? @match "x"))')!.message, /#matches\? is not a predicate/);
  assert.equal(
    queryShapeProblem('; (#match? @x "y")\n((call (string) @match) (#match? @match "(#eq? @a b)"))'),
    undefined,
  );
});
