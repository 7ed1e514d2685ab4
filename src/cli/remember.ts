// `autosnippet remember "…"`: a person's sentence (and code) becomes a published recipe after one
// confirmation that shows the file it writes; the instruction files agents read are updated with it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { createCatalog } from '../core/catalog';
import { rememberTool } from '../core/catalog/adapters';
import type { Workspace } from '../core/ground/workspace';
import { parse, UsageError } from './args';

export const REMEMBER_USAGE =
  `Usage: autosnippet remember "<rule in your words>" [--code FILE[:FROM-TO]] [--category NAME] [--no-export] [--personal] [--yes]

Writes the rule as a recipe under .autosnippet/recipes/<category>/ (default conventions), publishes it
and updates the agent instruction files that already carry the AutoSnippet block (AGENTS.md when none
does). Shows the file first and asks once; --yes skips the question (scripts, CI).
  --code FILE[:FROM-TO]  the code that shows it: a file, or lines FROM to TO of it
  --category NAME        the folder it is filed under
  --no-export            publish only; leave the instruction files as they are
  --personal             remember it for you, in ~/.autosnippet/recipes/<category>/ (AUTOSNIPPET_HOME
                         moves it): every workspace you open sees it, none gets it in its files
`;

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}
export type Confirm = (question: string) => Promise<boolean>;

const OPTIONS = {
  code: { type: 'string' },
  category: { type: 'string' },
  'no-export': { type: 'boolean' },
  personal: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A yes/no question on the terminal; anything but yes is no, and without a terminal the answer is no. */
export const askOnTerminal: Confirm = async (question) => {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
};

export async function rememberCommand(
  args: string[],
  ws: () => Promise<Workspace>,
  out: Out,
  confirm: Confirm = askOnTerminal,
): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS);
  if (values.help) {
    out.stdout(REMEMBER_USAGE);
    return 0;
  }
  const text = positionals.join(' ').trim();
  if (!text) {
    throw new UsageError('remember needs the rule in your words: autosnippet remember "we wrap fetch in apiClient"');
  }
  const w = await ws();
  const code = values.code ? readCode(w.root, values.code as string) : undefined;
  const input = {
    text,
    ...code,
    ...(values.category ? { category: values.category as string } : {}),
    ...(values['no-export'] ? { export: false } : {}),
    ...(values.personal ? { personal: true } : {}),
  };
  const catalog = createCatalog();
  const call = (dryRun: boolean) =>
    catalog.call(w, rememberTool, { ...input, dryRun }, { actor: 'human', channel: 'cli' });
  if (!values.yes) {
    const preview = await call(true);
    if (!preview.ok) return failed(out, preview.error);
    out.stderr(`${preview.data.recipe!.file}:\n${indent(preview.data.text ?? '')}\n`);
    const also = preview.data.exported.length ? ` and update ${preview.data.exported.join(', ')}` : '';
    const question = preview.data.personal
      ? `Remember it for you in ${preview.data.recipe!.file}?`
      : `Publish ${preview.data.recipe!.file}${also}?`;
    if (!(await confirm(question))) {
      out.stderr(
        process.stdin.isTTY
          ? 'Nothing was written.\n'
          : 'Nothing was written: there is no terminal to ask on. Run it again with --yes to publish.\n',
      );
      return 1;
    }
  }
  const done = await call(false);
  if (!done.ok) return failed(out, done.error);
  out.stdout(
    `Published ${done.data.recipe!.file}${
      done.data.exported.length ? `; updated ${done.data.exported.join(', ')}` : ''
    }.\n`,
  );
  if (done.notice) out.stderr(`${done.notice}\n`);
  return 0;
}

/** `FILE` or `FILE:FROM-TO`, relative to the workspace: the text and where it comes from. */
function readCode(root: string, spec: string): { code: string; path: string } {
  const m = /^(.*?)(?::(\d+)(?:-(\d+))?)?$/.exec(spec)!;
  const rel = path.relative(root, path.resolve(root, m[1])).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new UsageError(`--code ${spec}: the file must be inside the workspace`);
  }
  let text: string;
  try {
    text = readFileSync(path.join(root, rel), 'utf8');
  } catch (e) {
    throw new UsageError(`--code ${spec}: ${(e as Error).message}`);
  }
  if (!m[2]) return { code: text, path: rel };
  const from = Number(m[2]);
  const to = Number(m[3] ?? m[2]);
  return { code: text.split('\n').slice(from - 1, to).join('\n'), path: `${rel}:${from}` };
}

function failed(out: Out, error: { code: string; message: string; hint?: string }): number {
  out.stderr(`${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}\n`);
  return 1;
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  │ ${l}`).join('\n');
}
