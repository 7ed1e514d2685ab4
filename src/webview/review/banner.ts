// The two bars above the split: the bulk bar for the ticked candidates (approve them, or reject them
// with one reason asked in place), and the outcome of the last action with its Undo. Only pending
// candidates count as ticked: a decided one cannot be decided again.
import { toggleChecked, undo } from './actions';
import { button, h, icon } from './dom';
import { t } from './format';
import { inlineMarkdown } from './inline';
import { render, send, state, view } from './state';

function pendingChecked(): string[] {
  const pending = new Set((view.items ?? []).filter((c) => c.status === 'pending').map((c) => c.id));
  return state.checked.filter((id) => pending.has(id));
}

export function renderSelectionBar(): HTMLElement | undefined {
  const ids = pendingChecked();
  if (!ids.length) return undefined;
  if (view.rejecting) {
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
      view.rejecting = false;
      send({ type: 'reject', ids, reason: reason.value.trim() });
    };
    reason.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') go();
      if (e.key === 'Escape') {
        view.rejecting = false;
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
        view.rejecting = false;
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
      view.rejecting = true;
      render();
    }, { icon: 'close', secondary: true, id: 'reject-selected' }),
    button(t('clearSelection'), () => toggleChecked(state.checked, false), { secondary: true }),
  );
}

export function renderOutcome(): HTMLElement | undefined {
  if (!view.outcome) return undefined;
  const o = view.outcome;
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
        view.outcome = undefined;
        render();
      },
    }, icon('close')),
  );
}
