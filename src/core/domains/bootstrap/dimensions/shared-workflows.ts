/**
 * GitHub Actions workflows of the repository that call a reusable workflow of another repository
 * (`uses: owner/repo/.github/workflows/name.yml@ref`): the steps of such a workflow are not in the
 * repository, so what CI runs cannot be told from its files alone, and no card may say that CI runs
 * nothing of a kind.
 */
import type { AnalysisContext } from '../types';

const REUSABLE = /^[ \t-]*uses:[ \t]*["']?([\w.-]+\/[\w.-]+)\/\.github\/workflows\/([\w.-]+\.ya?ml)@/gm;

/** Each external reusable workflow called, as `owner/repo/name.yml`, with the line that calls it. */
export async function sharedWorkflows(ctx: AnalysisContext): Promise<{ name: string; source: string }[]> {
  const out: { name: string; source: string }[] = [];
  const files = ctx.listing.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f));
  for (const file of files) {
    const text = (await ctx.read(file)) ?? '';
    for (const m of text.matchAll(REUSABLE)) {
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ name: `${m[1]}/${m[2]}`, source: `${file}:${line}` });
    }
  }
  return out;
}
