/**
 * What the adapters (src/vscode, src/cli, src/mcp) may use of the core besides the catalog, the Workspace and
 * the kernel — one list, so the boundary is visible and can only shrink (test/unit/architecture.test.ts
 * refuses any other core import in an adapter). Everything here reads or renders; nothing writes:
 * every write goes through a catalog tool and the Gateway.
 */

export {
  settingDefault,
  SETTINGS,
  settingsFrom,
  settingsOutsideEditor,
  settingValuesOutsideEditor,
  widens,
} from '../ground/settings';
export type { SettingKey, Settings, SettingValue, SettingValues } from '../ground/settings';
export { readTrustStore, trustFolder, untrustFolder, userDataDir } from '../ground/trust';
export { VERSION } from '../ground/version';

// The @autosnippet chat participant runs the agent loop on VS Code's model: its types and the loop.
export { toTextProtocol } from '../domains/agent/action-protocol';
export { agentCommand } from '../domains/agent/commands';
export { candidatesIn, draftRecipesIn } from '../domains/agent/mentions';
export type { MentionedCandidate, MentionedRecipe } from '../domains/agent/mentions';
export { cancelledError, ChatModelError, ModelErrorCode } from '../domains/agent/model';
export type { ChatMessage, ChatModel, ChatPart, ChatRequest, ChatResponse, ToolCall } from '../domains/agent/model';
export { buildSystemPrompt, DEFAULT_PROMPT_TOKENS } from '../domains/agent/prompt';
export { runAgent } from '../domains/agent/react';
export type { AgentEvent, AgentRunResult } from '../domains/agent/react';
export { rankToolsByRelevance } from '../domains/agent/relevance';
export { combineToolboxes } from '../domains/agent/toolbox';
export type { AgentReference, AgentToolbox } from '../domains/agent/toolbox';
export type { BootstrapResult } from '../domains/bootstrap';
// `/coldstart` reads the report of write_coldstart_cards to summarise it in the chat.
export type { ColdstartCardsReport } from '../domains/agent/coldstart';
export { catalogToolbox, guardAnswerCheck } from './toolbox';

// Views and editors that follow live state: the skills tree and its Problems, guard squiggles as you type.
export { guardEngine } from '../domains/guard';
export { MAX_REVIEW_REASON } from '../domains/guard/baseline';
export type { GuardEngine, RuleStatus } from '../domains/guard/engine';
export { relPath } from '../domains/guard/files';
export { disableCommentFor } from '../domains/guard/fix';
export { guardLocale } from '../domains/guard/locale';
export { problemFile, problemLocation } from '../domains/guard/problem-location';
export { severityRank } from '../domains/guard/rule';
export type { Severity, Violation } from '../domains/guard/rule';
export type { RuleProblem } from '../domains/guard/rule';
export { isValidSkillName, nameProblems } from '../domains/skills/names';
export { skillRegistry } from '../domains/skills/registry';
export type { SkillRegistry } from '../domains/skills/registry';
export { catalogEntry, level2Of, renderRoutingXml, summaryOf } from '../domains/skills/render';
export { loadTokenCounter } from '../domains/skills/tokens';
export type {
  ShadowedSkill,
  Skill,
  SkillChunk,
  SkillProblem,
  SkillSection,
  SkillSource,
  SkippedSkill,
} from '../domains/skills/types';
export { validateSkillFolder, validateSkillText } from '../domains/skills/validate';
// The Recipes view's stale marks follow the code as it is edited: VS Code's file watcher feeds the changed
// files to the freshness tracker (in memory, it writes nothing) and listens for changed verdicts.
export { freshnessTracker } from '../domains/knowledge/freshness';
// A server readies recipe search when a workspace opens, so the first `search` is not the one that builds
// the index. It writes only the derived index (what every read tool's freshness check writes), never knowledge.
export { prepareRecipeSearch } from '../domains/retrieval/prepare';

// `autosnippet skills validate <dir>` lints any folder of skills, not only the workspace's.
export { errorCount, validateSkillTarget } from '../domains/skills/validate';

// Report formats of `autosnippet guard` (text, JSON, SARIF) over the engine's scan.
export { jsonReport, sarifReport, textReport } from '../domains/guard/report';
export type { ReportFormat } from '../domains/guard/report';

// The candidate editor shows a candidate in the recipe file format and reads it back.
export { candidateFromMarkdown, candidateMarkdown } from '../domains/knowledge/candidate-file';
export type { Candidate } from '../domains/knowledge/types';
export { rememberTool } from './remember';

// The review panel's checklist follows the edit form as it is typed (computed, never written), and its
// source links open a file only where the real path, links followed, is inside the workspace.
export { REVIEW_FORM_FIELDS, reviewChecklist } from '../domains/knowledge/checklist';
export type { ChecklistItem, ReviewFormField } from '../domains/knowledge/checklist';
export { realPathInside } from '../ground/files/paths';

// Inside VS Code the MCP servers VS Code runs are reached through its tool API, not a second connection:
// the extension hands them to the manager; calls still go through call_mcp_tool (the Gateway, a person's yes).
export { groupEditorTools } from '../domains/servers/host';
export type { EditorTool, HostServers } from '../domains/servers/host';
export { useHostMcpServers } from '../domains/servers/manager';

// The MCP server serves skills as resources and prompts (skill://name/SKILL.md, its chunks, sections and files).
export { findSection } from '../domains/skills/parse';
export { listSkillResources, mimeTypeOf, readSkillFile } from '../domains/skills/resources';
// `autosnippet mcp-config` refuses to write a client configuration outside the workspace or the user's folders.
export { destinationProblem } from '../domains/export/destination';
