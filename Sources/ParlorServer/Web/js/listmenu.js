// A conversation's menu in the list: Pin, Mark as unread, Mute, Archive, each the person's own
// and kept by the server for all their devices. Opened by the row's ⋯ button, by the row's
// context menu (right-click; a long press on a phone's Chromium fires the same event), or by
// Shift+F10 / the context-menu key on it; a menu in the WAI-ARIA pattern: arrow keys, Home and
// End move between items, Escape or Tab closes it and focus goes back to what opened it. The list
// may redraw while the menu is open: `moveListMenuOpener` hands it the row's new ⋯ button, and a
// row gone from sight leaves focus to `fallback`.

import { h } from './dom.js';

let open = null;

/** Closes the menu that is open, if any; focus goes back to its opener when `refocus`. */
export function closeListMenu(refocus = false) {
  if (!open) return;
  const { element, opener, onOutside, fallback } = open;
  open = null;
  document.removeEventListener('pointerdown', onOutside, true);
  element.remove();
  opener?.setAttribute('aria-expanded', 'false');
  if (!refocus) return;
  if (opener?.isConnected && opener.offsetParent) opener.focus();
  else fallback?.();
}

/** The key (a conversation id) of the menu that is open, if any. */
export const openListMenuKey = () => open?.key ?? null;

/** The list redrew: `opener` is the new button of the row whose menu is open. */
export function moveListMenuOpener(opener) {
  if (!open) return;
  open.opener = opener;
  opener.setAttribute('aria-expanded', 'true');
}

/**
 * Opens the menu for one conversation (`key`) below `opener` (the row's ⋯ button), or at `point`
 * for its context menu. `items`: [{ label, run, destructive }] (one that destroys is drawn red,
 * as Delete is in Messages); the menu closes before `run`, focus back on the
 * opener (or `fallback()` when its row no longer shows).
 */
export function openListMenu(key, opener, title, items, { point = null, fallback = null } = {}) {
  closeListMenu();
  const buttons = items.map((item) => h('button', {
    type: 'button', class: item.destructive ? 'list-menu-item is-destructive' : 'list-menu-item', text: item.label, tabIndex: -1, attrs: { role: 'menuitem' },
    on: {
      click: () => {
        closeListMenu(true);
        item.run();
      },
    },
  }));
  const element = h('div', {
    class: 'list-menu', attrs: { role: 'menu', 'aria-label': `${title}: actions` },
    on: { keydown: (event) => keydown(event, buttons) },
  }, ...buttons);
  document.body.append(element);
  const anchor = opener.getBoundingClientRect();
  const left = point ? point.x : anchor.right - element.offsetWidth;
  const top = point ? point.y : anchor.bottom + 4;
  element.style.left = `${Math.max(8, Math.min(left, window.innerWidth - element.offsetWidth - 8))}px`;
  element.style.top = `${Math.max(8, Math.min(top, window.innerHeight - element.offsetHeight - 8))}px`;
  const onOutside = (event) => {
    if (!element.contains(event.target) && !open?.opener?.contains(event.target)) closeListMenu();
  };
  document.addEventListener('pointerdown', onOutside, true);
  opener.setAttribute('aria-expanded', 'true');
  open = { key, element, opener, onOutside, fallback };
  buttons[0]?.focus();
}

function keydown(event, buttons) {
  const index = buttons.indexOf(document.activeElement);
  const move = (to) => {
    event.preventDefault();
    buttons[(to + buttons.length) % buttons.length].focus();
  };
  switch (event.key) {
    case 'ArrowDown': move(index + 1); break;
    case 'ArrowUp': move(index - 1); break;
    case 'Home': move(0); break;
    case 'End': move(buttons.length - 1); break;
    case 'Escape':
      event.preventDefault();
      event.stopPropagation();
      closeListMenu(true);
      break;
    case 'Tab':
      event.preventDefault();
      closeListMenu(true);
      break;
    default: break;
  }
}
