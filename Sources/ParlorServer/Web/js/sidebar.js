// The list of conversations with unread counts, the apps that have their own screen, and the
// signed-in person's menu.

import { avatarView, conversationAvatar } from './avatars.js';
import { BlockedSettings } from './blocks.js';
import { confirmAction } from './confirm.js';
import { PushSettings } from './push.js';
import { announce, focus, h, replaceChildren, safeImageURL } from './dom.js';
import { moveListMenuOpener, openListMenu, openListMenuKey } from './listmenu.js';
import { SearchPanel } from './search.js';
import { SecuritySettings } from './security.js';
import { rules } from './rules.js';
import { conversationTitle, state } from './state.js';
import { activityLabel } from './times.js';
import { LANGUAGE_CHOICES, chooseLanguage, chosenLanguage } from './language.js';


const NOTIFICATIONS_HINT = 'New messages while you look elsewhere; in muted conversations, only those that mention you.';
const NOTIFICATIONS_BLOCKED = 'Your browser does not let Parlor show notifications; allow them in its settings for this site.';

export class Sidebar {
  /** handlers: onNewConversation(), onSignOut(), onSettings() → Promise<{user, sharesReadReceipts}>, onReadReceipts(shares) → Promise,
   * onSearchResult(result), onNotifications(wanted) → Promise<boolean>, onPicture(file | null) → Promise<{user}>,
   * onSignOutEverywhere() → Promise: ends every sign-in of the person and leaves for the sign-in page,
   * onDisplayName(name) → Promise<{user}>: changes the person's name, saying why when refused,
   * onAbout(text) → Promise<{user}>: changes the line about themselves, the same way,
   * onListSetting(conversationId, setting, on) → Promise: mutes, pins, archives or marks unread (setting
   * 'muted', 'pinned', 'archived', 'unread'), saying why when the server refuses,
   * onMarkRead(conversationId) → Promise: everything in it seen, as if opened, and any mark of unread gone,
   * onDeleteConversation(conversationId) → Promise: deletes it for the person, saying why when refused */
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
    this.nameInput = h('input', {
      type: 'text', id: 'setting-display-name', class: 'input setting-name-input', autocomplete: 'name',
      maxLength: rules.maxDisplayNameLength, attrs: { 'aria-describedby': 'setting-display-name-hint' },
    });
    this.nameSave = h('button', { type: 'submit', class: 'link-button', text: 'Save' });
    this.nameForm = h('form', { class: 'setting-display-name', on: { submit: (event) => { event.preventDefault(); this.changeName(); } } },
      h('label', { class: 'setting-name', attrs: { for: 'setting-display-name' }, text: 'Your name' }),
      h('span', { class: 'setting-name-row' }, this.nameInput, this.nameSave),
      h('span', { class: 'setting-hint', id: 'setting-display-name-hint', text: 'What others see beside your messages and in their lists.' }));
    this.aboutInput = h('input', {
      type: 'text', id: 'setting-about', class: 'input setting-name-input', autocomplete: 'off',
      maxLength: rules.maxAboutLength, placeholder: 'Out until Monday', attrs: { 'aria-describedby': 'setting-about-hint' },
    });
    this.aboutSave = h('button', { type: 'submit', class: 'link-button', text: 'Save' });
    this.aboutForm = h('form', { class: 'setting-display-name', on: { submit: (event) => { event.preventDefault(); this.changeAbout(); } } },
      h('label', { class: 'setting-name', attrs: { for: 'setting-about' }, text: 'About you' }),
      h('span', { class: 'setting-name-row' }, this.aboutInput, this.aboutSave),
      h('span', { class: 'setting-hint', id: 'setting-about-hint', text: 'A line the people you talk to see in your details.' }));
    this.language = h('select', {
      id: 'setting-language', class: 'input', attrs: { 'aria-describedby': 'setting-language-hint' },
      on: { change: () => { chooseLanguage(this.language.value); handlers.onLanguage?.(); } },
    }, ...LANGUAGE_CHOICES.map(([tag, name]) => h('option', { value: tag, text: name })));
    this.language.value = chosenLanguage();
    this.languageSetting = h('div', { class: 'setting-language' },
      h('label', { class: 'setting-name', attrs: { for: 'setting-language' }, text: 'Language for apps' }),
      this.language,
      h('span', { class: 'setting-hint', id: 'setting-language-hint', text: 'Apps speak to you in it when they can; messages show what their senders wrote.' }));
    this.security = new SecuritySettings({ onSignOutEverywhere: () => handlers.onSignOutEverywhere() });
    this.blocked = new BlockedSettings();
    this.push = new PushSettings();
    this.settingsPanel = h('div', { class: 'settings-panel', id: 'settings-panel', hidden: true, attrs: { role: 'group', 'aria-label': 'Settings' } },
      this.nameForm,
      this.aboutForm,
      h('div', { class: 'setting-picture', attrs: { role: 'group', 'aria-label': 'Profile picture' } }, this.pictureView,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Profile picture' }),
          h('span', { class: 'setting-picture-actions' }, this.choosePicture, this.removePicture)), this.pictureInput),
      h('label', { class: 'setting', attrs: { for: 'setting-read-receipts' } }, this.receipts,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Send read receipts' }),
          h('span', { class: 'setting-hint', text: 'Others see when you have read their messages.' }))),
      h('label', { class: 'setting', attrs: { for: 'setting-notifications' } }, this.notifications,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Show notifications' }), this.notificationsHint)),
      this.languageSetting,
      this.push.element,
      this.blocked.element,
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
    this.showArchived = false;
    this.archivedButton = h('button', {
      type: 'button', class: 'link-button archived-toggle', hidden: true,
      attrs: { 'aria-expanded': 'false', 'aria-controls': 'archived-list' },
      on: { click: () => this.toggleArchived() },
    });
    this.archivedList = h('ul', { class: 'conversation-list archived-list', id: 'archived-list', hidden: true, attrs: { 'aria-label': 'Archived conversations' } });
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
          this.heading, this.list, this.archivedButton, this.archivedList),
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
    this.blocked.refresh();
    this.push.refresh();
    try {
      const settings = await this.handlers.onSettings();
      this.showPicture(settings.user);
      this.nameInput.value = settings.user?.displayName ?? '';
      this.aboutInput.value = settings.user?.about ?? '';
      this.receipts.checked = settings.sharesReadReceipts;
      this.notifications.checked = settings.notifications;
    } finally {
      this.receipts.disabled = false;
    }
    this.receipts.focus();
  }

  /** Saves the name typed in the settings; a refused one stays in the field, with the reason said. */
  async changeName() {
    const name = this.nameInput.value;
    // A blank name goes to the server too, which says the rule it breaks.
    if (name.trim() === state.me?.displayName) return;
    this.nameSave.disabled = true;
    try {
      this.nameInput.value = (await this.handlers.onDisplayName(name)).user.displayName;
    } catch {
      // The handler said why.
    } finally {
      this.nameSave.disabled = false;
      focus(this.nameInput);
    }
  }

  /** Saves the line about the person typed in the settings (blank removes it). */
  async changeAbout() {
    const about = this.aboutInput.value;
    if (about.trim() === (state.me?.about ?? '')) return;
    this.aboutSave.disabled = true;
    try {
      this.aboutInput.value = (await this.handlers.onAbout(about)).user.about ?? '';
    } catch {
      // The handler said why.
    } finally {
      this.aboutSave.disabled = false;
      focus(this.aboutInput);
    }
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

  /** Shows or hides the archived conversations under the list. */
  toggleArchived(open = !this.showArchived) {
    this.showArchived = open;
    this.render();
  }

  /** One conversation's row: its link, and the ⋯ button of its menu. */
  row(c) {
    const unread = c.unreadCount || 0;
    const isCurrent = this.current?.name === 'conversation' && this.current.id === c.id;
    const title = conversationTitle(c);
    const markedOnly = unread === 0 && c.isMarkedUnread;
    const menuButton = h('button', {
      type: 'button', class: 'icon-button conversation-menu-button',
      attrs: { 'aria-label': `More for ${title}`, 'aria-haspopup': 'menu', 'aria-expanded': 'false' },
      on: { click: () => this.openMenu(c.id, menuButton) },
    }, h('span', { class: 'icon icon-more', attrs: { 'aria-hidden': 'true' } }));
    if (openListMenuKey() === c.id) moveListMenuOpener(menuButton);
    const link = h('a', {
      class: ['conversation-link', isCurrent && 'is-current', (unread > 0 || c.isMarkedUnread) && 'is-unread'],
      href: `#/c/${encodeURIComponent(c.id)}`,
      dataset: { conversationId: c.id },
      attrs: { 'aria-current': isCurrent ? 'page' : null },
      on: {
        contextmenu: (event) => {
          event.preventDefault();
          this.openMenu(c.id, menuButton, { x: event.clientX, y: event.clientY });
        },
        keydown: (event) => {
          if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
            event.preventDefault();
            this.openMenu(c.id, menuButton);
          }
        },
      },
    },
    conversationAvatar(c),
    h('span', { class: 'conversation-text' },
      h('span', { class: 'conversation-top' },
        h('span', { class: 'conversation-name', text: title }),
        c.pinnedAt ? h('span', { class: 'icon icon-pin conversation-pinned', attrs: { role: 'img', 'aria-label': 'Pinned' } }) : null,
        c.isMuted ? h('span', { class: 'icon icon-muted conversation-muted', attrs: { role: 'img', 'aria-label': 'Muted' } }) : null,
        c.lastActivityAt ? h('time', { class: 'conversation-time', text: activityLabel(c.lastActivityAt), attrs: { datetime: c.lastActivityAt } }) : null),
      h('span', { class: 'conversation-preview', text: c.preview || 'No messages yet' })),
    c.unreadMentions > 0
      ? h('span', { class: 'mention-badge', text: '@', attrs: { role: 'img', 'aria-label': c.unreadMentions === 1 ? '1 mention' : `${c.unreadMentions} mentions` } })
      : null,
    unread > 0
      ? h('span', { class: ['unread-badge', c.isMuted && 'is-muted'], dataset: { unread }, text: unread > 99 ? '99+' : String(unread), attrs: { 'aria-label': `${unread} unread` } })
      : null,
    markedOnly ? h('span', { class: ['unread-badge', 'is-marked', c.isMuted && 'is-muted'], attrs: { role: 'img', 'aria-label': 'Marked unread' } }) : null);
    return h('li', { class: 'conversation-row', dataset: { conversationId: c.id } }, link, menuButton);
  }

  /** The menu of one conversation: what the person can change about it in their own list. */
  openMenu(conversationId, opener, point = null) {
    const c = state.conversations.get(conversationId);
    if (!c) return;
    const unread = (c.unreadCount || 0) > 0 || c.isMarkedUnread;
    const done = (work, said) => async () => {
      try {
        await work();
        announce(said);
      } catch {
        // The handler said why.
      }
      this.focusRow(conversationId);
    };
    const change = (setting, on, said) => done(() => this.handlers.onListSetting(conversationId, setting, on), said);
    const title = conversationTitle(c);
    openListMenu(conversationId, opener, title, [
      c.pinnedAt ? { label: 'Unpin', run: change('pinned', false, `${title} unpinned.`) } : { label: 'Pin', run: change('pinned', true, `${title} pinned at the top.`) },
      unread ? { label: 'Mark as read', run: done(() => this.handlers.onMarkRead(conversationId), `${title} marked read.`) }
        : { label: 'Mark as unread', run: change('unread', true, `${title} marked unread.`) },
      c.isMuted ? { label: 'Unmute', run: change('muted', false, `${title} unmuted.`) } : { label: 'Mute', run: change('muted', true, `${title} muted.`) },
      c.isArchived ? { label: 'Unarchive', run: change('archived', false, `${title} is back in your list.`) }
        : { label: 'Archive', run: change('archived', true, `${title} archived: it comes back with the next message${c.isMuted ? ' unless it stays muted' : ''}.`) },
      { label: 'Delete…', destructive: true, run: () => this.confirmDelete(conversationId, title) },
    ].filter(Boolean), { point, fallback: () => this.focusRow(conversationId) });
  }

  /** Deletes a conversation for the person once they confirm; focus goes back to the list. */
  async confirmDelete(conversationId, title) {
    const confirmed = await confirmAction({
      title: `Delete “${title}”?`,
      text: 'Its messages are deleted for you, on all your devices; the others keep them. A new message brings the conversation back.',
      confirm: 'Delete',
    });
    if (confirmed) {
      try {
        await this.handlers.onDeleteConversation(conversationId);
        announce(`${title} deleted.`);
      } catch {
        // The handler said why.
      }
    }
    this.focusRow(conversationId);
  }

  /** Focus after a change from a row's menu: that row's ⋯ button where the row still shows (the
   * list redraws, and the row may have moved), else the Archived button, else the list's heading. */
  focusRow(conversationId) {
    const row = [...this.element.querySelectorAll('.conversation-row')].find((r) => r.dataset.conversationId === conversationId && r.offsetParent);
    focus(row?.querySelector('.conversation-menu-button') ?? (this.archivedButton.hidden ? this.heading : this.archivedButton));
  }

  render() {
    this.me.textContent = state.me ? `${state.me.displayName} (@${state.me.username})` : '';
    const all = state.order.map((id) => state.conversations.get(id)).filter(Boolean);
    // Pinned first, the first pinned first; then by the latest activity, as the order keeps them.
    // Pins in the same second (the wire's dates are to the second) keep one order on every device.
    const pinned = all.filter((c) => c.pinnedAt && !c.isArchived)
      .sort((a, b) => a.pinnedAt.localeCompare(b.pinnedAt) || a.id.localeCompare(b.id));
    const rest = all.filter((c) => !c.pinnedAt && !c.isArchived);
    const archived = all.filter((c) => c.isArchived);
    const items = [...pinned, ...rest].map((c) => this.row(c));
    replaceChildren(this.list, items.length ? items
      : h('li', { class: 'conversation-empty', text: archived.length ? 'Every conversation is archived.' : 'No conversations yet. Start one with the pencil button.' }));
    this.archivedButton.hidden = archived.length === 0;
    if (archived.length === 0) this.showArchived = false;
    this.archivedButton.textContent = `${this.showArchived ? 'Hide archived' : 'Archived'} (${archived.length})`;
    this.archivedButton.setAttribute('aria-expanded', this.showArchived ? 'true' : 'false');
    this.archivedList.hidden = !this.showArchived;
    replaceChildren(this.archivedList, this.showArchived ? archived.map((c) => this.row(c)) : []);

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
