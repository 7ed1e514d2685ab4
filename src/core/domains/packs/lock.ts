/**
 * `.autosnippet/packs.json`: the packs a workspace uses, each pinned to a version and an integrity
 * hash, and the pack items the project switched off. Committed with the code, so a teammate's clone
 * loads the same packs, byte for byte, or refuses them.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseJson, readRepoFileSync } from '../../ground/files';
import { AutoSnippetError, ErrorCode } from '../../ground/kernel/errors';
import { PACK_NAME, PACKS_FILE } from './layout';

export type PackKind = 'npm' | 'tarball' | 'git';

/** What a pack holds, recorded when it is added, so an update can say what changed. */
export interface PackItems {
  /** Recipe id → its file in the pack (`recipes/…`) and a hash of its text. */
  recipes: Record<string, { file: string; hash: string }>;
  /** Skill folder names under `skills/`. */
  skills: string[];
  /** Guard rule ids of the files under `guard/`. */
  rules: string[];
}

export interface PackPin {
  kind: PackKind;
  /** Where it comes from, without the version: an npm name, a tarball path, a git URL or folder. */
  source: string;
  /** What was asked for: an npm version, range or tag; a git branch or tag. Updates follow it. */
  wanted?: string;
  version: string;
  /** npm and tarball packs: `sha512-…` of the tarball, as npm writes it in package-lock.json. */
  integrity?: string;
  /** git packs: the commit. */
  commit?: string;
  /** `sha512-…` over every file of the pack (paths and contents): what the cache must still hold. */
  tree: string;
  items: PackItems;
  addedAt: string;
}

export interface PacksFile {
  version: 1;
  packs: Record<string, PackPin>;
  /** Ids of pack recipes, skills and guard rules the project switched off. */
  disabled: string[];
}

const MAX_PACKS = 100;
const MAX_DISABLED = 10_000;

export function emptyPacksFile(): PacksFile {
  return { version: 1, packs: {}, disabled: [] };
}

/** The workspace's pins; none when the file is missing. A file that is not a pin list throws, naming the field. */
export function readPacksFile(root: string): PacksFile {
  let text: string;
  try {
    text = readRepoFileSync(root, PACKS_FILE, { kind: 'config' }).text;
  } catch (e) {
    if ((e as AutoSnippetError).code === ErrorCode.NotFound) return emptyPacksFile();
    throw e;
  }
  const parsed = parseJson(text, { subject: PACKS_FILE });
  if (!parsed.ok) throw invalid(parsed.problem.message);
  return checkPacksFile(parsed.value);
}

function invalid(message: string): AutoSnippetError {
  return new AutoSnippetError(
    ErrorCode.InvalidInput,
    `${PACKS_FILE}: ${message}`,
    'Fix the file (docs/packs.md describes it), or remove the pack and add it again with autosnippet packs add.',
  );
}

const str = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

function checkPacksFile(value: unknown): PacksFile {
  const v = value as Partial<PacksFile> | null;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid('must be a JSON object.');
  const packs = v.packs ?? {};
  if (typeof packs !== 'object' || Array.isArray(packs)) throw invalid('`packs` must be an object keyed by pack name.');
  const names = Object.keys(packs);
  if (names.length > MAX_PACKS) throw invalid(`lists ${names.length} packs; at most ${MAX_PACKS} load.`);
  const out = emptyPacksFile();
  for (const name of names) {
    if (!PACK_NAME.test(name)) throw invalid(`"${name.slice(0, 100)}" is not a pack name (an npm package name).`);
    const p = (packs as Record<string, Partial<PackPin>>)[name];
    const where = `packs["${name}"]`;
    if (!p || typeof p !== 'object') throw invalid(`${where} must be an object.`);
    if (p.kind !== 'npm' && p.kind !== 'tarball' && p.kind !== 'git') {
      throw invalid(`${where}.kind must be npm, tarball or git.`);
    }
    for (const f of ['source', 'version', 'tree', 'addedAt'] as const) {
      if (!str(p[f])) throw invalid(`${where}.${f} is missing.`);
    }
    if (!/^sha512-[A-Za-z0-9+/]+=*$/.test(p.tree!)) throw invalid(`${where}.tree must be a sha512-… hash.`);
    if (
      p.kind === 'git'
        ? !/^[0-9a-f]{40,64}$/.test(p.commit ?? '')
        : !/^sha512-[A-Za-z0-9+/]+=*$/.test(p.integrity ?? '')
    ) {
      throw invalid(`${where} must pin ${p.kind === 'git' ? 'a commit' : 'an integrity hash (sha512-…)'}.`);
    }
    const items = p.items ?? { recipes: {}, skills: [], rules: [] };
    out.packs[name] = {
      kind: p.kind,
      source: p.source!,
      ...(str(p.wanted) ? { wanted: p.wanted } : {}),
      version: p.version!,
      ...(p.integrity ? { integrity: p.integrity } : {}),
      ...(p.commit ? { commit: p.commit } : {}),
      tree: p.tree!,
      items: {
        recipes: typeof items.recipes === 'object' && items.recipes ? items.recipes : {},
        skills: Array.isArray(items.skills) ? items.skills.filter((s) => str(s, 200)) : [],
        rules: Array.isArray(items.rules) ? items.rules.filter((s) => str(s, 200)) : [],
      },
      addedAt: p.addedAt!,
    };
  }
  const disabled = v.disabled ?? [];
  if (!Array.isArray(disabled) || disabled.some((d) => !str(d, 300))) {
    throw invalid('`disabled` must be a list of item ids (recipe ids, skill names, guard rule ids).');
  }
  if (disabled.length > MAX_DISABLED) throw invalid(`\`disabled\` lists more than ${MAX_DISABLED} ids.`);
  out.disabled = [...new Set(disabled)];
  return out;
}

/** Writes the pins (temporary file, rename), packs in name order so a diff of the file reads well. */
export function writePacksFile(root: string, file: PacksFile): void {
  const abs = path.join(root, PACKS_FILE);
  mkdirSync(path.dirname(abs), { recursive: true });
  const packs = Object.fromEntries(Object.keys(file.packs).sort().map((n) => [n, file.packs[n]]));
  const tmp = `${abs}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ version: 1, packs, disabled: file.disabled }, null, 2) + '\n');
  renameSync(tmp, abs);
}
