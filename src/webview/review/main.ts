// The candidate review page (runs in a VS Code webview). It renders what the extension sends and
// sends back what the person asked for; it never writes anything itself. Its state (filters,
// selection, the candidate on show) survives being hidden and a window reload (state.ts).
//
// This file assembles the page from its parts: the toolbar and list (list.ts), the bars above them
// (banner.ts), the candidate on show (detail.ts, editor.ts); keys (keyboard.ts) and the extension's
// messages (messages.ts) change the state and rebuild the page through render().
import { renderOutcome, renderSelectionBar } from './banner';
import { renderDetail } from './detail';
import { focusAtEnd, h, icon } from './dom';
import { t } from './format';
import { listenForKeys } from './keyboard';
import { listRegion, renderList, renderToolbar } from './list';
import { listenForMessages } from './messages';
import { send, setPageRenderer, view } from './state';

const app = document.getElementById('app')!;

function render(): void {
  if (!view.setup) {
    app.replaceChildren(h('p', { className: 'empty' }, '…'));
    return;
  }
  const focused = document.activeElement?.id;
  document.title = t('title');
  const listEl = listRegion();
  app.setAttribute('aria-busy', String(view.busy));
  app.replaceChildren(
    h(
      'header',
      { className: 'top' },
      h('h1', {}, t('title')),
      view.busy
        ? h('span', { className: 'muted' }, icon('loading codicon-modifier-spin'), ` ${t('working')}`)
        : undefined,
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

setPageRenderer(render);
listenForKeys();
listenForMessages();
render();
send({ type: 'ready' });
