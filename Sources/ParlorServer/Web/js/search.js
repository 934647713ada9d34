// Searching messages from the sidebar: a search field; while it holds words, the results (the
// words found marked) take the place of the conversation list; choosing one opens its
// conversation at that message.

import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { conversationTitle, state } from './state.js';
import { rules } from './rules.js';
import { activityLabel } from './times.js';

/** What the server accepts (SearchTerms.maxQueryLength); the field holds no more. */
const HAS_WORD = /[\p{L}\p{N}]/u;

export class SearchPanel {
  /** onActive(active): results shown or gone; onOpen(result): a result was chosen. */
  constructor({ onActive, onOpen }) {
    this.onActive = onActive;
    this.onOpen = onOpen;
    this.asked = 0;
    this.timer = null;
    this.input = h('input', {
      type: 'search',
      class: 'search-input',
      id: 'search-input',
      attrs: { 'aria-label': 'Search messages', placeholder: 'Search', maxlength: String(rules.maxSearchLength), autocomplete: 'off', 'aria-controls': 'search-results' },
      on: {
        input: () => this.changed(),
        keydown: (event) => {
          if (event.key === 'Escape' && this.input.value) {
            event.preventDefault();
            event.stopPropagation();
            this.clear();
          } else if (event.key === 'ArrowDown') {
            const first = this.list.querySelector('.search-result');
            if (first) {
              event.preventDefault();
              first.focus();
            }
          }
        },
      },
    });
    this.field = h('div', { class: 'search-field', attrs: { role: 'search' } },
      h('span', { class: 'icon icon-search', attrs: { 'aria-hidden': 'true' } }), this.input);
    this.status = h('p', { class: 'search-status', attrs: { role: 'status' } });
    this.list = h('ul', { class: 'search-results', id: 'search-results', attrs: { 'aria-label': 'Search results' } });
    this.list.addEventListener('keydown', (event) => this.moveFocus(event));
    this.section = h('section', { class: 'sidebar-section search-section', hidden: true, attrs: { 'aria-labelledby': 'search-heading' } },
      h('h2', { class: 'sidebar-heading', id: 'search-heading', text: 'Search results' }), this.status, this.list);
  }

  get isActive() { return !this.section.hidden; }

  clear() {
    this.input.value = '';
    this.changed();
    this.input.focus();
  }

  /** Searches a moment after typing stops; with no words left, goes back to the list. */
  changed() {
    clearTimeout(this.timer);
    // An answer to an earlier query that comes later is not shown.
    this.asked += 1;
    const query = this.input.value.trim();
    if (!HAS_WORD.test(query)) {
      this.show(false);
      return;
    }
    this.show(true);
    this.status.textContent = 'Searching…';
    this.timer = setTimeout(() => this.run(query), 250);
  }

  show(active) {
    if (this.section.hidden === !active) return;
    this.section.hidden = !active;
    if (!active) replaceChildren(this.list);
    this.onActive(active);
  }

  async run(query) {
    const asked = this.asked;
    let found;
    try {
      found = await api(`/api/search?q=${encodeURIComponent(query)}&limit=50`);
    } catch (error) {
      if (asked !== this.asked) return;
      replaceChildren(this.list);
      this.status.textContent = error?.message || 'Search failed.';
      return;
    }
    if (asked !== this.asked) return;
    const results = found.results.filter((r) => state.conversations.has(r.conversation));
    this.status.textContent = results.length === 0 ? `No messages match “${query}”.`
      : results.length === 1 ? '1 message' : `${results.length} messages`;
    replaceChildren(this.list, results.map((result) => this.item(result)));
  }

  item(result) {
    const conversation = state.conversations.get(result.conversation);
    const m = result.message;
    const excerpt = h('span', { class: 'search-excerpt' },
      ...result.excerpt.map((piece) => (piece.match ? h('mark', { text: piece.text }) : document.createTextNode(piece.text))));
    const time = activityLabel(m.sentAt);
    return h('li', {}, h('button', {
      type: 'button',
      class: 'search-result',
      dataset: { conversationId: result.conversation, messageId: m.id },
      on: { click: () => this.onOpen(result) },
    },
    h('span', { class: 'search-result-top' },
      h('span', { class: 'search-result-conversation', text: conversationTitle(conversation) }),
      time ? h('time', { class: 'conversation-time', text: time, attrs: { datetime: m.sentAt } }) : null),
    h('span', { class: 'search-result-sender', text: m.senderName }),
    excerpt));
  }

  /** Up and down move between results; up from the first goes back to the field. */
  moveFocus(event) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...this.list.querySelectorAll('.search-result')];
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    const next = event.key === 'ArrowDown' ? buttons[index + 1] : buttons[index - 1];
    (next ?? (event.key === 'ArrowUp' ? this.input : buttons[index])).focus();
  }
}
