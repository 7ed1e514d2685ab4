/**
 * The chat's slash commands as data: what each asks the agent to do and which skill it loads first.
 * The VS Code participant, the system prompt and package.json's `chatParticipants` use this one list.
 */

export interface AgentCommand {
  name: 'coldstart' | 'search' | 'guard' | 'skills' | 'create' | 'review' | 'remember';
  /** Shown in the chat's command list. */
  description: string;
  /** The skill to load before anything else. */
  skill: string;
  /** Added to the person's words: what this command means to the agent. */
  instruction: string;
  /** When the person typed nothing after the command. */
  defaultPrompt: string;
}

export const AGENT_COMMANDS: readonly AgentCommand[] = [
  {
    name: 'coldstart',
    description: 'Scan this workspace and propose its first recipes as candidates for review',
    skill: 'autosnippet-coldstart',
    instruction:
      'Cold start: load the skill autosnippet-coldstart (section "Steps"), then call write_coldstart_cards (it uses your model to write the cards from the scan evidence), and report the candidates it created per dimension, the flagged and refused ones, and what a person should review first.',
    defaultPrompt: 'Set up AutoSnippet for this workspace.',
  },
  {
    name: 'search',
    description: "Find the project's recipes for a task",
    skill: 'autosnippet-recipes',
    instruction:
      "Search the project's recipes for this task and show the ones that apply, with their trigger and where they live.",
    defaultPrompt: 'What recipes does this project have?',
  },
  {
    name: 'guard',
    description: "Check code against the project's guard rules, or propose a rule",
    skill: 'autosnippet-guard',
    instruction:
      "Check the code in question against the project's guard rules and explain each violation with its fix; to propose a new rule, use generate_guard_rule.",
    defaultPrompt: 'Check the current file against the guard rules.',
  },
  {
    name: 'skills',
    description: 'Find the skill for a task, or list the skills',
    skill: 'autosnippet-intent',
    instruction: 'Find the skills that fit this request (search_skills) and say in one line each when to use them.',
    defaultPrompt: 'Which skills are available?',
  },
  {
    name: 'create',
    description: 'Turn a piece of code or a convention into a recipe proposal',
    skill: 'autosnippet-create',
    instruction:
      'Turn what the person points at into one well-formed candidate (trigger, summary, usage guide, evidence) and submit it for review.',
    defaultPrompt: 'Save the selected code as a recipe.',
  },
  {
    name: 'review',
    description: 'Prepare pending candidates for a person to approve or reject',
    skill: 'autosnippet-lifecycle',
    instruction:
      'List the pending candidates, judge each one (evidence, duplicates, quality) and recommend approve or reject with a reason. You cannot approve or reject: the person does, with the buttons.',
    defaultPrompt: 'Which candidates are waiting for review?',
  },
  {
    name: 'remember',
    description: 'Publish a rule in your words as a project recipe (asks once)',
    skill: 'autosnippet-create',
    // The participant answers /remember itself (a preview and a Publish button): a person's own words
    // need no model and no review. An agent that reads this only proposes, with the remember tool.
    instruction:
      "Record the person's words as a rule with the remember tool; as an agent you only propose it, the person publishes it.",
    defaultPrompt: 'Remember this rule.',
  },
];

export function agentCommand(name: string | undefined): AgentCommand | undefined {
  return name ? AGENT_COMMANDS.find((c) => c.name === name) : undefined;
}
