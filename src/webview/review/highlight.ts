// Syntax highlighting for the code of a candidate: highlight.js with the languages AutoSnippet's
// projects use; colours come from the theme (review.css maps its classes to VS Code variables).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import objectivec from 'highlight.js/lib/languages/objectivec';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  objectivec,
  python,
  ruby,
  rust,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, grammar] of Object.entries(languages)) hljs.registerLanguage(name, grammar);

/** VS Code language ids whose highlight.js name differs. */
const ALIASES: Record<string, string> = {
  typescriptreact: 'typescript',
  javascriptreact: 'javascript',
  'objective-c': 'objectivec',
  'objective-cpp': 'objectivec',
  shellscript: 'bash',
  html: 'xml',
  jsonc: 'json',
};

/** The code as highlighted HTML (escaped by highlight.js), or undefined for a language it does not know. */
export function highlight(code: string, language: string): string | undefined {
  const name = Object.hasOwn(ALIASES, language) ? ALIASES[language] : language;
  if (!hljs.getLanguage(name)) return undefined;
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}
