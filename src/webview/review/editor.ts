// The edit form for a pending candidate. Fields are checked here before anything is sent, and only the
// changed ones are sent; the checklist beside the form follows the unsaved values (the extension
// recomputes it), and what was typed survives the page being rebuilt by any message (view.editDraft).
import { button, focusAtEnd, h, icon } from './dom';
import { t } from './format';
import { inlineMarkdown } from './inline';
import type { CandidateEdit, ChecklistEntry, ReviewDetail } from './protocol';
import { render, send, view } from './state';

export function renderEditor(d: ReviewDetail): HTMLElement {
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
    control.value = view.editDraft?.[f.key] ?? f.value;
    add(f.key, f.label, control);
    if (f.key === 'summary') {
      const type = h(
        'select',
        {},
        ...(view.setup?.knowledgeTypes ?? []).map((k) =>
          h(
            'option',
            { value: k.value, selected: k.value === (view.editDraft?.knowledgeType ?? d.knowledgeType) },
            k.label,
          )
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
  showChecklist(view.liveChecklist ?? d.checklist);
  view.checklistView = showChecklist;
  let timer: ReturnType<typeof setTimeout> | undefined;
  form.addEventListener('input', () => {
    clearTimeout(timer);
    view.editDraft = currentEdit() as Record<string, string>;
    timer = setTimeout(() => send({ type: 'checklist', id: d.id, edit: currentEdit() }), 150);
  });
  const currentEdit = (): CandidateEdit => {
    const edit: CandidateEdit = {};
    for (const f of fields) (edit as Record<string, string>)[f.key] = inputs.get(f.key)!.value;
    edit.knowledgeType = inputs.get('knowledgeType')!.value;
    return edit;
  };
  if (view.editError) {
    const err = errors.get(view.editError.field === 'reasoning' ? 'whyStandard' : view.editError.field ?? '')
      ?? undefined;
    if (err) err.textContent = view.editError.message;
    else form.append(h('p', { className: 'error', role: 'alert' }, view.editError.message));
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
      view.editing = false;
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
      view.editing = false;
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
        { type: 'submit', className: 'primary', id: 'edit-save', disabled: view.busy },
        icon('save'),
        h('span', {}, t('save')),
      ),
      button(t('cancel'), () => {
        view.editing = false;
        view.editError = undefined;
        render();
      }, { secondary: true }),
    ),
  );
  // Focus moves only when the editor opens: a rebuild while typing keeps the field being typed in.
  if (view.editFocus) {
    const first = inputs.get(view.editFocus) ?? inputs.get('title');
    view.editFocus = undefined;
    queueMicrotask(() => first && focusAtEnd(first));
  }
  return form;
}

/** Checklist items, each a link to the form field that clears it. */
export function renderChecklist(list: ChecklistEntry[], go: (field: string) => void): HTMLElement {
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
