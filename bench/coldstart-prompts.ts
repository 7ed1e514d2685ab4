// The cold start's model path on a repository, measured without a model: the evidence packs (characters,
// tokens), the exact prompts the product builds with a SHA-256 of each (what a reviewer playing the
// model is given, and how a bench tells the prompts have drifted), and the calls and characters of
// results an agent following the cold-start skill spends before it submits.
//
//   npx tsx bench/coldstart-prompts.ts DIR...            the figures per repository
//   npx tsx bench/coldstart-prompts.ts --prompt DIR      the prompts themselves, as sent
//   npx tsx bench/coldstart-prompts.ts --json DIR...     the figures and hashes as JSON
//
// Each DIR is read as a workspace (nothing is recorded: the evidence tool is a read).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createCatalog } from '../src/core/catalog';
import { coldstartRequests } from '../src/core/domains/agent/coldstart-prompt';
import { scanEvidence } from '../src/core/domains/bootstrap/packs';
import { loadTokenCounter } from '../src/core/domains/skills/tokens';
import { Workspace } from '../src/core/ground/workspace';

const SKILLS = path.join(__dirname, '..', 'skills');

export interface PromptFigures {
  repo: string;
  files: number;
  packs: { dimension: string; findings: number; omitted: number; chars: number; tokens: number }[];
  requests: { sha256: string; chars: number; tokens: number; dimensions: string[] }[];
  /** The skill's path without a model: health, then every page of coldstart_evidence, before the submits. */
  agentPath: { calls: number; resultChars: number };
}

/** The figures of one repository: packs, prompts with their hashes, the agent path's calls. */
export async function measure(dir: string): Promise<{ figures: PromptFigures; prompts: string[] }> {
  const ws = await Workspace.open(dir, { bundledSkillsDir: SKILLS });
  try {
    const counter = await loadTokenCounter();
    const evidence = await scanEvidence(ws, {}, { actor: 'external_agent' }, counter);
    const project = { primaryLanguage: evidence.scan.primaryLanguage, files: evidence.scan.scanned.files };
    const requests = coldstartRequests(evidence.packs, project);
    const prompts = requests.map((r) => `${r.system}\n\n${r.user}`);
    const catalog = createCatalog();
    const ctx = { actor: 'external_agent' as const, channel: 'test' as const };
    let calls = 1;
    let resultChars = JSON.stringify(await catalog.invoke(ws, 'health', {}, ctx)).length;
    for (let cursor: number | undefined = 0; cursor !== undefined;) {
      const page = await catalog.invoke(ws, 'coldstart_evidence', { cursor }, ctx);
      calls++;
      resultChars += JSON.stringify(page).length;
      cursor = page.ok ? (page.data as { nextCursor?: number }).nextCursor : undefined;
    }
    return {
      figures: {
        repo: path.basename(dir),
        files: project.files,
        packs: evidence.packs.map((p) => ({
          dimension: p.dimension,
          findings: p.findings.length,
          omitted: p.omitted,
          chars: p.text.length,
          tokens: p.tokens,
        })),
        requests: requests.map((r, i) => ({
          sha256: createHash('sha256').update(prompts[i]).digest('hex'),
          chars: prompts[i].length,
          tokens: counter.count(prompts[i]),
          dimensions: [...r.user.matchAll(/^## (\S+)/gm)].map((m) => m[1]),
        })),
        agentPath: { calls, resultChars },
      },
      prompts,
    };
  } finally {
    await ws.dispose();
  }
}

async function main(argv: string[]): Promise<void> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const dirs = argv.filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
  if (!dirs.length) throw new Error('usage: npx tsx bench/coldstart-prompts.ts [--prompt|--json] DIR...');
  const all: PromptFigures[] = [];
  for (const dir of dirs) {
    const { figures, prompts } = await measure(dir);
    all.push(figures);
    if (flags.has('--prompt')) {
      prompts.forEach((p, i) =>
        process.stdout.write(`===== request ${i + 1} sha256 ${figures.requests[i].sha256}\n${p}\n`)
      );
    }
  }
  if (flags.has('--json')) return void process.stdout.write(JSON.stringify(all, null, 1) + '\n');
  if (flags.has('--prompt')) return;
  for (const f of all) {
    const chars = f.packs.reduce((n, p) => n + p.chars, 0);
    const tokens = f.packs.reduce((n, p) => n + p.tokens, 0);
    console.log(`${f.repo}: ${f.files} files, ${f.packs.length} packs, ${chars} chars / ${tokens} tokens of evidence`);
    for (const p of f.packs) {
      console.log(
        `  ${p.dimension}: ${p.findings} findings (${p.omitted} left out), ${p.chars} chars, ${p.tokens} tokens`,
      );
    }
    for (const r of f.requests) {
      console.log(
        `  request ${r.sha256.slice(0, 12)}: ${r.chars} chars, ${r.tokens} tokens (${r.dimensions.join(', ')})`,
      );
    }
    console.log(
      `  agent path before submitting: ${f.agentPath.calls} calls, ${f.agentPath.resultChars} chars of results`,
    );
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
