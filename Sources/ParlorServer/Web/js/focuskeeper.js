// Keyboard focus is never dropped to the page. When the element that has it is redrawn (a view
// replaced by a newer one), disabled or hidden, the browser moves the focus to <body>, and a
// keyboard or screen-reader user is sent back to the top. This puts it on the element's
// replacement (the same control, found by its focus key, id or classes, in the nearest part of
// the page still there), or on the nearest control still there. Focus someone moved on purpose,
// or a click on the page's background, is left alone: only a focus lost with its element is.

import { focusables, reachable } from './dom.js';

let last = null;
/** The ancestors `last` had when it took the focus, innermost first. */
let ancestors = [];

const TEXT_FIELDS = 'textarea, input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])';

/** A selector for the same control in a redrawn view. */
function keyOf(el) {
  if (el.dataset?.focusKey) return `[data-focus-key="${CSS.escape(el.dataset.focusKey)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const classes = [...el.classList].filter((c) => !c.startsWith('is-')).map((c) => `.${CSS.escape(c)}`).join('');
  return classes ? `${el.tagName.toLowerCase()}${classes}` : null;
}

function lostWithItsElement() {
  const active = document.activeElement;
  if (!last || (active && active !== document.body)) return false;
  return !last.isConnected || last.disabled || Boolean(last.closest('[hidden], [inert]'));
}

function restore() {
  if (!lostWithItsElement()) return;
  const key = keyOf(last);
  for (const container of ancestors.filter((a) => a.isConnected && a !== document.body && a !== document.documentElement)) {
    if (container.closest('[hidden], [inert]')) continue;
    const same = key ? [...container.querySelectorAll(key)].filter(reachable) : [];
    // Not a text field, unless it is the same one: on a phone, that would open the keyboard.
    const nearby = focusables(container).find((el) => !el.matches(TEXT_FIELDS));
    const target = same[0] ?? nearby ?? (container.tabIndex >= 0 && reachable(container) ? container : null);
    if (target) {
      target.focus({ preventScroll: true });
      return;
    }
  }
}

/** Watches the page's focus (once, at start). */
export function keepFocus() {
  document.addEventListener('focusin', (event) => {
    if (event.target === document.body) return;
    last = event.target;
    ancestors = [];
    for (let el = last.parentElement; el; el = el.parentElement) ancestors.push(el);
  });
  document.addEventListener('focusout', (event) => {
    if (event.relatedTarget || event.target !== last) return;
    // Once the browser has moved the focus (a disabled or hidden element loses it a moment after
    // the change): the element still usable means the person left it on purpose (a click on the
    // page's background), and it is forgotten; otherwise the focus went with it.
    setTimeout(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      if (last && reachable(last)) last = null;
      else restore();
    }, 0);
  });
  // After each change to the page, when the focus went with what changed.
  new MutationObserver(restore).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'inert'],
  });
}
