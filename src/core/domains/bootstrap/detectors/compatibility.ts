// Kind 5, public API and compatibility: an API checker CI runs (with the dumps it keeps beside the
// code), and the oldest language version a manifest pins when CI builds with it. Both bind every
// change to the public surface or the language features used, and neither shows in the code itself.
import type { ProjectCommand } from '../commands';
import { nameList } from '../form';
import type { DetectorFacts } from '../repo-facts';
import { API_CHECKERS, type ApiChecker } from '../tool-knowledge';
import type { CandidateDraft } from '../types';

export function detectCompatibilityChecks(facts: DetectorFacts): CandidateDraft[] {
  return [...apiChecks(facts), ...versionPins(facts)];
}

/** Where a checker runs: CI steps and actions first, then a script or target CI calls. */
function runsOf(c: ApiChecker, facts: DetectorFacts): { text: string; source: string; ci: boolean }[] {
  const { commands, ciActions } = facts.repo;
  const ci = commands.filter((x) => x.origin === 'ci' && c.runs.test(x.command));
  const actions = ciActions.filter((a) => c.runs.test(a.action));
  // A package script or Makefile target that runs the checker counts when CI runs that script.
  const scripts = commands.filter((x) => x.origin !== 'ci' && c.runs.test(x.text));
  const calledByCi = scripts.filter((s) => commands.some((x) => x.origin === 'ci' && x.command.endsWith(s.command)));
  return [
    ...ci.map((x) => ({ text: upToGoal(x.command, c.runs), source: x.source, ci: true })),
    ...actions.map((a) => ({ text: `${a.action}@${a.ref}`, source: a.source, ci: true })),
    ...calledByCi.map((x) => ({ text: x.command, source: x.source, ci: true })),
    ...scripts.filter((s) => !calledByCi.includes(s)).map((x) => ({ text: x.command, source: x.source, ci: false })),
  ];
}

/** A command up to the word that runs the checker: its options and project lists are CI's own detail. */
function upToGoal(command: string, runs: RegExp): string {
  const words = command.split(/\s+/);
  const at = words.findIndex((w) => runs.test(w));
  return at >= 0 ? words.slice(0, at + 1).join(' ') : command;
}

function apiChecks(facts: DetectorFacts): CandidateDraft[] {
  const out: CandidateDraft[] = [];
  for (const c of API_CHECKERS) {
    const runs = runsOf(c, facts);
    const files = facts.repo.apiFiles.filter((f) => f.checker === c.id);
    const dumps = files.filter((f) => f.role === 'dump');
    const inCi = runs.find((r) => r.ci);
    // A checker nothing runs is a leftover; dumps a configured checker keeps are checked by its build task.
    if (!inCi && !(dumps.length && files.some((f) => f.role === 'config')) && !runs.length) continue;
    const run = inCi ?? runs[0];
    const dumpDirs = [...new Set(dumps.map((d) => d.file.replace(/[^/]+$/, '') || './'))];
    const where = dumps.length
      ? `the API dumps committed beside the code (${nameList(dumpDirs.map((d) => `${d}`), 70)})`
      : 'the last release';
    const update = c.update && dumps.length
      ? ` After an intended change, regenerate the dumps with \`${c.update}\` and commit them with the change.`
      : '';
    const runText = run ? `${inCi ? 'CI runs' : 'the project runs'} \`${run.text}\`` : 'the build runs it';
    out.push({
      title: `Public API changes are checked by ${c.name}: keep the API compatible`,
      knowledgeType: 'boundary-constraint',
      dimension: 'agent-guidelines',
      language: 'markdown',
      category: 'compatibility',
      summary:
        `Every change to the public API is compared with ${where}: ${runText}, which fails on an incompatible change.${update} Internal and private declarations are outside the check; a breaking change needs the maintainers' decision, not a dump update.`,
      code: '',
      details: [
        ...runs.slice(0, 6).map((r) => `- runs: \`${r.text}\` (${r.source})`),
        ...files.slice(0, 8).map((f) => `- ${f.role}: ${f.file}`),
      ].join('\n'),
      reasoning: {
        whyStandard: `${c.name} is run by ${
          inCi ? 'CI' : 'a script of the repository'
        }; a change that breaks it fails the check.`,
        sources: [...runs.map((r) => r.source), ...files.map((f) => f.source)].slice(0, 6),
        confidence: inCi ? 0.9 : 0.7,
      },
      tags: ['agent-guidelines', 'compatibility', 'api-check', c.id],
      trigger: 'api-compatibility',
    });
  }
  return out;
}

/** `>=3.9` → 3.9, `1.90.0` → 1.90, `^18.0.0` → 18: the major and minor a floor names. */
function floorOf(value: string): string | undefined {
  const m = /(\d+)(?:\.(\d+))?/.exec(value);
  if (!m) return undefined;
  return m[2] !== undefined ? `${m[1]}.${m[2]}` : m[1];
}

/** The CI matrix values, action refs and commands that name the pinned version: CI builds with the floor. */
function ciBuildsWith(floor: string, commands: readonly ProjectCommand[], facts: DetectorFacts): string[] {
  const same = (v: string) => floorOf(v.replace(/^v/, '')) === floor || v === floor;
  const sources = new Set<string>();
  for (const c of commands) {
    if (c.origin !== 'ci' || !c.matrix) continue;
    if (Object.values(c.matrix).some((values) => values.some(same))) sources.add(c.source);
  }
  for (const a of facts.repo.ciActions) {
    if (/toolchain|setup-(python|go|node|java)/.test(a.action) && same(a.ref)) sources.add(a.source);
  }
  return [...sources];
}

function versionPins(facts: DetectorFacts): CandidateDraft[] {
  const out: CandidateDraft[] = [];
  const seen = new Set<string>();
  // The primary language's pin: the one new code is written against.
  const pins = facts.repo.pins.filter((p) => !facts.primary || p.families.includes(facts.primary));
  for (const pin of pins) {
    const floor = floorOf(pin.value);
    if (!floor || seen.has(pin.language)) continue;
    const ci = [
      ...ciBuildsWith(floor, facts.repo.commands, facts),
      ...facts.repo.ciReadsPin.filter((r) => r.language === pin.language).map((r) => r.source),
    ];
    // Without CI building with it, the pin is the profile's fact, not a checked rule.
    if (!ci.length) continue;
    seen.add(pin.language);
    const file = pin.source.replace(/:\d+$/, '');
    out.push({
      title: `New code must build on ${pin.language} ${floor}, the oldest version supported`,
      knowledgeType: 'boundary-constraint',
      dimension: 'agent-guidelines',
      language: 'markdown',
      category: 'compatibility',
      summary:
        `${file} pins ${pin.say}, and CI builds and tests with ${pin.language} ${floor}: code must not use a language or standard-library feature newer than ${pin.language} ${floor}, however new the toolchain on a person's machine. Raising the floor is a release decision, made in ${file}, not a side effect of a change.`,
      code: '',
      reasoning: {
        whyStandard: `The manifest declares the floor and CI checks it (${ci.slice(0, 2).join(', ')}).`,
        sources: [pin.source, ...ci].slice(0, 6),
        confidence: 0.85,
      },
      tags: ['agent-guidelines', 'compatibility', 'version-floor'],
      trigger: 'oldest-supported-version',
    });
  }
  return out;
}
