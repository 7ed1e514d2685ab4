import { parseFrontMatter } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { stripCandidate } from './candidates';
import { normalizeText, parseRecipeFile, patchFrontmatter, serializeRecipe } from './recipe-file';
import type { Candidate, CandidateInput } from './types';

/**
 * A candidate as an editable Markdown document, in the recipe file format plus its reasoning
 * (`whyStandard`, `confidence`; `sources` are the recipe's). VS Code opens it for "Edit"; saving
 * reads it back with `candidateFromMarkdown` and updates the candidate.
 */
export function candidateMarkdown(c: Candidate): string {
  const text = serializeRecipe({
    ...stripCandidate(c),
    id: c.id,
    kind: c.kind,
    status: 'draft',
    file: `${c.id}.md`,
    sourceFiles: c.reasoning.sources.length ? c.reasoning.sources : c.sourceFiles,
  });
  return patchFrontmatter(text, {
    id: undefined,
    status: undefined,
    whyStandard: c.reasoning.whyStandard || '',
    confidence: c.reasoning.confidence,
  });
}

export function candidateFromMarkdown(text: string, name: string): Partial<CandidateInput> {
  const parsed = parseRecipeFile(text, name);
  if (!parsed.ok) {
    throw new AutoSnippetError(
      'INVALID_RECIPE_FILE',
      parsed.problems.map((p) => `${p.field ? `${p.field}: ` : ''}${p.message}`).join(' '),
      'Fix the fields named and save again.',
      { problems: parsed.problems },
    );
  }
  const fm = parseFrontMatter(normalizeText(text));
  const data = (fm.ok ? fm.value.data : {}) as { whyStandard?: unknown; confidence?: unknown };
  const r = parsed.recipe;
  const confidence = typeof data.confidence === 'number' ? data.confidence : Number(data.confidence);
  return {
    title: r.title,
    trigger: r.trigger,
    language: r.language,
    category: r.category,
    knowledgeType: r.knowledgeType,
    summary: r.summary,
    tags: r.tags,
    scope: r.scope,
    complexity: r.complexity,
    // Empty, not undefined: a section the person deleted is cleared, not kept.
    usageGuide: r.usageGuide ?? '',
    code: r.code ?? '',
    rationale: r.rationale ?? '',
    steps: r.steps ?? [],
    sourceFiles: r.sourceFiles ?? [],
    target: r.target,
    paths: r.paths ?? [],
    relations: r.relations,
    constraints: r.constraints,
    reasoning: {
      whyStandard: typeof data.whyStandard === 'string' ? data.whyStandard : undefined,
      sources: r.sourceFiles ?? [],
      ...(Number.isFinite(confidence) ? { confidence } : {}),
    },
  };
}
