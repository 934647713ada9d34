// Blocking people: the list of whom the person blocked (`state.blocked`, id → user, read from the
// server when first needed and after each change), Settings › Blocked people to see and undo it,
// and the Block / Unblock button the conversation details show beside each other member. The
// blocked person is not told; the server keeps them from starting a conversation with the person
// or adding them, and stops typing and read receipts both ways.

import { api } from './api.js';
import { confirmAction } from './confirm.js';
import { announce, focus, h, replaceChildren } from './dom.js';
import { emit, on, state } from './state.js';

const path = (id) => `/api/me/blocked/${encodeURIComponent(id)}`;

function keep(list) {
  state.blocked = new Map(list.map((user) => [user.id, user]));
  emit('blocked');
}

/** Reads the list from the server (again). */
export async function loadBlocked() {
  keep(await api('/api/me/blocked'));
}

/** Blocks `user` ({id, displayName}) or unblocks them, and says so; rejects with the server's reason. */
export async function setBlocked(user, blocked) {
  keep(await api(path(user.id), { method: blocked ? 'PUT' : 'DELETE' }));
  announce(blocked ? `${user.displayName} is blocked. They are not told.` : `${user.displayName} is unblocked.`);
}

/** Whether the person blocked `userId` (false while the list is not read yet). */
export const isBlocked = (userId) => Boolean(state.blocked?.has(userId));

/** Asks before blocking `member`, saying what it does; resolves whether the person confirmed. */
function confirmBlocking(member) {
  return confirmAction({
    title: `Block ${member.displayName}?`,
    text: `${member.displayName} will not be able to start a conversation with you or add you to one, and neither of you will see the other typing or reading. They are not told.`,
    confirm: 'Block',
  });
}

/** The Block / Unblock button for `member` in a list whose rows are redrawn; `onError(message)`.
 * Block, drawn as destructive, asks first (Cancel, or Escape, leaves things as they were);
 * either way the focus comes back to the button (the row's new one, if it was redrawn). */
export function blockButton(member, onError) {
  const blocked = isBlocked(member.id);
  const label = blocked ? 'Unblock' : 'Block';
  const key = `block:${member.id}`;
  const button = h('button', {
    type: 'button', class: ['button', 'button-plain', 'info-member-action', 'info-block', !blocked && 'is-destructive'], text: label,
    dataset: { key },
    attrs: { 'aria-label': `${label} ${member.displayName}` },
    on: {
      click: async () => {
        if (!blocked) {
          const confirmed = await confirmBlocking(member);
          focus(button.isConnected ? button : document.querySelector(`[data-key="${CSS.escape(key)}"]`));
          if (!confirmed) return;
        }
        try {
          await setBlocked(member, !blocked);
        } catch (error) {
          onError(error.message);
        }
      },
    },
  });
  return button;
}

/** Settings › Blocked people: who is blocked, each with Unblock. */
export class BlockedSettings {
  constructor() {
    this.list = h('ul', { class: 'blocked-list', attrs: { 'aria-labelledby': 'blocked-heading' } });
    this.empty = h('p', { class: 'setting-hint', text: 'Nobody. To block someone, open a conversation’s details (ⓘ) and choose Block beside them.' });
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.heading = h('span', { class: 'setting-name', id: 'blocked-heading', tabIndex: -1, text: 'Blocked people' });
    this.element = h('div', { class: 'setting-blocked', attrs: { role: 'group', 'aria-labelledby': 'blocked-heading' } },
      this.heading,
      h('span', { class: 'setting-hint', text: 'They cannot start a conversation with you or add you to one, and neither of you sees the other typing or reading. They are not told.' }),
      this.list, this.empty, this.error);
    on('blocked', () => this.render());
  }

  /** Reads the list as the settings open. */
  async refresh() {
    this.error.textContent = '';
    try {
      await loadBlocked();
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  render() {
    const people = [...(state.blocked?.values() ?? [])];
    const focused = this.list.contains(document.activeElement);
    replaceChildren(this.list, people.map((person) => h('li', { class: 'blocked-person', dataset: { userId: person.id } },
      h('span', { class: 'info-member-text' },
        h('span', { class: 'info-member-name', text: person.displayName }),
        h('span', { class: 'info-member-username', text: `@${person.username}` })),
      h('button', {
        type: 'button', class: 'link-button', text: 'Unblock', attrs: { 'aria-label': `Unblock ${person.displayName}` },
        on: {
          click: async () => {
            this.error.textContent = '';
            try {
              await setBlocked(person, false);
            } catch (error) {
              this.error.textContent = error.message;
            }
          },
        },
      }))));
    this.empty.hidden = people.length > 0;
    // The unblocked row is gone: focus goes to the first one left, or to the heading.
    if (focused && !this.list.contains(document.activeElement)) focus(this.list.querySelector('button') ?? this.heading);
  }
}
