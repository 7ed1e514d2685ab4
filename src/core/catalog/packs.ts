/**
 * Knowledge packs: a team's recipes, guard rules and skills shared as an npm package or a git
 * repository, pinned by hash in `.autosnippet/packs.json`. Adding, updating, removing and switching off
 * pack items are a person's decisions (access `review`): a pack brings rules that run on the code.
 */
import path from 'node:path';
import { syncRecipes } from '../domains/knowledge';
import {
  addPack,
  createPack,
  installPacks,
  listPacks,
  type PackListEntry,
  type PackProblem,
  type PackSummary,
  removePack,
  setItemDisabled,
  updatePacks,
  type UpdateResult,
} from '../domains/packs';
import { skillRegistry } from '../domains/skills/registry';
import type { Workspace } from '../ground/workspace';
import { Domain, FilePath, Id, Input, List, Name, Opt, Out, Text, Type } from './schema';
import { type AnyTool, defineTool } from './types';

const problemsOut = Domain<PackProblem[]>(
  'Packs that did not load, each with its code (PACK_TAMPERED, PACK_NOT_CACHED, …), message and hint.',
  'array',
);
const packSource = () =>
  Text('An npm name[@version|tag], a .tgz from npm pack, a git URL[#branch|@tag], or a local git repository folder.', {
    minLength: 1,
    maxLength: 1024,
  });

/** After the pins changed: the index, the skills and (through its key) the guard see the packs now. */
async function reload(ws: Workspace): Promise<void> {
  await syncRecipes(ws);
  skillRegistry(ws).refresh();
}

const addPackTool = defineTool({
  name: 'add_pack',
  title: 'Add a knowledge pack',
  domain: 'packs',
  summary: 'Fetch a knowledge pack (npm, tarball or git), pin it by hash in .autosnippet/packs.json and load it.',
  description:
    'People only. Fetches a pack (`npm pack NAME@VERSION`, a local .tgz, or `git clone` of a URL or folder), checks it has autosnippet-pack.json, '
    + 'records its version and integrity (sha512 of the tarball, or the git commit, plus a tree hash of its files) in .autosnippet/packs.json, '
    + "caches it under the person's AutoSnippet folder for offline use, and loads its recipes (read-only), skills and guard rules (which run only in a trusted folder). "
    + 'A relative path is relative to the workspace.',
  inputSchema: Input({ source: packSource() }),
  outputSchema: Out({
    pack: Domain<PackSummary>(
      'The pinned pack: name, version, kind, source, integrity or commit, tree, counts of recipes, skills and rules.',
    ),
    cache: Type.String({ description: 'Where the pack is cached.' }),
    warnings: Type.Array(Type.String(), { description: 'Pack files that are not readable recipes (not loaded).' }),
    problems: problemsOut,
  }),
  aliases: { name: 'source', spec: 'source', url: 'source' },
  access: 'review',
  maxOutputChars: 12000,
  async handler(ws, input, ctx) {
    const result = await addPack(ws, input.source, ws.root, ctx.signal);
    await reload(ws);
    return result;
  },
});

const listPacksTool = defineTool({
  name: 'list_packs',
  title: 'List knowledge packs',
  domain: 'packs',
  summary: 'The knowledge packs pinned in .autosnippet/packs.json: version, hash, what each holds, whether it loaded.',
  description:
    'Lists the packs the workspace pins (name, version, kind, source, integrity or commit, tree hash, counts of recipes, skills and guard rules, whether it loaded and where it is cached), '
    + 'the pack item ids the project switched off (`disabled`), and the problems of packs that did not load (a cache that no longer matches its pin, a pack not fetched on this machine).',
  inputSchema: Input({}),
  outputSchema: Out({
    packs: Domain<PackListEntry[]>('One entry per pinned pack.', 'array'),
    disabled: Type.Array(Type.String()),
    problems: problemsOut,
  }),
  access: 'read',
  maxOutputChars: 12000,
  handler: (ws) => listPacks(ws),
});

const updatePacksTool = defineTool({
  name: 'update_packs',
  title: 'Update knowledge packs',
  domain: 'packs',
  summary:
    'Fetch what each pack follows (or a new source for one), show the recipes, skills and rules added, removed or changed, pin it.',
  description:
    'People only. For one pack (`name`) or all: fetches what its pin follows (its npm tag or range, its git branch, its tarball path) or `source` for one pack, '
    + 'and answers, per pack, the version before and after and the recipes added, removed and changed, skills and guard rules added and removed. '
    + 'Pins the new content unless dryRun.',
  inputSchema: Input({
    name: Opt(Name('The pack to update; default all.')),
    source: Opt(packSource()),
    dryRun: Opt(Type.Boolean({ default: false, description: 'Show what would change; pin nothing.' })),
  }),
  outputSchema: Out({
    updates: Domain<UpdateResult[]>('Per pack: from, to, changed, changes and a one-line summary per kind.', 'array'),
    problems: problemsOut,
  }),
  access: 'review',
  maxOutputChars: 20000,
  async handler(ws, input, ctx) {
    const result = await updatePacks(ws, {
      name: input.name,
      spec: input.source,
      cwd: ws.root,
      dryRun: input.dryRun,
      signal: ctx.signal,
    });
    if (!input.dryRun) await reload(ws);
    return result;
  },
});

const removePackTool = defineTool({
  name: 'remove_pack',
  title: 'Remove a knowledge pack',
  domain: 'packs',
  summary: 'Unpin a knowledge pack: its recipes, skills and rules leave the workspace (the cache stays).',
  description:
    'People only. Removes the pack from .autosnippet/packs.json and its copy from .autosnippet/state/packs/; its recipes, skills and guard rules are no longer seen. '
    + 'The cache under the AutoSnippet folder is kept, so adding it again works offline.',
  inputSchema: Input({ name: Name('The pack name.', { minLength: 1 }) }),
  outputSchema: Out({ removed: Domain<PackSummary>('The pack as it was pinned.'), problems: problemsOut }),
  access: 'review',
  maxOutputChars: 6000,
  async handler(ws, input) {
    const result = removePack(ws, input.name);
    await reload(ws);
    return result;
  },
});

const installPacksTool = defineTool({
  name: 'install_packs',
  title: 'Install the pinned knowledge packs',
  domain: 'packs',
  summary: 'Fetch every pack .autosnippet/packs.json pins that this machine lacks, refusing any whose hash differs.',
  description:
    'People only. For a fresh clone or a new machine: each pinned pack missing from the cache (or whose cache no longer matches its pin) is fetched at exactly its pinned version or commit '
    + 'and refused (PACK_TAMPERED) unless it hashes to the pin. Nothing is updated: `update_packs` moves pins.',
  inputSchema: Input({}),
  outputSchema: Out({
    installed: Domain<{ name: string; version: string; action: string }[]>(
      'Per pack: cached, fetched or replaced.',
      'array',
    ),
    problems: problemsOut,
  }),
  access: 'review',
  maxOutputChars: 8000,
  async handler(ws) {
    const result = await installPacks(ws);
    await reload(ws);
    return result;
  },
});

const disablePackItemTool = defineTool({
  name: 'disable_pack_item',
  title: 'Switch a pack item off or on',
  domain: 'packs',
  summary:
    'Switch a pack recipe, skill or guard rule off for this project (listed under `disabled` in packs.json), or back on.',
  description:
    'People only. Adds the id (a recipe id, a skill name, a guard rule id) to `disabled` in .autosnippet/packs.json, so no pack item with that id is loaded, '
    + "or removes it with enable: true. To change a pack recipe instead, write a project recipe with the same id: it overrides the pack's.",
  inputSchema: Input({
    id: Id('The item id: recipe id, skill name or guard rule id.'),
    enable: Opt(Type.Boolean({ default: false, description: 'Switch it back on.' })),
  }),
  outputSchema: Out({
    disabled: Type.Array(Type.String()),
    packs: Type.Array(Type.String(), { description: 'The packs that have an item with this id.' }),
    problems: problemsOut,
  }),
  access: 'review',
  maxOutputChars: 6000,
  async handler(ws, input) {
    const result = setItemDisabled(ws, input.id, !input.enable);
    await reload(ws);
    return result;
  },
});

const createPackTool = defineTool({
  name: 'create_pack',
  title: 'Create a knowledge pack',
  domain: 'packs',
  summary:
    'Write a pack folder (package.json, autosnippet-pack.json, recipes/, guard/, skills/) from the project, ready for npm pack or git.',
  description:
    'People only. Copies the chosen published recipes of the project (all of them when `ids` is empty) into `out` as a pack: recipes/<category>/<file>.md as they are, '
    + 'with `rules: true` its guard rule files (.autosnippet/guard/*.json, not the baseline) under guard/, and the skills named in `skills` from .autosnippet/skills/ under skills/; '
    + 'autosnippet-pack.json and package.json with `name` and `version`, and a README. `out` must be new, empty, or a pack folder made before. '
    + 'Publish it with `npm pack` / `npm publish`, or commit it to a git repository.',
  inputSchema: Input({
    out: FilePath('The folder to write: absolute, or relative to the workspace.', { minLength: 1 }),
    ids: Opt(List(Id(), 500, { description: 'Recipe ids; default every published recipe.' })),
    rules: Opt(Type.Boolean({ description: "Also the project's guard rule files." })),
    skills: Opt(List(Name(), 100, { description: 'Project skills (names in .autosnippet/skills) to include.' })),
    name: Opt(Name('The pack name (an npm package name); default <workspace folder>-pack.')),
    version: Opt(Name('Its version; default 1.0.0.', { maxLength: 64 })),
    description: Opt(Text(undefined, { maxLength: 500 })),
  }),
  outputSchema: Out({
    out: Type.String(),
    files: Type.Array(Type.String()),
    recipes: Type.Array(Type.String()),
    rules: Type.Array(Type.String(), { description: 'Guard rule ids carried.' }),
    skills: Type.Array(Type.String()),
    next: Type.String(),
  }),
  access: 'review',
  maxOutputChars: 12000,
  async handler(ws, input) {
    await syncRecipes(ws);
    const out = path.resolve(ws.root, input.out);
    const name = input.name
      ?? `${path.basename(ws.root).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[-.]+/, '') || 'team'}-pack`;
    const result = await createPack(ws, {
      out,
      ids: input.ids ?? [],
      rules: input.rules,
      skills: input.skills,
      name,
      version: input.version ?? '1.0.0',
      description: input.description,
    });
    return {
      ...result,
      next:
        `Run \`npm pack\` in ${out} for a tarball (or npm publish), or commit the folder to a git repository; then autosnippet packs add <tarball|name|git-url> in each project.`,
    };
  },
});

export const packTools: AnyTool[] = [
  addPackTool,
  listPacksTool,
  updatePacksTool,
  removePackTool,
  installPacksTool,
  disablePackItemTool,
  createPackTool,
];

export { addPackTool, listPacksTool, removePackTool, updatePacksTool };
