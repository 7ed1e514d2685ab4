// Building the page's elements from text, never from HTML strings, so nothing a candidate holds can
// become markup. A button is disabled while the extension is busy, so a second click cannot send a
// second decision before the first has landed.
import { view } from './state';

type Attrs = Record<string, string | boolean | number | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (k === 'className') el.className = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== undefined && c !== false) el.append(c);
  return el;
}

export function icon(name: string, label?: string): HTMLElement {
  return h('span', {
    className: `codicon codicon-${name}`,
    'aria-hidden': label ? undefined : 'true',
    'aria-label': label,
    role: label ? 'img' : undefined,
  });
}

export function button(
  label: string,
  onClick: () => void,
  opts: { icon?: string; secondary?: boolean; title?: string; disabled?: boolean; id?: string } = {},
): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      id: opts.id,
      className: opts.secondary ? 'secondary' : 'primary',
      title: opts.title,
      disabled: opts.disabled || view.busy,
      onclick: () => onClick(),
    },
    opts.icon ? icon(opts.icon) : undefined,
    h('span', {}, label),
  );
}

export function present(...nodes: (Node | string | undefined)[]): (Node | string)[] {
  return nodes.filter((n): n is Node | string => n !== undefined);
}

/** Focus, with the caret after the text of a rebuilt field (where the person was typing). */
export function focusAtEnd(el: HTMLElement): void {
  el.focus();
  if (el instanceof HTMLInputElement && el.type === 'text' || el instanceof HTMLTextAreaElement) {
    el.setSelectionRange(el.value.length, el.value.length);
  }
}
