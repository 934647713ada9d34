// Forwarding a message: a dialog listing the person's conversations (found by name as they type),
// several picked at once, then Forward; the server sends a copy from them to each and says why
// when it cannot (an app's message stays in its conversation). Focus goes back to the message.

import { api } from './api.js';
import { announce, focus, h, replaceChildren } from './dom.js';
import { conversationTitle, state } from './state.js';

/** The most conversations one message goes to at once (the server's `maxForwardTargets`). */
const MAX_TARGETS = 10;

export class ForwardDialog {
  constructor() {
    this.message = null;
    this.opener = null;
    this.picked = new Set();
    this.search = h('input', {
      type: 'search', id: 'forward-search', class: 'input', placeholder: 'Conversation or name', autocomplete: 'off',
      on: { input: () => this.render() },
    });
    this.list = h('ul', { class: 'forward-list', attrs: { 'aria-label': 'Conversations' } });
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.send = h('button', { type: 'submit', class: 'button button-primary', text: 'Forward', disabled: true });
    this.element = h('dialog', {
      class: 'dialog forward-dialog', attrs: { 'aria-labelledby': 'forward-title' },
      on: { close: () => this.closed() },
    }, h('form', { class: 'dialog-form', on: { submit: (event) => this.submit(event) } },
      h('header', { class: 'dialog-header' },
        h('h2', { id: 'forward-title', text: 'Forward to…' }),
        h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': 'Cancel' }, on: { click: () => this.element.close() } },
          h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }))),
      h('div', { class: 'form-field' }, h('label', { htmlFor: 'forward-search', text: 'Find a conversation' }), this.search),
      this.list,
      this.error,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'button button-plain', text: 'Cancel', on: { click: () => this.element.close() } }),
        this.send)));
  }

  /** Opens for `message` of `conversationId`; focus comes back to `opener`. */
  open(conversationId, message, opener) {
    this.source = conversationId;
    this.message = message;
    this.opener = opener ?? document.activeElement;
    this.picked.clear();
    this.search.value = '';
    this.error.textContent = '';
    this.render();
    document.body.append(this.element);
    this.element.showModal();
    focus(this.search);
  }

  closed() {
    this.element.remove();
    focus(this.opener?.isConnected ? this.opener : document.getElementById('main'));
  }

  render() {
    const query = this.search.value.trim().toLowerCase();
    const conversations = state.order.map((id) => state.conversations.get(id)).filter(Boolean)
      .filter((c) => !query || conversationTitle(c).toLowerCase().includes(query)
        || c.members.some((m) => m.username.toLowerCase().includes(query) || m.displayName.toLowerCase().includes(query)));
    const full = this.picked.size >= MAX_TARGETS;
    replaceChildren(this.list, conversations.map((c) => {
      const id = `forward-${c.id}`;
      const box = h('input', {
        type: 'checkbox', id, checked: this.picked.has(c.id), disabled: full && !this.picked.has(c.id),
        on: {
          change: () => {
            if (box.checked) this.picked.add(c.id);
            else this.picked.delete(c.id);
            this.render();
            focus(document.getElementById(id));
          },
        },
      });
      return h('li', { class: 'forward-item', dataset: { conversationId: c.id } },
        h('label', { class: 'setting', attrs: { for: id } }, box, h('span', { class: 'setting-name', text: conversationTitle(c) })));
    }));
    if (conversations.length === 0) this.list.append(h('li', { class: 'setting-hint', text: 'No conversation matches.' }));
    this.send.disabled = this.picked.size === 0;
    this.send.textContent = this.picked.size > 1 ? `Forward to ${this.picked.size}` : 'Forward';
  }

  async submit(event) {
    event.preventDefault();
    if (!this.message || this.picked.size === 0) return;
    this.error.textContent = '';
    this.send.disabled = true;
    const targets = [...this.picked];
    try {
      await api(`/api/conversations/${encodeURIComponent(this.source)}/messages/${encodeURIComponent(this.message.id)}/forward`,
        { method: 'POST', body: { to: targets } });
      const names = targets.map((id) => conversationTitle(state.conversations.get(id)));
      this.element.close();
      announce(`Forwarded to ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]}.`);
    } catch (error) {
      this.error.textContent = error.message;
      this.send.disabled = false;
    }
  }
}
