// Derives src/core/ground/text/zh-en.json, the Chinese → English glossary that lets a request in Chinese
// find skills written in English, from a CC-CEDICT file (CC BY-SA 4.0, see zh-en.LICENSE.md):
//   node scripts/gen-zh-glossary.mjs path/to/cedict_ts.u8
// Kept: simplified words of 2–3 Han characters that are not proper nouns; for each, the English words
// of its first senses (up to 3, lower case, without function words or notes in brackets).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/gen-zh-glossary.mjs <cedict_ts.u8>');
  process.exit(2);
}
const SKIP = new Set(
  'a an the of to and or in on at for with by from as be is are was one sb sth etc something someone somebody oneself used also esp lit fig abbr cl variant see same old name kind type'
    .split(' '),
);
const out = new Map();
for (const line of readFileSync(source, 'utf8').split('\n')) {
  const m = /^(\S+) (\S+) \[([^\]]*)\] \/(.*)\/\s*$/.exec(line);
  if (!m) continue;
  const [, , simplified, pinyin, senses] = m;
  if (!/^\p{Script=Han}{2,3}$/u.test(simplified) || /^[A-Z]/.test(pinyin)) continue;
  const words = [];
  for (const sense of senses.split('/')) {
    if (/^(variant of|old variant|see |CL:|surname|also written|abbr\. for|used in)/i.test(sense)) continue;
    for (const w of sense.replace(/\([^)]*\)/g, ' ').toLowerCase().match(/[a-z]+/g) ?? []) {
      if (w.length > 1 && !SKIP.has(w) && !words.includes(w)) words.push(w);
    }
    if (words.length >= 3) break;
  }
  if (words.length === 0) continue;
  const known = out.get(simplified) ?? [];
  for (const w of words.slice(0, 3)) if (!known.includes(w) && known.length < 3) known.push(w);
  out.set(simplified, known);
}
const target = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  '..',
  'src',
  'core',
  'ground',
  'text',
  'zh-en.json',
);
const sorted = Object.fromEntries(
  [...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.join(' ')]),
);
writeFileSync(target, JSON.stringify(sorted).replace(/","/g, '",\n"') + '\n');
console.log(`${out.size} words → ${path.relative(process.cwd(), target)}`);
