import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AutoSnippetError } from '../../ground/kernel/errors';
import { looksBinary, readRepoBytesSync, skillBoundary } from '../../ground/files';
import type { ResourceKind, Skill, SkillResource } from './types';

const MAX_LISTED = 500;
const MAX_DEPTH = 6;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv']);

/** The files of a skill's folder (its skill file excepted), never following a link out of the folder. */
export function listSkillResources(skillDir: string): SkillResource[] {
  let root: string;
  try {
    root = realpathSync(skillDir);
  } catch {
    return [];
  }
  const out: SkillResource[] = [];
  const walk = (dir: string, rel: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_LISTED) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (out.length >= MAX_LISTED) return;
      if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      // The skill file in any case (`skill.md` is accepted as the skill's file) is the skill, not one of its files.
      if (!rel && name.toLowerCase() === 'skill.md') continue;
      const abs = path.join(dir, name);
      const real = realInside(root, abs);
      if (!real) continue;
      let st;
      try {
        st = statSync(real);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!lstatSync(abs).isSymbolicLink()) walk(abs, relPath, depth + 1);
      } else if (st.isFile()) {
        out.push({ path: relPath, kind: kindOf(relPath), size: st.size });
      }
    }
  };
  walk(root, '', 0);
  return out;
}

export function kindOf(relPath: string): ResourceKind {
  const top = relPath.split('/')[0];
  if (top === 'scripts') return 'script';
  if (top === 'references') return 'reference';
  if (top === 'assets') return 'asset';
  return 'other';
}

/**
 * Resolves a path inside a skill's folder. Refuses absolute paths, `..` segments, and anything —
 * a symlink included — whose real location is outside the folder (PATH_OUTSIDE_SKILL).
 */
export function resolveSkillPath(skill: Pick<Skill, 'name' | 'dir'>, relPath: string): string {
  const raw = relPath.trim();
  const outside = (why: string) =>
    new AutoSnippetError('PATH_OUTSIDE_SKILL', `"${relPath}" is not a file of skill "${skill.name}": ${why}.`, 'Give a path relative to the skill folder, such as "references/guide.md" or "scripts/check.py".', { skill: skill.name, path: relPath });
  if (!raw || raw.includes('\0')) throw outside('the path is empty or contains a NUL character');
  const forward = raw.replace(/\\/g, '/');
  if (path.isAbsolute(raw) || path.posix.isAbsolute(forward) || path.win32.isAbsolute(raw) || /^[A-Za-z]:/.test(forward)) throw outside('absolute paths are refused');
  if (forward.split('/').includes('..')) throw outside('`..` segments are refused');
  let root: string;
  try {
    root = realpathSync(skill.dir);
  } catch {
    throw new AutoSnippetError('SKILL_NOT_FOUND', `The folder of skill "${skill.name}" is gone.`, 'Call list_skills to see the skills that exist now.');
  }
  const target = path.join(root, ...forward.split('/').filter((p) => p && p !== '.'));
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    const available = listSkillResources(skill.dir).map((r) => r.path);
    throw new AutoSnippetError('RESOURCE_NOT_FOUND', `Skill "${skill.name}" has no file "${relPath}".`, available.length ? `Files of this skill: ${available.slice(0, 20).join(', ')}${available.length > 20 ? ', …' : ''}.` : 'This skill has no files besides SKILL.md.', { skill: skill.name, available });
  }
  if (!isInside(root, real)) throw outside('it resolves (through a link) to a place outside the skill folder');
  return real;
}

export interface ResourceContent {
  path: string;
  size: number;
  /** Text of the file; absent for binary files. */
  text?: string;
  /** Base64 of a binary file, when asked for and small enough. */
  base64?: string;
  binary: boolean;
  mimeType: string;
}

/** Reads a resolved skill file: text as UTF-8, binary as base64 when `allowBinary` (MCP blobs). */
export function readSkillFile(skill: Pick<Skill, 'name' | 'dir'>, relPath: string, options: { allowBinary?: boolean; maxBytes?: number } = {}): ResourceContent {
  const real = resolveSkillPath(skill, relPath);
  const st = statSync(real);
  const rel = path.relative(realpathSync(skill.dir), real).split(path.sep).join('/');
  if (st.isDirectory()) {
    const inside = listSkillResources(skill.dir).filter((r) => r.path.startsWith(rel ? `${rel}/` : '')).map((r) => r.path);
    throw new AutoSnippetError('RESOURCE_NOT_FOUND', `"${relPath}" is a folder of skill "${skill.name}", not a file.`, inside.length ? `Files in it: ${inside.slice(0, 20).join(', ')}.` : 'The folder is empty.', { skill: skill.name, available: inside });
  }
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  if (st.size > maxBytes) {
    throw new AutoSnippetError('BUDGET_EXCEEDED', `"${rel}" is ${st.size} bytes, more than the ${maxBytes} that can be read at once.`, 'Open the file from the skill folder directly.', { skill: skill.name, path: rel, size: st.size });
  }
  // The safe reader: a FIFO or device in the folder is refused (NOT_A_REGULAR_FILE) instead of blocking.
  const bytes = readRepoBytesSync(skill.dir, rel, { kind: 'skill-resource', maxBytes, boundary: skillBoundary(skill.name) }).bytes;
  const mimeType = mimeTypeOf(rel);
  if (looksBinary(bytes)) {
    return { path: rel, size: st.size, binary: true, mimeType, base64: options.allowBinary ? bytes.toString('base64') : undefined };
  }
  return { path: rel, size: st.size, binary: false, mimeType, text: bytes.toString('utf8') };
}

function realInside(root: string, abs: string): string | undefined {
  try {
    const real = realpathSync(abs);
    return isInside(root, real) ? real : undefined;
  } catch {
    return undefined;
  }
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const MIME: Record<string, string> = {
  '.md': 'text/markdown', '.txt': 'text/plain', '.json': 'application/json', '.yaml': 'application/yaml', '.yml': 'application/yaml',
  '.py': 'text/x-python', '.sh': 'text/x-shellscript', '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript', '.html': 'text/html', '.css': 'text/css', '.xml': 'application/xml', '.csv': 'text/csv',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml', '.pdf': 'application/pdf',
  '.swift': 'text/x-swift', '.m': 'text/x-objectivec', '.h': 'text/x-c',
};

export function mimeTypeOf(relPath: string): string {
  return MIME[path.extname(relPath).toLowerCase()] ?? 'application/octet-stream';
}
