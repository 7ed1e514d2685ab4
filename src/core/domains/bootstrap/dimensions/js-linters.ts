/**
 * A JavaScript/TypeScript linter configured at the repository's root: ESLint (flat or legacy
 * configuration, or `eslintConfig` in package.json), xo or standard. Their style rules can set the
 * indentation, quotes and semicolons, and what a shared configuration sets is not read here, so the
 * formatting cards make no claim that nothing checks the code's layout when one is present.
 */
import type { AnalysisContext } from '../types';

const CONFIG_FILES = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
  '.eslintrc',
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yml',
  '.eslintrc.yaml',
];
/** The linter and where it is configured (`path:line`), or undefined when none is. */
export async function jsLinter(ctx: AnalysisContext): Promise<{ tool: string; source: string } | undefined> {
  const file = CONFIG_FILES.find((f) => ctx.has(f));
  if (file) return { tool: 'ESLint', source: `${file}:1` };
  if (!ctx.has('package.json')) return undefined;
  const lines = ((await ctx.read('package.json')) ?? '').split('\n');
  // A config key (`"xo": {…}`, `"eslintConfig"`) or a development dependency on the linter.
  for (const [i, line] of lines.entries()) {
    const key = /^\s*"(eslintConfig|xo|standard|eslint)"\s*:/.exec(line)?.[1];
    if (key) {
      return { tool: key === 'eslintConfig' || key === 'eslint' ? 'ESLint' : key, source: `package.json:${i + 1}` };
    }
  }
  return undefined;
}
