// `autosnippet trust` / `untrust`: the person's decision that a folder's own rules may run, kept in
// their home (never in the repository), as direnv's `allow` and VS Code's workspace trust keep it.
import { readTrustStore, trustFolder, untrustFolder, userDataDir } from '../core/catalog/adapters';
import { UsageError } from './args';

export const TRUST_USAGE = `Usage: autosnippet trust [DIR] | autosnippet trust --list | autosnippet untrust [DIR]

Trusting a folder (default: the workspace) lets what it brings run on this machine: its project guard
rules (regular expressions and tree-sitter queries in .autosnippet/guard/*.json and in recipes) and,
when your own settings allow it, its skill scripts. Subfolders are trusted with it. The list lives in
~/.autosnippet/trust.json (AUTOSNIPPET_HOME moves it), keyed by each folder's real path; nothing in a
repository can add to it. Inside VS Code, VS Code's workspace trust is used instead.
For one run only (CI), pass --trust before the command: autosnippet --trust guard.
`;

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

export function trustCommand(command: 'trust' | 'untrust', args: string[], workspaceDir: string, out: Out): number {
  if (command === 'trust' && args[0] === '--list') {
    const { entries, problem } = readTrustStore();
    if (problem) out.stderr(`${problem}\n`);
    out.stdout(JSON.stringify({ file: `${userDataDir()}/trust.json`, folders: entries }, null, 2) + '\n');
    return problem ? 1 : 0;
  }
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
    throw new UsageError(`${command} takes one folder (default: the workspace)`);
  }
  const dir = args[0] ?? workspaceDir;
  if (command === 'trust') {
    const { path, added } = trustFolder(dir);
    out.stderr(
      added ? `Trusted ${path}: its project guard rules run from now on.\n` : `${path} was already trusted.\n`,
    );
    return 0;
  }
  const { removed, stillCoveredBy } = untrustFolder(dir);
  out.stderr(removed.length ? `No longer trusted: ${removed.join(', ')}.\n` : `${dir} was not in the trust store.\n`);
  if (stillCoveredBy) {
    out.stderr(
      `It is still trusted through ${stillCoveredBy}; run autosnippet untrust ${stillCoveredBy} to take that back.\n`,
    );
  }
  return 0;
}
