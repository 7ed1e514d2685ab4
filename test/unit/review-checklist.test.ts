import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeLanguageOf } from '../../src/core/domains/bootstrap/code-language';
import { REVIEW_FORM_FIELDS, reviewChecklist } from '../../src/core/domains/knowledge/checklist';
import { recipeFilePath } from '../../src/core/domains/knowledge/recipe-file';
import { validateCandidate } from '../../src/core/domains/knowledge/validate';
import { snippetLanguageForPath } from '../../src/core/ground/kernel/languages';

// The shape of a cold-start card: a reason and evidence, no usage guide, no separate rationale.
const card = {
  title: 'Type-check every module strictly with mypy',
  summary: 'The project runs mypy in strict mode on every module; new code passes it.',
  code: '[tool.mypy]\nstrict = true',
  language: 'toml',
  category: 'python-typing',
  knowledgeType: 'code-standard' as const,
  tags: ['bootstrap', 'python'],
  reasoning: {
    whyStandard: 'pyproject.toml sets strict = true and CI runs mypy on the package.',
    sources: ['pyproject.toml:40', '.github/workflows/ci.yml:22'],
    confidence: 0.8,
  },
};

test('every checklist item names a field the edit form has, and the form can clear each one', () => {
  const items = reviewChecklist({
    title: 'x',
    summary: '',
    code: '',
    language: '',
    category: '',
    reasoning: { whyStandard: '', sources: [] },
  });
  assert.ok(items.length >= 5, `a bare candidate has a long checklist, got ${items.length}`);
  for (const item of items) {
    assert.ok((REVIEW_FORM_FIELDS as readonly string[]).includes(item.field), `${item.field} is a form field`);
  }
  // Sources, tags and confidence have no control in the form: they are not on the list to clear.
  assert.ok(!items.some((i) => /source|tag|confidence/i.test(i.field)));
  assert.equal(new Set(items.map((i) => i.field)).size, items.length, 'one item per field');
});

test('a cold-start card asks for a usage guide, and filling it clears the item', () => {
  assert.deepEqual(reviewChecklist(card).map((i) => i.field), ['usageGuide']);
  assert.deepEqual(
    reviewChecklist({ ...card, usageGuide: 'For every new module; run mypy locally before pushing.' }),
    [],
  );
});

test('filling "why it is a standard here" clears the rationale item too (both fill the Why section)', () => {
  const bare = { ...card, usageGuide: 'For every new module.', reasoning: { ...card.reasoning, whyStandard: '' } };
  assert.deepEqual(reviewChecklist(bare).map((i) => i.field), ['whyStandard']);
  // validate_candidate agrees: the reason fills the Why section, so an agent is not sent to write a rationale as well.
  assert.ok(!validateCandidate(card).issues.some((i) => i.field === 'rationale'));
  assert.ok(validateCandidate(bare).issues.some((i) => i.field === 'rationale'));
  assert.deepEqual(
    reviewChecklist({
      ...bare,
      reasoning: { ...bare.reasoning, whyStandard: 'Set in pyproject.toml and enforced by the CI type-check job.' },
    }),
    [],
  );
});

test('placeholder detection never fires on real lines of a repository, however short', () => {
  const real = [
    'strict = true',
    '[tool.mypy]\nstrict = true',
    'x = 1  # TODO: tidy',
    'indent_size = 2',
    'todo.done = true',
    'f(...args)',
    'return nil',
    'def stub(): ...',
  ];
  for (const code of real) {
    const issues = validateCandidate({ ...card, code }).issues.filter((i) => /placeholder/.test(i.message));
    assert.deepEqual(issues, [], `${JSON.stringify(code)} is real code`);
  }
  for (const code of ['// TODO', '...', '# TODO: paste the real code', '// ...\n// fixme', '…']) {
    assert.ok(
      validateCandidate({ ...card, code }).issues.some((i) => i.field === 'code' && /placeholder/.test(i.message)),
      `${JSON.stringify(code)} is a placeholder`,
    );
  }
});

test("a snippet's language is its source file's: a TOML excerpt of a Python project is TOML", async () => {
  const files: Record<string, string> = {
    'src/app/main.py': 'import os\n\ndef main():\n    pass\n',
    'pyproject.toml': '[project]\nname = "app"\n\n[tool.mypy]\nstrict = true\n',
  };
  const read = async (f: string) => files[f];
  const draft = {
    code: '[tool.mypy]\nstrict = true',
    language: 'python',
    reasoning: { whyStandard: '', sources: ['src/app/main.py:3', 'pyproject.toml:4'], confidence: 0.8 },
  };
  assert.equal(await codeLanguageOf(draft, read), 'toml');
  assert.equal(await codeLanguageOf({ ...draft, code: 'def main():\n    pass' }, read), 'python');
  // No cited file holds the excerpt: the draft's language stays.
  assert.equal(await codeLanguageOf({ ...draft, code: 'print(1)' }, read), 'python');
  assert.equal(snippetLanguageForPath('a/b/.pre-commit-config.yaml'), 'yaml');
  assert.equal(snippetLanguageForPath('Makefile'), 'makefile');
  assert.equal(snippetLanguageForPath('src/x.ts'), 'typescript');
  assert.equal(
    validateCandidate({ ...card, language: 'toml' }).issues.filter((i) => i.field === 'language').length,
    0,
    'toml is a language a snippet may be in',
  );
});

test('recipe file names are cut at a word boundary, never inside a word', () => {
  const file = recipeFilePath(
    'jsts-async',
    'Await every promise a function creates and never extend asynchronous work past its caller',
  );
  const name = file.split('/').pop()!.replace(/\.md$/, '');
  assert.ok(name.length <= 60, name);
  const words = 'await every promise a function creates and never extend asynchronous work past its caller'.split(' ');
  for (const w of name.split('-')) assert.ok(words.includes(w), `"${w}" is a whole word of the title (${name})`);
  assert.equal(name, 'await-every-promise-a-function-creates-and-never-extend');
  // One word longer than the limit has no boundary: it is cut at the limit.
  assert.equal(recipeFilePath('c', 'x'.repeat(80)).split('/').pop(), `${'x'.repeat(60)}.md`);
});
