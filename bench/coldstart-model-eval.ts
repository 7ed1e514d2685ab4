// The cold start's model path judged without a model of ours: reviewers play the model. `prompts`
// runs the product's own path (write_coldstart_cards) on a copy of each test repository with a model
// that records every request exactly as sent and answers no cards; a reviewer answers each prompt
// file as the model would. `run` replays the product's path with those recorded answers, looked up by
// the SHA-256 of the request, so the cards go through the same parsing and source checks; a request
// whose hash has no answer means the prompts drifted since the answers were recorded, and is reported.
//
//   npx tsx bench/coldstart-model-eval.ts prompts --repos DIR --out DIR [--only NAME,…]
//   npx tsx bench/coldstart-model-eval.ts run --repos DIR --answers DIR --packet FILE [--only NAME,…]
//
// Answers: one file per repository, `<owner+name>.json`: { "player": "who played the model",
// "answers": [{ "sha256": "…", "answer": "the model's text" }] }.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeColdstartCards } from '../src/core/domains/agent/coldstart';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/core/domains/agent/model';
import { listCandidates } from '../src/core/domains/knowledge';
import { loadTokenCounter } from '../src/core/domains/skills/tokens';
import { Workspace } from '../src/core/ground/workspace';
import { coverageTables, loadCoverage } from './coldstart-essentials';
import { loadLabels, type RepoRun, reviewPacket, tables, TEST_SET, TEST_SET_2 } from './coldstart-eval';
import { printTable } from './lib';

const SKILLS = path.join(__dirname, '..', 'skills');

interface Sent {
  sha256: string;
  system: string;
  text: string;
  repair: boolean;
}

/** The text a request carries: the system prompt, then its first user message, as the product sent them. */
function requestText(request: ChatRequest): { system: string; text: string } {
  const first = request.messages[0];
  const text = first?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  return { system: request.system ?? '', text };
}

export const requestHash = (system: string, text: string) =>
  createHash('sha256').update(`${system}\n\n${text}`).digest('hex');

/** A model that plays back recorded answers by request hash; what it cannot answer it lists. */
class PlayedModel implements ChatModel {
  readonly id = 'bench/played';
  readonly name = 'reviewer playing the model';
  readonly supportsToolCalling = false;
  readonly maxInputTokens = 128_000;
  readonly sent: Sent[] = [];
  readonly drifted: string[] = [];
  private readonly firsts: string[] = [];

  constructor(private readonly answers: Map<string, string>) {}

  async send(request: ChatRequest): Promise<ChatResponse> {
    const { system, text } = requestText(request);
    const sha256 = requestHash(system, text);
    // A repair request starts with the request it repairs; a format retry repeats the first message.
    const repair = this.firsts.some((f) => text !== f && text.startsWith(f));
    if (request.messages.length === 1) this.sent.push({ sha256, system, text, repair });
    if (!repair) this.firsts.push(text);
    const answer = this.answers.get(sha256);
    if (answer !== undefined) return { text: answer, toolCalls: [] };
    if (!repair && this.answers.size) this.drifted.push(sha256);
    // No answer: no cards (a refused card stays refused; a drifted request falls back to the scan's cards).
    if (!repair && this.answers.size) throw new Error(`no recorded answer for request ${sha256.slice(0, 12)}`);
    return { text: '{"cards": []}', toolCalls: [] };
  }
}

async function onCopy<T>(reposDir: string, repo: string, fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-model-eval-'));
  try {
    cpSync(path.join(reposDir, repo), dir, { recursive: true });
    const ws = await Workspace.open(dir, { bundledSkillsDir: SKILLS });
    try {
      return await fn(ws);
    } finally {
      await ws.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function play(ws: Workspace, answers: Map<string, string>) {
  const model = new PlayedModel(answers);
  const report = await writeColdstartCards(ws, {}, { actor: 'human', model, counter: await loadTokenCounter() });
  return { model, report };
}

function repos(reposDir: string, only?: string[]): string[] {
  return [...Object.keys(TEST_SET), ...Object.keys(TEST_SET_2)].filter((r) =>
    existsSync(path.join(reposDir, r)) && (!only?.length || only.some((o) => r.toLowerCase().includes(o.toLowerCase())))
  );
}

async function writePrompts(reposDir: string, out: string, only?: string[]) {
  for (const repo of repos(reposDir, only)) {
    const { model } = await onCopy(reposDir, repo, (ws) => play(ws, new Map()));
    const dir = path.join(out, repo);
    mkdirSync(dir, { recursive: true });
    const firsts = model.sent.filter((s) => !s.repair);
    firsts.forEach((s, i) => {
      writeFileSync(
        path.join(dir, `request-${i + 1}.md`),
        `<!-- sha256: ${s.sha256} -->\n# System\n\n${s.system}\n\n# User\n\n${s.text}\n`,
      );
    });
    writeFileSync(
      path.join(dir, 'index.json'),
      JSON.stringify(firsts.map((s, i) => ({ file: `request-${i + 1}.md`, sha256: s.sha256 })), null, 1),
    );
    console.log(`${repo}: ${firsts.length} requests, ${firsts.reduce((n, s) => n + s.text.length, 0)} characters`);
  }
}

function loadAnswers(dir: string, repo: string): { player?: string; answers: Map<string, string> } {
  const file = path.join(dir, `${repo}.json`);
  if (!existsSync(file)) return { answers: new Map() };
  const data = JSON.parse(readFileSync(file, 'utf8')) as {
    player?: string;
    answers: { sha256: string; answer: string }[];
  };
  return { player: data.player, answers: new Map(data.answers.map((a) => [a.sha256, a.answer])) };
}

async function replay(reposDir: string, answersDir: string, packet: string | undefined, only?: string[]) {
  const runs: RepoRun[] = [];
  const rows: (string | number)[][] = [];
  for (const repo of repos(reposDir, only)) {
    const { answers } = loadAnswers(answersDir, repo);
    if (!answers.size) continue;
    const run = await onCopy(reposDir, repo, async (ws) => {
      const { model, report } = await play(ws, answers);
      const candidates = listCandidates(ws, { status: 'any' });
      rows.push([
        repo,
        model.sent.filter((s) => !s.repair).length,
        model.drifted.length,
        report.written,
        report.flagged.length,
        report.refused.length,
        report.fallback.length,
        candidates.length,
      ]);
      return { repo, ms: 0, secondRunCreated: 0, candidates, targets: [] } satisfies RepoRun;
    });
    runs.push(run);
  }
  console.log('| repository | requests | drifted | written | flagged | refused | fell back | candidates |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  // The judges' labels of the cards this path wrote, and their coverage of the essentials.
  printTable({ ...tables(runs, loadLabels())[0], title: 'Model path on the test set: approval by a blind judge' });
  for (const t of coverageTables(loadCoverage().filter((c) => c.path.startsWith('model')))) printTable(t);
  if (rows.some((r) => Number(r[2]) > 0)) {
    console.log('\nThe prompts drifted since the answers were recorded: regenerate them and have them answered again.');
  }
  if (packet) {
    writeFileSync(packet, JSON.stringify(reviewPacket(reposDir, runs, new Map(), true), null, 2) + '\n');
    console.log(`\nReview packet → ${packet}`);
  }
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const reposDir = opt('--repos') ?? process.env.AUTOSNIPPET_EVAL_REPOS ?? '/work/repos';
  const only = opt('--only')?.split(',');
  if (mode === 'prompts') await writePrompts(reposDir, opt('--out') ?? 'model-prompts', only);
  else if (mode === 'run') {
    await replay(
      reposDir,
      opt('--answers') ?? path.join(__dirname, 'data', 'coldstart-eval', 'model-answers'),
      opt('--packet'),
      only,
    );
  } else console.error('usage: coldstart-model-eval.ts prompts|run --repos DIR …');
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
