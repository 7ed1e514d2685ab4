import { escapeRegExp } from '../kernel/names';
import { readDataFile } from './data-file';

/**
 * Names of specific technologies — languages, frameworks, databases, cloud and hosting services,
 * CI, office and chat tools (Jira, Excel, 钉钉), formats of a field (DICOM, FASTA) — with the
 * spellings people type (`tech-names.json`, written for AutoSnippet, MIT; generic formats such as
 * JSON or CSV and protocols such as HTTP are left out: they name no domain). A name that is also an
 * ordinary word ("go", "express", "excel") counts in a request only when written with a capital; a
 * Chinese one (掘金, 豆包) never does.
 */
interface Lexicon {
  /** Lower-case form → the technology's name. */
  forms: Map<string, string>;
  /** The forms that are ordinary words too. */
  ambiguous: Set<string>;
  /** Technologies any code base may use: languages, version control and its hosts, CI services, operating systems. */
  general: Set<string>;
  /** Every form, longest first, as one alternation; Han forms need no word boundary. */
  pattern: RegExp;
}

let lexicon: Lexicon | undefined;

function load(): Lexicon {
  if (lexicon) return lexicon;
  let data: { ambiguous: string[]; general: string[]; names: Record<string, string[]> } = {
    ambiguous: [],
    general: [],
    names: {},
  };
  try {
    data = JSON.parse(readDataFile('tech-names.json')?.toString('utf8') ?? '') as typeof data;
  } catch {
    // missing or unreadable: no technology is recognised, and routing does without the signal
  }
  const forms = new Map<string, string>();
  for (const [name, aliases] of Object.entries(data.names)) {
    for (const f of [name, ...aliases]) if (!forms.has(f)) forms.set(f, name);
  }
  const all = [...forms.keys()].sort((a, b) => b.length - a.length);
  const han = all.filter((f) => /\p{Script=Han}/u.test(f)).map(escapeRegExp);
  const latin = all.filter((f) => !/\p{Script=Han}/u.test(f)).map(escapeRegExp);
  // A Latin form stands alone: not inside a longer word, a path (`.json`) or an identifier (`go_test`).
  // Chinese text around it is no word of it ("Maven项目").
  const source = [
    `(?<![A-Za-z0-9_.+#/-])(?:${latin.join('|')})(?![A-Za-z0-9_+#]|[./-][A-Za-z0-9])`,
    ...(han.length ? [`(?:${han.join('|')})`] : []),
  ].join('|');
  lexicon = {
    forms,
    ambiguous: new Set(data.ambiguous),
    general: new Set(data.general),
    pattern: new RegExp(source, 'giu'),
  };
  return lexicon;
}

/** The technologies a request names (by canonical name). An ordinary-word name counts only when capitalised ("Go", "Excel"). */
export function technologiesIn(text: string): Set<string> {
  const { forms, ambiguous, pattern } = load();
  const out = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    const form = m[0].toLowerCase();
    const name = forms.get(form);
    if (!name) continue;
    const end = m.index + m[0].length;
    // A single letter against Chinese is a word of it: C端 (consumer-facing), not the C language.
    if (form.length === 1 && /\p{Script=Han}/u.test(text.charAt(end))) continue;
    // An ordinary word counts when capitalised, but not by starting an English sentence ("Go through the list").
    if (
      ambiguous.has(form)
      && (m[0] === form || (startsSentence(text, m.index) && /^\s+[a-z]/.test(text.slice(end, end + 2))))
    ) continue;
    out.add(name);
  }
  return out;
}

/**
 * Whether `index` starts the text or follows the end of a sentence (`.`, `!` or `?` and spaces). Reads
 * back over the spaces only, so that many names in a long text cost no more than the text.
 */
function startsSentence(text: string, index: number): boolean {
  let i = index;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  return index === 0 || (i > 0 && i < index && /[.!?]/.test(text[i - 1]));
}

/**
 * Whether a technology is one any code base may use — a programming language, git and its hosts, a CI
 * service, an operating system — so that a guide for every project need not name it.
 */
export function isGeneralTechnology(name: string): boolean {
  return load().general.has(name);
}

/** Whether a text (a skill's) mentions the technology in any of its spellings, in any case. */
export function mentionsTechnology(text: string, name: string): boolean {
  const { forms } = load();
  let re = mentionPatterns.get(name);
  if (!re) {
    const spellings = [...forms.entries()].filter(([, n]) => n === name).map(([f]) => escapeRegExp(f));
    re = new RegExp(`(?<![A-Za-z0-9_])(?:${spellings.join('|')})(?![A-Za-z0-9_])`, 'iu');
    mentionPatterns.set(name, re);
  }
  return re.test(text);
}

const mentionPatterns = new Map<string, RegExp>();
