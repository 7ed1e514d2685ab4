import { ErrorCode } from '../kernel/errors';

/** Something wrong with one file of the workspace, reported instead of thrown so the rest carries on. */
export interface FileProblem {
  /** Workspace-relative path of the file (or folder) at fault. */
  path: string;
  /** A stable code: the AutoSnippetError code of a failed read, or INVALID_IGNORE_LINE, LISTING_BOUNDED, PROBLEMS_OMITTED. */
  code: string;
  message: string;
}

/** Problems of one listing or load, bounded: a thousand broken files must not make a megabyte answer. */
export class ProblemList {
  private readonly items: FileProblem[] = [];
  private dropped = 0;

  constructor(private readonly max = 50) {}

  add(problem: FileProblem): void {
    if (this.items.length < this.max) this.items.push(problem);
    else this.dropped++;
  }

  addAll(problems: readonly FileProblem[]): void {
    for (const p of problems) this.add(p);
  }

  toArray(): FileProblem[] {
    if (this.dropped === 0) return [...this.items];
    return [...this.items, {
      path: '',
      code: ErrorCode.ProblemsOmitted,
      message: `${this.dropped} more problems of the same kinds are not listed.`,
    }];
  }
}

/** A failed read as a problem on that file. */
export function problemOf(path: string, e: unknown): FileProblem {
  const err = e as { code?: unknown; message?: unknown };
  return {
    path,
    code: typeof err.code === 'string' && /^[A-Z_]+$/.test(err.code) ? err.code : ErrorCode.UnreadableFile,
    message: String(err.message ?? e).slice(0, 500),
  };
}
