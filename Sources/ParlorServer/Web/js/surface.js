// An app on screen: its header (icon, name, expand/collapse, close), its error banner, its view
// tree, the modal it presents and the web pages its links open. Used for an app open in a
// conversation (compact or expanded) and for an app's home surface.

import { focus, focusables, h, keepTabInside, replaceChildren, safeImageURL } from './dom.js';
import { FieldMemory, markBusy, renderChildren, renderView, webPageView } from './viewtree.js';
import { resolveMentions } from './mentions.js';
import { appInfo } from './state.js';

/** How long a press may hold back a new view before it is drawn anyway (a release that never came). */
const HOLD_LIMIT = 5000;

export class AppSurface {
  /**
   * options: { kind: 'conversation' | 'home', onEvent(event), onClose(), onStyle(style),
   *            redraw() (show the latest update again: called when a press that held one back ends) }
   */
  constructor(options) {
    this.options = options;
    this.update = null;
    this.press = null;
    this.held = false;
    this.busyKey = null;
    this.fields = new FieldMemory();
    this.dismissedError = null;
    this.web = null;

    this.icon = h('img', { class: 'surface-icon', alt: '', attrs: { 'aria-hidden': 'true' } });
    this.title = h('h2', { class: 'surface-title', tabIndex: -1 });
    this.styleButton = h('button', {
      type: 'button',
      class: 'icon-button surface-style',
      on: { click: () => this.toggleStyle() },
    });
    this.closeButton = h('button', {
      type: 'button',
      class: 'icon-button surface-close',
      on: { click: () => this.options.onClose() },
    }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }));
    this.header = h('header', { class: 'surface-header' }, this.icon, this.title,
      h('div', { class: 'surface-actions' }, options.kind === 'conversation' ? this.styleButton : null, this.closeButton));
    this.errorText = h('p', { class: 'surface-error-text' });
    this.errorBanner = h('div', { class: 'surface-error', hidden: true, attrs: { role: 'alert' } },
      h('span', { class: 'icon icon-warning', attrs: { 'aria-hidden': 'true' } }),
      this.errorText,
      h('button', { type: 'button', class: 'link-button surface-error-dismiss', text: 'Dismiss', on: { click: () => this.dismissError() } }));
    this.body = h('div', { class: 'surface-body' });
    this.modalLayer = h('div', { class: 'surface-modal-layer', hidden: true });
    this.webLayer = h('div', { class: 'surface-web-layer', hidden: true });
    this.element = h('section', { class: ['surface', `surface-${options.kind}`], hidden: true },
      this.header, this.errorBanner, this.body, this.modalLayer, this.webLayer);
    this.element.addEventListener('keydown', (event) => this.keydown(event));
    this.element.addEventListener('pointerdown', (event) => this.pressStarted(event), true);
  }

  // A press lasts from the pointer going down to the click that follows its release (a Space key's
  // from keydown to keyup). A view drawn in between would replace the element being pressed, and
  // the browser would drop the click: the person's press would be lost without a word. So a new
  // view of the same app that arrives during a press is held back (the surface says it is busy)
  // and drawn just after the click.

  pressStarted(event) {
    if (event.type === 'pointerdown' && event.pointerType === 'mouse' && event.button !== 0) return;
    if (this.press) return;
    const press = {};
    this.press = press;
    const ends = event.type === 'keydown' ? ['keyup', 'blur'] : ['pointerup', 'pointercancel', 'blur'];
    const end = (ended) => {
      // Focus leaving an element sends a blur too; only the window's own means the press is over.
      if (ended.type === 'blur' && ended.target !== window) return;
      if (ended.type === 'keyup' && ended.key !== ' ') return;
      for (const name of ends) window.removeEventListener(name, end, true);
      if (this.press === press) this.press = null;
      // The click follows the release in the same task: draw after it.
      setTimeout(() => this.drawHeld(), 0);
    };
    for (const name of ends) window.addEventListener(name, end, true);
  }

  /** Draws the view held back during a press, once no press is on the app any more. */
  drawHeld() {
    if (!this.held || this.press) return;
    const busyKey = this.busyKey;
    this.endHold();
    if (this.options.redraw) this.options.redraw();
    // That view is older than the answer the press is waiting for: the control pressed keeps
    // saying it is working until that answer replaces it.
    const pressed = busyKey && this.element.querySelector(`[data-focus-key="${CSS.escape(busyKey)}"]`);
    if (pressed && !pressed.disabled) markBusy(pressed);
  }

  endHold() {
    clearTimeout(this.holdLimit);
    this.held = false;
    this.busyKey = null;
    this.body.removeAttribute('aria-busy');
  }

  /** Whether `update` replaces the view while a press is on it (then it waits for the press to end). */
  holds(update) {
    if (!this.press || !this.isOpen || !update?.isActive || update.appID !== this.update.appID) return false;
    if (!this.held) {
      this.held = true;
      this.body.setAttribute('aria-busy', 'true');
      this.holdLimit = setTimeout(() => {
        // A release that never came: the press is given up and the view drawn.
        this.press = null;
        this.drawHeld();
      }, HOLD_LIMIT);
    }
    return true;
  }

  get isOpen() {
    return Boolean(this.update && this.update.isActive);
  }

  get style() {
    return this.update?.presentationStyle ?? 'compact';
  }

  /**
   * Shows the app's header and "Opening <app>…" at once, until its first view comes (`show`) or
   * the person closes it: an app that takes seconds to draw (a feed to fetch) is never a blank wait.
   */
  showOpening(appID) {
    if (this.isOpen) return;
    const name = appInfo(appID)?.name ?? 'the app';
    this.opening = appID;
    this.drawHeader({ appID, appName: name, presentationStyle: 'compact' });
    this.errorBanner.hidden = true;
    this.modalLayer.hidden = true;
    replaceChildren(this.body, h('p', { class: 'surface-opening', attrs: { role: 'status' }, text: `Opening ${name}…` }));
    this.element.setAttribute('aria-busy', 'true');
    // Nothing to expand yet: the app's first view says its style.
    this.styleButton.hidden = true;
    this.element.classList.remove('is-expanded');
    this.element.hidden = false;
  }

  /** Whether the surface shows "Opening…" for an app whose first view has not come. */
  get isOpening() {
    return Boolean(this.opening) && !this.isOpen;
  }

  /** Takes the "Opening…" state down (the open was refused, or closed before it drew). */
  cancelOpening() {
    if (!this.isOpening) return;
    this.opening = null;
    this.element.removeAttribute('aria-busy');
    this.element.hidden = true;
  }

  /**
   * Draws a new update from the server; returns 'opened', 'closed', 'updated' or 'held' (a press is
   * on the view: `options.redraw` is called when it ends).
   */
  show(update) {
    if (this.holds(update)) return 'held';
    this.opening = null;
    this.element.removeAttribute('aria-busy');
    this.styleButton.hidden = false;
    // Whatever was held back is older than `update` (or belongs to an app now closed or replaced).
    if (this.held) this.endHold();
    const wasOpen = this.isOpen;
    const hadModal = !this.modalLayer.hidden;
    const previous = this.update;
    this.update = update;
    if (!update || !update.isActive) {
      this.element.hidden = true;
      this.fields.reset();
      this.closeWeb();
      this.update = update;
      return wasOpen ? 'closed' : 'updated';
    }
    if (!wasOpen || previous?.appID !== update.appID) {
      this.fields.reset();
      this.dismissedError = null;
      this.closeWeb();
    }
    const focusKey = document.activeElement?.closest?.('.surface') === this.element ? document.activeElement.dataset?.focusKey : null;
    const selection = focusKey && 'selectionStart' in document.activeElement ? [document.activeElement.selectionStart, document.activeElement.selectionEnd] : null;
    const scroll = this.body.scrollTop;
    const fieldsBefore = new Set([...this.body.querySelectorAll('[data-focus-key^="field:"]')].map((field) => field.dataset.focusKey));
    const focusedAt = focusKey ? focusables(this.body).indexOf(document.activeElement) : -1;
    const pressedButton = focusKey ? document.activeElement.tagName === 'BUTTON' : false;

    this.drawHeader(update);
    this.drawError(update.error, update.names);
    let modal = null;
    const ctx = {
      appId: update.appID,
      names: update.names || {},
      interactive: true,
      fields: this.fields,
      send: (event) => {
        this.dismissedError = null;
        this.options.onEvent(event);
      },
      pressed: (button) => {
        // A button pressed while a newer view is held back (the click after the release).
        if (this.held) this.busyKey = button.dataset.focusKey ?? null;
      },
      openLink: (url, title) => this.openWeb(url, title),
      onModal: (node) => {
        modal = node;
      },
    };
    replaceChildren(this.body, renderView(update.view, ctx));
    this.drawModal(modal, ctx);
    this.element.hidden = false;
    this.element.classList.toggle('is-expanded', this.options.kind === 'conversation' && update.presentationStyle === 'expanded');
    // The height the app asks of its compact tray (its manifest's compactHeight, 120…480 points).
    const height = Number.isInteger(update.compactHeight) ? Math.min(Math.max(update.compactHeight, 120), 480) : null;
    if (height) this.element.style.setProperty('--compact-height', `${height}px`);
    else this.element.style.removeProperty('--compact-height');
    this.body.scrollTop = scroll;

    // The control that had the focus is gone. The button pressed, when a field took its place (an
    // item's Edit opens its text): the field, where the person is about to type. Otherwise the
    // control now where it was (Save or Cancel closing that field: the item's row).
    const again = focusKey ? this.element.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) : null;
    const gone = focusKey && !again;
    const newField = gone && pressedButton
      ? [...this.body.querySelectorAll('[data-focus-key^="field:"]')].find((field) => !fieldsBefore.has(field.dataset.focusKey) && !field.disabled)
      : null;
    const controls = gone && focusedAt >= 0 ? focusables(this.body) : [];
    const inItsPlace = controls[Math.min(focusedAt, controls.length - 1)] ?? null;
    if (newField) {
      focus(newField);
    } else if (inItsPlace && !inItsPlace.matches('input, textarea')) {
      focus(inItsPlace);
    } else if (again && !again.disabled) {
      focus(again);
      if (selection && 'setSelectionRange' in again) {
        try {
          again.setSelectionRange(selection[0], selection[1]);
        } catch {
          // Date and number inputs have no selection.
        }
      }
    }
    if (modal && !hadModal) {
      focus(this.modalLayer.querySelector('.modal-title'));
    } else if (!modal && hadModal && this.modalLayer.contains(document.activeElement) === false) {
      focus(this.title);
    }
    if (!wasOpen) return 'opened';
    return 'updated';
  }

  /** Moves focus into the app (after it opened). */
  focusStart() {
    const target = !this.modalLayer.hidden ? this.modalLayer.querySelector('.modal-title') : this.title;
    focus(target);
  }

  drawHeader(update) {
    const info = appInfo(update.appID);
    const icon = safeImageURL(info?.iconURL);
    this.icon.hidden = !icon;
    if (icon && this.icon.getAttribute('src') !== icon) this.icon.src = icon;
    this.title.textContent = update.appName;
    this.element.setAttribute('aria-label', update.appName);
    this.closeButton.setAttribute('aria-label', `Close ${update.appName}`);
    const expanded = update.presentationStyle === 'expanded';
    this.styleButton.setAttribute('aria-label', expanded ? `Collapse ${update.appName}` : `Expand ${update.appName}`);
    this.styleButton.setAttribute('aria-expanded', expanded ? 'true' : 'false');
    replaceChildren(this.styleButton, h('span', { class: ['icon', expanded ? 'icon-collapse' : 'icon-expand'], attrs: { 'aria-hidden': 'true' } }));
  }

  drawError(error, names) {
    const signature = error ? `${error.code}\n${error.message}` : null;
    const visible = Boolean(error) && signature !== this.dismissedError;
    // An app's sentence names people as its views do ("waiting for $<participant> to play O").
    const message = visible ? resolveMentions(error.message, names) : '';
    if (visible && this.errorText.textContent !== message) this.errorText.textContent = message;
    this.errorBanner.hidden = !visible;
  }

  dismissError() {
    const error = this.update?.error;
    this.dismissedError = error ? `${error.code}\n${error.message}` : null;
    this.errorBanner.hidden = true;
    focus(this.title);
  }

  drawModal(node, ctx) {
    if (!node) {
      this.modalLayer.hidden = true;
      replaceChildren(this.modalLayer);
      this.body.inert = false;
      return;
    }
    const titleId = `modal-title-${Math.random().toString(36).slice(2)}`;
    const title = resolveMentions(node.title ?? '', ctx.names);
    const dialog = h('div', { class: 'modal', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId } },
      h('header', { class: 'modal-header' },
        h('h2', { class: 'modal-title', id: titleId, tabIndex: -1, text: title }),
        h('button', {
          type: 'button',
          class: 'icon-button modal-close',
          dataset: { focusKey: 'modal-close' },
          attrs: { 'aria-label': `Close ${title}` },
          on: { click: () => this.options.onEvent({ kind: 'dismissModal' }) },
        }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }))),
      h('div', { class: 'modal-body' }, renderChildren(node.children, ctx)));
    replaceChildren(this.modalLayer, dialog);
    this.modalLayer.hidden = false;
    this.body.inert = true;
  }

  toggleStyle() {
    if (!this.update) return;
    this.options.onStyle(this.update.presentationStyle === 'expanded' ? 'compact' : 'expanded');
  }

  openWeb(url, title) {
    this.web = { url, title, returnTo: document.activeElement };
    const back = h('button', { type: 'button', class: 'button button-plain web-back', text: 'Back', on: { click: () => this.closeWeb(true) } });
    replaceChildren(this.webLayer, h('div', { class: 'web-sheet', attrs: { role: 'dialog', 'aria-label': title || 'Web page' } }, back, webPageView(url, title)));
    this.webLayer.hidden = false;
    this.body.inert = true;
    focus(back);
  }

  closeWeb(restoreFocus = false) {
    if (!this.web) return;
    const returnTo = this.web.returnTo;
    this.web = null;
    this.webLayer.hidden = true;
    replaceChildren(this.webLayer);
    this.body.inert = !this.modalLayer.hidden;
    if (restoreFocus) focus(returnTo && returnTo.isConnected ? returnTo : this.title);
  }

  keydown(event) {
    if (event.key === ' ' && event.target.matches?.('button, input[type="checkbox"], input[type="radio"]')) {
      // Space presses a button or a choice on its release.
      this.pressStarted(event);
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (this.web) this.closeWeb(true);
      else if (!this.modalLayer.hidden) this.options.onEvent({ kind: 'dismissModal' });
      else this.options.onClose();
      return;
    }
    if (event.key === 'Tab' && !this.modalLayer.hidden && this.modalLayer.contains(event.target)) {
      // Keep Tab inside the presented screen.
      keepTabInside(event, this.modalLayer);
    }
  }
}
