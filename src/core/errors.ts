/** An error a model or a person can act on: a stable code, a message, and a hint saying what to do. */
export class AutoSnippetError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AutoSnippetError';
  }
}

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
  /** A file over the size cap of its kind (see core/files/read.ts). */
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
} as const;

export function isAutoSnippetError(e: unknown): e is AutoSnippetError {
  return e instanceof AutoSnippetError;
}
