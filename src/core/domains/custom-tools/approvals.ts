/**
 * Which custom tool files a person confirmed, by content: the SHA-256 of the file's bytes, per folder
 * (its real path) and file, kept in the person's data folder (`~/.autosnippet/tool-approvals.json`),
 * never in the repository, so nothing committed can approve itself. A file whose bytes changed needs
 * a new confirmation.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { realFolder, userDataDir, writePrivateJson } from '../../ground/trust';

export const APPROVALS_FILE = 'tool-approvals.json';
const MAX_APPROVALS_BYTES = 1024 * 1024;

export interface Approval {
  folder: string;
  file: string;
  sha256: string;
  approvedAt: string;
}

function storeFile(env?: NodeJS.ProcessEnv): string {
  return path.join(userDataDir(env), APPROVALS_FILE);
}

/** Every approval; a missing store has none, an unreadable one approves nothing and says why. */
export function readApprovals(env?: NodeJS.ProcessEnv): { approvals: Approval[]; problem?: string } {
  const file = storeFile(env);
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_APPROVALS_BYTES) {
      return { approvals: [], problem: `${file} is not a regular file under 1 MB; no custom tool is approved.` };
    }
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { approvals?: unknown };
    const list = Array.isArray(parsed.approvals) ? parsed.approvals : [];
    return {
      approvals: list.filter((a): a is Approval =>
        typeof a === 'object' && a !== null && typeof (a as Approval).folder === 'string'
        && typeof (a as Approval).file === 'string' && /^[0-9a-f]{64}$/.test(String((a as Approval).sha256))
      ),
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { approvals: [] };
    return { approvals: [], problem: `${file} cannot be read (${(e as Error).message}); no custom tool is approved.` };
  }
}

/** The approved hash of a workspace's file, if any. */
export function approvedHash(root: string, file: string, env?: NodeJS.ProcessEnv): string | undefined {
  const folder = folderKey(root);
  return readApprovals(env).approvals.find((a) => a.folder === folder && a.file === file)?.sha256;
}

/** Records the person's confirmation of these bytes of the file (replacing an earlier one). */
export function approve(root: string, file: string, sha256: string, env?: NodeJS.ProcessEnv): Approval {
  const folder = folderKey(root);
  const { approvals, problem } = readApprovals(env);
  if (problem) throw new Error(`The approvals were left as they are: ${problem}`);
  const entry = { folder, file, sha256, approvedAt: new Date().toISOString() };
  const rest = approvals.filter((a) => !(a.folder === folder && a.file === file));
  writePrivateJson(storeFile(env), { version: 1, approvals: [...rest, entry] });
  return entry;
}

/** Takes a confirmation back; answers whether there was one. */
export function revoke(root: string, file: string, env?: NodeJS.ProcessEnv): boolean {
  const folder = folderKey(root);
  const { approvals, problem } = readApprovals(env);
  if (problem) throw new Error(`The approvals were left as they are: ${problem}`);
  const rest = approvals.filter((a) => !(a.folder === folder && a.file === file));
  if (rest.length === approvals.length) return false;
  writePrivateJson(storeFile(env), { version: 1, approvals: rest });
  return true;
}

function folderKey(root: string): string {
  try {
    return realFolder(root);
  } catch {
    return path.resolve(root);
  }
}
