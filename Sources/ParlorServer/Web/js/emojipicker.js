// The emoji picker: every emoji by group, in Unicode's order, found by name or keyword ("laugh"
// finds 😂), or any emoji pasted into its search field. One picker serves the compose field and
// reactions. Its list (js/emojidata.js, generated from Unicode's files) loads the first time it opens.
//
// Keyboard: the search field takes the focus; ↓ goes to the emoji, which are one Tab stop moved
// through with the arrows, Home and End; Return picks; Escape closes and gives the focus back.

import { announce, h, keepTabInside, replaceChildren } from './dom.js';

const RECENT_LIMIT = 16;
const MARGIN = 8;
/** Emoji chosen since the page opened, newest first (kept in memory only). */
const recent = [];
let groups = null;
let current = null;

/** The list, loaded once: [[group, [[emoji, name, keywords], …]], …]. A failed load is asked
 * again at the next opening (with a query the browser has not cached as failed). */
let attempts = 0;
function emojiGroups() {
  attempts += 1;
  groups ??= import(attempts === 1 ? './emojidata.js' : `./emojidata.js?attempt=${attempts}`).then(
    (module) => module.EMOJI_GROUPS,
    (error) => {
      groups = null;
      throw error;
    });
  return groups;
}

/** How names and searches are cut into words. */
const WORDS = /[\s:,-]+/;

/** "grinning face" → "Grinning face". */
const label = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/** Whether every word of the query begins a word of the emoji's name or keywords. */
function matches(entry, words) {
  const [, name, keywords] = entry;
  const own = `${name} ${keywords}`.toLowerCase().split(WORDS);
  return words.every((word) => own.some((w) => w.startsWith(word)));
}

/** Whether `text` is one character that is not a letter, digit or space: an emoji pasted in. */
function isOneSymbol(text) {
  const segments = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)];
  return segments.length === 1 && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(text);
}

/**
 * Opens the picker beside `anchor`. `onPick(emoji)` gets the emoji chosen; the picker then closes
 * and the focus goes to `returnFocus()` (by default the anchor, if it is still on the page).
 */
export function openEmojiPicker(anchor, { title, onPick, returnFocus }) {
  current?.close({ restoreFocus: false });
  current = new EmojiPicker(anchor, { title, onPick, returnFocus });
  return current;
}

/** Closes the picker, if one is open (its conversation is left). */
export function closeEmojiPicker() {
  current?.close({ restoreFocus: false });
}

class EmojiPicker {
  constructor(anchor, { title, onPick, returnFocus }) {
    this.anchor = anchor;
    this.onPick = onPick;
    this.returnFocus = returnFocus ?? (() => (anchor.isConnected ? anchor : null));
    this.buttons = [];
    this.active = 0;
    this.search = h('input', {
      type: 'search',
      class: 'emoji-search',
      placeholder: 'Search emoji',
      attrs: { 'aria-label': 'Search emoji', autocomplete: 'off', spellcheck: 'false' },
      on: { input: () => this.draw(), keydown: (event) => this.searchKey(event) },
    });
    this.nav = h('div', { class: 'emoji-groups', attrs: { role: 'toolbar', 'aria-label': 'Emoji groups' } });
    this.body = h('div', { class: 'emoji-body', on: { keydown: (event) => this.gridKey(event) } });
    this.status = h('p', { class: 'emoji-status', attrs: { role: 'status' } });
    this.element = h('div', {
      class: 'emoji-picker',
      attrs: { role: 'dialog', 'aria-label': title },
      on: {
        keydown: (event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            this.close();
          } else {
            // Tab goes around inside the picker (search, groups, the emoji), as in a dialog.
            keepTabInside(event, this.element);
          }
        },
        focusout: (event) => {
          if (event.relatedTarget && !this.element.contains(event.relatedTarget)) this.close({ restoreFocus: false });
        },
      },
    }, this.search, this.nav, this.body, this.status);
    this.outside = (event) => {
      if (!this.element.contains(event.target) && !anchor.contains(event.target)) this.close({ restoreFocus: false });
    };
    this.reposition = () => this.place();
    document.addEventListener('pointerdown', this.outside, true);
    window.addEventListener('resize', this.reposition);
    anchor.setAttribute('aria-expanded', 'true');
    document.body.append(this.element);
    this.place();
    this.search.focus();
    this.status.textContent = 'Loading emoji…';
    emojiGroups().then((list) => {
      if (!this.element.isConnected) return;
      this.groups = list;
      this.status.textContent = '';
      this.drawNav();
      this.draw();
    }, () => {
      this.status.textContent = 'Parlor could not load the emoji. Check your connection and try again.';
    });
  }

  /** Above the anchor when there is room, else below; inside the window either way. In line with
   * the anchor's left edge, or centred in a narrow window (a phone's), where it takes most of the
   * width and would otherwise sit a little to one side. */
  place() {
    const rect = this.anchor.getBoundingClientRect();
    const width = Math.min(360, window.innerWidth - 2 * MARGIN);
    const height = Math.min(380, window.innerHeight - 2 * MARGIN);
    const left = width > window.innerWidth / 2
      ? (window.innerWidth - width) / 2
      : Math.max(MARGIN, Math.min(rect.left, window.innerWidth - width - MARGIN));
    const above = rect.top - height - MARGIN >= MARGIN;
    const top = above ? rect.top - height - MARGIN : Math.min(rect.bottom + MARGIN, window.innerHeight - height - MARGIN);
    Object.assign(this.element.style, { left: `${left}px`, top: `${Math.max(MARGIN, top)}px`, width: `${width}px`, height: `${height}px` });
  }

  drawNav() {
    const sections = recent.length ? [['Recently used', recent]] : [];
    replaceChildren(this.nav, [...sections, ...this.groups].map(([name, entries]) => h('button', {
      type: 'button',
      class: 'emoji-group-button',
      title: name,
      attrs: { 'aria-label': name },
      on: {
        click: () => {
          this.search.value = '';
          this.draw();
          const heading = [...this.body.querySelectorAll('.emoji-section')].find((s) => s.dataset.group === name);
          heading?.scrollIntoView({ block: 'start' });
          const first = heading?.querySelector('.emoji');
          if (first) this.move(this.buttons.indexOf(first));
        },
      },
    }, h('span', { attrs: { 'aria-hidden': 'true' }, text: entries[0][0] }))));
  }

  /** The emoji the search asks for, or every group. */
  sections() {
    const query = this.search.value.trim();
    const all = recent.length ? [['Recently used', recent], ...this.groups] : this.groups;
    if (!query) return all;
    const words = query.toLowerCase().split(WORDS).filter(Boolean);
    const found = this.groups.flatMap(([, entries]) => entries.filter((entry) => entry[0] === query || matches(entry, words)));
    if (query.length <= 32 && !found.some((entry) => entry[0] === query) && isOneSymbol(query)) found.unshift([query, `Use ${query}`, '']);
    return [['Results', found]];
  }

  draw() {
    if (!this.groups) return;
    const sections = this.sections();
    this.buttons = [];
    const searching = this.search.value.trim() !== '';
    replaceChildren(this.body, sections.filter(([, entries]) => entries.length).map(([name, entries]) => {
      const headingId = `emoji-section-${name.replace(/\W+/g, '-').toLowerCase()}`;
      return h('section', { class: 'emoji-section', dataset: { group: name }, attrs: { 'aria-labelledby': headingId } },
        h('h3', { class: 'emoji-section-title', id: headingId, text: name }),
        h('div', { class: 'emoji-grid', attrs: { role: 'group', 'aria-labelledby': headingId } },
          entries.map(([emoji, name]) => {
            const button = h('button', {
              type: 'button',
              class: 'emoji',
              tabIndex: -1,
              title: label(name),
              attrs: { 'aria-label': label(name) },
              on: { click: () => this.pick(emoji) },
            }, h('span', { attrs: { 'aria-hidden': 'true' }, text: emoji }));
            this.buttons.push(button);
            return button;
          })));
    }));
    this.active = 0;
    if (this.buttons[0]) this.buttons[0].tabIndex = 0;
    if (searching) {
      const count = this.buttons.length;
      const text = count === 0 ? `No emoji found for “${this.search.value.trim()}”.` : count === 1 ? '1 emoji found.' : `${count} emoji found.`;
      this.status.textContent = text;
    } else {
      this.status.textContent = '';
      this.body.scrollTop = 0;
    }
  }

  searchKey(event) {
    if (event.key === 'ArrowDown' && this.buttons.length) {
      event.preventDefault();
      this.move(0);
    } else if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      if (this.search.value.trim() && this.buttons[0]) this.buttons[0].click();
    }
  }

  /** The number of emoji in a row of the grid the active one is in. */
  columns() {
    const button = this.buttons[this.active];
    const grid = button?.parentElement;
    if (!grid) return 1;
    return Math.max(1, Math.round(grid.clientWidth / button.offsetWidth));
  }

  gridKey(event) {
    const index = this.buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -this.columns(), ArrowDown: this.columns() };
    if (event.key in steps) {
      event.preventDefault();
      const next = index + steps[event.key];
      if (next < 0 && event.key === 'ArrowUp') this.search.focus();
      else this.move(Math.max(0, Math.min(this.buttons.length - 1, next)));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      this.move(event.key === 'Home' ? 0 : this.buttons.length - 1);
    }
  }

  move(index) {
    const old = this.buttons[this.active];
    if (old) old.tabIndex = -1;
    this.active = index;
    const button = this.buttons[index];
    if (!button) return;
    button.tabIndex = 0;
    button.focus();
  }

  pick(emoji) {
    const entry = this.groups.flatMap(([, entries]) => entries).find((e) => e[0] === emoji) ?? [emoji, emoji, ''];
    const at = recent.findIndex((e) => e[0] === emoji);
    if (at >= 0) recent.splice(at, 1);
    recent.unshift(entry);
    recent.length = Math.min(recent.length, RECENT_LIMIT);
    this.close();
    this.onPick(emoji);
    announce(`${label(entry[1])} chosen.`);
  }

  close({ restoreFocus = true } = {}) {
    if (current === this) current = null;
    if (!this.element.isConnected) return;
    document.removeEventListener('pointerdown', this.outside, true);
    window.removeEventListener('resize', this.reposition);
    this.anchor.setAttribute('aria-expanded', 'false');
    const hadFocus = this.element.contains(document.activeElement);
    this.element.remove();
    if (restoreFocus && hadFocus) this.returnFocus()?.focus();
  }
}
