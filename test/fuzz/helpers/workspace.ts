/**
 * The workspace the fuzzer attacks: the sample project, plus everything a hostile repository can hold
 * (links to files and folders outside, links to devices, FIFOs, a socket, link loops), beside an
 * "outside" folder whose files carry canaries. A canary is text no input ever contains: if one shows
 * up in an answer, the server read outside the workspace. The outside folder and the fuzz root are
 * fingerprinted before the run, so a write outside the workspace is seen too.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const repo = path.join(__dirname, '..', '..', '..');

export interface FuzzWorkspace {
  /** Holds `project/` and `outside/`: nothing outside `project/` may change. */
  root: string;
  project: string;
  outside: string;
  /** Texts that exist only outside the workspace (file contents and a file name no input uses). */
  canaries: string[];
  /** Workspace-relative files and folders, links and special files included: what valid paths are drawn from. */
  entries: string[];
  /** Skill names the workspace has (bundled ones are added by the caller). */
  skills: string[];
  /** Paths of the outside folder's files, absolute: the targets of absolute-path attacks. */
  outsideFiles: string[];
  dispose(): void;
}

export function mkfifo(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const r = spawnSync('mkfifo', [file]);
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}

/** A Unix socket file left on disk (the server that made it is closed; the file stays). */
export async function socketFile(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.listen(file, resolve).once('error', reject));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!existsSync(file)) {
    // Node removed it on close on this platform: keep one open for the run instead.
    const keep = net.createServer();
    await new Promise<void>((resolve) => keep.listen(file, resolve));
    keep.unref();
  }
}

function write(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function link(root: string, rel: string, target: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  symlinkSync(target, file);
}

export async function buildFuzzWorkspace(): Promise<FuzzWorkspace> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'autosnippet-fuzz-')));
  const project = path.join(root, 'project');
  const outside = path.join(root, 'outside');
  const tag = randomBytes(6).toString('hex');
  const content = `FUZZ-CANARY-CONTENT-${tag}`;
  const name = `fuzz-canary-name-${tag}`;

  // Outside: a source file guard would flag, a skill, a script, a recipe, a rule file, a folder listing.
  mkdirSync(outside, { recursive: true });
  write(outside, 'secret.ts', `export const secret = eval("${content}");\nconsole.log("${content}");\n`);
  write(outside, `${name}.ts`, `// ${content}\nexport const x = 1;\n`);
  write(
    outside,
    'skill/SKILL.md',
    `---\nname: outsider\ndescription: A skill that lives outside the workspace ${content}.\n---\n\n# Outsider\n\n## Steps\n\n${content}\n`,
  );
  write(outside, 'skill/references/guide.md', `${content}\n`);
  write(outside, 'evil.sh', `#!/bin/sh\necho "${content}"\n`);
  chmodSync(path.join(outside, 'evil.sh'), 0o755);
  write(
    outside,
    'recipe.md',
    `---\ntitle: Outside recipe ${content}\ntrigger: "@outsideRecipe"\nlanguage: typescript\ncategory: leak\nknowledgeType: code-pattern\nstatus: published\nsummary: ${content}\n---\n\n\`\`\`ts\nconst leak = "${content}";\n\`\`\`\n`,
  );
  write(
    outside,
    'rules.json',
    JSON.stringify({
      rules: [{
        id: 'project/outside-rule',
        message: content,
        severity: 'error',
        languages: ['typescript'],
        regex: 'leak',
        why: content,
        suggestion: content,
      }],
    }),
  );
  write(
    outside,
    'package.json',
    JSON.stringify({ name: `outside-package-${tag}`, version: '1.0.0', description: content }),
  );
  write(outside, 'nested/deeper/file.ts', `eval("${content}");\n`);

  cpSync(path.join(repo, 'test', 'fixtures', 'sample-workspace'), project, { recursive: true });
  // Scripts may run here (the fuzzer must reach run_skill_script's path checks), from the project skill only.
  write(project, '.autosnippet/settings.json', JSON.stringify({ 'autosnippet.skills.allowScripts': true }));
  write(
    project,
    '.autosnippet/skills/leaky/SKILL.md',
    '---\nname: leaky\ndescription: A project skill whose folder holds links out of it, a FIFO and scripts.\n---\n\n# Leaky\n\n## Steps\n\nRead references/guide.md.\n\n<chunk id="one" description="A chunk">\nchunk text\n</chunk>\n',
  );
  write(project, '.autosnippet/skills/leaky/references/guide.md', '# Guide\n\nInside the skill.\n');
  write(project, '.autosnippet/skills/leaky/scripts/echo.sh', '#!/bin/sh\necho "args: $#"\n');
  chmodSync(path.join(project, '.autosnippet/skills/leaky/scripts/echo.sh'), 0o755);
  link(project, '.autosnippet/skills/leaky/references/secret.md', path.join(outside, 'secret.ts'));
  link(project, '.autosnippet/skills/leaky/references/outside-dir', outside);
  link(project, '.autosnippet/skills/leaky/references/relative-up.md', '../../../../../outside/secret.ts');
  link(project, '.autosnippet/skills/leaky/scripts/evil.sh', path.join(outside, 'evil.sh'));
  link(project, '.autosnippet/skills/leaky/scripts/zero.sh', '/dev/zero');
  mkfifo(path.join(project, '.autosnippet/skills/leaky/references/pipe.md'));
  mkfifo(path.join(project, '.autosnippet/skills/leaky/scripts/pipe.sh'));
  link(project, '.autosnippet/skills/outsider', path.join(outside, 'skill'));
  link(project, '.github/skills/outsider-relative', '../../../outside/skill');
  link(project, '.autosnippet/recipes/leak/linked.md', path.join(outside, 'recipe.md'));
  link(project, '.autosnippet/guard/linked.json', path.join(outside, 'rules.json'));
  write(
    project,
    'drafts/cache-get.md',
    '---\ntitle: Cache GET responses for a minute\nsummary: Cache GET responses for 60 s in memory.\nlanguage: typescript\n---\n\n```ts\nconst cached = cache.get(url);\n```\n',
  );
  link(project, 'drafts/linked-draft.md', path.join(outside, 'recipe.md'));
  link(project, 'src/linked-secret.ts', path.join(outside, 'secret.ts'));
  link(project, 'src/linked-dir', outside);
  link(project, 'src/relative-secret.ts', '../../outside/secret.ts');
  link(project, 'src/passwd.ts', '/etc/passwd');
  link(project, 'src/zero.ts', '/dev/zero');
  link(project, 'src/urandom.ts', '/dev/urandom');
  link(project, 'src/loop-a', 'loop-b');
  link(project, 'src/loop-b', 'loop-a');
  link(project, 'src/dangling.ts', path.join(outside, 'no-such-file.ts'));
  link(project, 'packages/outside-pkg', outside);
  mkfifo(path.join(project, 'src/pipe.ts'));
  await socketFile(path.join(project, 'src/socket.ts'));

  const canaries = [content, name];
  const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8').split('\n')[0] : '';
  if (passwd.length > 8) canaries.push(passwd);

  return {
    root,
    project,
    outside,
    canaries,
    entries: listEntries(project),
    skills: ['add-a-user-field', 'team-conventions', 'leaky', 'outsider', 'outsider-relative'],
    outsideFiles: [
      'secret.ts',
      'recipe.md',
      'evil.sh',
      'rules.json',
      'skill',
      'skill/SKILL.md',
      'nested/deeper/file.ts',
    ].map((f) => path.join(outside, f)),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Every path under `dir`, not following links. */
function listEntries(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      out.push(child);
      if (lstatSync(path.join(dir, child)).isDirectory()) walk(child);
    }
  };
  walk('');
  return out;
}

/**
 * What is outside the project, by path: type, size and a hash of the content. Compared before and
 * after a run, it shows any file the server created, changed or removed outside the workspace.
 */
export function fingerprintOutside(ws: FuzzWorkspace): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === ws.project) continue;
      const st = lstatSync(file);
      if (st.isDirectory()) {
        out.set(file, 'dir');
        walk(file);
      } else if (st.isFile()) {
        out.set(
          file,
          `file ${st.size} ${createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16)} ${st.mode}`,
        );
      } else {
        out.set(file, `special ${st.mode}`);
      }
    }
  };
  walk(ws.root);
  return out;
}

/** The differences between two fingerprints, one line each. */
export function fingerprintChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [file, v] of after) {
    if (before.get(file) !== v) changes.push(`${before.has(file) ? 'changed' : 'created'}: ${file}`);
  }
  for (const file of before.keys()) if (!after.has(file)) changes.push(`removed: ${file}`);
  return changes;
}
