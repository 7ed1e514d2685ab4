import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardEngine } from '../../src/core/domains/guard';
import { guardLocale } from '../../src/core/domains/guard/locale';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { ZH_CN } from '../../src/core/domains/guard/packs/zh-cn';
import { guardWorkspace, rulesFile, runGuardCli } from './guard-helpers';

test('every built-in rule has its message, why and suggestion in Simplified Chinese, and the table names no other rule', () => {
  const ids = builtinRules().map((r) => r.id).sort();
  assert.deepEqual(Object.keys(ZH_CN).sort(), ids);
  for (const [id, texts] of Object.entries(ZH_CN)) {
    assert.equal(texts.length, 3, id);
    for (const t of texts) assert.match(t, /[\u4e00-\u9fff]/, `${id}: "${t}" is not Chinese`);
  }
});

test('locale tags: zh-cn, zh-Hans, zh_CN.UTF-8 and zh are Simplified Chinese; others English', () => {
  assert.deepEqual(['zh-cn', 'zh-Hans', 'zh_CN.UTF-8', 'zh', 'zh-tw', 'en', 'C.UTF-8', undefined].map(guardLocale), [
    'zh-cn',
    'zh-cn',
    'zh-cn',
    'zh-cn',
    'en',
    'en',
    'en',
    'en',
  ]);
});

test('in zh-cn, findings and explanations of built-in rules are in Chinese; a project rule keeps its own words', async () => {
  const { ws, cleanup } = await guardWorkspace({
    '.autosnippet/guard/rules.json': rulesFile([{
      id: 'project/no-legacy',
      pattern: '\\blegacyCall\\(',
      message: 'Use modernCall.',
    }]),
  });
  try {
    const engine = guardEngine(ws);
    engine.locale = 'zh-cn';
    const res = await engine.check('eval(x);\nlegacyCall();\n', 'typescript');
    const byId = Object.fromEntries(res.violations.map((v) => [v.ruleId, v]));
    assert.equal(byId['ts/no-eval'].message, 'eval 把字符串当作代码执行。');
    assert.match(byId['ts/no-eval'].suggestion, /JSON\.parse/);
    assert.equal(byId['project/no-legacy'].message, 'Use modernCall.');
    assert.match((await engine.rule('ts/no-eval')).rule.why, /代码注入/);
    engine.locale = 'en';
    assert.equal((await engine.check('eval(x);\n', 'typescript')).violations[0].message, 'eval runs a string as code.');
  } finally {
    await cleanup();
  }
});

test('the CLI speaks the locale of --locale', async () => {
  const { root, cleanup } = await guardWorkspace({ 'src/a.py': 'try:\n    run()\nexcept:\n    log()\n' });
  try {
    const run = await runGuardCli(root, ['src', '--locale', 'zh-cn']);
    assert.match(run.stdout, /裸 except 也会捕获 KeyboardInterrupt 和 SystemExit。 +py\/bare-except/);
  } finally {
    await cleanup();
  }
});
