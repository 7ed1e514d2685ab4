import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { readFrontmatter, normalizeText } from './frontmatter';
import { readRepoFileSync, skillBoundary } from '../../ground/files';
import { isValidSkillName } from './names';
import type { SkillProblem } from './types';
import { errorCount, validateSkillText } from './validate';

const MAX_FILES = 2000;
const MAX_BYTES = 50 * 1024 * 1024;
const GIT_TIMEOUT_MS = 120_000;

export interface InstallOptions {
  /** A skill folder (or a folder of skills), a `.zip` file, or a git URL (optionally `#sub/folder`). */
  source: string;
  /** Where skills are installed: `<root>/.autosnippet/skills`. */
  targetRoot: string;
  /** Which skill to take when the source holds several. */
  name?: string;
  overwrite?: boolean;
  /** Base for a relative `source`. */
  cwd: string;
  signal?: AbortSignal;
}

export interface InstallResult {
  name: string;
  installedTo: string;
  kind: 'folder' | 'zip' | 'git';
  replaced: boolean;
  /** Validation warnings (errors refuse the install) and files that were left out. */
  problems: SkillProblem[];
}

/** Copies a skill into the workspace after validating it; refuses to replace one unless `overwrite`. */
export async function installSkill(options: InstallOptions): Promise<InstallResult> {
  const kind = sourceKind(options.source);
  const temp = mkdtempSync(path.join(os.tmpdir(), 'autosnippet-skill-'));
  try {
    let root: string;
    if (kind === 'git') {
      const [url, sub] = splitFragment(options.source);
      await runTool('git', ['-c', 'protocol.ext.allow=never', '-c', 'protocol.file.allow=user', 'clone', '--depth', '1', '--quiet', '--', url, path.join(temp, 'repo')], options.signal, 'git is needed to install from a git URL');
      root = sub ? path.join(temp, 'repo', ...sub.split('/').filter((p) => p && p !== '..')) : path.join(temp, 'repo');
    } else if (kind === 'zip') {
      const zip = path.resolve(options.cwd, options.source);
      if (!existsSync(zip)) throw new AutoSnippetError(ErrorCode.NotFound, `No file at ${zip}.`, 'Give the path of a .zip that holds a skill folder.');
      await runTool('unzip', ['-q', '-o', zip, '-d', path.join(temp, 'zip')], options.signal, 'The `unzip` command is needed to install from a .zip; install it, or unpack the archive and install the folder');
      root = path.join(temp, 'zip');
    } else {
      root = path.resolve(options.cwd, options.source);
      if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
        throw new AutoSnippetError(ErrorCode.NotFound, `No folder at ${root}.`, 'Give a skill folder (one with SKILL.md), a .zip, or a git URL.');
      }
    }
    const folder = pickSkillFolder(root, options.name, options.source);
    const text = normalizeText(readRepoFileSync(folder, 'SKILL.md', { kind: 'skill', boundary: skillBoundary(path.basename(folder)) }).text);
    const fm = readFrontmatter(text);
    const declared = fm.ok && typeof fm.value.data.name === 'string' ? fm.value.data.name : '';
    const name = isValidSkillName(declared) ? declared : path.basename(folder);
    // The folder is named after the skill when installed, so check the name rules against that.
    const problems = validateSkillText(text, name);
    if (errorCount(problems) > 0 || !isValidSkillName(name)) {
      throw new AutoSnippetError('INVALID_SKILL', `The skill in ${options.source} does not validate; nothing was installed.`, 'Fix the problems listed in details.problems (or run `autosnippet skills validate <folder>`), then install again.', { problems: problems.filter((p) => p.severity === 'error') });
    }
    const target = path.join(options.targetRoot, name);
    const exists = existsSync(target);
    if (exists && !options.overwrite) {
      throw new AutoSnippetError('SKILL_EXISTS', `A skill "${name}" is already installed at ${target}.`, 'Pass overwrite: true to replace it.', { name, path: target });
    }
    const skippedLinks = checkTree(folder);
    mkdirSync(options.targetRoot, { recursive: true });
    const staging = path.join(options.targetRoot, `.${name}.installing-${process.pid}-${Date.now()}`);
    cpSync(folder, staging, { recursive: true, filter: (src) => !isLinkOrVcs(src) });
    if (exists) {
      const old = path.join(options.targetRoot, `.${name}.replaced-${process.pid}-${Date.now()}`);
      renameSync(target, old);
      renameSync(staging, target);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(staging, target);
    }
    for (const link of skippedLinks) {
      problems.push({ severity: 'warning', rule: 'install-symlink-skipped', message: `${link} is a symbolic link and was not installed.` });
    }
    return { name, installedTo: target, kind, replaced: exists, problems };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

export function sourceKind(source: string): 'folder' | 'zip' | 'git' {
  const s = source.trim();
  if (s.startsWith('-')) throw new AutoSnippetError(ErrorCode.InvalidInput, 'A source cannot start with "-".', undefined, { field: 'source' });
  if (/^(https?|ssh|git|file):\/\//i.test(s) || /^[\w.-]+@[\w.-]+:/.test(s)) {
    if (/\.zip(#.*)?$/i.test(s)) throw new AutoSnippetError(ErrorCode.InvalidInput, 'Downloading a .zip from a URL is not supported.', 'Download it first and pass the file path, or pass the git URL of the repository.', { field: 'source' });
    return 'git';
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(s)) throw new AutoSnippetError(ErrorCode.InvalidInput, 'Git remote helpers (`transport::address`) are refused.', 'Use an https:// or ssh:// URL.', { field: 'source' });
  if (/\.zip$/i.test(s)) return 'zip';
  return 'folder';
}

function splitFragment(source: string): [string, string | undefined] {
  const i = source.indexOf('#');
  return i < 0 ? [source, undefined] : [source.slice(0, i), source.slice(i + 1)];
}

/** The skill folder under `root`: root itself, or the one SKILL.md folder within four levels (or the one named `name`). */
function pickSkillFolder(root: string, name: string | undefined, source: string): string {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(path.join(dir, 'SKILL.md'))) {
      found.push(dir);
      return;
    }
    if (depth >= 4) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') walk(path.join(dir, e.name), depth + 1);
  };
  walk(root, 0);
  const folderNames = found.map((f) => path.basename(f));
  if (name) {
    const hit = found.find((f) => path.basename(f) === name);
    if (hit) return hit;
    throw new AutoSnippetError('SKILL_NOT_FOUND', `${source} has no skill folder named "${name}".`, folderNames.length ? `It has: ${folderNames.join(', ')}.` : 'It has no SKILL.md at all.', { available: folderNames });
  }
  if (found.length === 1) return found[0];
  if (found.length === 0) throw new AutoSnippetError('INVALID_SKILL', `${source} holds no SKILL.md.`, 'A skill is a folder with a SKILL.md file at its top.');
  throw new AutoSnippetError(ErrorCode.InvalidInput, `${source} holds ${found.length} skills.`, `Pass name to pick one: ${folderNames.join(', ')}.`, { field: 'name', available: folderNames });
}

/** Refuses trees that are too large; returns the symbolic links, which are not copied. */
/** The symbolic links a skill folder holds (never copied); refuses a folder too big for a skill. */
export function checkTree(dir: string): string[] {
  let files = 0;
  let bytes = 0;
  const links: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') continue;
      if (e.isSymbolicLink()) links.push(r);
      else if (e.isDirectory()) walk(p, r);
      else {
        files++;
        bytes += lstatSync(p).size;
      }
    }
  };
  walk(dir, '');
  if (files > MAX_FILES || bytes > MAX_BYTES) {
    throw new AutoSnippetError('INVALID_SKILL', `The skill folder has ${files} files and ${bytes} bytes, more than a skill should (${MAX_FILES} files, ${MAX_BYTES} bytes).`, 'Install a folder that holds only the skill.');
  }
  return links;
}

export function isLinkOrVcs(p: string): boolean {
  return path.basename(p) === '.git' || lstatSync(p).isSymbolicLink();
}

function runTool(cmd: string, args: string[], signal: AbortSignal | undefined, missing: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { shell: false, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, signal, timeout: GIT_TIMEOUT_MS, windowsHide: true });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'ENOENT' ? new AutoSnippetError(ErrorCode.InvalidInput, `${missing}.`, `\`${cmd}\` was not found on PATH.`) : e);
    });
    child.on('close', (code) => {
      // unzip exits 1 for warnings only (for example, entries it refused to write outside the folder).
      if (code === 0 || (cmd === 'unzip' && code === 1)) resolve();
      else reject(new AutoSnippetError(ErrorCode.InvalidInput, `${cmd} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`, cmd === 'git' ? 'Check the URL and that git can reach it without a password prompt.' : 'Check that the file is a valid .zip.'));
    });
  });
}
