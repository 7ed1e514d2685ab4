// Kind 6, changelog policy: how a change is recorded. A format a tool owns (fragments, or notes
// written from commit messages) decides it; otherwise a hand-kept changelog whose top heading
// collects the unreleased changes, in the sections its newest entries use.
import { nameList } from '../form';
import type { DetectorFacts, RepoFacts } from '../repo-facts';
import { CHANGELOG_FORMATS, CONTRIBUTOR_CONCERNS } from '../tool-knowledge';
import type { CandidateDraft } from '../types';

/** A heading that collects what is not released yet. */
const UNRELEASED = /^\[?\s*(unreleased|upcoming|next( release)?|main|master|head)\s*\]?$/i;
/** A heading that names a release: a version number, with or without a name or a date. */
const RELEASE = /\bv?\d+\.\d+(\.\d+)?\b/;

export function detectChangelogPolicy(facts: DetectorFacts): CandidateDraft[] {
  const { repo } = facts;
  const rule = changelogRule(repo);
  // A tool's format first: fragments and commit-written notes replace editing the file.
  const tool = CHANGELOG_FORMATS.filter((f) => f.written !== 'hand').find((f) =>
    repo.changelogFormats.some((c) => c.id === f.id)
  );
  if (tool) {
    const source = repo.changelogFormats.find((c) => c.id === tool.id)!.source;
    return [card(
      `Changes are recorded with ${tool.name}: ${
        tool.written === 'fragment' ? 'one entry file per change' : 'from commit messages'
      }`,
      `A change is recorded as ${tool.entry}.${
        repo.changelogs[0] ? ` ${repo.changelogs[0].file} is generated from them: do not edit it by hand.` : ''
      }${rule ? ` ${sentence(rule.text)}` : ''}`,
      [source, ...(rule ? [rule.source] : [])],
      tool.id,
    )];
  }
  const log = repo.changelogs[0];
  if (!log) return [];
  const top = log.headings.find((h) => UNRELEASED.test(h.text.replace(/[*_`]/g, '')) || RELEASE.test(h.text));
  if (!top || !UNRELEASED.test(top.text.replace(/[*_`]/g, ''))) return [];
  const sections = sectionsUnder(log, top);
  const keepAChangelog = repo.changelogFormats.some((c) =>
    c.id === 'keep-a-changelog' && c.source.startsWith(log.file)
  );
  const suffix = entrySuffix(log, top);
  const where = sections.length
    ? `under the \`${top.text}\` heading at the top of ${log.file}, in its section (${nameList(sections, 60, false)})`
    : `under the \`${top.text}\` heading at the top of ${log.file}`;
  return [card(
    `Each user-visible change adds a bullet under \`${top.text}\` in ${log.file}`,
    `A change users notice adds one bullet ${where}${suffix ? `, ending with ${suffix}` : ''}${
      keepAChangelog ? ' (Keep a Changelog)' : ''
    }; the release renames the heading to the version.${
      // Which changes need no entry is said only where a contributor guide says it.
      rule ? ` ${sentence(rule.text)}` : ''
    }`,
    [`${log.file}:${top.line}`, ...(rule ? [rule.source] : [])],
    keepAChangelog ? 'keep-a-changelog' : 'hand-written',
  )];
}

/** The section headings between the unreleased heading and the first release, else those of the newest release. */
function sectionsUnder(log: RepoFacts['changelogs'][number], top: { text: string; line: number }): string[] {
  const level = (line: number) => /^#+/.exec(log.head[line - 1] ?? '')?.[0].length ?? 1;
  const own = level(top.line);
  const out: string[] = [];
  const after = log.headings.filter((h) => h.line > top.line);
  // An empty unreleased heading: the sections the newest release used.
  let passedRelease = false;
  for (const h of after) {
    if (level(h.line) <= own) {
      if (out.length || passedRelease) break;
      passedRelease = true;
      continue;
    }
    if (!RELEASE.test(h.text) && !out.includes(h.text)) out.push(h.text.replace(/[*_`#]/g, '').trim());
  }
  return out.slice(0, 6);
}

/** How the newest bullets end when most of them end alike: the pull request or issue number, the author. */
function entrySuffix(log: RepoFacts['changelogs'][number], top: { line: number }): string | undefined {
  const bullets = log.head.slice(top.line).filter((l) => /^\s*[-*]\s+\S/.test(l)).slice(0, 40);
  if (bullets.length < 4) return undefined;
  const shares: [RegExp, string][] = [
    [/see #\d+(\s*\(@[\w-]+\))?\.?\s*$/, 'the issue or pull request (`see #123`) and the author (`(@name)`)'],
    [/\(#\d+\)\.?\s*$|\[#\d+\]\([^)]*\)\)?\.?\s*$/, 'the pull request number (`(#123)`)'],
    [/\(@[\w-]+\)\.?\s*$/, 'the author (`(@name)`)'],
  ];
  for (const [re, say] of shares) if (bullets.filter((b) => re.test(b)).length * 2 >= bullets.length) return say;
  return undefined;
}

/** The contributor guide's rule on the changelog, when it states one. */
function changelogRule(repo: RepoFacts): { text: string; source: string } | undefined {
  const code = CONTRIBUTOR_CONCERNS.find((c) => c.concern === 'code')!;
  for (const doc of repo.contributorDocs) {
    const r = doc.rules.find((x) =>
      /changelog|change log|release notes/i.test(`${x.heading} ${x.text}`) && code.about.test(x.text + ' changelog')
    );
    if (r) return { text: r.text, source: `${doc.file}:${r.line}` };
  }
  return undefined;
}

const sentence = (t: string) => (/[.!?]$/.test(t.trim()) ? t.trim() : `${t.trim()}.`);

function card(title: string, summary: string, sources: string[], format: string): CandidateDraft {
  return {
    title,
    knowledgeType: 'agent-guideline',
    dimension: 'agent-guidelines',
    language: 'markdown',
    category: 'changelog',
    summary,
    code: '',
    reasoning: {
      whyStandard: 'The repository records its changes this way; a change that skips it is incomplete at review.',
      sources,
      confidence: 0.8,
    },
    tags: ['agent-guidelines', 'changelog', format],
    trigger: 'changelog',
  };
}
