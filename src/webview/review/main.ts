// The candidate review page (runs in a VS Code webview). It renders what the extension sends and
// sends back what the person asked for; it never writes anything itself. Its state (filters,
// selection, the candidate on show) survives being hidden and a window reload (getState/setState).
import { highlight } from './highlight';
import { inlineMarkdown, plain } from './inline';
import { keyCommand } from './keys';
import type {
  CandidateEdit,
  ChecklistEntry,
  ReviewDetail,
  ReviewGuard,
  ReviewListItem,
  ReviewOutcome,
  ReviewSetup,
  ToExtension,
  ToPage,
} from './protocol';

declare function acquireVsCodeApi(): {
  postMessage(m: ToExtension): void;
  getState(): unknown;
  setState(s: unknown): void;
};
const vscode = acquireVsCodeApi();

type Status = 'pending' | 'approved' | 'rejected' | 'all';
type GroupBy = 'category' | 'dimension' | 'language' | 'none';
type SortBy = 'confidence' | 'newest' | 'title';

interface PageState {
  status: Status;
  language: string;
  groupBy: GroupBy;
  sortBy: SortBy;
  text: string;
  selectedId?: string;
  checked: string[];
  collapsed: string[];
  /** The workspace folder reviewed: a restored tab reopens on the same folder. */
  folder?: string;
}

const saved = (vscode.getState() ?? {}) as Partial<PageState>;
const state: PageState = {
  status: 'pending',
  language: '',
  groupBy: 'category',
  sortBy: 'confidence',
  text: '',
  checked: [],
  collapsed: [],
  ...saved,
};
let setup: ReviewSetup | undefined;
let items: ReviewListItem[] | undefined;
let detail: ReviewDetail | undefined;
let detailError: string | undefined;
let outcome: ReviewOutcome | undefined;
let editing = false;
let editError: { message: string; field?: string } | undefined;
let rejecting = false;
/** The reason field for the candidate on show (key r), not for a selection. */
let rejectingOne = false;
/** The candidate to show once the list comes back after a decision or an undo. */
let advanceTo: string | undefined;
/** The checklist as the edit form's current values would leave it (undefined: the saved one). */
let liveChecklist: ChecklistEntry[] | undefined;
/** The form field to focus when the editor opens (a checklist item's link). */
let editFocus: string | undefined;
/**
 * What has been typed and not yet sent: the edit form's values and the rejection reason. The page is
 * rebuilt whenever a message arrives (a list refresh, the detail), and typing must survive that.
 */
let editDraft: Record<string, string> | undefined;
let reasonDraft = '';
let busy = false;

const app = document.getElementById('app')!;
const lang = document.documentElement.lang || 'en';

function persist(): void {
  vscode.setState(state);
}

function t(key: string, ...args: (string | number)[]): string {
  const s = setup?.strings[key] ?? key;
  return s.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

// ---------------------------------------------------------------- DOM helpers

type Attrs = Record<string, string | boolean | number | undefined | ((e: Event) => void)>;

function h<K extends keyof HTMLElementTagNameMap>(
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

function icon(name: string, label?: string): HTMLElement {
  return h('span', {
    className: `codicon codicon-${name}`,
    'aria-hidden': label ? undefined : 'true',
    'aria-label': label,
    role: label ? 'img' : undefined,
  });
}

function button(
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
      disabled: opts.disabled || busy,
      onclick: () => onClick(),
    },
    opts.icon ? icon(opts.icon) : undefined,
    h('span', {}, label),
  );
}

function present(...nodes: (Node | string | undefined)[]): (Node | string)[] {
  return nodes.filter((n): n is Node | string => n !== undefined);
}

function send(m: ToExtension): void {
  vscode.postMessage(m);
}

function relativeTime(iso: string | undefined): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const minutes = Math.round((then - Date.now()) / 60000);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return rtf.format(hours, 'hour');
  return rtf.format(Math.round(hours / 24), 'day');
}

function percent(x: number): string {
  return `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;
}

function typeLabel(type: string): string {
  return setup?.knowledgeTypes.find((k) => k.value === type)?.label ?? type;
}

// ---------------------------------------------------------------- the list

function shown(): ReviewListItem[] {
  if (!items) return [];
  const text = state.text.trim().toLowerCase();
  const list = items.filter((c) =>
    (state.status === 'all' || c.status === state.status)
    && (!state.language || c.language === state.language)
    && (!text || `${c.title} ${c.summary} ${c.category}`.toLowerCase().includes(text))
  );
  const by: Record<SortBy, (a: ReviewListItem, b: ReviewListItem) => number> = {
    confidence: (a, b) => b.confidence - a.confidence || a.title.localeCompare(b.title),
    newest: (a, b) => b.createdAt.localeCompare(a.createdAt),
    title: (a, b) => a.title.localeCompare(b.title, lang),
  };
  return list.sort(by[state.sortBy]);
}

function groupKey(c: ReviewListItem): string {
  switch (state.groupBy) {
    case 'category':
      return c.category;
    case 'dimension':
      return c.dimension;
    case 'language':
      return c.language;
    default:
      return '';
  }
}

function groupLabel(key: string): string {
  if (state.groupBy === 'dimension') return key ? setup?.dimensions[key] ?? key : t('otherDimension');
  return key;
}

function groups(list: ReviewListItem[]): [string, ReviewListItem[]][] {
  const map = new Map<string, ReviewListItem[]>();
  for (const c of list) map.set(groupKey(c), [...(map.get(groupKey(c)) ?? []), c]);
  return [...map.entries()].sort((
    [a],
    [b],
  ) => (a === '' ? 1 : b === '' ? -1 : groupLabel(a).localeCompare(groupLabel(b), lang)));
}

function toggleChecked(ids: string[], on: boolean): void {
  const set = new Set(state.checked);
  for (const id of ids) on ? set.add(id) : set.delete(id);
  state.checked = [...set];
  persist();
  render();
}

function select(id: string): void {
  if (state.selectedId !== id) {
    state.selectedId = id;
    detail = undefined;
    detailError = undefined;
    editing = false;
    editError = undefined;
    rejectingOne = false;
    liveChecklist = undefined;
    editDraft = undefined;
    reasonDraft = '';
    persist();
    send({ type: 'select', id });
  }
  render();
}

function renderToolbar(): HTMLElement {
  const languages = [...new Set((items ?? []).map((c) => c.language))].sort();
  const selectBox = (
    label: string,
    value: string,
    options: [string, string][],
    onChange: (v: string) => void,
    id: string,
  ) =>
    h(
      'label',
      { className: 'field', for: id },
      h('span', {}, label),
      (() => {
        const s = h(
          'select',
          { id, onchange: (e) => onChange((e.target as HTMLSelectElement).value) },
          ...options.map(([v, l]) => h('option', { value: v, selected: v === value }, l)),
        );
        return s;
      })(),
    );
  const search = h('input', {
    type: 'search',
    id: 'filter-text',
    placeholder: t('search'),
    'aria-label': t('search'),
    value: state.text,
  });
  search.addEventListener('input', () => {
    state.text = search.value;
    persist();
    renderList();
  });
  return h(
    'div',
    { className: 'toolbar', role: 'toolbar', 'aria-label': t('title') },
    h('div', { className: 'search' }, icon('filter'), search),
    selectBox(t('status'), state.status, [
      ['pending', t('statusPending')],
      ['approved', t('statusApproved')],
      ['rejected', t('statusRejected')],
      ['all', t('statusAll')],
    ], (v) => {
      state.status = v as Status;
      persist();
      render();
    }, 'filter-status'),
    selectBox(t('language'), state.language, [
      ['', t('languageAll')],
      ...languages.map((l): [string, string] => [l, l]),
    ], (v) => {
      state.language = v;
      persist();
      render();
    }, 'filter-language'),
    selectBox(t('groupBy'), state.groupBy, [
      ['category', t('groupCategory')],
      ['dimension', t('groupDimension')],
      ['language', t('groupLanguage')],
      ['none', t('groupNone')],
    ], (v) => {
      state.groupBy = v as GroupBy;
      persist();
      render();
    }, 'group-by'),
    selectBox(t('sortBy'), state.sortBy, [
      ['confidence', t('sortConfidence')],
      ['newest', t('sortNewest')],
      ['title', t('sortTitle')],
    ], (v) => {
      state.sortBy = v as SortBy;
      persist();
      render();
    }, 'sort-by'),
    h('button', {
      type: 'button',
      className: 'icon',
      title: t('refresh'),
      'aria-label': t('refresh'),
      onclick: () => send({ type: 'refresh' }),
    }, icon('refresh')),
  );
}

function pendingChecked(): string[] {
  const pending = new Set((items ?? []).filter((c) => c.status === 'pending').map((c) => c.id));
  return state.checked.filter((id) => pending.has(id));
}

function renderSelectionBar(): HTMLElement | undefined {
  const ids = pendingChecked();
  if (!ids.length) return undefined;
  if (rejecting) {
    const reason = h('input', {
      type: 'text',
      id: 'reject-reason',
      placeholder: t('rejectReason'),
      'aria-label': t('rejectReason'),
    });
    const go = () => {
      if (!reason.value.trim()) {
        reason.setAttribute('aria-invalid', 'true');
        reason.focus();
        return;
      }
      rejecting = false;
      send({ type: 'reject', ids, reason: reason.value.trim() });
    };
    reason.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') go();
      if (e.key === 'Escape') {
        rejecting = false;
        render();
      }
    });
    queueMicrotask(() => reason.focus());
    return h(
      'div',
      { className: 'selection-bar', role: 'region', 'aria-label': t('selected', ids.length) },
      h('span', { className: 'count' }, t('selected', ids.length)),
      reason,
      button(t('rejectN', ids.length).replace(/…$/, ''), go, { icon: 'close', id: 'reject-go' }),
      button(t('cancel'), () => {
        rejecting = false;
        render();
      }, { secondary: true }),
    );
  }
  return h(
    'div',
    { className: 'selection-bar', role: 'region', 'aria-label': t('selected', ids.length) },
    h('span', { className: 'count' }, t('selected', ids.length)),
    button(t('approveN', ids.length), () => send({ type: 'approve', ids }), { icon: 'check', id: 'approve-selected' }),
    button(t('rejectN', ids.length), () => {
      rejecting = true;
      render();
    }, { icon: 'close', secondary: true, id: 'reject-selected' }),
    button(t('clearSelection'), () => toggleChecked(state.checked, false), { secondary: true }),
  );
}

function renderOutcome(): HTMLElement | undefined {
  if (!outcome) return undefined;
  const o = outcome;
  return h(
    'div',
    { className: `outcome ${o.kind}`, role: o.kind === 'error' ? 'alert' : 'status' },
    icon(o.kind === 'error' ? 'error' : o.kind === 'rejected' ? 'circle-slash' : 'pass'),
    h(
      'div',
      { className: 'outcome-body' },
      h('p', {}, o.message),
      o.files?.length
        ? h(
          'ul',
          {},
          ...o.files.map((f) =>
            h(
              'li',
              {},
              h('a', {
                href: '#',
                className: 'file-link',
                onclick: (e) => {
                  e.preventDefault();
                  send({ type: 'openFile', file: f.file });
                },
              }, f.file),
              ' — ',
              ...inlineMarkdown(f.title),
            )
          ),
        )
        : '',
      o.failed?.length
        ? h(
          'div',
          {},
          h('p', {}, t('failed')),
          h('ul', {}, ...o.failed.map((f) => h('li', {}, ...inlineMarkdown(f.title), `: ${f.message}`))),
        )
        : '',
    ),
    o.undo?.length ? button(t('undo'), undo, { icon: 'discard', secondary: true, id: 'undo', title: 'u' }) : undefined,
    h('button', {
      type: 'button',
      className: 'icon',
      title: t('dismiss'),
      'aria-label': t('dismiss'),
      onclick: () => {
        outcome = undefined;
        render();
      },
    }, icon('close')),
  );
}

let listEl: HTMLElement | undefined;

function renderList(): void {
  if (!listEl) return;
  const list = shown();
  listEl.replaceChildren();
  listEl.setAttribute('aria-busy', String(items === undefined));
  if (items === undefined) {
    listEl.append(h('p', { className: 'empty' }, t('loading')));
    return;
  }
  if (!list.length) {
    listEl.append(h('div', { className: 'empty' }, h('p', {}, items.length ? t('empty') : t('emptyAll'))));
    return;
  }
  const checked = new Set(state.checked);
  const pending = list.filter((c) => c.status === 'pending');
  listEl.append(h(
    'div',
    { className: 'list-head' },
    h(
      'label',
      { className: 'check' },
      (() => {
        const all = h('input', {
          type: 'checkbox',
          id: 'select-all',
          disabled: !pending.length,
          checked: pending.length > 0 && pending.every((c) => checked.has(c.id)),
          onchange: (e) => toggleChecked(pending.map((c) => c.id), (e.target as HTMLInputElement).checked),
        });
        return all;
      })(),
      h('span', {}, t('selectAll')),
    ),
    h('span', { className: 'muted' }, t('count', list.length, items.length)),
  ));
  for (const [key, members] of groups(list)) {
    const open = !state.collapsed.includes(key);
    const groupPending = members.filter((c) => c.status === 'pending');
    const section = h('section', { className: 'group', 'aria-label': groupLabel(key) || t('title') });
    if (state.groupBy !== 'none') {
      const head = h(
        'div',
        { className: 'group-head' },
        h(
          'button',
          {
            type: 'button',
            className: 'twistie',
            'aria-expanded': String(open),
            onclick: () => {
              state.collapsed = open ? [...state.collapsed, key] : state.collapsed.filter((k) => k !== key);
              persist();
              renderList();
            },
          },
          icon(open ? 'chevron-down' : 'chevron-right'),
          h('span', { className: 'group-name' }, groupLabel(key)),
          h('span', { className: 'badge' }, String(members.length)),
        ),
        groupPending.length
          ? h('input', {
            type: 'checkbox',
            title: t('selectGroup', groupLabel(key)),
            'aria-label': t('selectGroup', groupLabel(key)),
            checked: groupPending.every((c) => checked.has(c.id)),
            onchange: (e) => toggleChecked(groupPending.map((c) => c.id), (e.target as HTMLInputElement).checked),
          })
          : undefined,
      );
      section.append(head);
    }
    if (open) {
      const ul = h('ul', { className: 'rows', role: 'list' });
      for (const c of members) ul.append(renderRow(c, checked.has(c.id)));
      section.append(ul);
    }
    listEl.append(section);
  }
}

function renderRow(c: ReviewListItem, isChecked: boolean): HTMLElement {
  const selected = c.id === state.selectedId;
  const box = h('input', {
    type: 'checkbox',
    'aria-label': plain(c.title),
    checked: isChecked,
    disabled: c.status !== 'pending',
    onchange: (e) => toggleChecked([c.id], (e.target as HTMLInputElement).checked),
  });
  const open = h(
    'button',
    {
      type: 'button',
      id: `row-${c.id}`,
      className: 'row-main',
      'data-id': c.id,
      'aria-current': selected ? 'true' : undefined,
      onclick: () => select(c.id),
    },
    h('span', { className: 'row-title' }, ...inlineMarkdown(c.title)),
    h(
      'span',
      { className: 'row-meta' },
      h('span', { className: `status ${c.status}` }, t(`status${c.status[0].toUpperCase()}${c.status.slice(1)}`)),
      h('span', {}, typeLabel(c.knowledgeType)),
      h('span', {}, c.language),
      h('span', { className: 'confidence', title: t('confidence') }, percent(c.confidence)),
    ),
  );
  return h(
    'li',
    { className: `row${selected ? ' selected' : ''}${c.status !== 'pending' ? ' decided' : ''}`, 'data-id': c.id },
    box,
    open,
  );
}

// ---------------------------------------------------------------- the detail

function renderDetail(): HTMLElement {
  const pane = h('div', {
    className: 'detail',
    role: 'region',
    'aria-label': detail ? plain(detail.title) : t('pickOne'),
    'aria-live': 'polite',
  });
  if (!state.selectedId) return (pane.append(h('p', { className: 'empty' }, t('pickOne'))), pane);
  if (detailError) return (pane.append(h('p', { className: 'empty' }, detailError)), pane);
  if (!detail || detail.id !== state.selectedId) {
    return (pane.append(h('p', { className: 'empty' }, t('loading'))), pane);
  }
  const d = detail;
  if (editing) return (pane.append(renderEditor(d)), pane);

  const section = (title: string, ...body: (Node | string | undefined)[]) =>
    h('section', {}, h('h3', {}, title), ...body);
  const code = d.code
    ? (() => {
      const pre = h('pre', { className: 'code', tabindex: 0, 'aria-label': t('code') });
      const codeEl = h('code', { className: `hljs language-${d.language}` });
      const html = highlight(d.code, d.language);
      if (html !== undefined) codeEl.innerHTML = html; // escaped by highlight.js
      else codeEl.textContent = d.code;
      pre.append(codeEl);
      return pre;
    })()
    : h('p', { className: 'muted' }, t('noCode'));

  pane.append(...present(
    h(
      'header',
      {},
      h('h2', { id: 'detail-title' }, ...inlineMarkdown(d.title)),
      h(
        'div',
        { className: 'meta' },
        h('span', { className: `status ${d.status}` }, t(`status${d.status[0].toUpperCase()}${d.status.slice(1)}`)),
        h('span', {}, typeLabel(d.knowledgeType)),
        h('span', {}, d.language),
        h('span', {}, d.category),
        h('code', {}, d.trigger),
      ),
      h('p', { className: 'muted' }, t('proposedBy', d.proposer, relativeTime(d.createdAt))),
      d.status !== 'pending' && d.decider
        ? h(
          'p',
          { className: 'muted' },
          t(
            'decided',
            t(`status${d.status[0].toUpperCase()}${d.status.slice(1)}`),
            d.decider,
            relativeTime(d.decidedAt),
          ),
        )
        : undefined,
      d.rejectionReason ? h('p', { className: 'muted' }, t('rejectedBecause', d.rejectionReason)) : undefined,
      h(
        'div',
        { className: 'confidence-meter' },
        h('label', { for: 'confidence' }, t('confidence')),
        h('meter', {
          id: 'confidence',
          min: 0,
          max: 1,
          low: 0.5,
          high: 0.75,
          optimum: 1,
          value: d.reasoning.confidence,
        }),
        h('span', {}, percent(d.reasoning.confidence)),
      ),
    ),
    d.status === 'pending'
      ? (rejectingOne
        ? renderRejectOne(d)
        : h(
          'div',
          { className: 'actions' },
          button(t('approve'), () => decide('approve'), { icon: 'check', id: 'approve-one', title: 'a' }),
          button(t('reject'), () => decide('reject'), { icon: 'close', secondary: true, id: 'reject-one', title: 'r' }),
          button(t('edit'), () => openEditor(), { icon: 'edit', secondary: true, id: 'edit-one', title: 'e' }),
        ))
      : undefined,
    d.status === 'pending' && d.checklist.length
      ? section(t('issues'), renderChecklist(d.checklist, (field) => openEditor(field)))
      : undefined,
    d.recipeId
      ? h(
        'p',
        {},
        h('a', {
          href: '#',
          className: 'file-link',
          onclick: (e) => {
            e.preventDefault();
            send({ type: 'openFile', file: `.autosnippet/recipes/${d.recipeId}.md` });
          },
        }, t('openRecipe')),
      )
      : undefined,
    section(t('claim'), h('p', {}, ...(d.summary ? inlineMarkdown(d.summary) : ['—']))),
    section(
      t('why'),
      h('p', {}, ...(d.reasoning.whyStandard ? inlineMarkdown(d.reasoning.whyStandard) : [t('noWhy')])),
    ),
    d.usageGuide ? section(t('usage'), h('p', { className: 'prose' }, ...inlineMarkdown(d.usageGuide))) : undefined,
    section(t('code'), code),
    section(
      t('sources'),
      d.reasoning.sources.length
        ? h(
          'ul',
          { className: 'sources' },
          ...d.reasoning.sources.map((s) => {
            const m = /^(.+?):(\d+)/.exec(s);
            return h(
              'li',
              {},
              h(
                'a',
                {
                  href: '#',
                  className: 'source-link',
                  title: m ? t('openSource', m[1], m[2]) : s,
                  onclick: (e) => {
                    e.preventDefault();
                    send({ type: 'openSource', source: s });
                  },
                },
                icon('go-to-file'),
                h('span', {}, s),
              ),
            );
          }),
        )
        : h('p', { className: 'warning' }, icon('warning'), ` ${t('noSources')}`),
    ),
    ...(d.guards ?? []).map((g) => section(t('guardRule'), ...renderGuard(g))),
    d.status === 'pending'
      ? section(
        t('similar'),
        d.similar.length
          ? h(
            'ul',
            { className: 'similar' },
            ...d.similar.map((s) =>
              h(
                'li',
                {},
                h('span', { className: 'badge' }, percent(s.similarity)),
                ' ',
                ...inlineMarkdown(s.title),
                ' ',
                h(
                  'span',
                  { className: 'muted' },
                  `(${s.kind === 'recipe' ? t('similarRecipe') : t('similarCandidate')} ${s.id})`,
                ),
              )
            ),
          )
          : h('p', { className: 'muted' }, t('noSimilar')),
      )
      : undefined,
  ));
  return pane;
}

/** A drafted guard rule, read-only: its message, what it matches, and what it found in the repository. */
function renderGuard(g: ReviewGuard): (Node | undefined)[] {
  return [
    h('p', {}, ...inlineMarkdown(g.message)),
    h('pre', { className: 'code' }, h('code', {}, g.matches)),
    g.where ? h('p', { className: 'muted' }, g.where) : undefined,
    g.total === undefined
      ? undefined
      : g.total === 0
      ? h('p', {}, t('guardClean', g.files ?? 0))
      : h('p', { className: 'warning' }, icon('warning'), ` ${t('guardFound', g.total)}`),
    g.findings?.length
      ? h(
        'ul',
        { className: 'sources' },
        ...g.findings.map((f) =>
          h(
            'li',
            {},
            h(
              'a',
              {
                href: '#',
                className: 'source-link',
                onclick: (e) => {
                  e.preventDefault();
                  send({ type: 'openSource', source: f.source });
                },
              },
              icon('go-to-file'),
              h('span', {}, f.source),
            ),
            ' ',
            h('code', {}, f.text),
          )
        ),
      )
      : undefined,
  ];
}

function renderEditor(d: ReviewDetail): HTMLElement {
  const form = h('form', { className: 'editor', novalidate: true, 'aria-labelledby': 'edit-heading' });
  const fields: {
    key: keyof CandidateEdit;
    label: string;
    value: string;
    multiline?: number;
    check?: (v: string) => string | undefined;
  }[] = [
    {
      key: 'title',
      label: t('fieldTitle'),
      value: d.title,
      check: (v) => (v.trim().length < 3 || v.length > 200 ? t('errTitle') : undefined),
    },
    {
      key: 'summary',
      label: t('fieldSummary'),
      value: d.summary,
      multiline: 3,
      check: (v) => (v.length > 2000 ? t('errSummary') : undefined),
    },
    { key: 'whyStandard', label: t('fieldWhy'), value: d.reasoning.whyStandard, multiline: 3 },
    { key: 'usageGuide', label: t('fieldUsage'), value: d.usageGuide ?? '', multiline: 3 },
    {
      key: 'trigger',
      label: t('fieldTrigger'),
      value: d.trigger,
      check: (v) => (/^@?[\p{L}\p{N}_.-]+$/u.test(v.trim()) ? undefined : t('errTrigger')),
    },
    {
      key: 'category',
      label: t('fieldCategory'),
      value: d.category,
      check: (v) => (v.trim() ? undefined : t('errCategory')),
    },
    { key: 'language', label: t('fieldLanguage'), value: d.language },
    { key: 'code', label: t('fieldCode'), value: d.code ?? '', multiline: 10 },
  ];
  form.append(h('h2', { id: 'edit-heading' }, ...inlineMarkdown(d.title)));
  const checklistBox = h('div', { className: 'checklist-box', 'aria-live': 'polite' });
  form.append(checklistBox);
  const inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
  const errors = new Map<string, HTMLElement>();
  const add = (key: string, label: string, control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) => {
    const id = `edit-${key}`;
    control.id = id;
    control.setAttribute('aria-describedby', `${id}-error`);
    const err = h('div', { className: 'error', id: `${id}-error`, role: 'alert' });
    inputs.set(key, control);
    errors.set(key, err);
    form.append(h('div', { className: 'form-row' }, h('label', { for: id }, label), control, err));
  };
  for (const f of fields) {
    const control = f.multiline
      ? h('textarea', {
        rows: f.multiline,
        spellcheck: f.key !== 'code' ? 'true' : 'false',
        className: f.key === 'code' ? 'mono' : undefined,
      })
      : h('input', { type: 'text' });
    control.value = editDraft?.[f.key] ?? f.value;
    add(f.key, f.label, control);
    if (f.key === 'summary') {
      const type = h(
        'select',
        {},
        ...(setup?.knowledgeTypes ?? []).map((k) =>
          h('option', { value: k.value, selected: k.value === (editDraft?.knowledgeType ?? d.knowledgeType) }, k.label)
        ),
      );
      add('knowledgeType', t('fieldType'), type);
    }
  }
  // Each item clears as its field is filled: the extension recomputes the list from the unsaved values.
  const showChecklist = (list: ChecklistEntry[]) =>
    checklistBox.replaceChildren(
      ...(list.length ? [h('h3', {}, t('issues')), renderChecklist(list, (field) => inputs.get(field)?.focus())] : []),
    );
  showChecklist(liveChecklist ?? d.checklist);
  checklistView = showChecklist;
  let timer: ReturnType<typeof setTimeout> | undefined;
  form.addEventListener('input', () => {
    clearTimeout(timer);
    editDraft = currentEdit() as Record<string, string>;
    timer = setTimeout(() => send({ type: 'checklist', id: d.id, edit: currentEdit() }), 150);
  });
  const currentEdit = (): CandidateEdit => {
    const edit: CandidateEdit = {};
    for (const f of fields) (edit as Record<string, string>)[f.key] = inputs.get(f.key)!.value;
    edit.knowledgeType = inputs.get('knowledgeType')!.value;
    return edit;
  };
  if (editError) {
    const err = errors.get(editError.field === 'reasoning' ? 'whyStandard' : editError.field ?? '') ?? undefined;
    if (err) err.textContent = editError.message;
    else form.append(h('p', { className: 'error', role: 'alert' }, editError.message));
  }
  const save = () => {
    let bad: HTMLElement | undefined;
    const edit: CandidateEdit = {};
    for (const f of fields) {
      const v = inputs.get(f.key)!.value;
      const problem = f.check?.(v);
      errors.get(f.key)!.textContent = problem ?? '';
      inputs.get(f.key)!.setAttribute('aria-invalid', problem ? 'true' : 'false');
      if (problem && !bad) bad = inputs.get(f.key)!;
      if (v !== f.value) {
        (edit as Record<string, string>)[f.key] = f.key === 'trigger' && !v.startsWith('@') ? `@${v.trim()}` : v;
      }
    }
    const type = inputs.get('knowledgeType')!.value;
    if (type !== d.knowledgeType) edit.knowledgeType = type;
    if (bad) return bad.focus();
    if (!Object.keys(edit).length) {
      editing = false;
      render();
      return;
    }
    send({ type: 'edit', id: d.id, edit });
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    save();
  });
  form.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      editing = false;
      render();
    }
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    }
  });
  form.append(
    h(
      'div',
      { className: 'actions' },
      h(
        'button',
        { type: 'submit', className: 'primary', id: 'edit-save', disabled: busy },
        icon('save'),
        h('span', {}, t('save')),
      ),
      button(t('cancel'), () => {
        editing = false;
        editError = undefined;
        render();
      }, { secondary: true }),
    ),
  );
  // Focus moves only when the editor opens: a rebuild while typing keeps the field being typed in.
  if (editFocus) {
    const first = inputs.get(editFocus) ?? inputs.get('title');
    editFocus = undefined;
    queueMicrotask(() => first && focusAtEnd(first));
  }
  return form;
}

/** The live checklist's renderer while the editor is open (the form stays; only the list changes). */
let checklistView: ((list: ChecklistEntry[]) => void) | undefined;

/** Checklist items, each a link to the form field that clears it. */
function renderChecklist(list: ChecklistEntry[], go: (field: string) => void): HTMLElement {
  return h(
    'ul',
    { className: 'issues checklist' },
    ...list.map((i) =>
      h(
        'li',
        { 'data-field': i.field },
        icon(i.severity === 'weak' ? 'info' : 'error'),
        h('a', {
          href: '#',
          className: 'checklist-link',
          title: t('checklistGo'),
          onclick: (e) => {
            e.preventDefault();
            go(i.field);
          },
        }, ` ${i.message}`),
      )
    ),
  );
}

function openEditor(field?: string): void {
  if (!detail || detail.status !== 'pending') return;
  editing = true;
  editError = undefined;
  rejectingOne = false;
  editFocus = field ?? 'title';
  editDraft = undefined;
  render();
}

/** The reason for rejecting the candidate on show, asked in place: Enter rejects, Esc cancels. */
function renderRejectOne(d: ReviewDetail): HTMLElement {
  const reason = h('input', {
    type: 'text',
    id: 'reject-one-reason',
    placeholder: t('rejectOneReason'),
    'aria-label': t('rejectReason'),
  });
  reason.value = reasonDraft;
  reason.addEventListener('input', () => {
    reasonDraft = reason.value;
  });
  const go = () => {
    if (!reason.value.trim()) {
      reason.setAttribute('aria-invalid', 'true');
      return reason.focus();
    }
    rejectingOne = false;
    reasonDraft = '';
    advanceTo = neighbour(d.id);
    send({ type: 'reject', ids: [d.id], reason: reason.value.trim() });
  };
  const cancel = () => {
    rejectingOne = false;
    reasonDraft = '';
    render();
    document.getElementById(`row-${d.id}`)?.focus();
  };
  reason.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      go();
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      cancel();
    }
  });
  queueMicrotask(() => focusAtEnd(reason));
  return h(
    'div',
    { className: 'actions reject-one' },
    reason,
    button(t('rejectConfirm'), go, { icon: 'close', id: 'reject-one-go' }),
    button(t('cancel'), cancel, { secondary: true }),
  );
}

/** The candidate after `id` in the list as shown (before it, at the end): where review goes next. */
function neighbour(id: string): string | undefined {
  const ids = [...document.querySelectorAll<HTMLElement>('.row-main')].map((r) => r.dataset.id!);
  const i = ids.indexOf(id);
  return i < 0 ? undefined : ids[i + 1] ?? ids[i - 1];
}

function decide(kind: 'approve' | 'reject'): void {
  // By the list's entry: a key pressed before the detail has arrived still counts.
  const c = items?.find((x) => x.id === state.selectedId);
  if (busy || !c || c.status !== 'pending' || editing) return;
  if (kind === 'reject') {
    rejectingOne = true;
    render();
    return;
  }
  advanceTo = neighbour(c.id);
  send({ type: 'approve', ids: [c.id] });
}

function undo(): void {
  const ids = outcome?.undo;
  if (busy || !ids?.length) return;
  // The candidate comes back where it was and is shown again, ready for another decision.
  advanceTo = ids[0];
  outcome = undefined;
  send({ type: 'undo', ids });
}

function move(delta: 1 | -1): void {
  const rows = [...document.querySelectorAll<HTMLElement>('.row-main')];
  if (!rows.length) return;
  const i = rows.findIndex((r) => r.dataset.id === state.selectedId);
  const next = rows[i < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, i + delta))];
  select(next.dataset.id!);
  document.getElementById(next.id)?.focus();
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && editing) return;
  const command = keyCommand(e);
  if (!command || !setup || (editing && command !== 'undo')) return;
  e.preventDefault();
  switch (command) {
    case 'next':
      return move(1);
    case 'previous':
      return move(-1);
    case 'approve':
      return decide('approve');
    case 'reject':
      return decide('reject');
    case 'edit':
      return openEditor();
    case 'undo':
      return undo();
  }
});

// ---------------------------------------------------------------- page

function render(): void {
  if (!setup) {
    app.replaceChildren(h('p', { className: 'empty' }, '…'));
    return;
  }
  const focused = document.activeElement?.id;
  document.title = t('title');
  listEl = h('div', { className: 'list', role: 'region', 'aria-label': t('title') });
  app.setAttribute('aria-busy', String(busy));
  app.replaceChildren(
    h(
      'header',
      { className: 'top' },
      h('h1', {}, t('title')),
      busy ? h('span', { className: 'muted' }, icon('loading codicon-modifier-spin'), ` ${t('working')}`) : undefined,
    ),
    renderToolbar(),
    h('p', { className: 'keys-hint muted', id: 'keys-hint' }, t('keys')),
    renderSelectionBar() ?? '',
    renderOutcome() ?? '',
    h('main', { className: 'split' }, listEl, renderDetail()),
  );
  renderList();
  const again = focused ? document.getElementById(focused) : null;
  if (again) focusAtEnd(again);
}

/** Focus, with the caret after the text of a rebuilt field (where the person was typing). */
function focusAtEnd(el: HTMLElement): void {
  el.focus();
  if (el instanceof HTMLInputElement && el.type === 'text' || el instanceof HTMLTextAreaElement) {
    el.setSelectionRange(el.value.length, el.value.length);
  }
}

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const m = event.data;
  switch (m.type) {
    case 'setup':
      setup = m.setup;
      state.folder = m.setup.folder;
      persist();
      break;
    case 'list': {
      items = m.items;
      const known = new Set(items.filter((c) => c.status === 'pending').map((c) => c.id));
      state.checked = state.checked.filter((id) => known.has(id));
      persist();
      // Ask again when the candidate on show changed status meanwhile (approved here, or by another process).
      const current = items.find((c) => c.id === state.selectedId);
      const target = advanceTo ? items.find((c) => c.id === advanceTo) : undefined;
      // After a decision the next candidate opens; after an undo, the one brought back. Both are
      // pending: a list that still shows the target decided was sent before the change landed, and
      // the next list will show it.
      if (target && target.status === 'pending') {
        const id = target.id;
        advanceTo = undefined;
        const c = target;
        if (state.status !== 'all' && c.status !== state.status) state.status = 'all';
        select(id);
        document.getElementById(`row-${id}`)?.focus();
        return;
      }
      if (current && (!detail || detail.status !== current.status)) send({ type: 'select', id: current.id });
      break;
    }
    case 'checklist':
      if (m.id === state.selectedId && editing) {
        liveChecklist = m.items;
        checklistView?.(m.items);
      }
      return;
    case 'detail':
      if (m.detail.id === state.selectedId) detail = m.detail;
      break;
    case 'detailMissing':
      if (m.id === state.selectedId) detailError = m.message;
      break;
    case 'focus': {
      state.selectedId = undefined;
      const c = items?.find((x) => x.id === m.id);
      if (c && state.status !== 'all' && c.status !== state.status) state.status = 'all';
      select(m.id);
      document.querySelector<HTMLElement>(`.row-main[data-id="${CSS.escape(m.id)}"]`)?.focus();
      return;
    }
    case 'outcome':
      outcome = m.outcome;
      state.checked = [];
      persist();
      break;
    case 'editResult':
      if (m.ok) {
        editing = false;
        editError = undefined;
        liveChecklist = undefined;
        outcome = { kind: 'updated', message: t('saved') };
      } else editError = { message: m.message ?? '', field: m.field };
      break;
    case 'busy':
      busy = m.busy;
      break;
  }
  render();
});

render();
send({ type: 'ready' });
