// Kind 6, deprecation policy: how production code retires a declaration. The marker most
// deprecations use, what their messages say (a replacement, a removal version), and where the
// deprecated code is kept (a file of its own, or the file that declares it).
import { distinctTails } from '../form';
import type { DeprecationFact, DetectorFacts } from '../repo-facts';
import type { CandidateDraft } from '../types';

/** Fewer deprecations than this say nothing about a policy. */
const MIN_MARKS = 3;
/** A file whose name says it holds what is retired (`deprecated.go`, `compat.py`, `legacy/`). */
const RETIRED_PLACE = /(^|\/)(deprecated|deprecations|compat|compatibility|legacy)([._/-]|$)/i;
const NAMES_REPLACEMENT = /\b(use|instead|replaced by|renamed|prefer|migrate to|ReplaceWith)\b/i;
const NAMES_VERSION = /\b(since|removed in|will be removed|in (version )?v?\d+\.\d+|v?\d+\.\d+(\.\d+)?)\b/i;

export function detectDeprecationPolicy(facts: DetectorFacts): CandidateDraft[] {
  const marks: (DeprecationFact & { path: string; family: DetectorFactsFamily })[] = [];
  for (const f of facts.files) {
    if (f.kind === 'production') {
      for (const d of f.deprecations) marks.push({ ...d, path: f.path, family: f.family });
    }
  }
  if (marks.length < MIN_MARKS || new Set(marks.map((m) => m.path)).size < 2) return [];
  const byConstruct = new Map<string, typeof marks>();
  for (const m of marks) byConstruct.set(m.construct, [...(byConstruct.get(m.construct) ?? []), m]);
  const [construct, used] = [...byConstruct.entries()].sort((a, b) => b[1].length - a[1].length)[0];
  const withMessage = used.filter((m) => m.message);
  const replacement = withMessage.filter((m) => NAMES_REPLACEMENT.test(m.message!));
  const version = withMessage.filter((m) => NAMES_VERSION.test(m.message!));
  const retired = marks.filter((m) => RETIRED_PLACE.test(m.path));
  const retiredFiles = [...new Set(retired.map((m) => m.path))];
  const example = replacement[0] ?? withMessage[0] ?? used[0];

  const message = replacement.length * 2 >= used.length
    ? `with a message that names the replacement (${quote(example)})`
    : withMessage.length * 2 >= used.length
    ? `with a message that says why (${quote(example)})`
    : '';
  const when = version.length * 2 >= Math.max(1, withMessage.length) ? ' and the version it changed in' : '';
  // Where the deprecated code sits is what the marks' files show; when a release removes it, nothing here shows.
  const place = retired.length * 2 >= marks.length
    ? ` Deprecated declarations are moved to ${
      distinctTails(retiredFiles).slice(0, 3).map((f) => `\`${f}\``).join(', ')
    } (${retired.length} of ${marks.length} marks).`
    : retired.length === 0
    ? ' Deprecated declarations stay in the files that declare them; no file here collects retired code.'
    : '';
  const other = [...byConstruct.entries()].filter(([k]) => k !== construct);
  const exception = other.length
    ? ` ${
      other.slice(0, 2).map(([k, v]) => `${v.length} ${v.length === 1 ? 'mark uses' : 'marks use'} the ${k}`).join(
        ' and ',
      )
    }.`
    : '';
  const code = [example.text, ...(example.declaration !== example.text ? [example.declaration] : [])].join('\n');
  return [{
    title: `A public declaration is retired with the ${construct}, not removed`,
    knowledgeType: 'code-standard',
    dimension: 'code-standard',
    language: facts.languageOf(example.family),
    category: 'deprecation',
    summary: `To retire public API, mark it with the ${construct}${
      message ? ` ${message}${when}` : ''
    }, and keep it working.${place}${exception}`,
    code,
    details: used.slice(0, 10).map((m) => `- ${m.path}:${m.line}: ${m.text}`).join('\n'),
    reasoning: {
      whyStandard: 'How this code base deprecates; users get a warning and a way forward before anything is removed.',
      sources: [
        `${example.path}:${example.line}`,
        ...used.filter((m) => m !== example).map((m) => `${m.path}:${m.line}`),
      ]
        .slice(0, 6),
      confidence: used.length * 4 >= marks.length * 3 ? 0.85 : 0.7,
    },
    tags: ['code-standard', 'deprecation'],
    trigger: 'deprecation',
  }];
}

type DetectorFactsFamily = DetectorFacts['files'][number]['family'];

function quote(m: DeprecationFact): string {
  // Javadoc and KDoc inline tags read as their text (`{@link #f(X)}` is `#f(X)`); the first sentence is the message.
  const text = (m.message ?? m.text).replace(/\{@\w+\s+([^}]*)\}/g, '$1').replace(/\{@\w+.*$/, '').replace(/`/g, "'")
    .split(/(?<=\.)\s/)[0].trim();
  return `\`${text.length > 70 ? `${text.slice(0, 67)}…` : text}\``;
}
