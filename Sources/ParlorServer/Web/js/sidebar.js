// The list of conversations with unread counts, the apps that have their own screen, and the
// signed-in person's menu.

import { h, replaceChildren, safeImageURL } from './dom.js';
import { conversationTitle, state } from './state.js';

export function initials(name) {
  const parts = (name || '?').trim().split(/\s+/).filter(Boolean);
  const first = [...(parts[0] || '?')][0];
  const last = parts.length > 1 ? [...parts[parts.length - 1]][0] : '';
  return (first + last).toUpperCase();
}

function avatar(conversation) {
  const title = conversationTitle(conversation);
  const hue = [...(conversation.id || '')].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  const el = h('span', { class: ['avatar', conversation.isGroup && 'avatar-group'], attrs: { 'aria-hidden': 'true' }, text: initials(title) });
  el.style.setProperty('--avatar-hue', String(hue));
  return el;
}

export class Sidebar {
  /** handlers: onNewConversation(), onSignOut() */
  constructor(handlers) {
    this.handlers = handlers;
    this.current = null;
    this.list = h('ul', { class: 'conversation-list', attrs: { 'aria-label': 'Conversations' } });
    this.apps = h('ul', { class: 'home-apps', attrs: { 'aria-label': 'Apps' } });
    this.appsSection = h('section', { class: 'sidebar-section', attrs: { 'aria-labelledby': 'apps-heading' } },
      h('h2', { class: 'sidebar-heading', id: 'apps-heading', text: 'Apps' }), this.apps);
    this.me = h('span', { class: 'sidebar-me' });
    this.element = h('nav', { class: 'sidebar', attrs: { 'aria-label': 'Conversations and apps' } },
      h('header', { class: 'sidebar-header' },
        h('div', { class: 'sidebar-brand' }, h('span', { class: 'brand-mark', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'brand-name', text: 'Parlor' })),
        h('button', {
          type: 'button',
          class: 'icon-button new-conversation',
          attrs: { 'aria-label': 'New conversation' },
          on: { click: () => handlers.onNewConversation() },
        }, h('span', { class: 'icon icon-compose', attrs: { 'aria-hidden': 'true' } }))),
      h('div', { class: 'sidebar-scroll' },
        h('section', { class: 'sidebar-section', attrs: { 'aria-labelledby': 'conversations-heading' } },
          h('h2', { class: 'sidebar-heading', id: 'conversations-heading', text: 'Messages' }), this.list),
        this.appsSection),
      h('footer', { class: 'sidebar-footer' }, this.me,
        h('button', { type: 'button', class: 'link-button sign-out', text: 'Sign out', on: { click: () => handlers.onSignOut() } })));
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
        h('span', { class: 'conversation-name', text: title }),
        h('span', { class: 'conversation-preview', text: c.preview || 'No messages yet' })),
      unread > 0
        ? h('span', { class: 'unread-badge', dataset: { unread }, text: unread > 99 ? '99+' : String(unread), attrs: { 'aria-label': `${unread} unread` } })
        : null));
    });
    replaceChildren(this.list, items.length ? items : h('li', { class: 'conversation-empty', text: 'No conversations yet. Start one with the pencil button.' }));

    const apps = (state.directory?.apps || []).filter((a) => a.installed && a.hasHomeSurface);
    this.appsSection.hidden = apps.length === 0;
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
