/**
 * Diagnostic mode: what an AI-assisted tool answers when no model is available on this channel. It
 * says what is missing and hands over the exact prompt, so the calling agent can do the step itself
 * and send the answer back. Never an error.
 */
import type { TaskPrompt } from './tasks';

export interface DiagnosticAnswer {
  mode: 'diagnostic';
  reason: string;
  missing: string[];
  prompt: { system: string; user: string };
  answerFormat: string;
  /** How to hand the answer back. */
  next: string;
}

/** Why a model step cannot run here, and where a model would come from. */
export const NO_MODEL_CHANNEL =
  'No language model is available to AutoSnippet on this channel. Inside VS Code the @autosnippet chat lends the model picked in Copilot chat; an MCP client lends its model when it supports sampling.';

export const NO_MODEL_REASON =
  `${NO_MODEL_CHANNEL} You can do this step yourself: run the prompt below and pass the answer back as \`next\` says.`;

export function diagnosticAnswer(
  prompt: TaskPrompt,
  next: string,
  extra: Record<string, unknown> = {},
): DiagnosticAnswer & Record<string, unknown> {
  return {
    mode: 'diagnostic',
    reason: NO_MODEL_REASON,
    missing: ['model'],
    prompt: { system: prompt.system, user: prompt.user },
    answerFormat: prompt.answerFormat,
    next,
    ...extra,
  };
}
