/**
 * A minimal XML reader for build manifests (pom.xml): elements, text and line numbers. Attributes,
 * namespaces and entities beyond the five predefined ones are not needed there and are ignored.
 */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
  /** 1-based line of the opening tag. */
  line: number;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: '#document', children: [], text: '', line: 1 };
  const stack = [root];
  let line = 1;
  let i = 0;
  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (text.charCodeAt(k) === 10) line++;
    i = to;
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    stack[stack.length - 1].text += decode(text.slice(i, lt));
    advance(lt);
    if (text.startsWith('<!--', i)) advance(end(text, '-->', i) + 3);
    else if (text.startsWith('<![CDATA[', i)) {
      const close = end(text, ']]>', i);
      stack[stack.length - 1].text += text.slice(i + 9, close);
      advance(close + 3);
    } else if (text.startsWith('<?', i)) advance(end(text, '?>', i) + 2);
    else if (text.startsWith('<!', i)) advance(end(text, '>', i) + 1);
    else if (text.startsWith('</', i)) {
      const gt = end(text, '>', i);
      const name = localName(text.slice(i + 2, gt).trim());
      const at = findOpen(stack, name);
      if (at > 0) stack.length = at;
      advance(gt + 1);
    } else {
      const gt = end(text, '>', i);
      const body = text.slice(i + 1, gt);
      const selfClosing = body.endsWith('/');
      const name = localName(/^[^\s/>]+/.exec(body)?.[0] ?? '');
      const el: XmlElement = { name, children: [], text: '', line };
      stack[stack.length - 1].children.push(el);
      advance(gt + 1);
      if (!selfClosing) stack.push(el);
    }
  }
  return root;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  return el?.children.filter((c) => c.name === name) ?? [];
}

export function childText(el: XmlElement | undefined, name: string): string | undefined {
  const c = child(el, name);
  return c ? c.text.trim() : undefined;
}

function end(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at < 0 ? text.length : at;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function findOpen(stack: XmlElement[], name: string): number {
  for (let k = stack.length - 1; k > 0; k--) if (stack[k].name === name) return k;
  return -1;
}

function decode(s: string): string {
  return s.includes('&')
    ? s.replace(
      /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g,
      (
        _,
        e: string,
      ) => (e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : ENTITIES[e]),
    )
    : s;
}
