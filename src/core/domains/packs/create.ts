/**
 * `packs create`: a pack folder from chosen published recipes of the workspace, ready for `npm pack`
 * or a git repository. The recipe files are copied as they are, at the same place under `recipes/`,
 * so each keeps its id.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRepoFile } from '../../ground/files';
import { AutoSnippetError } from '../../ground/kernel/errors';
import type { Workspace } from '../../ground/workspace';
import { RECIPES_DIR } from '../knowledge/recipe-file';
import { findRecipeRow, listRecipes } from '../knowledge/recipes';
import { PACK_MANIFEST, PACK_NAME, PACKS_STATE_DIR } from './layout';

export interface CreateOptions {
  /** The folder to write (absolute). It must be empty, missing, or an earlier pack folder. */
  out: string;
  /** Recipe ids; none means every published recipe of the project. */
  ids: string[];
  name: string;
  version: string;
  description?: string;
}

export async function createPack(
  ws: Workspace,
  opts: CreateOptions,
): Promise<{ out: string; files: string[]; recipes: string[] }> {
  if (!PACK_NAME.test(opts.name)) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `"${opts.name}" is not a pack name.`,
      'Use an npm package name: lower case, e.g. @team/api-rules or team-rules.',
    );
  }
  if (!/^\d+\.\d+\.\d+([-+][\w.+-]+)?$/.test(opts.version)) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `"${opts.version}" is not a version.`,
      'Use a semantic version such as 1.0.0.',
    );
  }
  const st = statSync(opts.out, { throwIfNoEntry: false });
  if (
    st && (!st.isDirectory() || (readdirSync(opts.out).length > 0 && !existsSync(path.join(opts.out, PACK_MANIFEST))))
  ) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `${opts.out} is ${st.isDirectory() ? 'a folder with other files in it' : 'a file'}; nothing was written.`,
      'Give a new or empty folder (or a pack folder made earlier, which is written again).',
    );
  }
  const rows = opts.ids.length
    ? opts.ids.map((id) => findRecipeRow(ws, id))
    : listRecipes(ws, { status: 'published' }).map((r) => findRecipeRow(ws, r.id));
  const own = rows.filter((r) => r.file.startsWith(RECIPES_DIR + '/'));
  const notOwn = rows.filter((r) => r.file.startsWith(PACKS_STATE_DIR + '/')).map((r) => r.id);
  if (notOwn.length) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `${notOwn.join(', ')} come${notOwn.length === 1 ? 's' : ''} from a pack, not from this project.`,
      "A pack is made from the project's own recipes.",
    );
  }
  const drafts = own.filter((r) => r.status !== 'published').map((r) => `${r.id} (${r.status})`);
  if (drafts.length) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      `Only published recipes go into a pack: ${drafts.join(', ')}.`,
      'Publish them first, or leave them out.',
    );
  }
  if (own.length === 0) {
    throw new AutoSnippetError(
      'INVALID_INPUT',
      'There are no published recipes to put in the pack.',
      'Publish recipes first, or name them.',
    );
  }
  // A pack folder written again holds the chosen recipes only, not those of the last run as well.
  rmSync(path.join(opts.out, 'recipes'), { recursive: true, force: true });
  const files: string[] = [];
  const write = (rel: string, text: string) => {
    const abs = path.join(opts.out, ...rel.split('/'));
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    files.push(rel);
  };
  for (const r of own) {
    const text = (await readRepoFile(ws.root, r.file, { kind: 'recipe' })).text;
    write(`recipes/${r.file.slice(RECIPES_DIR.length + 1)}`, text);
  }
  const description = opts.description
    ?? `AutoSnippet knowledge pack: ${own.length} recipe${own.length === 1 ? '' : 's'}.`;
  write(PACK_MANIFEST, JSON.stringify({ name: opts.name, version: opts.version, description }, null, 2) + '\n');
  write(
    'package.json',
    JSON.stringify(
      {
        name: opts.name,
        version: opts.version,
        description,
        keywords: ['autosnippet-pack'],
        files: [PACK_MANIFEST, 'recipes/', 'guard/', 'skills/', 'README.md'],
      },
      null,
      2,
    ) + '\n',
  );
  write(
    'README.md',
    `# ${opts.name}\n\n${description}\n\nAdd it to a project with \`autosnippet packs add ${opts.name}\` (see AutoSnippet's docs/packs.md).\n\n`
      + own.map((r) => `- \`${r.id}\`: ${r.title}`).join('\n') + '\n',
  );
  return { out: opts.out, files: files.sort(), recipes: own.map((r) => r.id) };
}
