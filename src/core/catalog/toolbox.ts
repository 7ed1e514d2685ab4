/**
 * The catalog as the agent's toolbox: the catalog's agent tools, every call through `catalog.invoke`
 * (validation, the output bound and, for writes, the Gateway).
 */
import {
  type AnswerEditCheck,
  type AnswerFinding,
  type AnswerReview,
  reviewAnswerEdits,
} from '../domains/agent/answer-check';
import type { ToolSpec } from '../domains/agent/model';
import { type AgentToolbox, referencesOf } from '../domains/agent/toolbox';
import { languageForPath } from '../ground/kernel/languages';
import type { Workspace } from '../ground/workspace';
import { TOOL_PREFIX, type ToolCatalog } from './catalog';
import type { ToolContext } from './types';

export interface CatalogToolboxOptions {
  catalog: ToolCatalog;
  ws: Workspace;
  /** Actor, channel, model, progress: passed to every call. */
  context: Omit<ToolContext, 'signal'>;
  /** Only these tools (names without the prefix); default: every tool an agent may use. */
  only?: readonly string[];
  /** Offer the tools as `autosnippet_<name>`, the names the skills use. Default true. */
  prefixed?: boolean;
}

/** The catalog as the agent's toolbox. Tool descriptions are the one-line summaries: get_tool_info has the rest. */
export function catalogToolbox(options: CatalogToolboxOptions): AgentToolbox {
  const { catalog, ws, context } = options;
  const prefix = options.prefixed === false ? '' : TOOL_PREFIX;
  const tools = catalog.agentTools.filter((t) => !options.only || options.only.includes(t.name));
  const specs: ToolSpec[] = tools.map((t) => ({
    name: prefix + t.name,
    description: t.summary,
    inputSchema: catalog.inputSchema(t),
  }));
  return {
    specs,
    async invoke(call, signal) {
      const result = await catalog.invoke(ws, call.name, call.input, { ...context, signal });
      return { ok: result.ok, text: catalog.resultText(result), result, references: referencesOf(ws, result) };
    },
  };
}

/**
 * The chat participant's check of the code its answers propose: each edit through the catalog's
 * guard_check (with `changedLines` for a diff), so what a person is shown has passed the project's rules.
 */
export function guardAnswerCheck(
  options: Omit<CatalogToolboxOptions, 'only' | 'prefixed'>,
): (answer: string, signal?: AbortSignal) => Promise<AnswerReview | undefined> {
  const { catalog, ws, context } = options;
  const check: AnswerEditCheck = async (edit, signal) => {
    const result = await catalog.invoke(ws, 'guard_check', { ...edit }, { ...context, signal });
    if (!result.ok) throw new Error(result.error.message);
    return (result.data as { violations: AnswerFinding[] }).violations;
  };
  return (answer, signal) => reviewAnswerEdits(answer, check, languageForPath, signal);
}
