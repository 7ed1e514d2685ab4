/**
 * Getting a pack's files: from the npm registry (`npm pack NAME@VERSION`, npm's own resolution,
 * registry settings and authentication), from a tarball on disk, or from a git repository (`git clone`,
 * remote or local). The registry and git are the distribution: nothing else is contacted.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { integrityOf, readTree, treeHashOf } from './hash';
import type { PackKind } from './lock';
import { readTarball } from './tar';

const run = promisify(execFile);
/** npm and git get this long; a registry or a remote that does not answer by then is reported. */
const FETCH_TIMEOUT_MS = 120_000;

export interface PackSpec {
  kind: PackKind;
  /** npm name, absolute tarball path, git URL or absolute repository folder. */
  source: string;
  /** npm version, range or tag; git branch or tag. */
  wanted?: string;
}

export interface FetchedPack {
  spec: PackSpec;
  files: { path: string; data: Buffer }[];
  tree: string;
  /** npm and tarball packs: the tarball, kept in the cache, and its integrity. */
  tarball?: Buffer;
  integrity?: string;
  commit?: string;
}

function failed(message: string, hint?: string): AutoSnippetError {
  return new AutoSnippetError(
    'PACK_FETCH_FAILED',
    message,
    hint ?? 'Check the name and version (npm), the URL and branch (git), or the path.',
  );
}

function cancelled(): AutoSnippetError {
  return new AutoSnippetError(ErrorCode.Cancelled, 'Fetching the pack was cancelled; nothing was pinned.');
}

const GIT_URL = /^(git\+|git:\/\/|ssh:\/\/|file:\/\/|https?:\/\/|git@[^:]+:)/;

/**
 * What `packs add` was given: `name[@version]`, `path/to/pack.tgz`, `git-url[#ref|@ref]` or a local
 * repository folder. The version follows the last `@` of the last path segment, or a `#`.
 */
export function parsePackSpec(input: string, cwd: string): PackSpec {
  let spec = input.trim();
  if (!spec) throw new AutoSnippetError('INVALID_INPUT', 'Name a pack: an npm name, a .tgz file or a git URL.');
  let wanted: string | undefined;
  const hash = spec.lastIndexOf('#');
  if (hash > 0) {
    wanted = spec.slice(hash + 1);
    spec = spec.slice(0, hash);
  } else {
    const segment = Math.max(spec.lastIndexOf('/'), spec.lastIndexOf(':'), spec.lastIndexOf('\\')) + 1;
    const at = spec.lastIndexOf('@');
    if (at > segment) {
      wanted = spec.slice(at + 1);
      spec = spec.slice(0, at);
    }
  }
  if (wanted !== undefined && !/^[\w.+~^<>=* |-]{1,200}$/.test(wanted)) {
    throw new AutoSnippetError('INVALID_INPUT', `"${wanted.slice(0, 100)}" is not a version, range, tag or branch.`);
  }
  if (/\.(tgz|tar\.gz)$/i.test(spec)) {
    if (wanted) {
      throw new AutoSnippetError('INVALID_INPUT', `A tarball is one version; drop "@${wanted}" from ${spec}.`);
    }
    return { kind: 'tarball', source: path.resolve(cwd, spec) };
  }
  if (GIT_URL.test(spec)) return { kind: 'git', source: spec.replace(/^git\+/, ''), ...(wanted ? { wanted } : {}) };
  const local = path.resolve(cwd, spec);
  if (/^[./\\~]/.test(spec) || path.isAbsolute(spec) || existsSync(local)) {
    if (!statSync(local, { throwIfNoEntry: false })?.isDirectory()) {
      throw failed(
        `${local} is neither a .tgz file nor a folder.`,
        'Give a tarball from npm pack or a git repository.',
      );
    }
    return { kind: 'git', source: local, ...(wanted ? { wanted } : {}) };
  }
  return { kind: 'npm', source: spec, ...(wanted ? { wanted } : {}) };
}

/** Fetches a pack; with `commit`, a git pack at exactly that commit. `signal` stops npm or git (a person cancelled). */
export async function fetchPack(spec: PackSpec, commit?: string, signal?: AbortSignal): Promise<FetchedPack> {
  if (spec.kind === 'git') return fetchGit(spec, commit, signal);
  const tarball = spec.kind === 'tarball' ? readLocalTarball(spec.source) : await npmPack(spec, signal);
  const files = readTarball(tarball, spec.source);
  return { spec, files, tree: treeHashOf(files), tarball, integrity: integrityOf(tarball) };
}

function readLocalTarball(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw failed(
      `The tarball ${file} cannot be read: ${(e as Error).message}`,
      'Give the path of a file made by npm pack.',
    );
  }
}

async function npmPack(spec: PackSpec, signal?: AbortSignal): Promise<Buffer> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-pack-'));
  try {
    const { stdout } = await run(
      'npm',
      ['pack', `${spec.source}@${spec.wanted ?? 'latest'}`, '--json', '--pack-destination', tmp],
      { timeout: FETCH_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, shell: process.platform === 'win32', signal },
    );
    const [entry] = JSON.parse(stdout) as { filename: string; integrity?: string }[];
    const data = readFileSync(path.join(tmp, path.basename(entry.filename)));
    if (entry.integrity && entry.integrity !== integrityOf(data)) {
      throw new AutoSnippetError(
        'PACK_TAMPERED',
        `${spec.source}: the tarball npm fetched hashes to ${integrityOf(data)}, npm says ${entry.integrity}.`,
      );
    }
    return data;
  } catch (e) {
    if (e instanceof AutoSnippetError) throw e;
    if (signal?.aborted) throw cancelled();
    const err = e as Error & { stderr?: string };
    throw failed(
      `npm pack ${spec.source}@${spec.wanted ?? 'latest'} failed: ${(err.stderr || err.message).trim().slice(0, 800)}`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', GCM_INTERACTIVE: 'never' };

async function git(args: string[], cwd?: string, signal?: AbortSignal): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    signal,
    env: GIT_ENV,
    timeout: FETCH_TIMEOUT_MS,
    maxBuffer: 4 * 1024 * 1024,
  });
  return stdout.trim();
}

async function fetchGit(spec: PackSpec, commit?: string, signal?: AbortSignal): Promise<FetchedPack> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-pack-'));
  const dir = path.join(tmp, 'repo');
  try {
    // One commit is enough to follow a branch; an exact commit may be older than the branch's tip.
    const depth = commit ? [] : ['--depth', '1'];
    const branch = spec.wanted ? ['--branch', spec.wanted] : [];
    await git(
      ['-c', 'advice.detachedHead=false', 'clone', '--quiet', ...depth, ...branch, '--', spec.source, dir],
      undefined,
      signal,
    );
    if (commit) await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', commit], dir, signal);
    const head = await git(['rev-parse', 'HEAD'], dir);
    const files = readTree(dir, spec.source);
    return { spec, files, tree: treeHashOf(files), commit: head };
  } catch (e) {
    if (e instanceof AutoSnippetError) throw e;
    if (signal?.aborted) throw cancelled();
    const err = e as Error & { stderr?: string };
    throw failed(
      `git could not fetch ${spec.source}${spec.wanted ? ` at ${spec.wanted}` : ''}${
        commit ? ` (commit ${commit})` : ''
      }: ${(err.stderr || err.message).trim().slice(0, 800)}`,
      'Check the URL or folder and the branch or tag; private remotes need git credentials set up for this user.',
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
