// Starting a conversation: find people, pick one (1:1) or several (a group, with a title).

import { api } from './api.js';
import { focus, h, replaceChildren } from './dom.js';
import { state } from './state.js';
import { initials } from './avatars.js';
import { rules } from './rules.js';

export class NewConversationDialog {
  /** onCreated(conversation) */
  constructor(onCreated) {
    this.onCreated = onCreated;
    this.picked = new Map();
    this.results = h('ul', { class: 'people-results', attrs: { 'aria-label': 'People' } });
    this.chips = h('ul', { class: 'people-picked', attrs: { 'aria-label': 'Picked' } });
    this.search = h('input', {
      type: 'search',
      id: 'people-search',
      class: 'input',
      placeholder: 'Name or username',
      autocomplete: 'off',
      on: { input: () => this.find() },
    });
    this.titleInput = h('input', { type: 'text', id: 'group-title', class: 'input', maxLength: rules.maxTitleLength, placeholder: 'Optional' });
    this.titleField = h('div', { class: 'form-field', hidden: true }, h('label', { htmlFor: 'group-title', text: 'Group name' }), this.titleInput);
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.create = h('button', { type: 'submit', class: 'button button-primary', text: 'Start', disabled: true });
    this.element = h('dialog', { class: 'dialog new-conversation-dialog', attrs: { 'aria-labelledby': 'new-conversation-title' } },
      h('form', { class: 'dialog-form', on: { submit: (event) => this.submit(event) } },
        h('header', { class: 'dialog-header' },
          h('h2', { id: 'new-conversation-title', text: 'New conversation' }),
          h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': 'Cancel' }, on: { click: () => this.element.close() } },
            h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }))),
        h('div', { class: 'form-field' }, h('label', { htmlFor: 'people-search', text: 'To' }), this.search),
        this.chips,
        this.results,
        this.titleField,
        this.error,
        h('div', { class: 'dialog-actions' },
          h('button', { type: 'button', class: 'button button-plain', text: 'Cancel', on: { click: () => this.element.close() } }),
          this.create)));
    document.body.append(this.element);
    this.requestNumber = 0;
  }

  open() {
    this.picked.clear();
    this.search.value = '';
    this.titleInput.value = '';
    this.error.textContent = '';
    this.renderPicked();
    this.element.showModal();
    focus(this.search);
    this.find();
  }

  async find() {
    const number = ++this.requestNumber;
    try {
      const people = await api(`/api/users?query=${encodeURIComponent(this.search.value.trim())}`);
      if (number !== this.requestNumber) return;
      this.renderResults(people.filter((p) => !state.me || p.id !== state.me.id));
    } catch (failure) {
      this.error.textContent = failure.message;
    }
  }

  renderResults(people) {
    replaceChildren(this.results, people.length === 0
      ? h('li', { class: 'people-empty', text: 'Nobody found.' })
      : people.map((person) => {
        const picked = this.picked.has(person.username);
        return h('li', {}, h('button', {
          type: 'button',
          class: ['person', picked && 'is-picked'],
          dataset: { username: person.username },
          attrs: { 'aria-pressed': picked ? 'true' : 'false' },
          on: {
            click: () => {
              if (this.picked.has(person.username)) this.picked.delete(person.username);
              else this.picked.set(person.username, person);
              this.renderPicked();
              this.renderResults(people);
              focus(this.results.querySelector(`[data-username="${CSS.escape(person.username)}"]`));
            },
          },
        },
        h('span', { class: 'avatar avatar-small', attrs: { 'aria-hidden': 'true' }, text: initials(person.displayName) }),
        h('span', { class: 'person-name', text: person.displayName }),
        h('span', { class: 'person-username', text: `@${person.username}` }),
        h('span', { class: 'person-check', attrs: { 'aria-hidden': 'true' } })));
      }));
  }

  renderPicked() {
    replaceChildren(this.chips, [...this.picked.values()].map((person) => h('li', { class: 'chip', text: person.displayName })));
    this.titleField.hidden = this.picked.size < 2;
    this.create.disabled = this.picked.size === 0;
    this.create.textContent = this.picked.size > 1 ? 'Start group' : 'Start';
  }

  async submit(event) {
    event.preventDefault();
    if (this.picked.size === 0) return;
    this.create.disabled = true;
    try {
      const body = { members: [...this.picked.keys()] };
      const title = this.titleInput.value.trim();
      if (this.picked.size > 1 && title) body.title = title;
      const conversation = await api('/api/conversations', { method: 'POST', body });
      this.element.close();
      this.onCreated(conversation);
    } catch (failure) {
      this.error.textContent = failure.message;
      this.create.disabled = false;
    }
  }
}
