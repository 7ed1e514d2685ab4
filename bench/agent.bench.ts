// The agent: what its system prompt costs in tokens (real tokenizer), what the scripted cold-start
// conversation (@autosnippet /coldstart) costs in requests, tool rounds and tokens, and what the
// TaskPipeline engine adds per step over calling the tools directly.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { allTools } from '../src/core/catalog';
import { ToolCatalog } from '../src/core/catalog/catalog';
import { runCatalogPipeline } from '../src/core/catalog/pipeline-runner';
import { Input, Opt, Out, Type } from '../src/core/catalog/schema';
import { catalogToolbox } from '../src/core/catalog/toolbox';
import { type AnyTool, defineTool, type ToolResult } from '../src/core/catalog/types';
import { type ChatModel, type ChatRequest, type ChatResponse, requestText } from '../src/core/domains/agent/model';
import { textOf } from '../src/core/domains/agent/model';
import { type PipelineDefinition, type PipelineStep, runPipeline } from '../src/core/domains/agent/pipeline';
import { buildSystemPrompt } from '../src/core/domains/agent/prompt';
import { runAgent } from '../src/core/domains/agent/react';
import { ScriptedModel } from '../src/core/domains/agent/scripted';
import { skillRegistry } from '../src/core/domains/skills/registry';
import { loadTokenCounter, type TokenCounter } from '../src/core/domains/skills/tokens';
import { Workspace } from '../src/core/ground/workspace';
import { type BenchTable, median, ms, percentile, ratio } from './lib';

const repo = path.join(__dirname, '..');
const bundledSkillsDir = path.join(repo, 'skills');

/** The catalog as the extension serves it, plus `extra` tools. */
function fullCatalog(extra: AnyTool[] = []): ToolCatalog {
  return new ToolCatalog([...allTools, ...extra]);
}

export async function run(): Promise<BenchTable[]> {
  const counter = await loadTokenCounter();
  const temp = mkdtempSync(path.join(os.tmpdir(), 'as-bench-agent-'));
  try {
    return [await promptTable(temp, counter), await coldStartTable(temp, counter), await pipelineTable(temp)];
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

async function openWorkspace(temp: string, name: string): Promise<Workspace> {
  const dir = path.join(temp, name);
  cpSync(path.join(repo, 'test/fixtures/sample-workspace'), dir, { recursive: true });
  return Workspace.open(dir, { bundledSkillsDir });
}

// ------------------------------------------------------------------ system prompt

async function promptTable(temp: string, counter: TokenCounter): Promise<BenchTable> {
  const ws = await openWorkspace(temp, 'prompt');
  try {
    const catalog = fullCatalog();
    const toolbox = catalogToolbox({ catalog, ws, context: { actor: 'copilot_agent', channel: 'test' } });
    const tools = toolbox.specs.map((t) => ({ name: t.name, summary: t.description }));
    const skills = skillRegistry(ws).list();
    const plain = buildSystemPrompt({ tools, skills, counter });
    const text = buildSystemPrompt({ tools, skills, counter, textProtocol: true, command: 'coldstart' });
    const specsLevel1 = counter.count(JSON.stringify(toolbox.specs));
    const specsFull = counter.count(
      JSON.stringify(
        catalog.agentTools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: catalog.inputSchema(t),
        })),
      ),
    );
    const fullDescriptions = counter.count(catalog.agentTools.map((t) => `- ${t.name}: ${t.description}`).join('\n'));
    const allSkillsWhole = counter.count(skills.map((s) => s.text).join('\n\n'));
    return {
      title: 'Agent system prompt (tokens, o200k_base)',
      columns: ['part', 'tokens', 'note'],
      rows: [
        ['intro + rules (task → skill to load first)', plain.parts.intro + plain.parts.rules, ''],
        [
          `tools, level 1 (${plain.tools.listed} tools, one line each)`,
          plain.parts.tools,
          `${plain.tools.omitted.length} left out`,
        ],
        [
          `skills, level 1 (${skills.length} skills)`,
          plain.parts.skills,
          `${plain.skills.shortened.length} shortened, ${plain.skills.omitted.length} left out`,
        ],
        ['whole system prompt (native tool calling)', plain.tokens, `budget ${plain.maxTokens}`],
        [
          'whole system prompt (/coldstart, text protocol)',
          text.tokens,
          `+${text.parts.command} command, +${text.parts.protocol} protocol`,
        ],
        [
          "  alternative: every tool's full description instead of level 1",
          fullDescriptions,
          ratio(plain.parts.tools, fullDescriptions).replace('faster', 'smaller'),
        ],
        [
          '  alternative: every SKILL.md whole instead of level 1',
          allSkillsWhole,
          ratio(plain.parts.skills, allSkillsWhole).replace('faster', 'smaller'),
        ],
        [
          'native tool definitions per request (level-1 description + schema)',
          specsLevel1,
          `${toolbox.specs.length} tools`,
        ],
        [
          '  alternative: full descriptions + schema',
          specsFull,
          ratio(specsLevel1, specsFull).replace('faster', 'smaller'),
        ],
      ],
      notes: [
        'The prompt is bounded: over budget, skill descriptions are cut to their first sentence, then skills and tools are left out with a note naming how to list them.',
      ],
    };
  } finally {
    await ws.dispose();
  }
}

// ------------------------------------------------------------------ scripted cold start

/** Counts what each request sends and receives; routes the tools' own model calls to a second script. */
class MeteredModel implements ChatModel {
  readonly id = 'metered';
  readonly name = 'metered scripted model';
  inputTokens = 0;
  outputTokens = 0;
  largestRequest = 0;
  requests = 0;
  constructor(
    private readonly agent: ScriptedModel,
    private readonly tools: ScriptedModel,
    private readonly counter: TokenCounter,
  ) {}
  get supportsToolCalling(): boolean {
    return this.agent.supportsToolCalling;
  }
  async send(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const input = this.counter.count(requestText(request));
    this.inputTokens += input;
    this.largestRequest = Math.max(this.largestRequest, input);
    this.requests++;
    const response = await (request.purpose === 'react' ? this.agent : this.tools).send(request, signal);
    this.outputTokens += this.counter.count(
      response.text + response.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join(''),
    );
    return response;
  }
}

async function coldStartTable(temp: string, counter: TokenCounter): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  for (const protocol of ['native', 'text'] as const) {
    const ws = await openWorkspace(temp, `coldstart-${protocol}`);
    try {
      const catalog = fullCatalog();
      const agentScript = new ScriptedModel(
        [
          {
            text: 'I will load the cold-start guide first.',
            toolCalls: [{ name: 'autosnippet_load_skill', input: { name: 'autosnippet-coldstart', section: 'Steps' } }],
          },
          {
            text: 'Now the full cold-start pipeline.',
            toolCalls: [{ name: 'autosnippet_run_pipeline', input: { name: 'bootstrap_full_pipeline' } }],
          },
          {
            text:
              'Cold start done: the candidates are waiting for your review in the Candidates view, the project profile first.',
          },
        ],
        { supportsToolCalling: protocol === 'native' },
      );
      const refine = new ScriptedModel(
        Array.from({ length: 20 }, () => (req: ChatRequest) => {
          const ids = [
            ...new Set(
              [...textOf(req.messages[req.messages.length - 1]).matchAll(/"id": "(cand-[0-9a-f]+)"/g)].map((m) => m[1]),
            ),
          ];
          return {
            text: JSON.stringify(
              ids.map((id) => ({
                id,
                summary: `A sharper, project-specific summary of ${id}.`,
                insight: 'Why it matters here.',
                confidence: 0.7,
                tags: ['cold-start'],
              })),
            ),
          };
        }),
      );
      const model = new MeteredModel(agentScript, refine, counter);
      const toolbox = catalogToolbox({ catalog, ws, context: { actor: 'copilot_agent', channel: 'test', model } });
      const system = buildSystemPrompt({
        tools: toolbox.specs.map((t) => ({ name: t.name, summary: t.description })),
        skills: skillRegistry(ws).list(),
        counter,
        textProtocol: protocol === 'text',
        command: 'coldstart',
      });
      const t0 = performance.now();
      const result = await runAgent({
        model,
        toolbox,
        system: system.text,
        prompt: 'Set up AutoSnippet for this workspace.',
      });
      const elapsed = performance.now() - t0;
      const pipeline = result.toolCalls.find((c) => c.call.name.endsWith('run_pipeline'));
      rows.push([
        protocol === 'native' ? 'native tool calls' : 'text protocol (```action)',
        model.requests,
        `${result.requests} + ${model.requests - result.requests}`,
        result.rounds,
        model.inputTokens,
        model.outputTokens,
        model.largestRequest,
        result.stoppedBy,
        pipeline?.ok ? 'ok' : 'failed',
        ms(elapsed),
      ]);
    } finally {
      await ws.dispose();
    }
  }
  return {
    title: 'Scripted cold start: @autosnippet /coldstart on test/fixtures/sample-workspace (tokens, o200k_base)',
    columns: [
      'protocol',
      'model requests',
      'agent + tool requests',
      'tool rounds',
      'input tokens (sum)',
      'output tokens',
      'largest request',
      'stopped by',
      'pipeline',
      'wall time',
    ],
    rows,
    notes: [
      'Script: load_skill autosnippet-coldstart (section Steps) → run_pipeline bootstrap_full_pipeline (bootstrap_knowledge → enrich_candidates ∥ load_skill reference → refine_bootstrap_candidates, whose own model request is answered by the script) → final answer.',
      'Input tokens count everything each request carries: system prompt, history, tool results and, for native calls, the tool definitions.',
    ],
  };
}

// ------------------------------------------------------------------ pipeline overhead

async function pipelineTable(temp: string): Promise<BenchTable> {
  const noop = async (tool: string, params: Record<string, unknown>): Promise<ToolResult> => ({
    ok: true,
    tool,
    data: { params, items: [1, 2, 3] },
  });
  const shapes: { name: string; steps: PipelineStep[] }[] = [
    {
      name: '50 independent steps (1 layer)',
      steps: Array.from({ length: 50 }, (_, i) => ({ id: `s${i}`, tool: 't' })),
    },
    {
      name: 'chain of 50 steps (50 layers, a reference each)',
      steps: Array.from({ length: 50 }, (_, i) => ({
        id: `s${i}`,
        tool: 't',
        ...(i ? { dependsOn: [`s${i - 1}`], params: { prev: `s${i - 1}:items[0]` } } : {}),
      })),
    },
    {
      name: '10 layers × 5 steps, references and a when each',
      steps: Array.from({ length: 50 }, (_, i) => {
        const layer = Math.floor(i / 5);
        const deps = layer ? Array.from({ length: 5 }, (_, k) => `s${(layer - 1) * 5 + k}`) : [];
        return {
          id: `s${i}`,
          tool: 't',
          dependsOn: deps,
          when: (ctx) => ctx.status(deps[0] ?? 's0') !== 'failed',
          params: deps.length ? { all: `${deps[0]}:items.*` } : {},
        } as PipelineStep;
      }),
    },
  ];
  const rows: (string | number)[][] = [];
  for (const shape of shapes) {
    const def: PipelineDefinition = { name: shape.name, summary: '', steps: shape.steps };
    const direct: number[] = [];
    const piped: number[] = [];
    for (let i = 0; i < 60; i++) {
      let t0 = performance.now();
      for (const s of shape.steps) await noop(s.tool, {});
      direct.push(performance.now() - t0);
      t0 = performance.now();
      await runPipeline(def, { execute: noop });
      piped.push(performance.now() - t0);
    }
    const perStep = (median(piped.slice(10)) - median(direct.slice(10))) / shape.steps.length;
    rows.push([
      `engine: ${shape.name}`,
      ms(median(piped.slice(10))),
      ms(percentile(piped.slice(10), 95)),
      `${(perStep * 1000).toFixed(1)} µs`,
    ]);
  }

  // Through the catalog: each step a catalog.invoke of a read tool, against the same calls made directly.
  const ws = await openWorkspace(temp, 'pipeline');
  try {
    const touch = defineTool({
      name: 'bench_touch',
      title: 'touch',
      domain: 'bench',
      summary: 's',
      description: 'd',
      access: 'read',
      maxOutputChars: 4000,
      inputSchema: Input({ n: Opt(Type.Integer()) }),
      outputSchema: Out({ n: Type.Integer(), items: Type.Array(Type.Integer()) }),
      handler: (_ws, input) => ({ n: input.n ?? 0, items: [1, 2, 3] }),
    });
    const catalog = new ToolCatalog([touch]);
    const steps: PipelineStep[] = Array.from({ length: 20 }, (_, i) => ({
      id: `s${i}`,
      tool: 'bench_touch',
      params: { n: i },
      ...(i % 4 ? { dependsOn: [`s${i - 1}`] } : {}),
    }));
    const def: PipelineDefinition = { name: 'catalog-bench', summary: '', steps };
    const ctx = { actor: 'copilot_agent' as const, channel: 'test' as const };
    const direct: number[] = [];
    const piped: number[] = [];
    for (let i = 0; i < 60; i++) {
      let t0 = performance.now();
      for (const s of steps) await catalog.invoke(ws, s.tool, s.params, ctx);
      direct.push(performance.now() - t0);
      t0 = performance.now();
      await runCatalogPipeline(catalog, ws, def, {}, ctx);
      piped.push(performance.now() - t0);
    }
    const perStep = (median(piped.slice(10)) - median(direct.slice(10))) / steps.length;
    rows.push([
      `run_pipeline through the catalog: 20 steps (5 layers of 4), vs 20 direct catalog.invoke`,
      ms(median(piped.slice(10))),
      ms(percentile(piped.slice(10), 95)),
      `${(perStep * 1000).toFixed(1)} µs`,
    ]);
  } finally {
    await ws.dispose();
  }
  return {
    title: 'TaskPipeline overhead (no-op tools: the engine alone)',
    columns: ['pipeline', 'p50 (whole run)', 'p95 (whole run)', 'overhead per step vs direct calls (p50)'],
    rows,
    notes: [
      'Overhead = (pipeline run − the same tool calls made one after another) ÷ steps. It covers planning (validation, cycle check, layers), reference resolution, events and the compact summary; parallel layers can make it negative when tools wait on I/O (these do not).',
    ],
  };
}
