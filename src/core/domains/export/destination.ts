/**
 * Where an export may write, and the write itself. An export never writes through a link: an
 * instruction file that is a link, or a folder on its way that is one, puts the block in a file
 * other than the one its name says (a committed `AGENTS.md → .git/config` would break git, inside
 * the workspace as much as outside it). Such a destination is refused, naming the link and where it
 * leads. The check is repeated just before the write, and the write itself follows no link at the
 * file (see writeFileAtomic); a link swapped into a folder between that check and the rename is
 * the one window left, as Node.js has no openat/renameat to close it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { writeFileAtomic } from '../../ground/store/files';

export interface DestinationProblem {
  /** What is wrong and what to do, naming the file (and the link on its way, with its target). */
  refusal: string;
  /** When the destination itself is a link that resolves: the real path it leads to. */
  linksTo?: string;
}

/** Who is writing, as the refusal names it, and what a person does once the file is fixed. */
export interface Writer {
  name: string;
  goal: string;
}

const EXPORT: Writer = { name: 'export', goal: 'export to it' };

/** Why `rel` (a `/`-separated path under `root`) must not be written, or undefined when it may. */
export function destinationProblem(root: string, rel: string, writer: Writer = EXPORT): DestinationProblem | undefined {
  const parts = rel.split('/');
  let abs = root;
  for (let i = 0; i < parts.length; i++) {
    abs = path.join(abs, parts[i]);
    const here = parts.slice(0, i + 1).join('/');
    const last = i === parts.length - 1;
    const st = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return undefined;
    if (st.isSymbolicLink()) return linkProblem(root, abs, here, rel, writer);
    if (!last && !st.isDirectory()) return { refusal: `${here} is not a folder, so ${rel} cannot be written.` };
    if (last && !st.isFile()) {
      return {
        refusal: `${rel} is not a regular file; ${writer.name} writes only regular files, so it was not written.`,
      };
    }
    // The write replaces the file, so writing a read-only one would leave it writable.
    if (last && (st.mode & 0o200) === 0) {
      return {
        refusal: `${rel} is read-only (mode ${
          (st.mode & 0o777).toString(8).padStart(4, '0')
        }); ${writer.name} does not change a file's permissions, so it was not written. Make it writable (chmod u+w ${rel}) to ${writer.goal}.`,
      };
    }
  }
  return undefined;
}

function linkProblem(root: string, abs: string, here: string, rel: string, writer: Writer): DestinationProblem {
  const { shown, real } = linkTarget(root, abs);
  if (here === rel) {
    return {
      refusal:
        `${rel} is a link to ${shown}; ${writer.name} does not write through links, so it was not written. Replace the link by a file to ${writer.goal}.`,
      ...(real ? { linksTo: real } : {}),
    };
  }
  return {
    refusal:
      `${here} is a link to ${shown}; ${writer.name} does not write through links, so ${rel} was not written. Replace the link by a folder to ${writer.goal}.`,
  };
}

/** Where a link leads, as a person reads it: a workspace path, or a full path said to be outside. */
function linkTarget(root: string, abs: string): { shown: string; real?: string } {
  const realRoot = fs.realpathSync(root);
  try {
    const real = fs.realpathSync(abs);
    return { shown: insideOrFull(realRoot, real, ', outside the workspace'), real };
  } catch (e) {
    const named = path.resolve(path.dirname(abs), fs.readlinkSync(abs));
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT'
      ? ', which does not exist'
      : ', which cannot be resolved';
    return { shown: `${insideOrFull(root, named, '')}${why}` };
  }
}

function insideOrFull(root: string, p: string, outsideNote: string): string {
  const rel = path.relative(root, p);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  return `${p}${outsideNote}`;
}

/**
 * Writes an export file at `rel`: checked again, folders made one at a time (a recursive mkdir would
 * follow a link among them), then written atomically.
 */
export async function writeDestination(root: string, rel: string, text: string): Promise<void> {
  refuseIfUnsafe(root, rel);
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(root, ...parts.slice(0, i));
    try {
      fs.mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!fs.lstatSync(dir).isDirectory()) refuseIfUnsafe(root, rel);
  }
  refuseIfUnsafe(root, rel);
  const abs = path.join(root, rel);
  const existing = fs.lstatSync(abs, { throwIfNoEntry: false });
  await writeFileAtomic(abs, Buffer.from(text, 'utf8'), existing ? { mode: existing.mode & 0o7777 } : {});
}

function refuseIfUnsafe(root: string, rel: string): void {
  const problem = destinationProblem(root, rel);
  if (problem) {
    throw new AutoSnippetError(
      ErrorCode.ExportUnsafePath,
      problem.refusal,
      'Nothing was written to it (the files listed before it were). Export again to see every file that is refused.',
    );
  }
}
