// Typing "@" in the compose field suggests the conversation's members; choosing one (Return or a
// click) writes "@Name" in the field, and the message is sent with a reference to that
// person ("<@id>") in its place, so a name that merely looks like it is never a mention.

import { announce, h, replaceChildren } from './dom.js';
import { mentionPieces, mentionToken } from './mentions.js';

/** "@" and what follows it, up to the caret, at the start of the field or after a space. */
const QUERY = /(^|\s)@([\p{L}\p{N}._-]{0,40})$/u;
const MAX_SUGGESTIONS = 6;
let pickers = 0;

export class MentionPicker {
  /** members(): the conversation's members other than the person; onChange(): the field's text changed. */
  constructor(input, { members, onChange }) {
    this.input = input;
    this.members = members;
    this.onChange = onChange;
    /** "@Name" → user id, for the names chosen from the list. */
    this.chosen = new Map();
    this.options = [];
    this.active = 0;
    this.id = `mention-picker-${(pickers += 1)}`;
    this.list = h('ul', { class: 'mention-picker', id: this.id, hidden: true, attrs: { role: 'listbox', 'aria-label': 'People to mention' } });
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.id);
    input.addEventListener('input', () => this.update());
    input.addEventListener('click', () => this.update());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  get isOpen() { return !this.list.hidden; }

  /** Handles the keys the list takes while open; true when it took this one. */
  handleKey(event) {
    if (!this.isOpen) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.options.length - 1)) % this.options.length;
      this.draw();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      this.choose(this.options[this.active]);
    } else if (event.key === 'Tab') {
      // Tab moves on, as everywhere else on the page: the list closes and nothing is chosen.
      this.close();
      return true;
    } else if (event.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  }

  update() {
    const before = this.input.value.slice(0, this.input.selectionStart ?? 0);
    const match = before.match(QUERY);
    if (!match || this.input.selectionStart !== this.input.selectionEnd) return this.close();
    const query = match[2].toLowerCase();
    this.options = this.members()
      .filter((m) => m.displayName.toLowerCase().split(/\s+/).some((word) => word.startsWith(query)) || m.username.toLowerCase().startsWith(query))
      .slice(0, MAX_SUGGESTIONS);
    if (this.options.length === 0) return this.close();
    this.active = 0;
    this.query = match[2];
    this.draw();
    if (this.list.hidden) {
      const count = this.options.length;
      announce(`${count} ${count === 1 ? 'person' : 'people'} to mention: up and down to choose, Return to pick.`);
    }
    this.list.hidden = false;
    return undefined;
  }

  draw() {
    replaceChildren(this.list, this.options.map((m, index) => h('li', {
      class: 'mention-option',
      id: `${this.id}-${index}`,
      attrs: { role: 'option', 'aria-selected': index === this.active ? 'true' : 'false' },
      on: { mousedown: (event) => { event.preventDefault(); this.choose(m); } },
    }, h('span', { class: 'mention-option-name', text: m.displayName }), h('span', { class: 'mention-option-username', text: `@${m.username}` }))));
    this.input.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
  }

  close() {
    if (this.list.hidden) return;
    this.list.hidden = true;
    replaceChildren(this.list);
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Writes "@Name " in place of what was typed after "@". */
  choose(member) {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const start = caret - this.query.length - 1;
    const name = `@${member.displayName}`;
    this.chosen.set(name, member.id);
    const value = this.input.value;
    this.input.value = `${value.slice(0, start)}${name} ${value.slice(caret)}`;
    this.input.selectionStart = this.input.selectionEnd = start + name.length + 1;
    this.close();
    this.onChange();
  }

  /** The text to send: each chosen "@Name" still in it becomes its person's reference. */
  encode(text) {
    let result = text;
    // Longest names first, so "@Ann Lee" is not taken for "@Ann".
    for (const [name, id] of [...this.chosen].sort((a, b) => b[0].length - a[0].length)) {
      const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      result = result.replace(new RegExp(`(?<![\\p{L}\\p{N}@._-])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), mentionToken(id));
    }
    return result;
  }

  /** A sent text put back in the field (to edit it): references to members shown as "@Name", and
   * known as chosen; a reference to someone no longer there stays as it is, so the edit keeps it. */
  decode(text, conversation) {
    return mentionPieces(text, conversation).map((piece) => {
      if (typeof piece === 'string') return piece;
      if (!piece.member) return mentionToken(piece.mention);
      this.chosen.set(piece.name, piece.mention);
      return piece.name;
    }).join('');
  }

  /** Forgets the names chosen (after sending). */
  reset() {
    this.chosen.clear();
    this.close();
  }
}
