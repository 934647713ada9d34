// The list of conversations with unread counts, the apps that have their own screen, and the
// signed-in person's menu.

import { avatarView } from './avatars.js';
import { focus, h, replaceChildren, safeImageURL } from './dom.js';
import { SearchPanel } from './search.js';
import { SecuritySettings } from './security.js';
import { conversationTitle, state } from './state.js';
import { activityLabel } from './times.js';

/** A conversation's picture: the other person's in a 1:1 conversation, initials for a group. */
function avatar(conversation) {
  const other = conversation.isGroup ? null : conversation.members?.find((m) => m.id !== state.me?.id);
  return avatarView(conversationTitle(conversation), conversation.id, other?.avatarURL, conversation.isGroup && 'avatar-group');
}

const NOTIFICATIONS_HINT = 'New messages while you look elsewhere; in muted conversations, only those that mention you.';
const NOTIFICATIONS_BLOCKED = 'Your browser does not let Parlor show notifications; allow them in its settings for this site.';

export class Sidebar {
  /** handlers: onNewConversation(), onSignOut(), onSettings() → Promise<{user, sharesReadReceipts}>, onReadReceipts(shares) → Promise,
   * onSearchResult(result), onNotifications(wanted) → Promise<boolean>, onPicture(file | null) → Promise<{user}>,
   * onSignOutEverywhere() → Promise: ends every sign-in of the person and leaves for the sign-in page */
  constructor(handlers) {
    this.handlers = handlers;
    this.search = new SearchPanel({
      onActive: (active) => {
        this.conversationsSection.hidden = active;
        this.render();
      },
      onOpen: (result) => handlers.onSearchResult(result),
    });
    this.receipts = h('input', { type: 'checkbox', id: 'setting-read-receipts', on: { change: () => this.changeReceipts() } });
    this.notifications = h('input', {
      type: 'checkbox', id: 'setting-notifications', attrs: { 'aria-describedby': 'setting-notifications-hint' },
      on: { change: () => this.changeNotifications() },
    });
    this.notificationsHint = h('span', { class: 'setting-hint', id: 'setting-notifications-hint', text: NOTIFICATIONS_HINT });
    this.pictureInput = h('input', {
      type: 'file', class: 'visually-hidden', accept: 'image/png,image/jpeg,image/gif,image/webp', tabIndex: -1, attrs: { 'aria-hidden': 'true' },
      on: { change: () => this.changePicture(this.pictureInput.files?.[0] ?? null) },
    });
    this.pictureView = h('span', { class: 'setting-picture-view' });
    this.removePicture = h('button', { type: 'button', class: 'link-button', text: 'Remove', on: { click: () => this.changePicture(null) } });
    this.choosePicture = h('button', { type: 'button', class: 'link-button', text: 'Choose a picture…', on: { click: () => this.pictureInput.click() } });
    this.security = new SecuritySettings({ onSignOutEverywhere: () => handlers.onSignOutEverywhere() });
    this.settingsPanel = h('div', { class: 'settings-panel', id: 'settings-panel', hidden: true, attrs: { role: 'group', 'aria-label': 'Settings' } },
      h('div', { class: 'setting-picture', attrs: { role: 'group', 'aria-label': 'Profile picture' } }, this.pictureView,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Profile picture' }),
          h('span', { class: 'setting-picture-actions' }, this.choosePicture, this.removePicture)), this.pictureInput),
      h('label', { class: 'setting', attrs: { for: 'setting-read-receipts' } }, this.receipts,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Send read receipts' }),
          h('span', { class: 'setting-hint', text: 'Others see when you have read their messages.' }))),
      h('label', { class: 'setting', attrs: { for: 'setting-notifications' } }, this.notifications,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Show notifications' }), this.notificationsHint)),
      this.security.element);
    this.settingsButton = h('button', {
      type: 'button',
      class: 'link-button settings-button',
      text: 'Settings',
      attrs: { 'aria-expanded': 'false', 'aria-controls': 'settings-panel' },
      on: { click: () => this.toggleSettings() },
    });
    this.current = null;
    this.list = h('ul', { class: 'conversation-list', attrs: { 'aria-label': 'Conversations' } });
    this.apps = h('ul', { class: 'home-apps', attrs: { 'aria-label': 'Apps' } });
    this.appsSection = h('section', { class: 'sidebar-section', attrs: { 'aria-labelledby': 'apps-heading' } },
      h('h2', { class: 'sidebar-heading', id: 'apps-heading', text: 'Apps' }), this.apps);
    this.me = h('span', { class: 'sidebar-me' });
    // Focus lands here after signing in: the start of the list, one Tab from the first conversation.
    this.heading = h('h2', { class: 'sidebar-heading', id: 'conversations-heading', tabIndex: -1, text: 'Messages' });
    this.element = h('nav', { class: 'sidebar', attrs: { 'aria-label': 'Conversations and apps' } },
      h('header', { class: 'sidebar-header' },
        h('div', { class: 'sidebar-brand' }, h('span', { class: 'brand-mark', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'brand-name', text: 'Parlor' })),
        h('button', {
          type: 'button',
          class: 'icon-button new-conversation',
          attrs: { 'aria-label': 'New conversation' },
          on: { click: () => handlers.onNewConversation() },
        }, h('span', { class: 'icon icon-compose', attrs: { 'aria-hidden': 'true' } }))),
      this.search.field,
      h('div', { class: 'sidebar-scroll' },
        this.search.section,
        this.conversationsSection = h('section', { class: 'sidebar-section', attrs: { 'aria-labelledby': 'conversations-heading' } },
          this.heading, this.list),
        this.appsSection),
      this.settingsPanel,
      h('footer', { class: 'sidebar-footer' }, this.me, this.settingsButton,
        h('button', { type: 'button', class: 'link-button sign-out', text: 'Sign out', on: { click: () => handlers.onSignOut() } })));
    this.settingsPanel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.toggleSettings(false);
      }
    });
  }

  /** Shows or hides the settings, reading them from the server as they open. */
  async toggleSettings(open = this.settingsPanel.hidden) {
    this.settingsPanel.hidden = !open;
    this.settingsButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (!open) {
      focus(this.settingsButton);
      return;
    }
    this.receipts.disabled = true;
    try {
      const settings = await this.handlers.onSettings();
      this.showPicture(settings.user);
      this.receipts.checked = settings.sharesReadReceipts;
      this.notifications.checked = settings.notifications;
    } finally {
      this.receipts.disabled = false;
    }
    this.receipts.focus();
  }

  /** The person's own picture (or initials) in the settings, with Remove when there is one. */
  showPicture(user) {
    replaceChildren(this.pictureView, avatarView(user?.displayName ?? '', user?.id ?? '', user?.avatarURL));
    this.removePicture.hidden = !user?.avatarURL;
    this.choosePicture.textContent = user?.avatarURL ? 'Change…' : 'Choose a picture…';
  }

  /** Uploads `file` as the person's picture, or removes the picture (null). */
  async changePicture(file) {
    this.pictureInput.value = '';
    this.choosePicture.disabled = true;
    this.removePicture.disabled = true;
    try {
      this.showPicture((await this.handlers.onPicture(file)).user);
    } catch {
      // The handler said why.
    } finally {
      this.choosePicture.disabled = false;
      this.removePicture.disabled = false;
      focus(this.choosePicture);
    }
  }

  async changeNotifications() {
    const wanted = this.notifications.checked;
    this.notifications.disabled = true;
    try {
      const enabled = await this.handlers.onNotifications(wanted);
      this.notifications.checked = enabled;
      this.notificationsHint.textContent = wanted && !enabled ? NOTIFICATIONS_BLOCKED : NOTIFICATIONS_HINT;
    } finally {
      this.notifications.disabled = false;
      this.notifications.focus();
    }
  }

  async changeReceipts() {
    const wanted = this.receipts.checked;
    this.receipts.disabled = true;
    try {
      this.receipts.checked = (await this.handlers.onReadReceipts(wanted)).sharesReadReceipts;
    } catch {
      this.receipts.checked = !wanted;
    } finally {
      this.receipts.disabled = false;
      this.receipts.focus();
    }
  }

  /** Moves focus to the list's heading (after signing in, when no conversation is open). */
  focusStart() {
    focus(this.heading);
  }

  setCurrent(route) {
    this.current = route;
    this.render();
  }

  render() {
    this.me.textContent = state.me ? `${state.me.displayName} (@${state.me.username})` : '';
    const items = state.order.map((id) => state.conversations.get(id)).filter(Boolean).map((c) => {
      const unread = c.unreadCount || 0;
      const isCurrent = this.current?.name === 'conversation' && this.current.id === c.id;
      const title = conversationTitle(c);
      return h('li', {}, h('a', {
        class: ['conversation-link', isCurrent && 'is-current', unread > 0 && 'is-unread'],
        href: `#/c/${encodeURIComponent(c.id)}`,
        dataset: { conversationId: c.id },
        attrs: { 'aria-current': isCurrent ? 'page' : null },
      },
      avatar(c),
      h('span', { class: 'conversation-text' },
        h('span', { class: 'conversation-top' },
          h('span', { class: 'conversation-name', text: title }),
          c.isMuted ? h('span', { class: 'icon icon-muted conversation-muted', attrs: { role: 'img', 'aria-label': 'Muted' } }) : null,
          c.lastActivityAt ? h('time', { class: 'conversation-time', text: activityLabel(c.lastActivityAt), attrs: { datetime: c.lastActivityAt } }) : null),
        h('span', { class: 'conversation-preview', text: c.preview || 'No messages yet' })),
      c.unreadMentions > 0
        ? h('span', { class: 'mention-badge', text: '@', attrs: { role: 'img', 'aria-label': c.unreadMentions === 1 ? '1 mention' : `${c.unreadMentions} mentions` } })
        : null,
      unread > 0
        ? h('span', { class: ['unread-badge', c.isMuted && 'is-muted'], dataset: { unread }, text: unread > 99 ? '99+' : String(unread), attrs: { 'aria-label': `${unread} unread` } })
        : null));
    });
    replaceChildren(this.list, items.length ? items : h('li', { class: 'conversation-empty', text: 'No conversations yet. Start one with the pencil button.' }));

    const apps = (state.directory?.apps || []).filter((a) => a.installed && a.hasHomeSurface);
    this.appsSection.hidden = apps.length === 0 || this.search.isActive;
    replaceChildren(this.apps, apps.map((app) => {
      const isCurrent = this.current?.name === 'home' && this.current.id === app.id;
      const icon = safeImageURL(app.iconURL);
      return h('li', {}, h('a', {
        class: ['home-app-link', isCurrent && 'is-current'],
        href: `#/home/${encodeURIComponent(app.id)}`,
        dataset: { app: app.id },
        attrs: { 'aria-current': isCurrent ? 'page' : null },
      }, icon ? h('img', { class: 'home-app-icon', src: icon, alt: '', attrs: { 'aria-hidden': 'true' } }) : null, h('span', { text: app.name })));
    }));
  }
}
