/**
 * The one registry of error codes. Every `code` AutoSnippet answers with is a key here, with what it
 * means and what to do; the table in docs/reference.md is checked against it (test/unit/kernel.test.ts), and
 * the type `ErrorCode` makes the compiler refuse a code that is not listed.
 */
export const ERROR_CODES = {
  // input and catalog
  INVALID_INPUT: {
    meaning:
      "The arguments do not match the tool's input schema (a field is missing, of the wrong type, too long, too deep, or unknown).",
    action: 'Read `field` and `hint`, fix that argument and call again; get_tool_info gives the schema.',
  },
  UNKNOWN_TOOL: {
    meaning: 'No tool has that name.',
    action: 'Use one of the closest names in the hint; capabilities lists every tool.',
  },
  DOMAIN_NOT_FOUND: {
    meaning: 'capabilities was asked for a domain that does not exist.',
    action: 'Pass one of the domains the hint lists, or none.',
  },
  OUTPUT_TOO_LARGE: {
    meaning: 'A result could not be cut to fit its bound.',
    action: 'Ask for less: a filter, a smaller limit, one section or chunk.',
  },
  NOT_FOUND: {
    meaning: 'A named thing (a target, a graph node, a file) does not exist.',
    action: 'Use one of the names the hint or `details.available` lists.',
  },
  CANCELLED: {
    meaning: 'The call was cancelled before it finished; nothing was recorded.',
    action: 'Call again when you want it to run.',
  },
  TIMEOUT: {
    meaning: 'Work ran past its time limit and was stopped.',
    action: 'Narrow the work (fewer files, a smaller input) or try again.',
  },
  RESOURCE_LIMIT: {
    meaning: 'Work on a worker thread needed more memory than the thread may use and was stopped.',
    action: 'Narrow the work (fewer or smaller files); a project rule named in the answer may need a simpler pattern.',
  },
  INTERNAL: {
    meaning: 'A bug in AutoSnippet.',
    action: 'Report it with the AutoSnippet log; other tools keep working.',
  },
  NO_WORKSPACE: {
    meaning: 'No folder is open, so there is no workspace to serve.',
    action: 'Open a folder on disk in VS Code, then try again.',
  },
  // the Gateway
  PERMISSION_DENIED: {
    meaning:
      "The tool is for people only (approve, publish, deprecate, delete, install) and an agent called it; or another MCP server's tool was denied by its configuration or declined by the person asked.",
    action:
      'Propose the change instead (submit_candidate); a person approves it in VS Code or with the CLI. A declined call: do not repeat it unless the person asks.',
  },
  CONFIRMATION_REQUIRED: {
    meaning: 'The tool cannot be undone and needs `confirm: true`.',
    action: 'Ask the person, then call again with confirm: true.',
  },
  BATCH_TOO_LARGE: {
    meaning: 'A batch write has more items than the tool takes.',
    action: 'Split it into smaller calls.',
  },
  GATEWAY_UNAVAILABLE: {
    meaning: 'The write was refused because the Gateway could not record it in the audit log.',
    action: 'Make `.autosnippet/audit/` writable, then try again; nothing was changed.',
  },
  // store
  STORE_LOCKED: {
    meaning: 'Another process held the database lock for too long.',
    action: 'Try again in a moment; if it persists, close the other AutoSnippet processes.',
  },
  STORE_CORRUPT: {
    meaning: 'The database file is damaged.',
    action: 'It was moved aside and a fresh one created; rebuild_index restores the recipes from their files.',
  },
  STORE_UNAVAILABLE: {
    meaning:
      'The database cannot be used at all (a folder or a file where `.autosnippet/` or its database should be, a Node.js without zlib.crc32, an open that failed).',
    action:
      'Do what the message says (move the file or folder it names, install Node.js 20.15 or newer); tools that need no database keep working.',
  },
  // reading the repository (the file service)
  NOT_A_REGULAR_FILE: {
    meaning: 'A FIFO, socket, device or folder was found where a file was expected; it was never opened.',
    action: 'Replace it with a regular file, or leave it: it is skipped.',
  },
  FILE_TOO_LARGE: {
    meaning:
      'A file is over the size cap of its kind (a recipe, a skill, a rule file, a source file) and was not read.',
    action: 'Make the file smaller or split it; the message gives its size and the cap.',
  },
  READ_TIMEOUT: {
    meaning: 'Reading a file did not finish within its deadline; it was left out.',
    action: 'Check the disk or network share the file is on, then try again.',
  },
  UNREADABLE_FILE: {
    meaning: 'A file or folder exists but cannot be read (permissions, an I/O error).',
    action: 'Check its permissions.',
  },
  INVALID_YAML: {
    meaning: 'YAML (front matter, a skill header) does not parse, or exceeds the alias, size or depth limits.',
    action: 'Fix the YAML at the line named in the message.',
  },
  INVALID_JSON: {
    meaning: 'A JSON file does not parse, or exceeds the size or depth limits.',
    action: 'Fix the JSON at the line named in the message.',
  },
  INVALID_IGNORE_LINE: {
    meaning:
      'A line of a `.gitignore` (or the excludes setting) could not be applied (too long, too many `**`, too many patterns); the other lines apply.',
    action: 'Shorten or simplify the line named in the problem.',
  },
  LISTING_BOUNDED: {
    meaning:
      'Listing the workspace stopped at a bound (time, number of files, depth); the files after it are not listed.',
    action: 'List generated or vendored folders in .gitignore, or open a smaller folder.',
  },
  PROBLEMS_OMITTED: {
    meaning: 'More problems of the same kinds were found than are listed.',
    action: 'Fix the ones listed first; the count says how many more there are.',
  },
  // skills
  SKILL_NOT_FOUND: {
    meaning: 'No skill has that name.',
    action: 'Use a name from list_skills or search_skills; the closest names are listed.',
  },
  SECTION_NOT_FOUND: {
    meaning: 'The skill has no `##` section with that heading.',
    action: 'Use one of the headings listed in the answer, or load the whole skill.',
  },
  CHUNK_NOT_FOUND: {
    meaning: 'The skill has no chunk with that id.',
    action: 'Use one of the chunk ids load_skill lists.',
  },
  RESOURCE_NOT_FOUND: {
    meaning: 'The skill folder has no file at that path.',
    action: 'Use one of the files load_skill lists under `files`.',
  },
  PATH_OUTSIDE_SKILL: {
    meaning: "The path leads outside the skill's folder (absolute, `..` or a link).",
    action: 'Give a path relative to the skill folder.',
  },
  INVALID_SKILL: {
    meaning: 'The skill does not pass validation (its SKILL.md has errors).',
    action: 'Fix the problems listed in `details`; `autosnippet skills validate` shows them too.',
  },
  SKILL_EXISTS: {
    meaning: 'A skill of that name is already installed.',
    action: 'Pass overwrite: true to replace it, or choose another name.',
  },
  SCRIPTS_DISABLED: {
    meaning: 'Skill scripts may not run here (untrusted workspace, or autosnippet.skills.allowScripts is off).',
    action: 'Read the script with read_skill_resource and follow it by hand, or ask the person to allow scripts.',
  },
  BUDGET_EXCEEDED: {
    meaning: 'The text is larger than the `maxTokens` budget.',
    action: 'Load one section or chunk, raise maxTokens, or pass truncate: true.',
  },
  // knowledge
  RECIPE_NOT_FOUND: {
    meaning: 'No recipe has that id, trigger or file.',
    action: 'Use one of the closest ids listed; search finds recipes by meaning.',
  },
  CANDIDATE_NOT_FOUND: { meaning: 'No candidate has that id.', action: 'Use an id from list_candidates.' },
  INVALID_RECIPE_FILE: {
    meaning: 'A recipe file (or draft) cannot be read: bad front matter or a field of the wrong kind.',
    action: 'Fix the file and field named in the message.',
  },
  INVALID_TRANSITION: {
    meaning: 'The lifecycle does not allow that change (e.g. approving a rejected candidate).',
    action: 'Check the status first; the message says which transitions are allowed.',
  },
  CONFLICT: {
    meaning:
      'A file changed on disk between reading it and writing it back (another editor, a git checkout); nothing was written.',
    action: 'Check the thing again (it was re-read) and repeat the change.',
  },
  DUPLICATE: {
    meaning: 'The change would create something that already exists.',
    action: 'Use the existing one named in the message, or change the title or code.',
  },
  // export to agents' instruction files
  EXPORT_BLOCK_DAMAGED: {
    meaning:
      "An instruction file's autosnippet:begin / autosnippet:end markers do not pair up, so the exported block cannot be found safely; nothing was written to it.",
    action: 'Fix or remove the markers in the file the message names, then export again.',
  },
  EXPORT_UNSAFE_PATH: {
    meaning: 'An export destination is a link out of the workspace or not a regular file; nothing was written to it.',
    action: 'Replace the link by a regular file, or export to another target.',
  },
  EXPORT_FILE_TOO_LARGE: {
    meaning: 'An existing instruction file is over the size an export updates; nothing was written to it.',
    action: 'Shorten the file the message names, or export to another target.',
  },
  // guard
  GUARD_DISABLED: {
    meaning: 'Guard is turned off for this workspace.',
    action: 'Turn on the autosnippet.guard.enabled setting.',
  },
  RULE_NOT_FOUND: {
    meaning: 'No guard rule has that id.',
    action: 'Use one of the closest ids listed; guard_rules lists them all.',
  },
  PATH_OUTSIDE_WORKSPACE: {
    meaning: 'The path leads outside the workspace.',
    action: 'Give a path inside the workspace, relative to its root.',
  },
  INVALID_RULE: {
    meaning: 'A project guard rule is malformed (a missing field, a regex that does not compile).',
    action: 'Fix the rule named in the problem; schemas/guard-rules.schema.json describes the format.',
  },
  UNSAFE_PATTERN: {
    meaning: "A guard rule's regular expression can backtrack catastrophically and was refused.",
    action: 'Rewrite the pattern without nested or overlapping quantifiers.',
  },
  DUPLICATE_RULE: { meaning: 'Two guard rules have the same id; the first wins.', action: 'Rename one of them.' },
  UNREADABLE_RULES: {
    meaning: 'A guard rule file is not valid JSON.',
    action: 'Fix the JSON of the file named in the problem.',
  },
  UNTRUSTED_RULES: {
    meaning:
      'The folder is not trusted, so its own guard rules (regular expressions and queries it brings) did not run; the built-in rules did.',
    action:
      'If you trust the repository, run `autosnippet trust` (or pass --trust in CI), or trust the folder in VS Code.',
  },
  RULE_OVERRAN: {
    meaning:
      'A project guard rule ran past its time or memory limit and was turned off until its rule file changes; the other rules still ran.',
    action:
      'Rewrite the pattern so it cannot backtrack (anchor it, avoid nested or overlapping repetitions), then save the rule file.',
  },
  INVALID_BASELINE: {
    meaning: 'The guard baseline (.autosnippet/guard/baseline.json) is not valid: every finding counts as new.',
    action: 'Fix the file, or write it again with autosnippet guard --baseline write.',
  },
  MCP_SERVER_UNAVAILABLE: {
    meaning: 'Another MCP server could not be started or reached, or it went away during the call.',
    action:
      'Check its entry in .autosnippet/mcp.json or ~/.autosnippet/mcp.json; list_mcp_servers shows its state and when it is tried again.',
  },
  NEEDS_APPROVAL: {
    meaning: 'The call may change things and its permission is `ask`: a person approves each one.',
    action:
      'Ask the person to run it (the CLI, or VS Code after its confirmation) or to allow the tool in ~/.autosnippet/mcp.json.',
  },
  // custom tools (.autosnippet/tools)
  CUSTOM_TOOLS_UNTRUSTED: {
    meaning: 'The folder is not trusted, so its custom tools (.autosnippet/tools) are not loaded and do not run.',
    action:
      "If you trust the repository, trust the folder (VS Code's workspace trust, or `autosnippet trust`), then approve each tool file.",
  },
  CUSTOM_TOOL_NOT_APPROVED: {
    meaning: 'No person has confirmed this custom tool file, so it does not run; an agent cannot confirm it.',
    action:
      'Ask the person to read and approve it: `autosnippet tools approve FILE`, or AutoSnippet: Approve Custom Tools in VS Code.',
  },
  CUSTOM_TOOL_CHANGED: {
    meaning: 'The custom tool file changed since a person approved it (its SHA-256 differs), so it does not run.',
    action: 'Ask the person to review the change and approve the file again.',
  },
  INVALID_CUSTOM_TOOL: {
    meaning:
      'A custom tool file does not load, or does not export a valid definition (a description, a JSON Schema of its input, a handler).',
    action: 'Fix the file the message names; list_tools shows the problem of each custom tool.',
  },
  // knowledge packs
  PACK_TAMPERED: {
    meaning:
      "A knowledge pack's content (its cache on this machine, or the tarball or commit fetched) does not match the hash pinned in .autosnippet/packs.json; nothing is loaded from it.",
    action:
      'If you did not change it, remove the cache folder named in the message and run `autosnippet packs install`; if the pack changed on purpose, `autosnippet packs update NAME` pins the new content after showing what changed.',
  },
  PACK_NOT_CACHED: {
    meaning: ".autosnippet/packs.json pins a knowledge pack that is not in this machine's cache yet; it is not loaded.",
    action:
      'Run `autosnippet packs install` to fetch the pinned packs (from npm or git) and check them against their pins.',
  },
  PACK_FETCH_FAILED: {
    meaning: 'A knowledge pack could not be fetched (npm pack or git clone failed, or the source is not a pack).',
    action: 'Read the message: check the name, version, URL or path, and the network for npm and remote git sources.',
  },
  // agent and models
  PIPELINE_NOT_FOUND: {
    meaning: 'No built-in pipeline has that name.',
    action: 'Use one of the pipelines run_pipeline lists.',
  },
  PIPELINE_INVALID: {
    meaning: 'A pipeline definition is malformed (a cycle, an unknown step).',
    action: 'A bug in the pipeline: report it.',
  },
  PARAMS_FAILED: {
    meaning: 'The arguments of a pipeline step could not be computed from the earlier steps.',
    action: "Look at the earlier steps' errors in the answer.",
  },
  TOOL_FAILED: {
    meaning: 'A tool the agent called threw instead of answering.',
    action: 'Read the message; try the call again or another tool.',
  },
  NO_MODEL: {
    meaning: 'No language model is available on this channel.',
    action: 'Pick a model in the chat (Copilot), or run the prompt yourself from the diagnostic answer.',
  },
  MODEL_NO_PERMISSION: {
    meaning: 'AutoSnippet may not use the model.',
    action: 'Allow AutoSnippet to use the model when VS Code asks, or pick another model.',
  },
  MODEL_BLOCKED: {
    meaning: 'The model refused the request (quota, rate limit, content filter).',
    action: 'Wait a moment, or pick another model.',
  },
  MODEL_NOT_FOUND: { meaning: 'The model is no longer available.', action: 'Pick another model.' },
  MODEL_FAILED: { meaning: 'The model request failed.', action: 'Try again, or pick another model.' },
  MODEL_BAD_ANSWER: {
    meaning: 'The model answered with something that could not be used.',
    action: 'Try again, or pick another model.',
  },
} as const satisfies Record<string, { meaning: string; action: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/** An error a model or a person can act on: a stable code, a message, and a hint saying what to do. */
export class AutoSnippetError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AutoSnippetError';
  }
}

/** Named constants for the codes used most, so call sites read as words. */
export const ErrorCode = {
  InvalidInput: 'INVALID_INPUT',
  UnknownTool: 'UNKNOWN_TOOL',
  NotFound: 'NOT_FOUND',
  PermissionDenied: 'PERMISSION_DENIED',
  StoreLocked: 'STORE_LOCKED',
  StoreCorrupt: 'STORE_CORRUPT',
  /** The database cannot be used at all (a folder where its file should be, a Node.js without zlib.crc32…). */
  StoreUnavailable: 'STORE_UNAVAILABLE',
  Internal: 'INTERNAL',
  Cancelled: 'CANCELLED',
  OutputTooLarge: 'OUTPUT_TOO_LARGE',
  /** A path (or the link it goes through) leads outside the workspace. */
  PathOutsideWorkspace: 'PATH_OUTSIDE_WORKSPACE',
  /** A path (or the link it goes through) leads outside a skill's folder. */
  PathOutsideSkill: 'PATH_OUTSIDE_SKILL',
  /** A FIFO, socket, device or folder where a file was expected: never opened. */
  NotARegularFile: 'NOT_A_REGULAR_FILE',
  /** A file over the size cap of its kind (see core/ground/files/read.ts). */
  FileTooLarge: 'FILE_TOO_LARGE',
  /** A read that did not finish within its deadline. */
  ReadTimeout: 'READ_TIMEOUT',
  /** A file that exists but cannot be read (permissions, I/O error). */
  UnreadableFile: 'UNREADABLE_FILE',
  /** YAML or JSON that does not parse, or exceeds the alias, size or depth limits. */
  InvalidYaml: 'INVALID_YAML',
  InvalidJson: 'INVALID_JSON',
  /** Problems, not errors: a `.gitignore` line left out, a listing cut at a bound, a list of problems cut. */
  InvalidIgnoreLine: 'INVALID_IGNORE_LINE',
  ListingBounded: 'LISTING_BOUNDED',
  ProblemsOmitted: 'PROBLEMS_OMITTED',
  /** A recipe file whose frontmatter or fields cannot be read. */
  InvalidRecipeFile: 'INVALID_RECIPE_FILE',
  /** A file changed on disk between reading it and writing it back: nothing was written. */
  Conflict: 'CONFLICT',
  /** Export: an instruction file's autosnippet:begin / autosnippet:end markers do not pair up. */
  ExportBlockDamaged: 'EXPORT_BLOCK_DAMAGED',
  /** Export: a destination that is a link out of the workspace, or not a regular file. */
  ExportUnsafePath: 'EXPORT_UNSAFE_PATH',
  /** Export: an existing instruction file over the size an export updates. */
  ExportFileTooLarge: 'EXPORT_FILE_TOO_LARGE',
} as const satisfies Record<string, ErrorCode>;

export function isAutoSnippetError(e: unknown): e is AutoSnippetError {
  return e instanceof AutoSnippetError;
}
