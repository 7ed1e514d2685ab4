// Shared by the agent-*.test.ts files: a real Workspace on a temp folder, small test tools, and a
// catalog mixing them with the real skills and agent tools.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { agentTools } from '../../src/core/catalog/agent';
import { ToolCatalog } from '../../src/core/catalog/catalog';
import { Input, Opt, Out, Type } from '../../src/core/catalog/schema';
import { loadSkill, loadSkillChunk } from '../../src/core/catalog/skills';
import { systemTools } from '../../src/core/catalog/system';
import { type AnyTool, defineTool } from '../../src/core/catalog/types';
import { submitCandidates } from '../../src/core/domains/knowledge/candidates';
import { Workspace } from '../../src/core/ground/workspace';

export const REPO_SKILLS = path.join(__dirname, '..', '..', 'skills');

const temps: string[] = [];
const workspaces: Workspace[] = [];
after(async () => {
  for (const ws of workspaces.splice(0)) await ws.dispose();
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

export async function tempWorkspace(): Promise<Workspace> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'as-agent-'));
  temps.push(dir);
  const ws = await Workspace.open(dir, { bundledSkillsDir: REPO_SKILLS });
  workspaces.push(ws);
  return ws;
}

/** A read tool that answers with its input. */
export const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  domain: 'test',
  summary: 'Answers with its input.',
  description: 'Answers with its input.',
  inputSchema: Input({ text: Opt(Type.String({ maxLength: 1000 })) }),
  outputSchema: Out({ echoed: Type.String() }),
  access: 'read',
  maxOutputChars: 2000,
  handler: (_ws, input) => ({ echoed: input.text ?? '' }),
});

/** A read tool that waits until cancelled (or 5 s). */
export const waitTool = defineTool({
  name: 'wait_forever',
  title: 'Wait',
  domain: 'test',
  summary: 'Waits.',
  description: 'Waits until cancelled.',
  inputSchema: Input({}),
  outputSchema: Out({ waited: Type.Boolean() }),
  access: 'read',
  maxOutputChars: 2000,
  handler: (_ws, _input, ctx) =>
    new Promise<{ waited: boolean }>((resolve) => {
      const timer = setTimeout(() => resolve({ waited: true }), 5000);
      ctx.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ waited: false });
      }, { once: true });
    }),
});

/** A propose tool that records what it was asked, for Gateway checks. */
export function recordingProposeTool(log: string[]): AnyTool {
  return defineTool({
    name: 'note_proposal',
    title: 'Note',
    domain: 'test',
    summary: 'Records a proposal.',
    description: 'Records a proposal.',
    inputSchema: Input({ title: Type.String({ maxLength: 200 }) }),
    outputSchema: Out({ noted: Type.String() }),
    access: 'propose',
    maxOutputChars: 2000,
    handler: (_ws, input, ctx) => (log.push(`${ctx.actor}:${input.title}`), { noted: input.title }),
  });
}

/** A review tool (people only): the Gateway must refuse it to agents. */
export const approveTool = defineTool({
  name: 'approve_thing',
  title: 'Approve',
  domain: 'test',
  summary: 'People only.',
  description: 'People only.',
  inputSchema: Input({ id: Type.String({ maxLength: 200 }) }),
  outputSchema: Out({ approved: Type.String() }),
  access: 'review',
  maxOutputChars: 2000,
  handler: (_ws, input) => ({ approved: input.id }),
});

/** The system tools, load_skill and load_skill_chunk, the agent tools and `extra`, in one catalog. */
export function testCatalog(extra: AnyTool[] = []): ToolCatalog {
  return new ToolCatalog([...systemTools, loadSkill, loadSkillChunk, ...agentTools, ...extra]);
}

/** Pending candidates as the cold-start scan would leave them. */
export async function seedCandidates(ws: Workspace, n = 3): Promise<string[]> {
  const titles = [
    'Network calls go through APIClient.send',
    'View models are main-actor final classes',
    'Errors are reported with AppError',
    'Feature modules depend only on CoreKit',
    'Logging goes through Log.event',
    'Dates are formatted with DateFormatting.shared',
  ];
  const inputs = titles.slice(0, n).map((title, i) => ({
    title,
    language: 'swift',
    knowledgeType: 'code-pattern' as const,
    code: `// example ${i}\nfunc example${i}() {}`,
    reasoning: {
      whyStandard: 'seen in many files',
      sources: [`Sources/App/File${i}.swift:${10 + i}`],
      confidence: 0.5,
    },
    origin: 'bootstrap:code-pattern',
  }));
  const result = await submitCandidates(ws, inputs, 'copilot_agent');
  return result.created;
}
