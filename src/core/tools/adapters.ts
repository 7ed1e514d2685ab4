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
} from '../settings';
export type { SettingKey, Settings, SettingValue, SettingValues } from '../settings';
export { readTrustStore, trustFolder, untrustFolder, userDataDir } from '../trust';
export { VERSION } from '../version';

// The @autosnippet chat participant runs the agent loop on VS Code's model: its types and the loop.
export { toTextProtocol } from '../agent/action-protocol';
export { agentCommand } from '../agent/commands';
export { candidatesIn, draftRecipesIn } from '../agent/mentions';
export type { MentionedCandidate, MentionedRecipe } from '../agent/mentions';
export { cancelledError, ChatModelError, ModelErrorCode } from '../agent/model';
export type { ChatMessage, ChatModel, ChatPart, ChatRequest, ChatResponse, ToolCall } from '../agent/model';
export { buildSystemPrompt, DEFAULT_PROMPT_TOKENS } from '../agent/prompt';
export { runAgent } from '../agent/react';
export type { AgentEvent, AgentRunResult } from '../agent/react';
export { rankToolsByRelevance } from '../agent/relevance';
export { combineToolboxes } from '../agent/toolbox';
export type { AgentReference, AgentToolbox } from '../agent/toolbox';
export type { BootstrapResult } from '../bootstrap';
export { catalogToolbox, guardAnswerReviewer } from './toolbox';

// Views and editors that follow live state: the skills tree and its Problems, guard squiggles as you type.
export { guardEngine } from '../guard';
export { MAX_REVIEW_REASON } from '../guard/baseline';
export type { GuardEngine, RuleStatus } from '../guard/engine';
export { relPath } from '../guard/files';
export { disableCommentFor } from '../guard/fix';
export { guardLocale } from '../guard/locale';
export { problemFile, problemLocation } from '../guard/problem-location';
export { severityRank } from '../guard/rule';
export type { Severity, Violation } from '../guard/rule';
export type { RuleProblem } from '../guard/rule';
export { isValidSkillName, nameProblems } from '../skills/names';
export { skillRegistry } from '../skills/registry';
export type { SkillRegistry } from '../skills/registry';
export { catalogEntry, level2Of, renderRoutingXml, summaryOf } from '../skills/render';
export { loadTokenCounter } from '../skills/tokens';
export type {
  ShadowedSkill,
  Skill,
  SkillChunk,
  SkillProblem,
  SkillSection,
  SkillSource,
  SkippedSkill,
} from '../skills/types';
export { validateSkillFolder, validateSkillText } from '../skills/validate';
// The Recipes view's stale marks follow the code as it is edited: VS Code's file watcher feeds the changed
// files to the freshness tracker (in memory, it writes nothing) and listens for changed verdicts.
export { freshnessTracker } from '../knowledge/freshness';
// A server readies recipe search when a workspace opens, so the first `search` is not the one that builds
// the index. It writes only the derived index (what every read tool's freshness check writes), never knowledge.
export { prepareRecipeSearch } from '../retrieval/prepare';

// `autosnippet skills validate <dir>` lints any folder of skills, not only the workspace's.
export { errorCount, validateSkillTarget } from '../skills/validate';

// Report formats of `autosnippet guard` (text, JSON, SARIF) over the engine's scan.
export { jsonReport, sarifReport, textReport } from '../guard/report';
export type { ReportFormat } from '../guard/report';

// The candidate editor shows a candidate in the recipe file format and reads it back.
export { candidateFromMarkdown, candidateMarkdown } from '../knowledge/candidate-file';
export type { Candidate } from '../knowledge/types';
export { rememberTool } from './remember';

// The review panel's checklist follows the edit form as it is typed (computed, never written), and its
// source links open a file only where the real path, links followed, is inside the workspace.
export { realPathInside } from '../files/paths';
export { REVIEW_FORM_FIELDS, reviewChecklist } from '../knowledge/checklist';
export type { ChecklistItem, ReviewFormField } from '../knowledge/checklist';

// Inside VS Code the MCP servers VS Code runs are reached through its tool API, not a second connection:
// the extension hands them to the manager; calls still go through call_mcp_tool (the Gateway, a person's yes).
export { groupEditorTools } from '../servers/host';
export type { EditorTool, HostServers } from '../servers/host';
export { useHostMcpServers } from '../servers/manager';

// The MCP server serves skills as resources and prompts (skill://name/SKILL.md, its chunks, sections and files).
export { findSection } from '../skills/parse';
export { listSkillResources, mimeTypeOf, readSkillFile } from '../skills/resources';
// `autosnippet mcp-config` refuses to write a client configuration outside the workspace or the user's folders.
export { destinationProblem } from '../export/destination';
