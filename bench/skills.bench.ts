// Skills: what progressive loading saves in tokens (real tokenizer), and how fast list_skills,
// load_skill and search_skills answer over the bundled skills and over 1,000 generated ones.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ToolCatalog } from '../src/core/catalog/catalog';
import { skillTools } from '../src/core/catalog/skills';
import type { ToolContext } from '../src/core/catalog/types';
import { SkillRegistry } from '../src/core/domains/skills/registry';
import { level2Of, renderCatalog, renderLevel2, renderRoutingXml } from '../src/core/domains/skills/render';
import { SkillSearchIndex } from '../src/core/domains/skills/search';
import { loadTokenCounter, type TokenCounter } from '../src/core/domains/skills/tokens';
import type { Skill } from '../src/core/domains/skills/types';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, ms, percentile, sample } from './lib';

const bundledDir = path.join(__dirname, '..', 'skills');
const agent: ToolContext = { actor: 'external_agent', channel: 'test' };

export async function run(): Promise<BenchTable[]> {
  const counter = await loadTokenCounter();
  const bundled = new SkillRegistry({ bundledDir }).list();
  const tables: BenchTable[] = [];
  if (bundled.length) tables.push(tokenTable(bundled, counter));
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-skills-'));
  try {
    if (bundled.length) tables.push(await answerOverheadTable(bundledDir, path.join(temp, 'ws-overhead'), counter));
    const generatedDir = path.join(temp, 'generated');
    generateSkills(generatedDir, 1000);
    const rows: (string | number)[][] = [];
    if (bundled.length) {
      rows.push(...(await latencyRows(`${bundled.length} bundled`, bundledDir, path.join(temp, 'ws-bundled'), 300)));
    }
    rows.push(...(await latencyRows('1,000 generated', generatedDir, path.join(temp, 'ws-generated'), 100)));
    tables.push({
      title: 'Skills tools latency (in process, through the catalog: aliases, validation, output bound)',
      columns: ['skills', 'call', 'p50', 'p95', 'runs'],
      rows,
      notes: [
        'Every call stats the folders the last scan listed (added or removed skills are seen at once); load_skill stats its one SKILL.md; every SKILL.md is compared at most once a second (30 s with the VS Code watcher). The first call parses every skill.',
        'load_skill counts tokens of the body, each section and each chunk with the real tokenizer (o200k_base).',
      ],
    });
    tables.push(await searchComparison(new SkillRegistry({ bundledDir: generatedDir }).list()));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return tables;
}

function tokenTable(skills: Skill[], counter: TokenCounter): BenchTable {
  const whole = skills.map((s) => counter.count(readFileSync(s.file, 'utf8')));
  const allWhole = counter.count(skills.map((s) => readFileSync(s.file, 'utf8')).join('\n\n'));
  const catalog = renderCatalog(skills, counter).tokens;
  // The same catalog as the chat participant's prompt renders it (a Markdown list, no XML tags).
  const catalogMd = renderCatalog(skills, counter, { format: 'markdown' }).tokens;
  const level2 = skills.map((s) => counter.count(renderLevel2(s)));
  const chunkSizes = (s: Skill) => s.chunks.map((c) => counter.count(c.content));
  // "One chunk": the mean chunk of the skill (a task loads the one it needs), and the largest as the worst case.
  const meanChunk = (s: Skill) => (s.chunks.length ? chunkSizes(s).reduce((a, b) => a + b, 0) / s.chunks.length : 0);
  const maxChunk = (s: Skill) => Math.max(0, ...chunkSizes(s));
  // Level 1 for a task when the agent asks search_skills instead of holding the catalog: its answer (top 3).
  const index = new SkillSearchIndex(skills);
  const searchAnswer = (s: Skill) => counter.count(renderRoutingXml(index.route(s.description, 3)));
  const mean = (v: number[]) => Math.round(v.reduce((a, b) => a + b, 0) / v.length);
  const baseline = catalog + mean(whole);
  const oneChunk = mean(skills.map((s, i) => level2[i] + meanChunk(s)));
  const rows: [string, number, number?][] = [
    [`every SKILL.md whole in the prompt (${skills.length} files)`, allWhole],
    [`level 1 catalog of all ${skills.length} skills (name + description)`, catalog],
    ['catalog + one SKILL.md whole (the usual skill loader), mean', baseline],
    ['catalog + level 2 of one skill (body without chunks), mean', catalog + mean(level2)],
    ['catalog + level 2 + one chunk (mean chunk), mean', catalog + oneChunk],
    ['catalog + level 2 + the largest chunk, mean', catalog + mean(skills.map((s, i) => level2[i] + maxChunk(s)))],
    [
      'search_skills answer (top 3) + level 2 + one chunk (mean chunk), mean',
      mean(skills.map((s, i) => searchAnswer(s) + level2[i] + meanChunk(s))),
    ],
    [
      'Markdown catalog (as the chat prompt has it) + one SKILL.md whole, mean',
      catalogMd + mean(whole),
      catalogMd + mean(whole),
    ],
    ['Markdown catalog + level 2 + one chunk (mean chunk), mean', catalogMd + oneChunk, catalogMd + mean(whole)],
  ];
  const perSkill = skills.map((s, i) => (catalog + level2[i] + meanChunk(s)) / (catalog + whole[i]));
  const perSkillMax = skills.map((s, i) => (catalog + level2[i] + maxChunk(s)) / (catalog + whole[i]));
  return {
    title: `Skills: prompt tokens for one task (o200k_base, ${skills.length} bundled skills)`,
    columns: ['what is in the prompt', 'tokens', 'vs catalog + one SKILL.md whole (in the same form)'],
    rows: rows.map(([label, tokens, against = baseline]) => [label, tokens, (tokens / against).toFixed(2)]),
    notes: [
      `One SKILL.md whole: mean ${mean(whole)} tokens (min ${Math.min(...whole)}, max ${
        Math.max(...whole)
      }); its level 2: mean ${mean(level2)}; ${skills.reduce((n, s) => n + s.chunks.length, 0)} chunks in all, mean ${
        mean(skills.map(meanChunk))
      } tokens.`,
      `Per skill, catalog + level 2 + one chunk against catalog + that SKILL.md whole: ${
        Math.min(...perSkill).toFixed(2)
      }–${Math.max(...perSkill).toFixed(2)} with its mean chunk, ${Math.min(...perSkillMax).toFixed(2)}–${
        Math.max(...perSkillMax).toFixed(2)
      } with its largest.`,
    ],
  };
}

/** What a load_skill answer carries beyond what it delivers (the body, one line per chunk, file and related skill), as JSON and as the Markdown text form. */
async function answerOverheadTable(bundledDir: string, root: string, counter: TokenCounter): Promise<BenchTable> {
  mkdirSync(root, { recursive: true });
  const ws = await Workspace.open(root, { bundledSkillsDir: bundledDir });
  try {
    const catalog = new ToolCatalog(skillTools);
    const names = new SkillRegistry({ bundledDir }).list().map((s) => s.name);
    const json: number[] = [];
    const text: number[] = [];
    const bodyOnly: number[] = [];
    for (const name of names) {
      const r = await catalog.invoke(ws, 'load_skill', { name }, agent);
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const d = r.data as {
        content: string;
        chunks?: { id: string; description: string }[];
        files?: string[];
        related?: string[];
      };
      const delivered = counter.count(
        [
          d.content,
          ...(d.chunks ?? []).map((c) => `- ${c.id}: ${c.description}`),
          ...(d.files ?? []),
          ...(d.related ?? []),
        ].join('\n'),
      );
      json.push(counter.count(JSON.stringify(r)) / delivered - 1);
      text.push(counter.count(catalog.resultText(r)) / delivered - 1);
      bodyOnly.push(counter.count(catalog.resultText(r)) / counter.count(d.content) - 1);
    }
    const range = (v: number[]) => `${(Math.min(...v) * 100).toFixed(1)}–${(Math.max(...v) * 100).toFixed(1)}%`;
    return {
      title: `load_skill: what the answer carries beyond what it delivers (${names.length} bundled skills, o200k_base)`,
      columns: ['form', 'overhead (min–max)'],
      rows: [
        ['Markdown text form (what MCP content, language-model tools and the chat agent send)', range(text)],
        ['JSON envelope (the structured content; what every tool sent before)', range(json)],
        [
          'Markdown text form against the body alone (chunk, file and related lines counted as overhead)',
          range(bodyOnly),
        ],
      ],
      notes: [
        'What it delivers: the body as written, one line per chunk (id and description), file and related skill.',
      ],
    };
  } finally {
    await ws.dispose();
  }
}

async function latencyRows(
  label: string,
  skillsDir: string,
  root: string,
  runs: number,
): Promise<(string | number)[][]> {
  mkdirSync(root, { recursive: true });
  const ws = await Workspace.open(root, { bundledSkillsDir: skillsDir });
  try {
    const catalog = new ToolCatalog(skillTools);
    const t0 = performance.now();
    const first = await catalog.invoke(ws, 'list_skills', {}, agent);
    const firstMs = performance.now() - t0;
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    const names = new SkillRegistry({ bundledDir: skillsDir }).list().map((s) => s.name);
    const queries = [
      'cold start a new project',
      'check code against guard rules',
      'write a recipe for a pattern',
      'swift concurrency',
      'review candidates',
      'project structure and targets',
    ];
    const call = (tool: string, input: unknown) => async () => {
      const r = await catalog.invoke(ws, tool, input, agent);
      if (!r.ok) throw new Error(`${tool}: ${r.error.code} ${r.error.message}`);
    };
    const list = await sample(runs, () => call('list_skills', {})(), 3);
    const load = await sample(runs, (i) => call('load_skill', { name: names[(i + names.length) % names.length] })(), 3);
    const search = await sample(
      runs,
      (i) => call('search_skills', { query: queries[(i + queries.length) % queries.length] })(),
      3,
    );
    return [
      [label, 'first call (scan + parse all)', ms(firstMs), '-', 1],
      [label, 'list_skills', ms(percentile(list, 50)), ms(percentile(list, 95)), runs],
      [label, 'load_skill (a different skill each call)', ms(percentile(load, 50)), ms(percentile(load, 95)), runs],
      [label, 'search_skills', ms(percentile(search, 50)), ms(percentile(search, 95)), runs],
    ];
  } finally {
    await ws.dispose();
  }
}

/** Our field-weighted BM25 against MiniSearch (BM25+, the library a user would reach for) on the same skills. */
async function searchComparison(skills: Skill[]): Promise<BenchTable> {
  const { default: MiniSearch } = await import('minisearch');
  const queries = [
    'cold start a new project',
    'check code against guard rules',
    'write a recipe for a pattern',
    'swift concurrency',
    'review candidates',
    'project structure and targets',
  ];
  const t0 = performance.now();
  const ours = new SkillSearchIndex(skills);
  const oursBuild = performance.now() - t0;
  const t1 = performance.now();
  const mini = new MiniSearch({
    fields: ['name', 'description', 'chunks', 'body'],
    storeFields: ['name'],
    searchOptions: { boost: { name: 2, description: 3, chunks: 2 }, prefix: false },
  });
  mini.addAll(
    skills.map((s, id) => ({
      id,
      name: s.name.replace(/-/g, ' '),
      description: s.description,
      chunks: s.chunks.map((c) => c.description).join(' '),
      body: level2Of(s).content,
    })),
  );
  const miniBuild = performance.now() - t1;
  const oursQ = await sample(300, (i) => ours.search(queries[(i + queries.length) % queries.length], 5), 5);
  const miniQ = await sample(300, (i) => mini.search(queries[(i + queries.length) % queries.length]).slice(0, 5), 5);
  const agree =
    queries.filter((q) => ours.search(q, 1)[0]?.skill.name === skills[Number(mini.search(q)[0]?.id)]?.name).length;
  return {
    title: `Skill search over ${skills.length} generated skills: ours (field-weighted BM25) vs MiniSearch 7`,
    columns: ['engine', 'index build', 'query p50', 'query p95'],
    rows: [
      [
        'AutoSnippet SkillSearchIndex (field-weighted BM25)',
        ms(oursBuild),
        ms(percentile(oursQ, 50)),
        ms(percentile(oursQ, 95)),
      ],
      [
        'MiniSearch (BM25+, same fields and boosts)',
        ms(miniBuild),
        ms(percentile(miniQ, 50)),
        ms(percentile(miniQ, 95)),
      ],
    ],
    notes: [`Same top result for ${agree} of ${queries.length} queries.`],
  };
}

/** Writes `n` skills with realistic shape: frontmatter, four sections, two chunks, ~4 KB each. */
export function generateSkills(dir: string, n: number): void {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const vocab =
    ('project recipe guard rule candidate review swift objective typescript javascript module target package structure dependency graph '
      + 'concurrency actor async test build release deploy database migration schema api endpoint cache error logging metric trace security auth token '
      + 'style naming format lint refactor pattern convention component view model controller service repository network storage file path config')
      .split(' ');
  const words = (k: number) => Array.from({ length: k }, () => vocab[Math.floor(rand() * vocab.length)]).join(' ');
  const para = (k: number) => Array.from({ length: k }, () => `${words(12)}.`).join(' ');
  for (let i = 0; i < n; i++) {
    const name = `gen-${words(1)}-${String(i).padStart(4, '0')}`;
    const body = [
      `# ${name}`,
      '',
      para(3),
      '',
      '## When to use',
      '',
      ...Array.from({ length: 4 }, () => `- ${words(10)}`),
      '',
      '## Steps',
      '',
      ...Array.from({ length: 8 }, (_, k) => `${k + 1}. ${words(14)}.`),
      '',
      `<chunk id="examples" description="Worked examples: ${words(5)}">`,
      para(10),
      '</chunk>',
      '',
      '## Quality',
      '',
      para(4),
      '',
      '## Pitfalls',
      '',
      ...Array.from({ length: 5 }, () => `- ${words(12)}.`),
      '',
      `<chunk id="troubleshooting" description="When ${words(4)} fails">`,
      para(8),
      '</chunk>',
    ].join('\n');
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(
      path.join(dir, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Use when ${words(10)}. ${para(1)}\n---\n\n${body}\n`,
    );
  }
}
