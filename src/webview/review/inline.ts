// Inline Markdown as titles and summaries use it: `code` spans. Rendered as elements built from text,
// never as HTML, so a candidate's text cannot inject markup into the page.

/** `Use \`withRetry\` for calls` → text and <code> nodes; a lone backtick stays a backtick. */
export function inlineMarkdown(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  const span = /`([^`\n]+)`/g;
  let last = 0;
  for (let m = span.exec(text); m; m = span.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const code = document.createElement('code');
    code.textContent = m[1];
    out.push(code);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The same text without the backticks: for attributes, tooltips and the tab's title. */
export function plain(text: string): string {
  return text.replace(/`([^`\n]+)`/g, '$1');
}
