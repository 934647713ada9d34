// The transcript of one conversation: bubbles in sequence order, sessions collapsed (the newest
// message of a session is its bubble, older ones leave their summary line where they were),
// redrawn by key so that only what changed is rebuilt.

import { appCard, stickerView, summaryLine, textBubble, timeLabel } from './bubbles.js';
import { h } from './dom.js';
import { state } from './state.js';

const GAP_FOR_TIME = 15 * 60 * 1000;
const signatures = new WeakMap();

function signatureOf(message) {
  let sig = signatures.get(message);
  if (!sig) {
    sig = JSON.stringify(message);
    signatures.set(message, sig);
  }
  return sig;
}

export class TranscriptView {
  /** handlers: onOpen(message), onGet(message), onOpenLink(url, title), onRetry(id), onDiscard(id) */
  constructor(handlers) {
    this.handlers = handlers;
    this.offerFor = null;
    this.cache = new Map();
    this.list = h('ol', { class: 'transcript-list', attrs: { 'aria-label': 'Messages' } });
    this.empty = h('p', { class: 'transcript-empty', text: 'No messages yet. Say hello!' });
    this.earlier = h('button', { type: 'button', class: 'button button-plain transcript-earlier', hidden: true, text: 'Show earlier messages', on: { click: () => this.showEarlier() } });
    this.element = h('div', { class: 'transcript', tabIndex: -1, attrs: { role: 'region', 'aria-label': 'Conversation transcript' } }, this.earlier, this.empty, this.list);
    this.stickToBottom = true;
    this.element.addEventListener('scroll', () => {
      const el = this.element;
      this.stickToBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
    });
    // Images arriving late change heights: stay at the bottom if we were there.
    this.element.addEventListener('load', () => this.stickToBottom && this.scrollToBottom(), true);
    new ResizeObserver(() => this.stickToBottom && this.scrollToBottom()).observe(this.list);
  }

  /** Loads older messages above, keeping what the person was reading in place. */
  async showEarlier() {
    const before = this.element.scrollHeight - this.element.scrollTop;
    this.earlier.disabled = true;
    try {
      await this.handlers.onEarlier();
    } finally {
      this.earlier.disabled = false;
    }
    this.stickToBottom = false;
    this.element.scrollTop = this.element.scrollHeight - before;
  }

  scrollToBottom() {
    this.element.scrollTop = this.element.scrollHeight;
  }

  /** Redraws from the transcript's messages and pending sends. */
  render(t, conversation) {
    const entries = this.entries(t, conversation);
    this.empty.hidden = entries.length > 0 || !t.loaded;
    this.earlier.hidden = !t.loaded || t.reachedStart || t.messages.size === 0;
    this.element.dataset.loaded = t.loaded ? 'true' : 'false';
    const seen = new Set();
    let cursor = this.list.firstElementChild;
    let sentByMe = false;
    for (const entry of entries) {
      seen.add(entry.key);
      let cached = this.cache.get(entry.key);
      if (!cached || cached.sig !== entry.sig) {
        const el = entry.build();
        el.dataset.key = entry.key;
        if (cached) {
          if (cursor === cached.el) cursor = el;
          cached.el.replaceWith(el);
        }
        if (!cached && entry.mine) sentByMe = true;
        cached = { el, sig: entry.sig };
        this.cache.set(entry.key, cached);
      }
      if (cursor !== cached.el) this.list.insertBefore(cached.el, cursor);
      else cursor = cursor.nextElementSibling;
    }
    for (const [key, cached] of this.cache) {
      if (!seen.has(key)) {
        cached.el.remove();
        this.cache.delete(key);
      }
    }
    if (this.stickToBottom || sentByMe) {
      this.scrollToBottom();
      this.stickToBottom = true;
    }
  }

  entries(t, conversation) {
    const me = state.me?.id;
    const isGroup = Boolean(conversation?.isGroup);
    const messages = t.sorted();
    const newestOfSession = new Map();
    for (const m of messages) {
      const session = m.app?.sessionID;
      if (session) newestOfSession.set(session, m.id);
    }
    const entries = [];
    let previous = null;
    const add = (item) => {
      const time = Date.parse(item.sentAt);
      if (!previous || (Number.isFinite(time) && time - previous.time > GAP_FOR_TIME)) {
        entries.push({ key: `time:${item.id}`, sig: item.sentAt, build: () => timeSeparator(item.sentAt) });
      }
      previous = { time: Number.isFinite(time) ? time : previous?.time ?? 0, sender: item.sender, summary: item.summary };
    };
    for (const m of messages) {
      const session = m.app?.sessionID;
      const collapsed = Boolean(session && newestOfSession.get(session) !== m.id);
      const mine = m.sender === me;
      const prevSender = previous && !previous.summary ? previous.sender : null;
      add({ id: m.id, sentAt: m.sentAt, sender: m.sender, summary: collapsed });
      if (collapsed) {
        entries.push({ key: `m:${m.id}`, sig: `S${signatureOf(m)}`, build: () => h('li', { class: 'entry entry-summary' }, summaryLine(m)) });
        continue;
      }
      const showSender = isGroup && !mine && prevSender !== m.sender;
      const offered = this.offerFor === m.id;
      entries.push({
        key: `m:${m.id}`,
        mine,
        sig: `B${showSender ? 1 : 0}${offered ? 1 : 0}${signatureOf(m)}`,
        build: () => this.messageEntry(m, { mine, showSender, offered }),
      });
    }
    for (const p of t.pending.values()) {
      if (t.messages.has(p.id)) continue;
      add({ id: p.id, sentAt: p.sentAt, sender: me, summary: false });
      entries.push({ key: `p:${p.id}`, mine: true, sig: `P${p.status}${p.error ?? ''}`, build: () => this.pendingEntry(p) });
    }
    return entries;
  }

  messageEntry(m, { mine, showSender, offered }) {
    const li = h('li', {
      class: ['entry', mine ? 'entry-mine' : 'entry-theirs', m.app && 'entry-app', m.sticker && 'entry-sticker'],
      dataset: { messageId: m.id, sequence: m.sequence },
      title: timeLabel(m.sentAt),
    });
    if (showSender) li.append(h('p', { class: 'entry-sender', text: m.senderName }));
    const who = mine ? 'You' : m.senderName;
    li.append(h('span', { class: 'visually-hidden', text: `${who}, ${timeLabel(m.sentAt)}:` }));
    if (m.text !== undefined && m.text !== null) {
      li.append(textBubble(m.text));
    } else if (m.sticker) {
      li.append(stickerView(m.sticker));
    } else if (m.app) {
      li.append(appCard(m.app, {
        onOpen: () => this.handlers.onOpen(m),
        onOffer: () => {
          this.offerFor = m.id;
          this.handlers.onRerender();
          this.list.querySelector(`[data-message-id="${CSS.escape(m.id)}"] .offer-get`)?.focus();
        },
      }));
      if (offered) li.append(this.offer(m));
      if (m.app.shouldExpire && !mine) {
        li.append(h('button', { type: 'button', class: 'link-button entry-keep', text: 'Keep', on: { click: () => this.handlers.onKeep(m) } }));
      }
    } else {
      li.append(textBubble('This message cannot be shown.'));
    }
    return li;
  }

  offer(m) {
    const app = m.app;
    const close = () => {
      this.offerFor = null;
      this.handlers.onRerender();
    };
    return h(
      'div',
      { class: 'offer', attrs: { role: 'group', 'aria-label': `${app.appName} is not installed` } },
      h('p', { class: 'offer-text', text: `You don't have ${app.appName} yet.` }),
      h(
        'div',
        { class: 'offer-actions' },
        h('button', { type: 'button', class: 'button button-primary offer-get', text: `Get ${app.appName}`, on: { click: () => { this.offerFor = null; this.handlers.onGet(m); } } }),
        app.webURL ? h('button', { type: 'button', class: 'button', text: 'Open link', on: { click: () => this.handlers.onOpenLink(app.webURL, app.layout?.caption || app.appName) } }) : null,
        h('button', { type: 'button', class: 'button button-plain', text: 'Not now', on: { click: close } }),
      ),
    );
  }

  pendingEntry(p) {
    const li = h('li', { class: ['entry', 'entry-mine', `is-${p.status}`, p.kind === 'sticker' && 'entry-sticker'], dataset: { pendingId: p.id } });
    li.append(p.kind === 'text' ? textBubble(p.text) : stickerView(p.sticker));
    if (p.status === 'failed') {
      li.append(
        h(
          'div',
          { class: 'entry-failed', attrs: { role: 'alert' } },
          h('span', { text: `Not delivered${p.error ? `: ${p.error}` : '.'}` }),
          h('button', { type: 'button', class: 'link-button', text: 'Retry', on: { click: () => this.handlers.onRetry(p.id) } }),
          h('button', { type: 'button', class: 'link-button', text: 'Delete', on: { click: () => this.handlers.onDiscard(p.id) } }),
        ),
      );
    } else {
      li.append(h('p', { class: 'entry-status', text: 'Sending…' }));
    }
    return li;
  }
}

function timeSeparator(iso) {
  const date = new Date(iso);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  const label = Number.isNaN(date.getTime())
    ? ''
    : sameDay
      ? `Today ${timeLabel(iso)}`
      : date.toLocaleString([], { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  return h('li', { class: 'entry entry-time', attrs: { 'aria-hidden': 'true' } }, h('span', { text: label }));
}
