/**
 * The agent's system prompt: who it is, the rules (among them which skill to load first for a task),
 * the tools' level-1 catalog (one line each; get_tool_info gives the rest), the skills' level-1
 * catalog, and the text protocol when the model has no native tool calling. Measured in tokens and
 * kept within a budget: over it, skill descriptions are shortened first, then tools are left out with
 * a note that says how to find them.
 */
import { catalogOrder, renderCatalog } from '../skills/render';
import type { TokenCounter } from '../skills/tokens';
import type { Skill } from '../skills/types';
import { protocolInstructions } from './action-protocol';
import { agentCommand } from './commands';
import { MAX_TOOL_ROUNDS } from './react';

/** Task → the skill the agent must load before anything else. */
export const SKILL_FOR_TASK: readonly { task: string; skill: string }[] = [
  { task: 'cold start: first setup, an empty or stale knowledge base, /coldstart', skill: 'autosnippet-coldstart' },
  { task: 'analysing a target, module, directory or feature in depth', skill: 'autosnippet-analysis' },
  {
    task: 'submitting candidates, one or a batch, or fixing one that fails validation',
    skill: 'autosnippet-candidates',
  },
  { task: 'code standards: checking code, guard rules, violations', skill: 'autosnippet-guard' },
  { task: 'unsure which skill applies', skill: 'autosnippet-intent' },
];

export const DEFAULT_PROMPT_TOKENS = 4000;
export const DEFAULT_SKILLS_TOKENS = 1500;

export interface PromptTool {
  name: string;
  /** One line. */
  summary: string;
}

export interface SystemPromptOptions {
  tools: readonly PromptTool[];
  skills?: readonly Skill[];
  counter: TokenCounter;
  /** Budget for the whole prompt; default 4000 tokens. */
  maxTokens?: number;
  /** Budget for the skills catalog within it; default 1500 tokens. */
  skillsMaxTokens?: number;
  /** Add the ```action protocol (models without native tool calling). */
  textProtocol?: boolean;
  maxRounds?: number;
  /** The chat's slash command, when there is one. */
  command?: string;
}

export interface SystemPrompt {
  text: string;
  tokens: number;
  maxTokens: number;
  /** Tokens of each part, as measured alone. */
  parts: Record<string, number>;
  tools: { listed: number; omitted: string[] };
  skills: { included: string[]; shortened: string[]; omitted: string[] };
}

export function buildSystemPrompt(options: SystemPromptOptions): SystemPrompt {
  const { counter } = options;
  const maxTokens = options.maxTokens ?? DEFAULT_PROMPT_TOKENS;
  const maxRounds = options.maxRounds ?? MAX_TOOL_ROUNDS;
  const has = (suffix: string) => options.tools.find((t) => t.name === suffix || t.name.endsWith(`_${suffix}`))?.name;

  const fixed: [string, string][] = [
    ['intro', introText()],
    [
      'rules',
      rulesText(maxRounds, {
        loadSkill: has('load_skill'),
        runPipeline: has('run_pipeline'),
        toolInfo: has('get_tool_info'),
      }),
    ],
  ];
  const command = agentCommand(options.command);
  if (command) {
    fixed.push([
      'command',
      `## This request: /${command.name}\nLoad the skill ${command.skill} first. ${command.instruction}`,
    ]);
  }
  if (options.textProtocol) fixed.push(['protocol', protocolInstructions(maxRounds)]);

  const parts: Record<string, number> = {};
  for (const [name, text] of fixed) parts[name] = counter.count(text);
  const fixedTokens = counter.count(fixed.map(([, t]) => t).join('\n\n'));

  const tools = toolsBlock(options.tools, counter, maxTokens - fixedTokens - 2, has('get_tool_info'));
  parts.tools = counter.count(tools.text);

  let skillsBudget = Math.min(
    options.skillsMaxTokens ?? DEFAULT_SKILLS_TOKENS,
    maxTokens - fixedTokens - parts.tools - 4,
  );
  let text = '';
  let skills: SystemPrompt['skills'] = {
    included: [],
    shortened: [],
    omitted: (options.skills ?? []).map((s) => s.name),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const rendered = options.skills?.length && skillsBudget > 40
      ? renderCatalog(catalogOrder(options.skills), counter, { maxTokens: skillsBudget - 12, format: 'markdown' })
      : undefined;
    const skillsText = rendered
      ? `## Skills\nGuides for tasks; load one with ${
        has('load_skill') ?? 'load_skill'
      } before you start the task.\n${rendered.text}`
      : options.skills?.length
      ? `## Skills\n${options.skills.length} skills are available: call ${
        has('list_skills') ?? 'list_skills'
      } to see them.`
      : '';
    parts.skills = counter.count(skillsText);
    skills = rendered
      ? { included: rendered.included, shortened: rendered.shortened, omitted: rendered.omitted }
      : skills;
    text = [...fixed.map(([, t]) => t), tools.text, skillsText].filter(Boolean).join('\n\n');
    const over = counter.count(text) - maxTokens;
    if (over <= 0) break;
    skillsBudget -= over + 8;
  }
  return {
    text,
    tokens: counter.count(text),
    maxTokens,
    parts,
    tools: { listed: tools.listed, omitted: tools.omitted },
    skills,
  };
}

function introText(): string {
  return [
    "You are @autosnippet, the assistant for this project's AutoSnippet knowledge base, inside VS Code.",
    "AutoSnippet keeps the project's own knowledge with its code: recipes (reviewed patterns, rules and facts; Markdown files under .autosnippet/recipes), candidates (proposed knowledge waiting for a person's review), guard rules (checks on code) and skills (guides that say how to do a task well).",
  ].join('\n');
}

function rulesText(maxRounds: number, tools: { loadSkill?: string; runPipeline?: string; toolInfo?: string }): string {
  const load = tools.loadSkill ?? 'load_skill';
  return [
    '## Rules',
    `1. Before a task, load the skill it needs with ${load} (pass \`section\` to load one part):`,
    ...SKILL_FOR_TASK.map((m) => `   - ${m.task} → ${m.skill}`),
    '2. Ground every statement in this project: tool results, recipe files, `file:line` sources. Never invent recipes, rules or files.',
    '3. You propose; people decide. You cannot approve, reject, publish, deprecate or delete: say what the person should click instead.',
    `4. At most ${maxRounds} rounds of tool calls per request.${
      tools.runPipeline
        ? ` Where a pipeline does the job (${tools.runPipeline} {"name": "bootstrap_full_pipeline"} for a cold start), run it instead of its steps one by one.`
        : ''
    }`,
    `5. Tool results are JSON {ok, data} or {ok: false, error: {code, message, hint}}: follow the hint. A result marked "truncated" says how to get the rest.${
      tools.toolInfo ? ` For a tool's full description and arguments call ${tools.toolInfo}.` : ''
    }`,
    '6. Answer briefly, in the language the person wrote in: what you did, what you found, what they should review next.',
  ].join('\n');
}

function toolsBlock(
  tools: readonly PromptTool[],
  counter: TokenCounter,
  budget: number,
  toolInfo: string | undefined,
): { text: string; listed: number; omitted: string[] } {
  const head = `## Tools\nOne line each${
    toolInfo ? `; ${toolInfo} {"name": "<tool>"} gives a tool's full description and arguments` : ''
  }.`;
  const lines = tools.map((t) => `- ${t.name}: ${t.summary.replace(/\s+/g, ' ').trim()}`);
  let listed = lines.length;
  const compose = (n: number) => {
    const note = n < lines.length
      ? `\n_${lines.length - n} more tools are not listed: call capabilities to see them all._`
      : '';
    return `${head}\n${lines.slice(0, n).join('\n')}${note}`;
  };
  while (listed > 0 && counter.count(compose(listed)) > budget) listed--;
  return { text: compose(listed), listed, omitted: tools.slice(listed).map((t) => t.name) };
}
