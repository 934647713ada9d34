// The compose bar: the app drawer button, the staged item (an app message or a sticker the
// person has not sent yet), the text field and Send.

import { appCard, stickerView } from './bubbles.js';
import { h, replaceChildren } from './dom.js';

export class Composer {
  /** handlers: onSend(text, hasStaged), onRemoveStaged(), onToggleDrawer(), onDraft(text) */
  constructor(handlers) {
    this.handlers = handlers;
    this.staged = null;
    this.appsButton = h('button', {
      type: 'button',
      class: 'icon-button composer-apps',
      attrs: { 'aria-label': 'Apps', 'aria-expanded': 'false', 'aria-controls': 'tray' },
      on: { click: () => handlers.onToggleDrawer() },
    }, h('span', { class: 'icon icon-apps', attrs: { 'aria-hidden': 'true' } }));
    this.stagedBox = h('div', { class: 'composer-staged', hidden: true, attrs: { role: 'group', 'aria-label': 'Ready to send' } });
    this.input = h('textarea', {
      class: 'composer-input',
      rows: 1,
      placeholder: 'Message',
      attrs: { 'aria-label': 'Message', enterkeyhint: 'send' },
      on: {
        input: () => {
          this.autosize();
          this.refresh();
          handlers.onDraft(this.input.value);
        },
        keydown: (event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            this.submit();
          }
        },
      },
    });
    this.sendButton = h('button', {
      type: 'submit',
      class: 'composer-send',
      attrs: { 'aria-label': 'Send' },
    }, h('span', { class: 'icon icon-send', attrs: { 'aria-hidden': 'true' } }));
    this.field = h('div', { class: 'composer-field' }, this.stagedBox, this.input);
    this.element = h('form', {
      class: 'composer',
      attrs: { 'aria-label': 'Write a message' },
      on: {
        submit: (event) => {
          event.preventDefault();
          this.submit();
        },
      },
    }, this.appsButton, this.field, this.sendButton);
    this.refresh();
  }

  submit() {
    const text = this.input.value;
    const hasText = text.trim().length > 0;
    if (!hasText && !this.staged) return;
    this.handlers.onSend(hasText ? text : null, Boolean(this.staged));
    if (hasText) {
      this.input.value = '';
      this.autosize();
      this.handlers.onDraft('');
    }
    this.refresh();
    this.input.focus();
  }

  setText(text) {
    this.input.value = text;
    this.autosize();
    this.refresh();
  }

  /** Inserts text where the cursor is (an app's insertText). */
  insertText(text) {
    const { selectionStart: start, selectionEnd: end, value } = this.input;
    this.input.value = value.slice(0, start) + text + value.slice(end);
    this.input.selectionStart = this.input.selectionEnd = start + text.length;
    this.autosize();
    this.refresh();
    this.handlers.onDraft(this.input.value);
  }

  setDrawerOpen(open) {
    this.appsButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    this.appsButton.classList.toggle('is-active', open);
  }

  /** Shows what an app staged, or nothing. */
  setStaged(staged) {
    this.staged = staged;
    if (!staged) {
      this.stagedBox.hidden = true;
      replaceChildren(this.stagedBox);
      this.refresh();
      return;
    }
    const name = staged.app ? staged.app.appName : 'Sticker';
    const preview = staged.app ? appCard(staged.app, { interactive: false }) : stickerView(staged.sticker);
    const remove = h('button', {
      type: 'button',
      class: 'staged-remove',
      attrs: { 'aria-label': `Remove ${name} message` },
      on: {
        click: () => {
          this.handlers.onRemoveStaged();
          this.input.focus();
        },
      },
    }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }));
    replaceChildren(this.stagedBox, h('div', { class: 'staged-item' }, preview, remove));
    this.stagedBox.hidden = false;
    this.refresh();
  }

  refresh() {
    const can = this.input.value.trim().length > 0 || Boolean(this.staged);
    this.sendButton.disabled = !can;
    this.element.classList.toggle('has-staged', Boolean(this.staged));
  }

  autosize() {
    this.input.style.setProperty('height', 'auto');
    this.input.style.setProperty('height', `${Math.min(this.input.scrollHeight, 160)}px`);
  }

  focus() {
    this.input.focus({ preventScroll: true });
  }
}
