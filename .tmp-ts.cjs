const fs = require('fs');
const text = require('./.tmp-gen5k.cjs');
async function bench(label, mod, grammar) {
  const P = mod.Parser ?? mod;
  const t0 = performance.now();
  await P.init();
  const Language = mod.Language ?? P.Language;
  const lang = await Language.load(fs.readFileSync(grammar));
  const parser = new P(); parser.setLanguage(lang);
  const t1 = performance.now();
  let tree; const runs = [];
  for (let i = 0; i < 8; i++) { const s = performance.now(); tree?.delete(); tree = parser.parse(text); runs.push(performance.now() - s); }
  runs.sort((a,b)=>a-b);
  const idx = text.split('\n').slice(0, 2500).join('\n').length + 1;
  const edited = text.slice(0, idx) + 'x' + text.slice(idx);
  const re = [];
  for (let i = 0; i < 8; i++) {
    const t = tree.copy();
    t.edit({ startIndex: idx, oldEndIndex: idx, newEndIndex: idx + 1, startPosition: { row: 2500, column: 0 }, oldEndPosition: { row: 2500, column: 0 }, newEndPosition: { row: 2500, column: 1 } });
    const s = performance.now(); const nt = parser.parse(edited, t); re.push(performance.now() - s); nt.delete(); t.delete();
  }
  re.sort((a,b)=>a-b);
  const Query = mod.Query;
  const q = Query ? new Query(lang, '(catch_clause body: (statement_block) @b)') : lang.query('(catch_clause body: (statement_block) @b)');
  const s = performance.now(); const caps = q.captures(tree.rootNode); const qt = performance.now() - s;
  console.log(label, 'init+load', (t1 - t0).toFixed(0), 'ms; parse p50', runs[4].toFixed(1), 'ms =', (text.length / 1e6 / (runs[4] / 1000)).toFixed(1), 'MB/s; reparse after edit p50', re[4].toFixed(2), 'ms; query', qt.toFixed(1), 'ms', caps.length, 'captures', (text.length/1e6).toFixed(2),'MB');
}
(async () => {
  const which = process.argv[2];
  if (which === 'web') await bench('web-tree-sitter 0.27 + @vscode grammar', require('web-tree-sitter'), 'node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm');
  if (which === 'vscode') await bench('@vscode/tree-sitter-wasm runtime', require('@vscode/tree-sitter-wasm'), 'node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm');
  if (which === 'wasms') await bench('web-tree-sitter 0.27 + tree-sitter-wasms grammar', require('web-tree-sitter'), '/tmp/tsw/package/out/tree-sitter-typescript.wasm');
  if (which === 'swift') { const m = require('web-tree-sitter'); await m.Parser.init(); for (const g of ['swift','kotlin','objc']) { try { const l = await m.Language.load(fs.readFileSync(`/tmp/tsw/package/out/tree-sitter-${g}.wasm`)); const p = new m.Parser(); p.setLanguage(l); console.log(g, 'abi', l.abiVersion ?? l.version, p.parse('let x = y as! Z').rootNode.toString().slice(0, 80)); } catch (e) { console.log(g, 'FAIL', e.message); } } }
})().catch(e => { console.error(e); process.exit(1); });
