import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  analyze,
  Bm25fIndex,
  cosine,
  englishGlosses,
  indexForm,
  isStopword,
  mentionsTechnology,
  parseWordVectors,
  queryTerms,
  stem,
  technologiesIn,
  tokenize,
  wordVectors,
} from '../../src/core/ground/text';
import { splitAsciiIdentifier, splitIdentifier } from '../../src/core/ground/text/tokenize';

test('identifiers are split and kept whole', () => {
  assert.deepEqual(tokenize('fetchUserById MAX_RETRIES parseHTTPResponse'), [
    'fetchuserbyid',
    'fetch',
    'user',
    'by',
    'id',
    'maxretries',
    'max',
    'retries',
    'parsehttpresponse',
    'parse',
    'http',
    'response',
  ]);
  assert.deepEqual(tokenize('plain words, v2 and http2'), ['plain', 'words', 'v2', 'and', 'http2']);
});

test('Chinese: function words split the run, every stretch gives bigrams, so a request matches a description', () => {
  // 帮我 / 给 / 这个 are function words: they are dropped and cut the run.
  const q = tokenize('帮我给这个项目写单元测试');
  assert.ok(q.includes('项目') && q.includes('单元') && q.includes('测试'), q.join(' '));
  assert.ok(!q.some((t) => t.includes('帮') || t.includes('这')), `function words leak: ${q.join(' ')}`);
  const doc = new Set(analyze('为 TypeScript 代码编写单元测试，并检查覆盖率'));
  assert.ok(
    analyze('写单元测试').some((t) => doc.has(t)),
    'a request in Chinese shares terms with a Chinese description',
  );
  assert.deepEqual(tokenize('网络请求'), ['网络', '络请', '请求']);
  assert.deepEqual(tokenize('写'), ['写'], 'a single character is a term');
});

test('Japanese: kana and kanji are segmented too; Latin words inside a CJK run are split out', () => {
  const t = tokenize('プルリクエストのレビューをお願いします');
  assert.ok(t.includes('プルリクエスト'), t.join(' '));
  assert.ok(t.includes('レビュー'), t.join(' '));
  assert.ok(!t.includes('の') && !t.includes('を'));
  assert.deepEqual(tokenize('用Python写脚本').filter((x) => /^[a-z]+$/.test(x)), ['python']);
});

test('stopwords: function words and request filler, including "if", "them", "have" and the s of "\'s"', () => {
  for (const w of ['if', 'them', 'have', 's', 'the', 'please', 'help', 'want', 'using', '的', 'の']) {
    assert.ok(isStopword(w), w);
  }
  for (const w of ['theme', 'test', 'guard', 'skill', 'new', 'swift', 'react']) assert.ok(!isStopword(w), w);
  assert.deepEqual(analyze("Fix them if the user's theme breaks"), ['fix', 'user', 'theme', 'break']);
});

test('stemming meets inflections without merging unrelated words', () => {
  assert.equal(stem('writing'), stem('writes'));
  assert.equal(stem('migrations'), stem('migration'));
  assert.equal(stem('retries'), stem('retry'));
  assert.equal(stem('analyse'), stem('analyze'), 'British and American spellings meet');
  assert.notEqual(stem('theme'), stem('them'));
  assert.notEqual(stem('skill'), stem('skull'));
  assert.notEqual(stem('test'), stem('text'));
  assert.equal(stem('404'), '404');
  assert.equal(stem('网络'), '网络');
});

test('queryTerms: distinct, stemmed, stopwords only when nothing else is left', () => {
  assert.deepEqual(queryTerms('how do I retry failed requests, retrying them'), ['retri', 'fail', 'request']);
  assert.deepEqual(queryTerms('how to'), ['how', 'to']);
  assert.deepEqual(queryTerms('!!!'), []);
  assert.equal(indexForm('Retrying requests'), 'retri request');
});

test('BM25F: a rare term in a heavy field beats a common one in the body; saturation caps repeats', () => {
  const fields = { title: { weight: 3, b: 0.5 }, body: { weight: 1, b: 0.75 } };
  const doc = (title: string, body: string) => ({ title: analyze(title), body: analyze(body) });
  const index = new Bm25fIndex(fields, [
    doc('Database migrations', 'Write the migration, run it, check the schema.'),
    doc(
      'Release notes',
      'Mentions migration migration migration migration migration migration in passing, among words.',
    ),
    doc('Formatting', 'Nothing to do with it.'),
  ]);
  const r = index.search(analyze('write a migration'), 5);
  assert.deepEqual(r.map((m) => m.doc), [0, 1]);
  assert.deepEqual(r[0].terms.sort(), ['migrat', 'write']);
  assert.ok(r[0].score <= index.maxScore(analyze('write a migration')));
  assert.equal(index.documentFrequency('migrat'), 2);
  assert.ok(index.idf('write') > index.idf('migrat'), 'rarer terms weigh more');
  assert.deepEqual(index.search(analyze('kubernetes'), 5), []);
});

test('a Chinese request gets English glosses from the CC-CEDICT glossary, so it can match English text', () => {
  const g = englishGlosses('把这几个文件合并成一个，然后部署到测试环境');
  for (const w of ['merge', 'deploy', 'test']) assert.ok(g.includes(w), `${w} in ${g.join(' ')}`);
  assert.deepEqual(englishGlosses('no Chinese here'), []);
  assert.ok(!englishGlosses('我们的').length, 'function words give nothing');
});

test('the developer glossary wins over the general one and reaches words of one and four characters', () => {
  // CC-CEDICT alone reads 仓库 as a warehouse and 注入 as pouring: a developer means a repository and an injection.
  const repo = englishGlosses('帮我把这个仓库的 CI 修好');
  assert.ok(repo.includes('repository') && !repo.includes('warehouse'), repo.join(' '));
  assert.ok(englishGlosses('担心有 SQL 注入').includes('injection'));
  // A single character is read only when no longer word starts there: 审 alone is "review", 审查 its own word.
  assert.ok(englishGlosses('帮我审一下这段代码').includes('review'));
  // Four characters: a whole term before its parts (事后 "afterwards" + 分析 "analysis").
  assert.deepEqual(englishGlosses('写一份事后分析'), ['write', 'postmortem']);
  // 项目 is a project to a developer, not an "item" or an "event"; 没有 and 有没有 are function words, not "haven" and "hasn".
  assert.deepEqual(englishGlosses('这个项目有没有 README'), ['project']);
  assert.deepEqual(englishGlosses('没有测试'), ['test', 'testing']);
  assert.deepEqual(analyze('没有测试'), ['测试']);
});

test('meaning: words near in meaning are near without sharing a word; Chinese reaches the same space through its glosses', () => {
  const v = wordVectors();
  assert.ok(v, 'the bundled word vectors load');
  const at = (a: string, b: string) => cosine(v.meaningOf(a)!, v.meaningOf(b)!);
  const release = 'publish a new version to the package registry';
  assert.ok(at('release the library', release) > at('cook dinner with rice and spinach', release) + 0.2);
  assert.ok(at('make a slide deck', 'create a presentation') > at('make a slide deck', 'query the database'));
  assert.ok(at('发布新版本', release) > at('做晚饭', release));
  assert.equal(v.meaningOf('的 了 the of'), undefined, 'only function words: no meaning');
});

test('meaning: a file that is not a word-vector table is refused with a reason', () => {
  assert.throws(() => parseWordVectors(new Uint8Array([1, 2, 3])), /not a word-vector table/);
  const good = Buffer.concat([
    Buffer.from('ASWV1'),
    Buffer.from([2, 0, 0, 0, 2, 0, 3, 0, 0, 0]),
    Buffer.from('a\nb'),
    Buffer.from([127, 0, 0, 127]),
  ]);
  assert.equal(parseWordVectors(good).size, 2);
  assert.throws(() => parseWordVectors(good.subarray(0, good.length - 1)), /wrong size/);
});

test('meaning: a product-quantised table decodes each word to its centroids', () => {
  // 2 words, 2 dimensions in groups of 1: each word is two indexes into 256 centroids per group.
  const centroids = new Int8Array(2 * 256);
  centroids[5] = 100; // group 0, centroid 5
  centroids[256 + 7] = -50; // group 1, centroid 7
  centroids[256] = 90; // group 1, centroid 0
  const header = Buffer.alloc(17);
  header.write('ASWV2', 0, 'ascii');
  header.writeUInt32LE(2, 5);
  header.writeUInt16LE(2, 9);
  header.writeUInt16LE(1, 11);
  header.writeUInt32LE('alpha\nbeta'.length, 13);
  const table = Buffer.concat([
    header,
    Buffer.from('alpha\nbeta'),
    Buffer.from(centroids.buffer),
    Buffer.from([5, 7, 0, 0]),
  ]);
  const v = parseWordVectors(table);
  assert.equal(v.size, 2);
  const alpha = v.meaningOf('alpha')!;
  assert.ok(
    Math.abs(alpha[0] - 100 / Math.hypot(100, 50)) < 1e-6 && Math.abs(alpha[1] + 50 / Math.hypot(100, 50)) < 1e-6,
  );
  assert.deepEqual([...v.meaningOf('beta')!], [0, 1]);
  assert.throws(() => parseWordVectors(table.subarray(0, table.length - 1)), /wrong size/);
});

test('ASCII identifiers are split by character codes exactly as the Unicode rules split them', () => {
  const split = (f: (w: string, out: string[]) => void, w: string) => {
    const out: string[] = ['before'];
    f(w, out);
    return out;
  };
  const named = [
    'fetchUserById',
    'MAX_RETRIES',
    'HTTPServer',
    'parseHTTPResponse2XX',
    'v2Api',
    '__init__',
    '_',
    '$$',
    'a_b',
    'a_Bc',
    'aBCd',
    'ABC',
    'Abc',
    'URLSession',
    'x$y',
    'iOS13Only',
    'getURLForID',
    'A',
    'aB',
    'AB_cD',
  ];
  for (const w of named) assert.deepEqual(split(splitAsciiIdentifier, w), split(splitIdentifier, w), w);
  assert.deepEqual(split(splitAsciiIdentifier, 'HTTPServer'), ['before', 'httpserver', 'http', 'server']);
  // Random words over the characters that matter (cases, digits, separators), seeded.
  const alphabet = 'aAbBzZ09_$';
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let k = 0; k < 5000; k++) {
    const w = Array.from({ length: 1 + Math.floor(next() * 9) }, () => alphabet[Math.floor(next() * alphabet.length)])
      .join('');
    assert.deepEqual(split(splitAsciiIdentifier, w), split(splitIdentifier, w), w);
  }
});

test('technologies a request names: spellings people type, Chinese names, Latin names inside Chinese text; ordinary words only when capitalised', () => {
  const names = (text: string) => [...technologiesIn(text)].sort();
  assert.deepEqual(names('Deploy my Next.js app to Vercel'), ['next.js', 'vercel']);
  assert.deepEqual(names('K8s 里的 Pod 一直重启'), ['kubernetes']);
  assert.deepEqual(names('钉钉群机器人怎么发消息'), ['钉钉']);
  assert.deepEqual(names('构建Maven项目然后推到仓库'), ['maven'], 'Chinese next to a Latin name is no part of it');
  assert.deepEqual(names('PostgreSQL 还是 MongoDB'), ['mongodb', 'postgresql']);
  // "go", "express", "excel" are words too: a capital makes them names, but not one that only starts a sentence.
  assert.deepEqual(names('go ahead and express it in excel terms'), []);
  assert.deepEqual(names('Go through each comment'), []);
  assert.deepEqual(names('write a small Go service'), ['go']);
  assert.deepEqual(names('Excel 公式怎么写'), ['microsoft excel']);
  assert.deepEqual(names('C端用户的注册流程'), [], 'C端 is the consumer side, not the C language');
  assert.deepEqual(names('用 C 写一个链表'), ['c']);
  // Formats and protocols every field uses name no domain; a file name is not a technology.
  assert.deepEqual(names('read the JSON and CSV over HTTP'), []);
  assert.deepEqual(names('edit package.json and go.mod'), []);
  assert.ok(mentionsTechnology('Reviews Postgres schemas', 'postgresql'), 'a skill mentions it in any spelling');
  assert.ok(!mentionsTechnology('Reviews schemas in general', 'postgresql'));
});
