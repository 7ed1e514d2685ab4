/**
 * The recipes the search benchmarks index: N generated recipes (deterministic), plus the real recipes
 * of the cold-start evaluation (what the cold start proposed on seven public repositories and a blind
 * reviewer did not reject), with two sets of queries that have a known answer:
 *  - known-answer: words of one generated recipe's title and summary, as a person would type them;
 *  - intent: questions about the real recipes, phrased as a person asks them
 *    (bench/data/recipe-search/questions.json, written before the index was tuned).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const DOMAINS = [
  'network',
  'auth',
  'database',
  'cache',
  'logging',
  'ui',
  'navigation',
  'storage',
  'payment',
  'search',
  'upload',
  'analytics',
  'config',
  'testing',
  'security',
  'session',
  'queue',
  'sync',
  'media',
  'notification',
];
const VERBS = [
  'retry',
  'validate',
  'parse',
  'render',
  'cache',
  'log',
  'fetch',
  'store',
  'encrypt',
  'paginate',
  'debounce',
  'throttle',
  'serialize',
  'migrate',
  'inject',
  'observe',
  'dispatch',
  'schedule',
  'compress',
  'sanitize',
  'authorize',
  'refresh',
  'index',
  'stream',
  'batch',
];
const NOUNS = [
  'request',
  'response',
  'token',
  'user',
  'profile',
  'order',
  'invoice',
  'image',
  'video',
  'message',
  'event',
  'record',
  'query',
  'schema',
  'form',
  'list',
  'table',
  'route',
  'screen',
  'button',
  'error',
  'timeout',
  'header',
  'cookie',
  'payload',
  'job',
  'worker',
  'file',
  'chunk',
  'report',
  'metric',
  'span',
  'locale',
  'theme',
  'setting',
  'flag',
  'device',
  'account',
  'cart',
  'coupon',
];
const ADJ = [
  'failed',
  'stale',
  'large',
  'nested',
  'optional',
  'concurrent',
  'expired',
  'partial',
  'cached',
  'encrypted',
  'remote',
  'local',
  'pending',
  'duplicate',
  'invalid',
];
const LANGS = ['typescript', 'swift', 'kotlin', 'python', 'go'];
const ROLES = ['Service', 'Client', 'Store', 'Manager', 'Repository', 'Provider', 'Gateway', 'Adapter'];
const TYPES = ['code-pattern', 'code-standard', 'best-practice', 'architecture', 'data-flow', 'call-chain'];

export interface BenchRecipe {
  file: string;
  text: string;
  id: string;
  title: string;
  trigger: string;
  summary: string;
  body: string;
  language: string;
}
export interface KnownAnswer {
  q: string;
  expect: string;
}

/** A deterministic pseudo-random generator (mulberry32), so every run indexes the same recipes. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export function generateRecipes(n: number): BenchRecipe[] {
  const r = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const docs: BenchRecipe[] = [];
  for (let i = 0; i < n; i++) {
    const [verb, adj, noun, domain, noun2] = [pick(VERBS), pick(ADJ), pick(NOUNS), pick(DOMAINS), pick(NOUNS)];
    const title = `${cap(verb)} ${adj} ${noun} in the ${domain} layer`;
    const trigger = `@${verb}${cap(adj)}${cap(noun)}${i}`;
    const role = pick(ROLES);
    const summary = `Always ${verb} ${adj} ${noun}s through ${cap(domain)}${cap(noun2)}${role} before the ${
      pick(NOUNS)
    } reaches the ${pick(DOMAINS)} module.`;
    const body = `Use it when a ${noun2} ${pick(VERBS)}s a ${adj} ${noun}. Do not ${pick(VERBS)} the ${
      pick(NOUNS)
    } directly; the ${domain} layer owns it.`;
    const language = pick(LANGS);
    const fn = `${verb}${cap(adj)}${cap(noun)}`;
    const code = `export async function ${fn}(${noun}: ${cap(noun)}) {\n  const ${noun2} = await ${domain}${
      cap(noun2)
    }${role}.${pick(VERBS)}(${noun});\n  if (!${noun2}.ok) throw new ${
      cap(domain)
    }Error('${adj} ${noun}');\n  return ${noun2};\n}`;
    const file = `.autosnippet/recipes/${domain}/r${i}.md`;
    const text = `---\ntitle: ${title}\ntrigger: "${trigger}"\nlanguage: ${language}\nknowledgeType: ${
      pick(TYPES)
    }\nsummary: "${summary}"\ntags: [${domain}, ${verb}, ${noun}]\n---\n\n## When to use\n\n${body}\n\n## Code\n\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    docs.push({ file, text, id: `${domain}/r${i}`, title, trigger, summary, body: `${body}\n${code}`, language });
  }
  return docs;
}

/** Queries with a known answer: words of one recipe's title and summary, as a person would type them. */
export function knownAnswerQueries(docs: BenchRecipe[], count: number): KnownAnswer[] {
  const r = rng(7);
  const generated = docs.filter((d) => !d.id.includes('/real-'));
  return Array.from({ length: count }, () => {
    const d = generated[Math.floor(r() * generated.length)];
    const words = d.title.toLowerCase().split(' ').filter((w) => !['in', 'the', 'layer'].includes(w));
    const service = /through (\w+)/.exec(d.summary)![1];
    return { q: `${words.join(' ')} ${service}`, expect: d.id };
  });
}

const DATA = path.join(__dirname, 'data');
const LANGUAGE_OF: Record<string, string> = {
  'Alamofire+Alamofire': 'swift',
  'trpc+trpc': 'typescript',
  'encode+httpx': 'python',
  'spf13+cobra': 'go',
  'BurntSushi+ripgrep': 'rust',
  'square+okhttp': 'kotlin',
  'SDWebImage+SDWebImage': 'objectivec',
};

/**
 * The real recipes: each cold-start candidate of the evaluation that the reviewer did not reject, as
 * the recipe file approving it writes (title, summary, a trigger from its first identifier or words).
 */
export function realRecipes(): BenchRecipe[] {
  const labels = JSON.parse(readFileSync(path.join(DATA, 'coldstart-eval/labels-after-1.json'), 'utf8')) as {
    repo: string;
    title: string;
    summary: string;
    label: string;
  }[];
  const out: BenchRecipe[] = [];
  labels.forEach((l, i) => {
    if (l.label === 'reject') return;
    const repo = l.repo.split('+')[1].toLowerCase();
    const ident = /`([A-Za-z_][\w.]*)/.exec(l.title)?.[1];
    const trigger = `@${repo}-${
      (ident ?? l.title.split(/\W+/).filter((w) => w.length > 2).slice(0, 3).join('-')).toLowerCase().replace(
        /[^a-z0-9-]+/g,
        '-',
      )
    }`;
    const language = LANGUAGE_OF[l.repo];
    const q = (s: string) => JSON.stringify(s);
    const text = `---\ntitle: ${q(l.title)}\ntrigger: ${
      q(trigger)
    }\nlanguage: ${language}\nknowledgeType: code-standard\nsummary: ${
      q(l.summary)
    }\ntags: [${repo}]\n---\n\n${l.summary}\n`;
    out.push({
      file: `.autosnippet/recipes/${repo}/real-${i}.md`,
      text,
      id: `${repo}/real-${i}`,
      title: l.title,
      trigger,
      summary: l.summary,
      body: l.summary,
      language,
    });
  });
  return out;
}

export function intentQuestions(): KnownAnswer[] {
  const data = JSON.parse(readFileSync(path.join(DATA, 'recipe-search/questions.json'), 'utf8')) as {
    questions: { question: string; expect: number }[];
  };
  const ids = new Map(realRecipes().map((r) => [Number(/real-(\d+)$/.exec(r.id)![1]), r.id]));
  return data.questions.map((x) => {
    const expect = ids.get(x.expect);
    if (!expect) {
      throw new Error(`question "${x.question}" expects recipe ${x.expect}, which is not among the real recipes`);
    }
    return { q: x.question, expect };
  });
}

/** `n` generated recipes followed by the real ones (a recipe's id is its file's path under recipes/, without .md). */
export function benchCorpus(n: number): BenchRecipe[] {
  const real = realRecipes();
  return [...generateRecipes(n), ...real];
}

/** Writes the recipes as files under `root`, as a workspace has them. */
export function writeRecipeFiles(root: string, docs: BenchRecipe[]): void {
  const dirs = new Set<string>();
  for (const d of docs) {
    const abs = path.join(root, d.file);
    const dir = path.dirname(abs);
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    writeFileSync(abs, d.text);
  }
}
