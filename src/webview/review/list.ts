// The left half of the page: the filter toolbar and the candidates, grouped and sorted as the person
// chose. Filtering and sorting happen here, on the list the extension sent, so typing in the search
// box redraws only the list and never waits for the extension.
import { select, toggleChecked } from './actions';
import { h, icon } from './dom';
import { percent, t, typeLabel } from './format';
import { inlineMarkdown, plain } from './inline';
import type { ReviewListItem } from './protocol';
import { type GroupBy, lang, persist, render, send, type SortBy, state, type Status, view } from './state';

function shown(): ReviewListItem[] {
  if (!view.items) return [];
  const text = state.text.trim().toLowerCase();
  const list = view.items.filter((c) =>
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
  if (state.groupBy === 'dimension') return key ? view.setup?.dimensions[key] ?? key : t('otherDimension');
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

export function renderToolbar(): HTMLElement {
  const languages = [...new Set((view.items ?? []).map((c) => c.language))].sort();
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

let listEl: HTMLElement | undefined;

/** A new, empty list region for a page rebuild: renderList fills it, and refills it as the filters change. */
export function listRegion(): HTMLElement {
  listEl = h('div', { className: 'list', role: 'region', 'aria-label': t('title') });
  return listEl;
}

export function renderList(): void {
  if (!listEl) return;
  const list = shown();
  listEl.replaceChildren();
  listEl.setAttribute('aria-busy', String(view.items === undefined));
  if (view.items === undefined) {
    listEl.append(h('p', { className: 'empty' }, t('loading')));
    return;
  }
  if (!list.length) {
    listEl.append(h('div', { className: 'empty' }, h('p', {}, view.items.length ? t('empty') : t('emptyAll'))));
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
    h('span', { className: 'muted' }, t('count', list.length, view.items.length)),
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
