// ESLint flat config: typescript-eslint's recommended rules (the syntactic set: a type-aware lint of
// the whole tree is too slow for CI on two cores) and the layering of the code base
// (eslint/layers.mjs). `npm run lint`; `npm test` runs it after the typecheck.
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.mjs';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test-output/**',
      'test/fixtures/**',
      'skills/**',
      '**/*.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    plugins: { autosnippet: layers },

    rules: {
      'autosnippet/layers': 'error',
      // `const { a: _a, ...rest } = x` is how the code drops a field; a leading _ says "unused on purpose".
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_',
        caughtErrors: 'none',
        ignoreRestSiblings: true,
      }],
      // `ok ? a() : b()` and `x && f()` as statements are the house style for small branches.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    // Start time (issue 11): the MCP and CLI fronts, the version and the guard's heavy parts load with a
    // require() on first use, inside the CommonJS bundles.
    files: [
      'src/mcp/**',
      'src/cli/bin.ts',
      'src/cli/main.ts',
      'src/core/ground/version.ts',
      'src/core/domains/guard/**',
      'src/core/domains/servers/**',
      'test/vscode/**',
      // CommonJS scripts, so the CommonJS tests can import them too.
      'scripts/*.cjs',
    ],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read tool answers of every shape and assert on them; typing each one adds nothing.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
