// Indexing splits each recipe's text once for its keyword fields and its vector: the shared split must
// give exactly what analysing each text on its own gives, or stored rows and vectors would change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { benchCorpus, rng } from '../../bench/recipe-corpus';
import { parseRecipeFile } from '../../src/core/domains/knowledge/recipe-file';
import type { Recipe } from '../../src/core/domains/knowledge/types';
import {
  analyseRecipe,
  embeddingText,
  indexRecipes,
  searchDocument,
  searchRowTerms,
} from '../../src/core/domains/search/documents';
import {
  analyze,
  analyzeTokens,
  HashedNgramEmbedder,
  MAX_TOKEN_CHARS,
  quantize,
  tokenize,
} from '../../src/core/ground/text';
import { splitAsciiIdentifier } from '../../src/core/ground/text/tokenize';
import { tempWorkspace } from './knowledge-helpers';

/** Tokenize as specified: touching pieces of ASCII word characters and of non-ASCII characters form a group. */
function referenceTokenize(text: string): string[] {
  const out: string[] = [];
  for (const group of text.match(/(?:[A-Za-z0-9_$]+|[^\x00-\x7F]+)+/g) ?? []) {
    if (/[^\x00-\x7F]/.test(group)) out.push(...tokenize(group)); // one group: the Unicode path
    else if (/^[a-z0-9]+$/.test(group)) out.push(group);
    else splitAsciiIdentifier(group, out);
  }
  return out.filter((t) => t.length <= MAX_TOKEN_CHARS);
}

test('the character-code scan groups and splits text as the piece rules say', () => {
  const named = [
    '',
    'fetchUserById(id) => user_id + $scope',
    'café au lait, 用Python写一个HTTPServer',
    'line\nbreak\ttab  two  spaces',
    'x'.repeat(MAX_TOKEN_CHARS + 1) + ' ok ' + 'aB'.repeat(40),
    'emoji 😀x and é' + 'e'.repeat(70),
    '__init__ $$ _ a_b-c.d/e:f',
  ];
  for (const text of named) assert.deepEqual(tokenize(text), referenceTokenize(text), text);
  const r = rng(11);
  const alphabet = [
    'a',
    'b',
    'Z',
    'Q',
    '0',
    '9',
    '_',
    '$',
    ' ',
    '\n',
    '.',
    '-',
    '(',
    'é',
    '汉',
    '字',
    '😀',
    'İ',
    'HTTP',
  ];
  for (let k = 0; k < 3000; k++) {
    const text = Array.from({ length: Math.floor(r() * 40) }, () => alphabet[Math.floor(r() * alphabet.length)]).join(
      '',
    );
    assert.deepEqual(tokenize(text), referenceTokenize(text), JSON.stringify(text));
  }
});

test('analyzeTokens of a text split by tokenize is its analysis, stopwords and stems alike', () => {
  for (const text of ['The users were fetching their profiles', 'Retries of failed requests', '的 用户 登录']) {
    assert.deepEqual(analyzeTokens(tokenize(text)), analyze(text));
  }
  assert.deepEqual(analyzeTokens(['the', 'users', 'fetching']), ['user', 'fetch']);
});

function recipe(over: Partial<Recipe>): Recipe {
  return {
    id: 'net/fetch',
    title: 'Fetch with retry',
    trigger: '@fetchRetry',
    language: 'typescript',
    category: 'net',
    knowledgeType: 'code-pattern',
    kind: 'pattern',
    status: 'published',
    summary: 'Wrap calls in withRetry.',
    tags: ['http'],
    scope: 'project',
    complexity: 'basic',
    file: '.autosnippet/recipes/net/fetch.md',
    ...over,
  };
}

test('a recipe split once gives the keyword fields and embedding tokens of splitting each text', () => {
  const long = (word: string, chars: number) => Array.from({ length: chars / word.length + 1 }, () => word).join('');
  const recipes: Recipe[] = [
    ...benchCorpus(50).map((d) => {
      const parsed = parseRecipeFile(d.text, d.file);
      assert.ok(parsed.ok);
      return parsed.recipe;
    }),
    recipe({}),
    recipe({ tags: [], summary: '', trigger: '@x', category: 'net' }),
    // Usage and code longer than the embedding text keeps, cut inside a word.
    recipe({ usageGuide: long('fetchUser ', 900), code: long('retryLater(); ', 1000) }),
    // A last field longer than the keyword index keeps, cut inside an identifier.
    recipe({ code: long('connectToTheDatabaseServer ', 7000), rationale: 'Because.' }),
    recipe({
      title: '用户登录 with OAuth',
      summary: 'Réessayer les requêtes échouées',
      tags: ['auth', '登录', 'net'],
      category: 'net',
      steps: [{ title: 'Import', description: 'from net' }, { title: 'Call' }],
      usageGuide: 'net',
    }),
  ];
  for (const r of recipes) {
    const once = analyseRecipe(r);
    assert.deepEqual(once.fields, searchRowTerms(searchDocument(r)), r.title);
    assert.deepEqual(once.embedTokens, tokenize(embeddingText(r)), r.title);
    assert.equal(once.embedText(), embeddingText(r));
  }
});

test('a vector from tokens is the vector of the text, whatever the embedder met before', () => {
  const text = 'Retry failed requests: retry, retry again, then fail the request with a timeout';
  const fresh = new HashedNgramEmbedder().embedOne(text);
  const used = new HashedNgramEmbedder();
  for (const d of benchCorpus(300)) used.embedOne(d.text);
  used.embedOne(text);
  assert.deepEqual(used.embedOne(text), fresh);
  // Past the words it keeps, it forgets them all and starts again, with the same vectors.
  for (let k = 0; k < 210_000; k += 1000) used.embedTokens(Array.from({ length: 1000 }, (_, i) => `word${k + i}`));
  assert.deepEqual(used.embedOne(text), fresh);
  assert.deepEqual(used.embedTokens(tokenize(text)), fresh);
  // Term frequency counts: a text repeating a word is not the text saying it once.
  assert.notDeepEqual(used.embedOne('retry retry retry fetch'), used.embedOne('retry fetch'));
  let norm = 0;
  for (const x of fresh) norm += x * x;
  assert.ok(Math.abs(norm - 1) < 1e-5);
});

test('vectors embedded together in one buffer are each recipe’s own vector, stored intact', async () => {
  const recipes = benchCorpus(40).map((d) => {
    const parsed = parseRecipeFile(d.text, d.file);
    assert.ok(parsed.ok);
    return parsed.recipe;
  });
  const ws = await tempWorkspace();
  try {
    const indexed = await indexRecipes(ws, recipes);
    const own = new HashedNgramEmbedder();
    for (const [k, r] of recipes.entries()) {
      assert.deepEqual([...indexed[k].bytes], [...quantize(own.embedOne(embeddingText(r)))], r.title);
      assert.equal(indexed[k].bytes.length, own.dimensions);
    }
    // Each is a view of its own part: writing one leaves its neighbours as they were.
    const before = [...indexed[1].bytes];
    indexed[0].bytes.fill(0);
    assert.deepEqual([...indexed[1].bytes], before);
  } finally {
    await ws.cleanup();
  }
});
