import { COMMENT, maskText } from './mask';

/**
 * The text with every comment blanked, delimiters included, and strings kept as they are: what a
 * reader of build scripts and manifests (Gradle, Package.swift) matches its patterns against. Offsets
 * and line breaks are unchanged, so a match still names its line. The comments are the ones the guard's
 * masker finds with the lexical rules of the language's family (nested block comments in Swift and
 * Kotlin, `//` inside a string is not a comment, raw and multi-line strings).
 */
export function blankComments(text: string, language: string): string {
  const { kinds } = maskText(text, language);
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (kinds[i] !== COMMENT) continue;
    let end = i;
    while (end < text.length && kinds[end] === COMMENT) end++;
    out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
    from = end;
    i = end - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
