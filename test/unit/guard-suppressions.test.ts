import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinRules } from '../../src/core/domains/guard/packs';
import { RuleRunner } from '../../src/core/domains/guard/runner';
import { allBuiltinsOn } from './guard-helpers';

// Every rule on, so the suppressions of default-off rules are tested too.
const runner = new RuleRunner(builtinRules(), { severityOverrides: allBuiltinsOn(builtinRules()), ruleExclusions: [] });

async function found(code: string, language: string, path?: string): Promise<string[]> {
  await runner.prepare(language);
  return runner.checkText(code, language, { path, budgetMs: 10_000 }).violations.map((v) =>
    `${v.ruleId}@${v.start.line}`
  );
}

test('ESLint and Biome comments silence the equivalent rule: next line, same line, ranges, bare', async () => {
  const code = [
    '// eslint-disable-next-line no-eval -- trusted template',
    'eval(a);',
    'eval(b); // eslint-disable-line no-eval',
    'eval(c); // eslint-disable-line no-console',
    '/* eslint-disable no-console */',
    'console.log(1);',
    'eval(d);',
    '/* eslint-enable no-console */',
    'console.log(2);',
    '// eslint-disable-next-line',
    'eval(e);',
    '// biome-ignore lint/security/noGlobalEval: config loader',
    'eval(f);',
    'const s = "// eslint-disable-next-line no-eval"; eval(g);',
  ].join('\n');
  assert.deepEqual(await found(code, 'typescript'), [
    'ts/no-eval@4',
    'ts/no-eval@7',
    'ts/no-console-log@9',
    'ts/no-eval@14',
  ]);
  // typescript-eslint's names work for the structural rules too.
  const ts =
    'const a = m.get(k)!;\n// eslint-disable-next-line @typescript-eslint/no-non-null-assertion\nconst b = m.get(k)!;\n';
  assert.deepEqual(await found(ts, 'typescript'), ['ts/no-non-null-assertion@1']);
});

test('SwiftLint commands: disable:next, disable:this, disable … enable, all', async () => {
  const code = [
    '// swiftlint:disable:next force_cast',
    'let a = x as! A',
    'let b = x as! B // swiftlint:disable:this force_cast',
    'let c = try! load() // swiftlint:disable:this force_cast',
    '// swiftlint:disable force_try',
    'let d = try! load()',
    '// swiftlint:enable force_try',
    'let e = try! load()',
    '// swiftlint:disable all',
    'let f = url!.path',
  ].join('\n');
  assert.deepEqual(await found(code, 'swift'), ['swift/force-try@4', 'swift/force-try@8']);
});

test('Python: noqa with and without codes, nosec, pylint disable on a line and for a block', async () => {
  const code = [
    'try:',
    '    run()',
    'except:  # noqa: E722',
    '    pass',
    'x = eval(s)  # noqa',
    'y = eval(s)  # nosec B307',
    'z = eval(s)  # noqa: F401',
    'def f(items=[]):  # pylint: disable=dangerous-default-value',
    '    return items',
    'def g():',
    '    # pylint: disable=eval-used',
    '    a = eval(s)',
    '    return a',
    'w = eval(s)',
  ].join('\n');
  assert.deepEqual(await found(code, 'python'), ['py/except-pass@3', 'py/no-eval@7', 'py/no-eval@14']);
});

test('Rust: #[allow(clippy::…)] covers the item below, #![allow] the enclosing module', async () => {
  const code = [
    '#[allow(clippy::unwrap_used)]',
    'fn a() {',
    '    x.unwrap();',
    '}',
    'fn b() {',
    '    x.unwrap();',
    '}',
    'mod m {',
    '    #![allow(clippy::unwrap_used)]',
    '    fn c() { x.unwrap(); }',
    '}',
    'fn d() { x.unwrap(); }',
  ].join('\n');
  assert.deepEqual(await found(code, 'rust'), ['rust/unwrap@6', 'rust/unwrap@12']);
});

test('Go: //nolint on the line, on the line above a statement, bare', async () => {
  const code = [
    'func f() {',
    '\tn, _ := strconv.Atoi(s) //nolint:errcheck // input is validated',
    '\t//nolint:errcheck',
    '\tm, _ := strconv.Atoi(s)',
    '\tk, _ := strconv.Atoi(s) //nolint',
    '\tj, _ := strconv.Atoi(s) //nolint:gosimple',
    '}',
  ].join('\n');
  assert.deepEqual(await found(code, 'go'), ['go/discarded-error@6']);
});

test('Kotlin @Suppress / @file:Suppress / @OptIn and Java @SuppressWarnings cover the annotated declaration', async () => {
  const kt = [
    '@Suppress("UnsafeCallOnNullableType")',
    'fun a(x: String?) {',
    '    x!!.length',
    '}',
    'fun b(x: String?) = x!!.length',
    '@OptIn(DelicateCoroutinesApi::class)',
    'fun c() { GlobalScope.launch { } }',
    'fun d() { GlobalScope.launch { } }',
  ].join('\n');
  assert.deepEqual(await found(kt, 'kotlin'), ['kotlin/not-null-assertion@5', 'kotlin/global-scope@8']);
  const file = '@file:Suppress("UnsafeCallOnNullableType")\npackage p\nfun a(x: String?) = x!!.length\n';
  assert.deepEqual(await found(file, 'kotlin'), []);
  const java = [
    'class A {',
    '  @SuppressWarnings({"CallToPrintStackTrace", "unused"})',
    '  void a() {',
    '    try { f(); } catch (IOException e) { e.printStackTrace(); }',
    '  }',
    '  void b() {',
    '    try { f(); } catch (IOException e) { e.printStackTrace(); }',
    '  }',
    '  void c() {',
    '    //noinspection CallToPrintStackTrace',
    '    e.printStackTrace();',
    '  }',
    '}',
  ].join('\n');
  assert.deepEqual(await found(java, 'java'), ['java/print-stack-trace@7']);
});

test('Objective-C: clang diagnostic pragmas and NOLINT', async () => {
  const code = [
    '#pragma clang diagnostic push',
    '#pragma clang diagnostic ignored "-Warc-retain-cycles"',
    'self.completion = ^(NSData *data) { [self handle:data]; };',
    '#pragma clang diagnostic pop',
    'self.other = ^(NSData *data) { [self handle:data]; };',
    'dispatch_sync(dispatch_get_main_queue(), ^{ [self reload]; }); // NOLINT',
  ].join('\n');
  assert.deepEqual(await found(code, 'objective-c'), ['objc/block-retain-cycle@5']);
});

test('accepted justifications: // SAFETY: above unsafe, a documented panic, a catch named as ignored', async () => {
  const rust = [
    'fn a() -> u8 {',
    '    // SAFETY: the pointer comes from a live Vec.',
    '    let v = unsafe { *ptr };',
    '    let w = unsafe { *ptr };',
    '    v + w',
    '}',
    '/// Returns the first item.',
    '///',
    '/// # Panics',
    '///',
    '/// Panics when the list is empty.',
    '#[inline]',
    'pub fn first(&self) -> &T {',
    '    self.items.first().unwrap()',
    '}',
    'pub fn second(&self) -> &T {',
    '    self.items.get(1).unwrap()',
    '}',
    'fn poisoned() { let g = self.state.lock().unwrap(); let re = Regex::new(r"^\\d+$").unwrap(); }',
  ].join('\n');
  assert.deepEqual(await found(rust, 'rust'), ['rust/unsafe-block@4', 'rust/unwrap@17']);
  const kt =
    'fun close() {\n  try { s.close() } catch (_: IOException) {\n  }\n  try { s.close() } catch (e: IOException) {\n  }\n}\n';
  assert.deepEqual(await found(kt, 'kotlin'), ['java/empty-catch@4']);
});

test('rules reach the code they are for: hygiene rules production code only; security rules one severity lower in examples, docs and build scripts, not in tests', async () => {
  const code = 'const a = m.get(k)!.x;\neval(s);\nconsole.log(a);\n';
  const sev = async (path: string) => {
    await runner.prepare('typescript');
    return runner.checkText(code, 'typescript', { path }).violations.map((v) => `${v.ruleId}:${v.severity}`);
  };
  assert.deepEqual(await sev('src/app.ts'), [
    'ts/no-non-null-assertion:warning',
    'ts/no-eval:error',
    'ts/no-console-log:hint',
  ]);
  assert.deepEqual(await sev('src/app.test.ts'), []);
  assert.deepEqual(await sev('test/fixtures/app.ts'), []);
  assert.deepEqual(await sev('examples/demo/app.ts'), ['ts/no-eval:warning']);
  assert.deepEqual(await sev('scripts/release.ts'), ['ts/no-eval:warning']);
  assert.deepEqual(await sev('vendor/lib/app.ts'), [], 'vendored code is not checked');
  const gen = runner.checkText(`// Code generated by protoc-gen-ts. DO NOT EDIT.\n${code}`, 'typescript', {
    path: 'src/api.ts',
  });
  assert.equal(gen.violations.length, 0);
  assert.equal(gen.fileKind, 'generated');
  assert.match(gen.skipped ?? '', /generated file \(header says/);
  // Rust test modules inside a production file are test code.
  const rs =
    'fn f() -> u8 { s.parse().unwrap() }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { s.parse::<u8>().unwrap(); }\n}\n';
  assert.deepEqual(await found(rs, 'rust', 'src/lib.rs'), ['rust/unwrap@1']);
});
