// Starting a conversation: find people, pick one (1:1) or several (a group, with a title). The
// picker is shared with a group's "Add people…" (conversationinfo.js).

import { api } from './api.js';
import { dialogHeader, focus, h, replaceChildren } from './dom.js';
import { state } from './state.js';
import { avatarView } from './avatars.js';
import { rules } from './rules.js';

/**
 * A search field over the server's people, a list to pick from and the picked ones as chips.
 * `id`: the search field's id (unique on the page); `label`: its visible label; `exclude()`: the
 * usernames not to offer (you, always; a group's members); `onChange()` after each pick;
 * `onError(message)` when the search fails.
 */
export class PeoplePicker {
  constructor({ id, label, exclude = () => new Set(), onChange = () => {}, onError = () => {} }) {
    this.exclude = exclude;
    this.onChange = onChange;
    this.onError = onError;
    /** username → the person. */
    this.picked = new Map();
    this.requestNumber = 0;
    this.results = h('ul', { class: 'people-results', attrs: { 'aria-label': 'People' } });
    this.chips = h('ul', { class: 'people-picked', attrs: { 'aria-label': 'Picked' } });
    this.search = h('input', {
      type: 'search', id, class: 'input', placeholder: 'Name or username', autocomplete: 'off',
      on: { input: () => this.find() },
    });
    this.field = h('div', { class: 'form-field' }, h('label', { htmlFor: id, text: label }), this.search);
    /** What a form shows of the picker, in order. */
    this.elements = [this.field, this.chips, this.results];
  }

  /** Forgets what was picked and typed, and lists everyone again. */
  reset() {
    this.picked.clear();
    this.search.value = '';
    this.renderPicked();
    replaceChildren(this.results);
    this.find();
  }

  async find() {
    const number = ++this.requestNumber;
    try {
      const people = await api(`/api/users?query=${encodeURIComponent(this.search.value.trim())}`);
      if (number !== this.requestNumber) return;
      const excluded = this.exclude();
      this.renderResults(people.filter((p) => (!state.me || p.id !== state.me.id) && !excluded.has(p.username)));
    } catch (failure) {
      this.onError(failure.message);
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
        avatarView(person.displayName, person.id, person.avatarURL, 'avatar-small'),
        h('span', { class: 'person-name', text: person.displayName }),
        h('span', { class: 'person-username', text: `@${person.username}` }),
        h('span', { class: 'person-check', attrs: { 'aria-hidden': 'true' } })));
      }));
  }

  renderPicked() {
    replaceChildren(this.chips, [...this.picked.values()].map((person) => h('li', { class: 'chip', text: person.displayName })));
    this.onChange();
  }
}

export class NewConversationDialog {
  /** onCreated(conversation) */
  constructor(onCreated) {
    this.onCreated = onCreated;
    this.picker = new PeoplePicker({
      id: 'people-search', label: 'To',
      onChange: () => this.renderPicked(),
      onError: (message) => { this.error.textContent = message; },
    });
    this.titleInput = h('input', { type: 'text', id: 'group-title', class: 'input', maxLength: rules.maxTitleLength, placeholder: 'Optional' });
    this.titleField = h('div', { class: 'form-field', hidden: true }, h('label', { htmlFor: 'group-title', text: 'Group name' }), this.titleInput);
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.create = h('button', { type: 'submit', class: 'button button-primary', text: 'Start', disabled: true });
    this.element = h('dialog', { class: 'dialog new-conversation-dialog', attrs: { 'aria-labelledby': 'new-conversation-title' } },
      h('form', { class: 'dialog-form', on: { submit: (event) => this.submit(event) } },
        dialogHeader('New conversation', { id: 'new-conversation-title', onClose: () => this.element.close() }),
        this.picker.elements,
        this.titleField,
        this.error,
        h('div', { class: 'dialog-actions' },
          h('button', { type: 'button', class: 'button button-plain', text: 'Cancel', on: { click: () => this.element.close() } }),
          this.create)));
    document.body.append(this.element);
  }

  open() {
    this.titleInput.value = '';
    this.error.textContent = '';
    this.picker.reset();
    this.element.showModal();
    focus(this.picker.search);
  }

  renderPicked() {
    const count = this.picker.picked.size;
    this.titleField.hidden = count < 2;
    this.create.disabled = count === 0;
    this.create.textContent = count > 1 ? 'Start group' : 'Start';
  }

  async submit(event) {
    event.preventDefault();
    const picked = this.picker.picked;
    if (picked.size === 0) return;
    this.create.disabled = true;
    try {
      const body = { members: [...picked.keys()] };
      const title = this.titleInput.value.trim();
      if (picked.size > 1 && title) body.title = title;
      const conversation = await api('/api/conversations', { method: 'POST', body });
      this.element.close();
      this.onCreated(conversation);
    } catch (failure) {
      this.error.textContent = failure.message;
      this.create.disabled = false;
    }
  }
}
