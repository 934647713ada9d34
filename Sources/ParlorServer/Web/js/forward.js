// Forwarding a message: a dialog listing the person's conversations (found by name as they type),
// several picked at once, then Forward; the server sends a copy from them to each and says why
// when it cannot (an app's message stays in its conversation). Focus goes back to the message.

import { api } from './api.js';
import { announce, dialogHeader, focus, h, replaceChildren } from './dom.js';
import { rules } from './rules.js';
import { conversationTitle, state } from './state.js';

/** The conversations to send to: a search field (by title or member's name) and a list to tick,
 * up to the server's
 * `maxForwardTargets`. `onChange()` after each tick. Used to forward and to send what another app
 * shared (js/share.js). */
export class ConversationPicker {
  constructor(idPrefix, onChange) {
    this.idPrefix = idPrefix;
    this.onChange = onChange;
    this.picked = new Set();
    this.search = h('input', {
      type: 'search', id: `${idPrefix}-search`, class: 'input', placeholder: 'Conversation or name', autocomplete: 'off',
      on: { input: () => this.render() },
    });
    this.field = h('div', { class: 'form-field' }, h('label', { htmlFor: `${idPrefix}-search`, text: 'Find a conversation' }), this.search);
    this.list = h('ul', { class: 'forward-list', attrs: { 'aria-label': 'Conversations' } });
  }

  reset() {
    this.picked.clear();
    this.search.value = '';
    this.render();
  }

  /** The conversations picked, by title, as a sentence: "Dana, Eve and Parlor demo". */
  names() {
    const names = [...this.picked].map((id) => conversationTitle(state.conversations.get(id)));
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0] ?? '';
  }

  render() {
    const query = this.search.value.trim().toLowerCase();
    const conversations = state.order.map((id) => state.conversations.get(id)).filter(Boolean)
      .filter((c) => !query || conversationTitle(c).toLowerCase().includes(query)
        || c.members.some((m) => m.username.toLowerCase().includes(query) || m.displayName.toLowerCase().includes(query)));
    const full = this.picked.size >= rules.maxForwardTargets;
    replaceChildren(this.list, conversations.map((c) => {
      const id = `${this.idPrefix}-${c.id}`;
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
    this.onChange();
  }
}

export class ForwardDialog {
  constructor() {
    this.message = null;
    this.opener = null;
    this.picker = new ConversationPicker('forward', () => this.update());
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.send = h('button', { type: 'submit', class: 'button button-primary', text: 'Forward', disabled: true });
    this.element = h('dialog', {
      class: 'dialog forward-dialog', attrs: { 'aria-labelledby': 'forward-title' },
      on: { close: () => this.closed() },
    }, h('form', { class: 'dialog-form', on: { submit: (event) => this.submit(event) } },
      dialogHeader('Forward to…', { id: 'forward-title', onClose: () => this.element.close() }),
      this.picker.field,
      this.picker.list,
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
    this.error.textContent = '';
    this.picker.reset();
    document.body.append(this.element);
    this.element.showModal();
    focus(this.picker.search);
  }

  closed() {
    this.element.remove();
    focus(this.opener?.isConnected ? this.opener : document.getElementById('main'));
  }

  update() {
    const count = this.picker.picked.size;
    this.send.disabled = count === 0;
    this.send.textContent = count > 1 ? `Forward to ${count}` : 'Forward';
  }

  async submit(event) {
    event.preventDefault();
    if (!this.message || this.picker.picked.size === 0) return;
    this.error.textContent = '';
    this.send.disabled = true;
    try {
      await api(`/api/conversations/${encodeURIComponent(this.source)}/messages/${encodeURIComponent(this.message.id)}/forward`,
        { method: 'POST', body: { to: [...this.picker.picked] } });
      const names = this.picker.names();
      this.element.close();
      announce(`Forwarded to ${names}.`);
    } catch (error) {
      this.error.textContent = error.message;
      this.send.disabled = false;
    }
  }
}
