import { spawn } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { resolveSkillPath } from './resources';
import type { Skill } from './types';

export const SCRIPT_TIMEOUT_DEFAULT_MS = 30_000;
export const SCRIPT_TIMEOUT_MAX_MS = 120_000;
export const SCRIPT_OUTPUT_MAX_BYTES = 64 * 1024;

export interface RunScriptOptions {
  /** `trusted && allowScripts` must both hold, or the run is refused with SCRIPTS_DISABLED. */
  trusted: boolean;
  /** How to trust the folder (or what trusted it), said when the run is refused for trust. */
  trustNote?: string;
  allowScripts: boolean;
  /** Working directory: the workspace root. */
  cwd: string;
  args?: string[];
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

export interface ScriptRun {
  script: string;
  command: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: string;
  stderr: string;
  /** True when output past `maxOutputBytes` was dropped. */
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

const INTERPRETERS: Record<string, string[]> = {
  '.py': [process.platform === 'win32' ? 'python' : 'python3'],
  '.sh': ['bash'],
  '.bash': ['bash'],
  '.js': [process.execPath],
  '.cjs': [process.execPath],
  '.mjs': [process.execPath],
  '.rb': ['ruby'],
  '.pl': ['perl'],
  '.ps1': ['pwsh', '-NoProfile', '-File'],
};

/**
 * Runs a file from a skill's `scripts/` folder: no shell, arguments as an array, the workspace root
 * as working directory, bounded in time (the whole process group is killed) and in output.
 */
export function runSkillScript(skill: Pick<Skill, 'name' | 'dir'>, script: string, options: RunScriptOptions): Promise<ScriptRun> {
  if (!options.trusted || !options.allowScripts) {
    const why = !options.trusted ? (options.trustNote ?? 'the workspace is not trusted') : "the setting autosnippet.skills.allowScripts is off in the person's own settings (a repository's settings cannot turn it on)";
    throw new AutoSnippetError('SCRIPTS_DISABLED', `Skill scripts cannot run here: ${why}.`, 'Read the script with read_skill_resource and follow it by hand, or ask the person to trust the folder and turn on autosnippet.skills.allowScripts in their user settings.', { skill: skill.name, script });
  }
  const args = options.args ?? [];
  if (args.length > 64 || args.some((a) => typeof a !== 'string' || a.length > 4096 || a.includes('\0'))) {
    throw new AutoSnippetError(ErrorCode.InvalidInput, 'args must be at most 64 strings of at most 4096 characters each, without NUL characters.', undefined, { field: 'args' });
  }
  const rel = script.replace(/\\/g, '/').replace(/^\.\//, '');
  const file = resolveSkillPath(skill, rel.startsWith('scripts/') ? rel : `scripts/${rel}`);
  const scriptsDir = realpathSync(path.join(skill.dir, 'scripts'));
  if (!file.startsWith(scriptsDir + path.sep)) {
    throw new AutoSnippetError('PATH_OUTSIDE_SKILL', `Only files under scripts/ of skill "${skill.name}" can run.`, undefined, { skill: skill.name, script });
  }
  const command = commandFor(file);
  const timeoutMs = Math.min(Math.max(1, options.timeoutMs ?? SCRIPT_TIMEOUT_DEFAULT_MS), SCRIPT_TIMEOUT_MAX_MS);
  const maxBytes = options.maxOutputBytes ?? SCRIPT_OUTPUT_MAX_BYTES;
  const relScript = path.relative(realpathSync(skill.dir), file).split(path.sep).join('/');

  return new Promise<ScriptRun>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command[0], [...command.slice(1), ...args], {
      cwd: options.cwd,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', AUTOSNIPPET_SKILL_DIR: skill.dir, AUTOSNIPPET_SKILL: skill.name },
    });
    const out = collector(maxBytes);
    const err = collector(maxBytes);
    child.stdout.on('data', out.push);
    child.stderr.on('data', err.push);
    let timedOut = false;
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 2000).unref();
    }, timeoutMs);
    const onAbort = () => kill('SIGTERM');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(
        e.code === 'ENOENT'
          ? new AutoSnippetError(ErrorCode.InvalidInput, `"${command[0]}" is needed to run ${relScript} and was not found.`, 'Install it, or read the script with read_skill_resource and follow it by hand.', { script: relScript })
          : e,
      );
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        script: relScript,
        command: [path.basename(command[0]), ...command.slice(1).map((c) => (c === file ? relScript : c)), ...args],
        exitCode: code,
        signal,
        timedOut,
        durationMs: Date.now() - started,
        stdout: out.text(),
        stderr: err.text(),
        stdoutTruncated: out.truncated(),
        stderrTruncated: err.truncated(),
      });
    });
  });
}

function commandFor(file: string): string[] {
  const interpreter = INTERPRETERS[path.extname(file).toLowerCase()];
  if (interpreter) return [...interpreter, file];
  try {
    accessSync(file, constants.X_OK);
    return [file];
  } catch {
    throw new AutoSnippetError(ErrorCode.InvalidInput, `${path.basename(file)} is neither executable nor of a known kind (${Object.keys(INTERPRETERS).join(', ')}).`, 'Read it with read_skill_resource instead.');
  }
}

function collector(maxBytes: number) {
  const parts: Buffer[] = [];
  let size = 0;
  let dropped = false;
  return {
    push: (b: Buffer) => {
      if (size >= maxBytes) {
        dropped = true;
        return;
      }
      const room = maxBytes - size;
      if (b.length > room) dropped = true;
      const kept = b.length > room ? b.subarray(0, room) : b;
      parts.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(parts).toString('utf8'),
    truncated: () => dropped,
  };
}
