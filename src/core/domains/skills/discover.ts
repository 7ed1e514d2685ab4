import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Finding skill folders under a skills root, as the Agent Skills client guide describes: a bounded
 * recursive scan, so cloned collections (`<repo>/skills/<name>/`) and dot-folders (`.curated`,
 * `.system`, `.experimental`) are found; a folder with a SKILL.md is a skill and is not looked into
 * further (its subfolders are its resources); a lowercase `skill.md` is accepted with a warning.
 * Whatever is passed over for a reason a person could act on is reported, never dropped silently.
 */

/** Levels below a skills root that are looked at: `<root>/<repo>/skills/.curated/<skill>` is 4. */
export const MAX_SCAN_DEPTH = 4;
/** Folders looked at per root at most, so a huge tree under a skills folder cannot stall a call. */
export const MAX_SCAN_FOLDERS = 2000;
/** Folders that never hold skills and can be large. */
const NEVER_SCANNED = new Set(['.git', 'node_modules', '.hg', '.svn', '__pycache__', '.venv', 'venv']);

export interface FoundSkillFolder {
  dir: string;
  /** The SKILL.md (or skill.md) file. */
  file: string;
  folderName: string;
  stats: Stats;
  /** Set when the file is not named exactly SKILL.md. */
  warning?: string;
}

export interface PassedOver {
  path: string;
  reason: string;
}

export interface SkillScan {
  found: FoundSkillFolder[];
  passedOver: PassedOver[];
  /**
   * The folders whose entries were read (the root first, when it exists): a skill folder added to or
   * removed from the tree changes one of their modification times, so a caller can tell that the scan
   * is out of date with one stat per folder listed instead of scanning again.
   */
  listed: string[];
}

/**
 * Skill folders under `root` (the root itself is never a skill), in a stable order. A link is followed
 * only to a folder inside `within` (the workspace; default the root): one leading elsewhere is passed
 * over with the reason, as a repository cannot make the scan read the rest of the machine.
 */
export function scanSkillRoot(root: string, maxDepth = MAX_SCAN_DEPTH, within = root): SkillScan {
  const scan: SkillScan = { found: [], passedOver: [], listed: [] };
  const linked = new Set<string>();
  const realRoot = realPath(root);
  const realWithin = realPath(within);
  let visited = 0;
  let tooDeep = 0;
  let firstTooDeep = '';
  const walk = (dir: string, entries: Dirent[], depth: number) => {
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (NEVER_SCANNED.has(e.name)) continue;
      const child = path.join(dir, e.name);
      if (!e.isDirectory()) {
        // A link is followed when it leads out of the tree (a skill kept elsewhere), each target once;
        // a link into the tree leads to folders the scan reaches anyway, or back up into a loop.
        if (!e.isSymbolicLink() || !statSync(child, { throwIfNoEntry: false })?.isDirectory()) continue;
        const real = realPath(child);
        if (linked.has(real) || real === realRoot || real.startsWith(realRoot + path.sep)) continue;
        if (real !== realWithin && !real.startsWith(realWithin + path.sep)) {
          scan.passedOver.push({ path: child, reason: `it links to ${real}, outside the workspace; skills are read only from inside it` });
          continue;
        }
        linked.add(real);
      }
      if (depth + 1 > maxDepth) {
        if (tooDeep++ === 0) firstTooDeep = child;
        continue;
      }
      if (++visited > MAX_SCAN_FOLDERS) {
        if (visited === MAX_SCAN_FOLDERS + 1) scan.passedOver.push({ path: root, reason: `the scan stopped after ${MAX_SCAN_FOLDERS} folders; move skills nearer the top of ${root}` });
        return;
      }
      // One stat finds the usual skill folder; only other folders are listed.
      const upper = path.join(child, 'SKILL.md');
      const st = statSync(upper, { throwIfNoEntry: false });
      if (st?.isFile()) {
        scan.found.push({ dir: child, file: upper, folderName: e.name, stats: st });
        continue;
      }
      if (st) scan.passedOver.push({ path: upper, reason: 'SKILL.md is not a regular file' });
      let inner: Dirent[];
      try {
        inner = readdirSync(child, { withFileTypes: true });
      } catch (err) {
        scan.passedOver.push({ path: child, reason: `folder could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });
        continue;
      }
      scan.listed.push(child);
      const lower = inner.find((x) => x.name !== 'SKILL.md' && x.name.toLowerCase() === 'skill.md');
      const lowerStats = lower && statSync(path.join(child, lower.name), { throwIfNoEntry: false });
      if (lower && lowerStats?.isFile()) {
        scan.found.push({
          dir: child,
          file: path.join(child, lower.name),
          folderName: e.name,
          stats: lowerStats,
          warning: lowercaseWarning(lower.name),
        });
        continue;
      }
      walk(child, inner, depth + 1);
    }
  };
  let top: Dirent[];
  try {
    top = readdirSync(root, { withFileTypes: true });
  } catch {
    return scan; // no such skills folder: nothing to report
  }
  scan.listed.push(root);
  walk(root, top, 0);
  if (tooDeep) {
    scan.passedOver.push({
      path: firstTooDeep,
      reason: `${tooDeep} folder${tooDeep === 1 ? ' is' : 's are'} more than ${maxDepth} levels below ${root} and not scanned (first: ${firstTooDeep})`,
    });
  }
  return scan;
}

function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The skill file of one folder: SKILL.md, else a `skill.md` in another case with a warning. */
export function skillFileIn(dir: string): { file?: string; warning?: string } {
  const upper = path.join(dir, 'SKILL.md');
  if (statSync(upper, { throwIfNoEntry: false })?.isFile()) return { file: upper };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return {};
  }
  const other = names.find((n) => n !== 'SKILL.md' && n.toLowerCase() === 'skill.md');
  if (!other || !statSync(path.join(dir, other), { throwIfNoEntry: false })?.isFile()) return {};
  return { file: path.join(dir, other), warning: lowercaseWarning(other) };
}

function lowercaseWarning(name: string): string {
  return `The skill file is named "${name}"; the Agent Skills specification names it SKILL.md, and other clients may not find it.`;
}
