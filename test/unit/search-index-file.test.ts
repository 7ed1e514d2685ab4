// The search index saved beside the database: a fresh process loads it instead of rebuilding it, it
// answers exactly as a built index does, catches up with what changed since, and a file that does
// not belong (damaged, cut short, another database's) is ignored and replaced, never trusted.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { syncRecipes } from '../../src/core/domains/knowledge';
import { indexRecipeTexts } from '../../src/core/domains/knowledge/recipe-index';
import { keywordSearch, semanticSearch } from '../../src/core/domains/search';
import {
  currentGeneration,
  savePacing,
  searchIndex,
  searchIndexFile,
  searchIndexSaved,
} from '../../src/core/domains/search/index-cache';
import { TermIndex } from '../../src/core/domains/search/term-index';
import type { Logger } from '../../src/core/ground/kernel/log';
import { crc32 } from '../../src/core/ground/store/journal';
import { Workspace } from '../../src/core/ground/workspace';
import { recipeText, writeRecipe } from './knowledge-helpers';

const verbs = ['retry', 'parse', 'render', 'cache', 'validate', 'encrypt', 'paginate', 'debounce'];
const nouns = ['request', 'token', 'image', 'order', 'invoice', 'message', 'profile', 'report', 'chunk', 'cookie'];
const corpus = (n: number, from = 0) =>
  Array.from({ length: n }, (_, k) => {
    const i = k + from;
    const v = verbs[i % verbs.length];
    const noun = nouns[(i * 7) % nouns.length];
    const kind = i % 5 === 0 ? 'code-standard' : 'code-pattern';
    const status = i % 17 === 0 ? '\nstatus: deprecated' : '';
    return {
      file: `.autosnippet/recipes/g/r${i}.md`,
      text:
        `---\ntitle: ${v} the ${noun} number ${i}\nsummary: Always ${v} ${noun}s through the ${noun} service layer ${
          i % 97
        }.\nlanguage: ${
          i % 3 ? 'typescript' : 'swift'
        }\nknowledgeType: ${kind}${status}\n---\n\nUse ${noun}Service for ${
          i % 3 ? 'long ' + 'text '.repeat(i % 13) : 'it'
        }.\n\n\`\`\`ts\n${v}${noun}${i}()\n\`\`\`\n`,
    };
  });

const queries = [
  'retry token service ',
  'encrypt the invoice through the service layer ',
  'paginate cookie number 123 ',
  'text ',
  'long report chu',
  'cach',
];

/** Every query's keyword and semantic answers, with and without filters, as comparable values. */
async function answers(ws: Workspace) {
  const out: unknown[] = [];
  for (const q of queries) {
    for (const filter of [{}, { kind: 'rule' }, { language: 'Swift' }, { includeDeprecated: true }]) {
      out.push((await keywordSearch(ws, q, filter, 10)).map((h) => [h.rid, h.score.toFixed(6), h.fields.join()]));
      out.push((await semanticSearch(ws, q, filter, 10)).map((h) => [h.rid, h.similarity.toFixed(6)]));
    }
  }
  return out;
}

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (m: string) => void lines.push(m);
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

/** The file with its checksum (bytes 12–15: CRC-32 of everything after the first 16 bytes) made again. */
function signed(file: Buffer): Buffer {
  file.writeUInt32LE(crc32(file.subarray(16)), 12);
  return file;
}

function flipByte(file: Buffer, at: number): Buffer {
  const copy = Buffer.from(file);
  copy[at] ^= 0x5a;
  return copy;
}

async function indexedWorkspace(n = 300) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-saved-index-'));
  const ws = await Workspace.open(root);
  await indexRecipeTexts(ws, corpus(n), { sliceSize: 100 });
  const built = await searchIndex(ws);
  await searchIndexSaved(ws);
  return { root, ws, built };
}

test('a fresh process loads the saved index instead of rebuilding it, and answers exactly as the built one did', async () => {
  const { root, ws, built } = await indexedWorkspace();
  try {
    assert.equal(built.origin, 'built');
    const file = searchIndexFile(ws);
    assert.ok(statSync(file).size > 0, 'saved beside the database');
    assert.match(
      readFileSync(path.join(root, '.autosnippet', '.gitignore'), 'utf8'),
      /^autosnippet\.db\*$/m,
      "the saved index is covered by the data folder's .gitignore",
    );
    const expected = await answers(ws);
    await ws.dispose();

    const log = recordingLog();
    const fresh = await Workspace.open(root, { log });
    try {
      assert.equal((await searchIndex(fresh)).origin, 'saved');
      assert.deepEqual(await answers(fresh), expected);
      assert.deepEqual(log.lines.filter((l) => /search index/.test(l)), []);
    } finally {
      await fresh.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a loaded index catches up with recipes added, edited and removed after it was saved, and keeps taking changes', async () => {
  const { root, ws } = await indexedWorkspace();
  try {
    await ws.dispose();
    // Another process changes the recipes while nobody has the index in memory.
    const other = await Workspace.open(root);
    writeRecipe(
      other,
      'net/retry.md',
      recipeText({ title: 'Fetch with backoff', trigger: '@fetchBackoff', summary: 'Wrap HTTP calls in withBackoff.' }),
    );
    await syncRecipes(other);
    const backoffRid = (await keywordSearch(other, 'withBackoff '))[0].rid;
    await other.dispose();

    const fresh = await Workspace.open(root);
    try {
      const ix = await searchIndex(fresh);
      assert.equal(ix.origin, 'saved');
      assert.deepEqual((await keywordSearch(fresh, 'withBackoff ')).map((h) => h.rid), [backoffRid]);
      // syncRecipes indexed the files on disk: the 300 generated recipes (never written as files) are gone from the database.
      assert.deepEqual(
        await keywordSearch(fresh, 'encrypt the invoice '),
        [],
        'recipes removed since the save are not found',
      );
      // Changes after the load are applied to the loaded index as to a built one.
      writeRecipe(
        fresh,
        'db/tx.md',
        recipeText({
          title: 'Transactions wrap every write',
          trigger: '@inTransaction',
          summary: 'Call inTransaction around writes.',
        }),
      );
      await syncRecipes(fresh);
      assert.equal((await keywordSearch(fresh, 'inTransaction ')).length, 1);
      assert.equal((await keywordSearch(fresh, 'withBackoff ')).length, 1);
      assert.equal((await searchIndex(fresh)).terms.live, 2);
    } finally {
      await fresh.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a saved index that is cut short, damaged or another database's is not used: search builds from the database and saves a good one", async () => {
  const { root, ws } = await indexedWorkspace();
  const foreign = await indexedWorkspace(40);
  try {
    const expected = await answers(ws);
    const file = searchIndexFile(ws);
    const good = readFileSync(file);
    await ws.dispose();
    const flipped = Buffer.from(good);
    flipped[16 + 35] ^= 1; // a letter of the store id in the header's JSON
    // The same change with the checksum made again: the header is whole, it names another store.
    const foreignKey = signed(Buffer.from(flipped));
    // A term id out of range in the forward entries (section 7), checksum made again: the file is whole, its values are not.
    const badTerm = Buffer.from(good);
    const header = JSON.parse(good.toString('utf8', 16, 16 + good.readUInt32LE(8))) as { sections: number[] };
    let at = 16 + good.readUInt32LE(8);
    at += (8 - (at % 8)) % 8;
    for (const length of header.sections.slice(0, 7)) at += length + ((8 - (length % 8)) % 8);
    badTerm.writeInt32LE(1e9, at + 4 * 5);
    signed(badTerm);
    // A format-1 file (every posting a float64), as an older version saved it.
    const older = Buffer.from(good);
    older.writeUInt32LE(1, 4);
    const cases: [string, () => void, RegExp][] = [
      ['cut short', () => writeFileSync(file, good.subarray(0, Math.floor(good.length * 0.6))), /damaged|cut short/],
      ['one byte missing', () => writeFileSync(file, good.subarray(0, good.length - 1)), /damaged/],
      ['garbage', () => writeFileSync(file, Buffer.alloc(4096, 0x41)), /not a saved search index/],
      ['empty', () => writeFileSync(file, ''), /not a saved search index/],
      ['a byte of the header changed', () => writeFileSync(file, flipped), /damaged: checksum mismatch/],
      [
        'one byte of the sections changed',
        () => writeFileSync(file, flipByte(good, good.length - 9)),
        /damaged: checksum/,
      ],
      ['the header names another store', () => writeFileSync(file, foreignKey), /another database/],
      ['a term id out of range', () => writeFileSync(file, badTerm), /damaged: a forward entry names term 1000000000/],
      ['an older format', () => writeFileSync(file, older), /format 1, this version reads 2/],
      ["another database's", () => copyFileSync(searchIndexFile(foreign.ws), file), /another database/],
    ];
    for (const [name, damage, reason] of cases) {
      damage();
      const log = recordingLog();
      const fresh = await Workspace.open(root, { log });
      try {
        assert.equal((await searchIndex(fresh)).origin, 'built', name);
        assert.deepEqual(await answers(fresh), expected, name);
        const said = log.lines.find((l) => /saved search index was not used/.test(l));
        assert.match(said ?? '', reason, `${name}: ${said}`);
        await searchIndexSaved(fresh);
      } finally {
        await fresh.dispose();
      }
      assert.deepEqual(readFileSync(file).length, good.length, `${name}: a whole index saved again`);
    }
  } finally {
    await foreign.ws.dispose();
    rmSync(foreign.root, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
});

test('a saved index that counts other recipes than the database (a restored backup, a lost commit) is not used', async () => {
  const { root, ws } = await indexedWorkspace();
  try {
    // A recipe leaves the database without a recorded change, so catching up cannot see it.
    await ws.store.transaction((tx) => tx.run('DELETE FROM recipes WHERE rid = (SELECT max(rid) FROM recipes)'));
    await ws.dispose();
    const log = recordingLog();
    const fresh = await Workspace.open(root, { log });
    try {
      const ix = await searchIndex(fresh);
      assert.equal(ix.origin, 'built');
      assert.equal(ix.terms.live, 299);
      assert.ok(log.lines.some((l) => /it holds 300 recipes where the database has 299/.test(l)), log.lines.join('\n'));
    } finally {
      await fresh.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a save is abandoned when the index takes changes while it is being copied, and made again later with them', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-saved-index-'));
  const log = recordingLog();
  const ws = await Workspace.open(root, { log });
  const pacing = savePacing.turn;
  // Every step of the copy waits until the test opens the gate.
  const gate: (() => void)[] = [];
  savePacing.turn = () => () => new Promise<void>((resolve) => gate.push(resolve));
  try {
    await indexRecipeTexts(ws, corpus(300), { sliceSize: 100 });
    assert.equal((await keywordSearch(ws, 'retry token ')).length > 0, true); // builds, and starts a save that waits at its first step
    await new Promise((r) => setImmediate(r));
    assert.equal(gate.length, 1, 'the save is waiting half-way');
    await indexRecipeTexts(ws, [{
      file: '.autosnippet/recipes/db/tx.md',
      text:
        '---\ntitle: Transactions wrap every write\nsummary: Call inTransaction around writes.\n---\n\n```ts\ninTransaction(() => write())\n```\n',
    }]);
    assert.equal((await keywordSearch(ws, 'inTransaction ')).length, 1, 'the search index took the change');
    savePacing.turn = pacing;
    gate.splice(0).forEach((open) => open());
    await searchIndexSaved(ws);
    assert.equal(existsSync(searchIndexFile(ws)), false, 'the half-copied index was not written');
    await keywordSearch(ws, 'anything ');
    await searchIndexSaved(ws);
    const saved = readFileSync(searchIndexFile(ws));
    const header = JSON.parse(saved.toString('utf8', 16, 16 + saved.readUInt32LE(8))) as {
      key: { generation: number };
    };
    assert.equal(header.key.generation, currentGeneration(ws), 'saved again, with the change');
    assert.deepEqual(log.lines.filter((l) => /search index/.test(l)), []);
  } finally {
    savePacing.turn = pacing;
    gate.splice(0).forEach((open) => open());
    await ws.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a saved index that cannot be written is reported in the log and search answers all the same', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-saved-index-'));
  const log = recordingLog();
  const ws = await Workspace.open(root, { log });
  try {
    await indexRecipeTexts(ws, corpus(50), { sliceSize: 100 });
    mkdirSync(searchIndexFile(ws)); // a folder where the file goes: the rename fails
    assert.ok((await keywordSearch(ws, 'retry token ')).length > 0);
    await searchIndexSaved(ws);
    assert.ok(log.lines.some((l) => /saving the search index .* failed/.test(l)), log.lines.join('\n'));
    assert.ok(statSync(searchIndexFile(ws)).isDirectory(), 'what was there is left alone');
  } finally {
    await ws.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a restored term index ranks like the original, before and after documents are added and removed', async () => {
  const fields = [{ weight: 8, b: 0.75 }, { weight: 4, b: 0.75 }, { weight: 2, b: 0.75 }, { weight: 1, b: 0.75 }];
  // Documents from 200 on bring new terms (w200…), which the restored index must merge into its term order for prefixes.
  const doc = (i: number) => [
    [`t${i % 7}`],
    ['alpha', `w${i % 11}`, `w${i % 5}`],
    ['beta', `w${i % 3}`, ...(i >= 200 ? [`w${i}`] : [])],
    Array.from({ length: i % 9 }, (_, k) => `z${(i + k) % 13}`),
  ];
  const original = new TermIndex(fields, Array.from({ length: 200 }, (_, i) => doc(i).map((f) => f.length)));
  for (let i = 0; i < 200; i++) original.add(doc(i));
  for (let i = 0; i < 200; i += 9) original.remove(i);
  const restored = TermIndex.restore(await original.image());
  const ask = (ix: TermIndex) =>
    [['alpha', 'w3'], ['t2', 'z5'], ['w'], ['beta', 'w1', 'z1'], ['w2'], ['w23']].map((terms, n) =>
      ix.search({ terms, prefixLast: n >= 4 || n === 2, limit: 8, accept: (s) => s % 4 !== 1 })
    );
  assert.deepEqual(ask(restored), ask(original));
  // The same changes on both: lists that shared one buffer when read must not disturb each other.
  for (const ix of [original, restored]) {
    for (let i = 200; i < 260; i++) ix.add(doc(i));
    for (let i = 1; i < 260; i += 4) ix.remove(i);
  }
  assert.deepEqual(ask(restored), ask(original));
  assert.equal(restored.live, original.live);
  // "w23" as a prefix stands for the terms w230…w239 added after the restore (slots 200 on: slot = document number).
  const w23 = ask(restored)[5].map((h) => h.slot).sort((a, b) => a - b);
  assert.deepEqual(
    w23,
    Array.from({ length: 10 }, (_, k) => 230 + k).filter((slot) => slot % 4 !== 1),
    'every live document with a w23… term',
  );
});

test('the index built from the rows a sync just wrote (each document analysed once) answers exactly as one built from the database', async () => {
  const { root, ws, built } = await indexedWorkspace();
  try {
    assert.equal(built.origin, 'built');
    const fromWrittenRows = await answers(ws);
    await ws.dispose();
    rmSync(`${path.join(root, '.autosnippet', 'autosnippet.db')}.search`, { force: true });
    const fresh = await Workspace.open(root);
    try {
      assert.equal((await searchIndex(fresh)).origin, 'built');
      assert.deepEqual(await answers(fresh), fromWrittenRows);
    } finally {
      await fresh.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a row another process changed after this one wrote it is read from the database, not from what this process wrote', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-written-rows-'));
  const mine = await Workspace.open(root);
  const other = await Workspace.open(root);
  try {
    await indexRecipeTexts(mine, corpus(20), { sliceSize: 100 });
    const edited = corpus(20).map((
      d,
      i,
    ) => (i === 3 ? { ...d, text: d.text.replace(/^title: .*$/m, 'title: quantum entanglement number 3') } : d));
    await indexRecipeTexts(other, edited, { sliceSize: 100 });
    await new Promise((resolve) => setImmediate(resolve)); // reads catch up with other processes' commits once per turn
    const ids = (await keywordSearch(mine, 'quantum entanglement ', {}, 10)).map((h) => h.rid);
    assert.equal(ids.length, 1, "the other process's edit is what this one finds");
  } finally {
    await other.dispose();
    await mine.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});
