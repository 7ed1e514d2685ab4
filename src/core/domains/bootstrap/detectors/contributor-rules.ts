// Kind 8, the contributor rules that bind a change: the command to run before a pull request (only
// one a file of the repository runs: a guide outlives its commands), the commit message convention
// (stated, or enforced by a checker or a CI action), and the rules on tests. Rules on how to use git
// or GitHub are generic and dropped; the rest are ranked commits, tests, code.
import type { ProjectCommand } from '../commands';
import type { DetectorFacts, RepoFacts } from '../repo-facts';
import { CONTRIBUTOR_CONCERNS } from '../tool-knowledge';
import type { CandidateDraft } from '../types';

type Concern = (typeof CONTRIBUTOR_CONCERNS)[number]['concern'];

const CONVENTIONAL = /conventional[- ]commits?|\b(feat|fix|chore|docs|refactor)(\([\w-]+\))?!?:\s/i;
/** CI actions that check pull request titles or commit messages against Conventional Commits. */
const COMMIT_ACTION = /semantic-pull-request|commitlint|conventional-commit|pr-title/i;
const TEST_FIRST =
  /\b(failing test|test (that|which) fails|regression test|tests? first|add(ing)? (a |new )?tests?|with (a |new )?tests?|covered by (a )?tests?|include tests?)\b/i;
const CHECKS = /\b(test|tests|check|lint|verify|ci)\b/;
const BEFORE_PR = /\b(before (you )?(submit|open|send|creat|push|commit)|pull request|PR\b|make sure|ensure)/i;

export function concernOf(text: string): Concern | undefined {
  return CONTRIBUTOR_CONCERNS.find((c) => c.about.test(text))?.concern;
}

/** Whether a file of the repository runs the command (CI, a script, a package script, a Makefile target). */
export function runByRepository(command: string, commands: readonly ProjectCommand[]): ProjectCommand | undefined {
  const words = command.trim().split(/\s+/);
  const key = words.slice(0, 2).join(' ');
  return commands.find((c) => c.command === command)
    ?? commands.find((c) => c.origin !== 'hook' && (c.command === key || c.command.startsWith(`${command} `)))
    ?? commands.find((c) => c.origin === 'ci' && words.length >= 2 && c.command.startsWith(key));
}

export function detectContributorWorkflow(facts: DetectorFacts): CandidateDraft[] {
  const { repo } = facts;
  const parts: { concern: Concern; say: string; source: string }[] = [];
  const commit = commitConvention(repo);
  if (commit) parts.push({ concern: 'commits', ...commit });
  const run = commandBeforePr(repo);
  if (run) parts.push({ concern: 'code', ...run });
  for (const doc of repo.contributorDocs) {
    const rule = doc.rules.find((r) => concernOf(r.text) === 'tests' && TEST_FIRST.test(r.text));
    if (rule) {
      parts.push({ concern: 'tests', say: rule.text.replace(/\.$/, ''), source: `${doc.file}:${rule.line}` });
      break;
    }
  }
  if (parts.length < 2) return [];
  const order: Concern[] = ['commits', 'tests', 'code'];
  parts.sort((a, b) => order.indexOf(a.concern) - order.indexOf(b.concern));
  const summary = parts.map((p) => sentence(p.say)).join(' ');
  const docs = repo.contributorDocs.map((d) => d.file);
  return [{
    title: `Before a pull request: ${lower(parts[0].say).slice(0, 80)}`,
    knowledgeType: 'agent-guideline',
    dimension: 'agent-guidelines',
    language: 'markdown',
    category: 'contributing',
    summary: `${summary}${docs.length ? ` Rules on using git and GitHub in ${docs[0]} are generic and left out.` : ''}`,
    code: '',
    reasoning: {
      whyStandard: 'What every change must satisfy before review, stated by the project and checked by its files.',
      sources: parts.map((p) => p.source),
      confidence: 0.85,
    },
    tags: ['agent-guidelines', 'contributing', ...new Set(parts.map((p) => p.concern))],
    trigger: 'before-pull-request',
  }];
}

function commitConvention(repo: RepoFacts): { say: string; source: string } | undefined {
  const action = repo.ciActions.find((a) => COMMIT_ACTION.test(a.action));
  const checker = repo.commitCheckers[0];
  const stated =
    repo.contributorDocs.flatMap((d) =>
      d.rules.filter((r) => concernOf(r.text) === 'commits' && CONVENTIONAL.test(r.text)).map((r) => ({ d, r }))
    )[0];
  const enforced = action ? `CI checks it (${action.action})` : checker ? `commitlint checks it (${checker.file})` : '';
  if (!stated && !enforced) return undefined;
  const what = action && /pull-request|pr-title/i.test(action.action) ? 'Pull request titles' : 'Commit messages';
  return {
    say: `${what} follow Conventional Commits (\`type(scope): subject\`, e.g. \`fix(parser): …\`)${
      enforced ? `; ${enforced}` : ''
    }`,
    source: stated ? `${stated.d.file}:${stated.r.line}` : action?.source ?? `${checker!.file}:1`,
  };
}

/** The command a contributor guide says to run before a pull request, when a file of the repository runs it. */
function commandBeforePr(repo: RepoFacts): { say: string; source: string } | undefined {
  for (const doc of repo.contributorDocs) {
    // A command near a rule about pull requests first, then any the guide shows that CI also runs.
    const near = (line: number) => doc.rules.some((r) => BEFORE_PR.test(r.text) && Math.abs(r.line - line) <= 6);
    // Only a check or a test run is what a change must pass: an install or a release command is not.
    const ranked = doc.commands.filter((c) => near(c.line) || CHECKS.test(c.command))
      .filter((c) => !/\b(install|publish|release|deploy|clone)\b/.test(c.command))
      .sort((a, b) => Number(near(b.line)) - Number(near(a.line)));
    for (const c of ranked) {
      const runner = runByRepository(c.command, repo.commands);
      if (!runner) continue;
      const checked = runner.origin === 'ci' ? 'CI runs it too' : `defined in ${runner.source.replace(/:\d+$/, '')}`;
      return {
        say: `Run \`${c.command}\` before opening a pull request (${checked}); a change that fails it is not ready`,
        source: `${doc.file}:${c.line}`,
      };
    }
  }
  return undefined;
}

const sentence = (t: string) => (/[.!?]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);
const lower = (t: string) => (/^[A-Z][a-z]/.test(t) ? t[0].toLowerCase() + t.slice(1) : t);
