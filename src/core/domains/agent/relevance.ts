/**
 * Which of many tools fit a request: a word-overlap score (name words count most, then tags, then
 * the description). Used to choose other extensions' tools within a model's tool limit.
 */

export interface RankableTool {
  name: string;
  description: string;
  tags?: readonly string[];
}

const STOP = new Set(
  'a an and are as at be by can do does for from how i in is it me my of on or please the this to use what when with you your'
    .split(' '),
);

function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w))
    // A plural and its singular are the same word here.
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

/** The tools that share words with the request, best first, at most `limit`. */
export function rankToolsByRelevance<T extends RankableTool>(request: string, tools: readonly T[], limit: number): T[] {
  if (limit <= 0) return [];
  const wanted = new Set(words(request));
  if (wanted.size === 0) return [];
  const scored = tools.map((tool) => {
    let score = 0;
    for (const w of new Set(words(tool.name))) if (wanted.has(w)) score += 3;
    for (const w of new Set((tool.tags ?? []).flatMap(words))) if (wanted.has(w)) score += 2;
    for (const w of new Set(words(tool.description))) if (wanted.has(w)) score += 1;
    return { tool, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, limit)
    .map((s) => s.tool);
}
