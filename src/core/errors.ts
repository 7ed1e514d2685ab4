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
} as const;

export function isAutoSnippetError(e: unknown): e is AutoSnippetError {
  return e instanceof AutoSnippetError;
}
