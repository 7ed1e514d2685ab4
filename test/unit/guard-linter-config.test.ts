import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardEngine } from '../../src/core/domains/guard';
import { eslintSettings, readLinterSettings } from '../../src/core/domains/guard/linter-config';
import { guardWorkspace } from './guard-helpers';

// The shape of trpc's eslint.config.js (MIT): a block for every TypeScript file, one for tests.
const ESLINT_FLAT = `import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/vendor/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [...tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Todo: do we want these?
      '@typescript-eslint/no-explicit-any': 'off',
      'unicorn/filename-case': ['error', { case: 'camelCase' }],
    },
  },
  {
    files: ['**/test/**/*', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 0,
    },
  },
);
`;

test('ESLint settings are read with the files their block is limited to', () => {
  const got = eslintSettings(ESLINT_FLAT, 'eslint.config.js').map((s) => [s.state, s.name, s.files ?? 'all']);
  assert.deepEqual(got, [
    ['on', '@typescript-eslint/no-explicit-any', 'all'], // by tseslint.configs.recommended
    ['on', '@typescript-eslint/no-non-null-assertion', 'all'],
    ['off', '@typescript-eslint/no-explicit-any', 'all'],
    ['on', 'unicorn/filename-case', 'all'],
    ['off', '@typescript-eslint/no-non-null-assertion', ['**/test/**/*', '**/*.test.ts']],
    ['off', 'no-console', ['**/test/**/*', '**/*.test.ts']],
  ]);
});

test("explicit any is reported where the project's linter reports it: a typescript-eslint or Next preset that includes no-explicit-any, or Biome; not under a config that leaves it out", async () => {
  const anyCode = { 'src/a.ts': 'export function f(x: any) { return x as any; }\n' };
  const reported = async (config: Record<string, string>) => {
    const { ws, cleanup } = await guardWorkspace({ ...anyCode, ...config });
    try {
      return (await guardEngine(ws).scan()).violations.map((v) => v.ruleId).sort();
    } finally {
      await cleanup();
    }
  };
  const both = ['ts/no-explicit-any', 'ts/no-explicit-any-cast'];
  assert.deepEqual(
    await reported({
      '.eslintrc.json': '{ "extends": ["eslint:recommended", "plugin:@typescript-eslint/recommended"] }',
    }),
    both,
  );
  assert.deepEqual(
    await reported({
      'eslint.config.mjs':
        "import ts from 'typescript-eslint';\nexport default ts.config(...ts.configs.strictTypeChecked);\n",
    }),
    both,
  );
  assert.deepEqual(
    await reported({ '.eslintrc.json': '{ "extends": ["next/core-web-vitals", "next/typescript"] }' }),
    both,
  );
  assert.deepEqual(await reported({ 'biome.json': '{ "linter": { "enabled": true } }' }), both);
  // A React app's shape: react-app and a shared config, neither turns no-explicit-any on; the team writes any freely.
  assert.deepEqual(
    await reported({ '.eslintrc.json': '{ "extends": ["@excalidraw/eslint-config", "react-app"] }' }),
    [],
  );
  // Only the type-aware rules: no-explicit-any is not among them. Another plugin's recommended set is not typescript-eslint's.
  assert.deepEqual(
    await reported({
      '.eslintrc.json': '{ "extends": ["plugin:@typescript-eslint/recommended-requiring-type-checking"] }',
    }),
    [],
  );
  assert.deepEqual(
    await reported({
      'eslint.config.js':
        "import reactHooks from 'eslint-plugin-react-hooks';\nexport default [reactHooks.configs.recommended];\n",
    }),
    [],
  );
  assert.deepEqual(await reported({ 'biome.json': '{ "linter": { "rules": { "recommended": false } } }' }), []);
  assert.deepEqual(await reported({}), []);
  // Turned on by a preset, off by name for some files: those files are left out, as the linter leaves them.
  const perFile =
    "import tseslint from 'typescript-eslint';\nexport default tseslint.config(...tseslint.configs.recommended, { files: ['src/legacy/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } });\n";
  const { ws, cleanup } = await guardWorkspace({
    ...anyCode,
    'src/legacy/old.ts': 'export const x: any = 1;\n',
    'eslint.config.mjs': perFile,
  });
  try {
    assert.deepEqual((await guardEngine(ws).scan()).violations.map((v) => `${v.path}:${v.ruleId}`).sort(), [
      'src/a.ts:ts/no-explicit-any',
      'src/a.ts:ts/no-explicit-any-cast',
    ]);
  } finally {
    await cleanup();
  }
});

test('a rule the project switched off in its linter config is off in guard, with the reason; a severity override wins', async () => {
  const { ws, root, cleanup } = await guardWorkspace({
    'eslint.config.js': ESLINT_FLAT,
    'src/a.ts': 'export function f(x: any) { return m.get(x)!.y as any; }\n',
  });
  try {
    const engine = guardEngine(ws);
    const any = await engine.rule('ts/no-explicit-any');
    assert.equal(any.active, false);
    assert.match(any.reason ?? '', /eslint rule @typescript-eslint\/no-explicit-any off in eslint\.config\.js/);
    const scan = await engine.scan();
    assert.deepEqual(scan.violations.map((v) => v.ruleId), ['ts/no-non-null-assertion']);
    ws.updateSettings({ guard: { severityOverrides: { 'ts/no-explicit-any': 'warning' } } });
    const again = await engine.check('let x: any;', 'typescript', { path: 'src/b.ts' });
    assert.deepEqual(again.violations.map((v) => [v.ruleId, v.severity]), [['ts/no-explicit-any', 'warning']]);
    void root;
  } finally {
    await cleanup();
  }
});

test('SwiftLint, Ruff, golangci, detekt and Cargo settings are read; Cargo can switch a default-off rule on', async () => {
  const { ws, root, cleanup } = await guardWorkspace({
    '.swiftlint.yml':
      'disabled_rules: # rule identifiers\n  - force_cast\n  - line_length\nopt_in_rules:\n  - force_unwrapping\n',
    'pyproject.toml':
      '[tool.ruff.lint]\nselect = ["E", "B"]\nignore = ["B904", "E722"]\n\n[tool.ruff.lint.per-file-ignores]\n"__init__.py" = ["F403"]\n',
    '.golangci.yml': 'linters:\n  default: none\n  enable:\n    - errcheck\n  disable:\n    - gocritic\n',
    'config/detekt/detekt.yml': 'potential-bugs:\n  UnsafeCallOnNullableType:\n    active: false\n',
    'Cargo.toml':
      '[package]\nname = "x"\n\n[lints.clippy]\nunwrap_used = "deny"\ntodo = { level = "allow", priority = 1 }\n',
    'src/lib.rs': 'fn f() -> u8 { s.parse().unwrap() }\nfn g() { todo!() }\n',
    'app.swift': 'let a = x as! A\nlet b = y!.z\n',
    'tool.py': 'try:\n    run()\nexcept:\n    log()\n',
  });
  try {
    const settings = readLinterSettings(root).map((s) =>
      `${s.state}:${s.tool}:${s.name}${s.files ? `@${s.files.join(',')}` : ''}`
    ).sort();
    assert.deepEqual(settings, [
      'off:clippy:todo',
      'off:nolint:gocritic',
      'off:noqa:b904',
      'off:noqa:e722',
      'off:noqa:f403@**/__init__.py',
      'off:suppress:unsafecallonnullabletype',
      'off:swiftlint:force_cast',
      'off:swiftlint:line_length',
      'on:clippy:unwrap_used',
      'on:nolint:errcheck',
      'on:swiftlint:force_unwrapping',
    ]);
    const scan = await guardEngine(ws).scan();
    assert.deepEqual(scan.violations.map((v) => `${v.path}:${v.ruleId}`).sort(), [
      'app.swift:swift/force-unwrap',
      'src/lib.rs:rust/unwrap',
    ]);
  } finally {
    await cleanup();
  }
});

test('enabling errcheck or gosec in golangci-lint does not turn on go/discarded-error: neither reports `_` by default (check-blank; G104 is excluded); check-blank: true does', async () => {
  const go = {
    'main.go': 'package main\n\nimport "strconv"\n\nfunc f(s string) int {\n\tn, _ := strconv.Atoi(s)\n\treturn n\n}\n',
  };
  const enabled = 'version: "2"\nlinters:\n  enable:\n    - errcheck\n    - gosec\n';
  const plain = await guardWorkspace({ ...go, '.golangci.yml': enabled });
  try {
    assert.deepEqual((await guardEngine(plain.ws).scan()).violations.map((v) => v.ruleId), []);
  } finally {
    await plain.cleanup();
  }
  const blank = await guardWorkspace({
    ...go,
    '.golangci.yml': `${enabled}  settings:\n    errcheck:\n      check-blank: true\n`,
  });
  try {
    assert.deepEqual(
      (await guardEngine(blank.ws).scan()).violations.map((v) => `${v.path}:${v.ruleId}:${v.start.line}`),
      ['main.go:go/discarded-error:6'],
    );
  } finally {
    await blank.cleanup();
  }
});
