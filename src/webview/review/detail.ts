// The right half of the page: the candidate on show with everything the decision rests on (the claim, why,
// the code, its sources, drafted guard rules, similar knowledge), and its decision buttons. A pending
// candidate's rejection reason is asked in place; its edit form is editor.ts.
import { decide, neighbour, openEditor } from './actions';
import { button, focusAtEnd, h, icon, present } from './dom';
import { renderChecklist, renderEditor } from './editor';
import { percent, relativeTime, t, typeLabel } from './format';
import { highlight } from './highlight';
import { inlineMarkdown, plain } from './inline';
import type { ReviewDetail, ReviewGuard } from './protocol';
import { render, send, state, view } from './state';

export function renderDetail(): HTMLElement {
  const pane = h('div', {
    className: 'detail',
    role: 'region',
    'aria-label': view.detail ? plain(view.detail.title) : t('pickOne'),
    'aria-live': 'polite',
  });
  if (!state.selectedId) return (pane.append(h('p', { className: 'empty' }, t('pickOne'))), pane);
  if (view.detailError) return (pane.append(h('p', { className: 'empty' }, view.detailError)), pane);
  if (!view.detail || view.detail.id !== state.selectedId) {
    return (pane.append(h('p', { className: 'empty' }, t('loading'))), pane);
  }
  const d = view.detail;
  if (view.editing) return (pane.append(renderEditor(d)), pane);

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
      ? (view.rejectingOne
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

/** The reason for rejecting the candidate on show, asked in place: Enter rejects, Esc cancels. */
function renderRejectOne(d: ReviewDetail): HTMLElement {
  const reason = h('input', {
    type: 'text',
    id: 'reject-one-reason',
    placeholder: t('rejectOneReason'),
    'aria-label': t('rejectReason'),
  });
  reason.value = view.reasonDraft;
  reason.addEventListener('input', () => {
    view.reasonDraft = reason.value;
  });
  const go = () => {
    if (!reason.value.trim()) {
      reason.setAttribute('aria-invalid', 'true');
      return reason.focus();
    }
    view.rejectingOne = false;
    view.reasonDraft = '';
    view.advanceTo = neighbour(d.id);
    send({ type: 'reject', ids: [d.id], reason: reason.value.trim() });
  };
  const cancel = () => {
    view.rejectingOne = false;
    view.reasonDraft = '';
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
