// The transcript of one conversation: bubbles in sequence order, sessions collapsed (the newest
// message of a session is its bubble, older ones leave their summary line where they were),
// redrawn by key so that only what changed is rebuilt.

import { appCard, stickerView, summaryLine, textBubble } from './bubbles.js';
import { timeLabel } from './times.js';
import { FOCUSABLE, announce, h, safeImageURL } from './dom.js';
import { LONG_PRESS, addMessageGestures } from './gestures.js';
import { readableText, sameId } from './mentions.js';
import { openEmojiPicker } from './emojipicker.js';
import { attachmentView } from './attachments.js';
import { avatarView } from './avatars.js';
import { countsAsUnread, state } from './state.js';
import { STICKER_DRAG_TYPE } from './widgets.js';
import { editWindow, unsendWindow } from './rules.js';

const GAP_FOR_TIME = 15 * 60 * 1000;
/** The key of the "N new messages" divider above the first message that was unread on opening. */
const UNREAD_DIVIDER = 'unread-divider';
/** How near the bottom (px) counts as at the newest messages. */
const NEAR_BOTTOM = 60;
/** The transcript's items the keyboard moves between (messages, pending sends, event and summary
 * lines; not the unread divider or the receipt line). */
const ITEM = '.entry:not(.entry-unread):not(.entry-receipt)';
const ITEMS = `:scope > ${ITEM}`;


/** Messages' six tapbacks, as emoji, with the names people know them by. */
export const TAPBACKS = [
  ['❤️', 'Love'],
  ['👍', 'Like'],
  ['👎', 'Dislike'],
  ['😂', 'Laugh'],
  ['‼️', 'Emphasize'],
  ['❓', 'Question'],
];
const signatures = new WeakMap();

function signatureOf(message) {
  let sig = signatures.get(message);
  if (!sig) {
    sig = JSON.stringify(message);
    signatures.set(message, sig);
  }
  return sig;
}

/** The name a message is shown in: for an answer to a session, whoever started the session
 * (`app.startedBy`); else its sender. */
export function shownName(m) {
  return m.app?.startedBy?.name ?? m.senderName;
}

/** Session collapse, as in Messages: how the messages (given oldest first) of sessions are drawn,
 * by id. 'summary': a newer message of its session replaces it, leaving only its summary line
 * where it was. 'answer': the session's newest message answers it (a like, a vote: the server
 * names whoever started the session, `app.startedBy`) and someone else started it, so its summary
 * line stays and, under it, the session's bubble is drawn in that person's name. A message not
 * in the map is a bubble of its sender's. The simulator's `Transcript.collapse` does the same;
 * both are held to ParlorSDK/Tests/session-collapse.json. */
export function sessionLines(messages) {
  const newest = new Map();
  for (const m of messages) if (m.app?.sessionID) newest.set(m.app.sessionID, m.id);
  const lines = new Map();
  for (const m of messages) {
    if (!m.app?.sessionID) continue;
    if (newest.get(m.app.sessionID) !== m.id) lines.set(m.id, 'summary');
    else if (m.app.startedBy && m.app.startedBy.id !== m.sender) lines.set(m.id, 'answer');
  }
  return lines;
}

export class TranscriptView {
  /**
   * handlers: onOpen(message), onGet(message), onOpenLink(url, title), onRetry(id), onDiscard(id), onReact(message, emoji, on),
   * onReply(message), onEdit(message), onUnsend(message), onJump(messageId), onThread(message) → Promise<messages>,
   * onVersions(message) → Promise<versions>
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.offerFor = null;
    /** The message whose reaction picker is open. */
    this.pickerFor = null;
    /** The message whose replies (`{id, replies}`) or earlier versions (`{id, versions}`) are shown. */
    this.thread = null;
    this.history = null;
    this.cache = new Map();
    /** Voice messages' players by message id: kept when their entry is redrawn, so that playing goes on. */
    this.players = new Map();
    this.list = h('ol', { class: 'transcript-list', attrs: { 'aria-label': 'Messages' } });
    this.empty = h('p', { class: 'transcript-empty', text: 'No messages yet. Say hello!' });
    this.earlier = h('button', { type: 'button', class: 'button button-plain transcript-earlier', hidden: true, text: 'Show earlier messages', on: { click: () => this.showEarlier() } });
    this.typing = h('p', { class: 'typing-indicator', attrs: { 'aria-live': 'polite' } });
    // Scrolled up: a button that jumps to the newest message, saying how many arrived meanwhile.
    this.jumpText = h('span', { class: 'jump-latest-text' });
    this.jumpButton = h('button', {
      type: 'button', class: 'jump-latest-button', hidden: true, on: { click: () => this.jumpToLatest() },
    }, h('span', { class: 'jump-latest-arrow', attrs: { 'aria-hidden': 'true' }, text: '↓' }), this.jumpText);
    this.jump = h('div', { class: 'jump-latest' }, this.jumpButton);
    this.element = h('div', { class: 'transcript', tabIndex: -1, attrs: { role: 'region', 'aria-label': 'Conversation transcript' } }, this.earlier, this.empty, this.list, this.typing, this.jump);
    /** Where the unread run began on opening ({sequence, count}), null when nothing was unread, undefined until known. */
    this.unread = undefined;
    this.unreadPlaced = false;
    /** Whether the view stays at the unread divider (as content above it loads) until the reader scrolls. */
    this.holdingDivider = false;
    this.heldTop = 0;
    /** The newest sequence drawn, and how many messages of others arrived below since the reader scrolled up. */
    this.newestSequence = undefined;
    this.newCount = 0;
    /** The message tapped last (where there is no hover, its reaction button shows). */
    this.selected = null;
    this.stickToBottom = true;
    // Where scrollToBottom last left the transcript (or lower, where the reader went since),
    // until the reader scrolls up from there.
    this.pinnedTop = null;
    this.element.addEventListener('scroll', () => {
      const el = this.element;
      // Content that grew below (an image that loaded after the scroll) has not moved the reader
      // away from the bottom; only scrolling up does. The pin follows the reader down (the
      // transcript may have grown shorter under it: a tray opened, the compose field grew), so
      // scrolling up from the real bottom always unpins.
      if (this.pinnedTop !== null) this.pinnedTop = el.scrollTop < this.pinnedTop - 1 ? null : Math.max(this.pinnedTop, el.scrollTop);
      this.stickToBottom = this.pinnedTop !== null || el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM;
      if (this.holdingDivider && Math.abs(el.scrollTop - this.heldTop) > 2) this.holdingDivider = false;
      this.updateJump();
    });
    // A sticker dragged from the drawer onto a message is placed there, where it was dropped.
    const bubbleUnder = (event) => {
      if (![...(event.dataTransfer?.types ?? [])].includes(STICKER_DRAG_TYPE)) return null;
      const entry = event.target.closest?.('.entry[data-message-id]:not(.entry-placed)');
      const bubble = entry?.querySelector(':scope > .entry-body > :first-child');
      return bubble && !bubble.classList.contains('react-button') ? { entry, bubble } : null;
    };
    this.list.addEventListener('dragover', (event) => {
      const under = bubbleUnder(event);
      if (!under) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    });
    this.list.addEventListener('drop', (event) => {
      const under = bubbleUnder(event);
      if (!under) return;
      event.preventDefault();
      let sticker;
      try {
        sticker = JSON.parse(event.dataTransfer.getData(STICKER_DRAG_TYPE));
      } catch {
        return;
      }
      if (typeof sticker?.id !== 'string') return;
      const rect = under.bubble.getBoundingClientRect();
      const x = rect.width ? (event.clientX - rect.left) / rect.width : 0.5;
      const y = rect.height ? (event.clientY - rect.top) / rect.height : 0.5;
      this.handlers.onPlaceSticker(under.entry.dataset.messageId, sticker, x, y);
    });
    // Images arriving late change the messages' heights: stay at the bottom if we were there (or
    // at the unread divider, when the conversation opened there).
    const keepPlace = () => {
      if (this.stickToBottom) this.scrollToBottom();
      else if (this.holdingDivider) this.scrollToDivider();
      this.updateJump();
    };
    this.element.addEventListener('load', keepPlace, true);
    // So do the transcript's own: a photo staged or the compose field grown below it, a banner
    // shown above it, the phone's keyboard opening.
    const resized = new ResizeObserver(keepPlace);
    resized.observe(this.list);
    resized.observe(this.element);
    // One Tab stop for the whole transcript (a composite widget, as chat clients with good
    // keyboard support make it): the current message, the newest until another is focused, is
    // reached with Tab and its controls after it; the arrow keys, Home and End move between messages.
    this.currentKey = null;
    this.list.addEventListener('focusin', (event) => {
      const item = event.target.closest?.('.entry');
      if (!item || item.parentElement !== this.list || !item.matches(ITEM) || this.currentKey === item.dataset.key) return;
      this.currentKey = item.dataset.key;
      this.settleTabStops();
    });
    this.list.addEventListener('keydown', (event) => {
      if (event.target.parentElement !== this.list || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const items = [...this.list.querySelectorAll(ITEMS)];
      const at = items.indexOf(event.target);
      const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: items.length - 1 }[event.key];
      if (at < 0 || to === undefined) return;
      event.preventDefault();
      const target = items[Math.max(0, Math.min(items.length - 1, to))];
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'nearest' });
    });
  }

  /** Makes the current item the transcript's one Tab stop: every other item, and the controls in
   * it, is reached with the arrow keys instead (their own tab order kept, for when they are current). */
  settleTabStops() {
    const items = this.list.querySelectorAll(ITEMS);
    let current = this.currentKey ? this.cache.get(this.currentKey)?.el : null;
    if (!current || current.parentElement !== this.list || !current.matches(ITEM)) current = items[items.length - 1] ?? null;
    for (const item of items) {
      const on = item === current;
      if (item.dataset.tabStop === (on ? 'on' : 'off')) continue;
      item.dataset.tabStop = on ? 'on' : 'off';
      item.tabIndex = on ? 0 : -1;
      if (on) {
        for (const control of item.querySelectorAll('[data-tab-was]')) {
          if (control.dataset.tabWas) control.setAttribute('tabindex', control.dataset.tabWas);
          else control.removeAttribute('tabindex');
          delete control.dataset.tabWas;
        }
      } else {
        for (const control of item.querySelectorAll(FOCUSABLE)) {
          if (control.tabIndex < 0 || control.dataset.tabWas !== undefined) continue;
          control.dataset.tabWas = control.getAttribute('tabindex') ?? '';
          control.tabIndex = -1;
        }
      }
    }
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
    this.pinnedTop = null;
    this.holdingDivider = false;
    this.element.scrollTop = this.element.scrollHeight - before;
  }

  scrollToBottom() {
    this.holdingDivider = false;
    this.element.scrollTop = this.element.scrollHeight;
    this.pinnedTop = this.element.scrollTop;
  }

  /** Puts the unread divider near the top of the view. */
  scrollToDivider() {
    const divider = this.cache.get(UNREAD_DIVIDER)?.el;
    if (!divider?.isConnected) {
      this.holdingDivider = false;
      return;
    }
    this.element.scrollTop = Math.max(0, divider.offsetTop - 8);
    this.heldTop = this.element.scrollTop;
  }

  /** The jump button's press: to the newest message, following new ones again. */
  jumpToLatest() {
    this.newCount = 0;
    this.stickToBottom = true;
    this.scrollToBottom();
    this.updateJump();
  }

  /**
   * Shows the jump button while the reader is more than about a screen above the newest message,
   * or above new messages that arrived meanwhile ("↓ 2 new messages"); hides it at the bottom.
   */
  updateJump() {
    const el = this.element;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance < NEAR_BOTTOM) this.newCount = 0;
    const show = el.clientHeight > 0 && (distance > el.clientHeight || (this.newCount > 0 && distance >= NEAR_BOTTOM));
    const count = show ? this.newCount : 0;
    const text = count === 0 ? '' : unreadText(count);
    if (this.jumpButton.hidden === !show && this.jumpText.textContent === text) return;
    const hadFocus = document.activeElement === this.jumpButton;
    this.jumpText.textContent = text;
    this.jumpButton.classList.toggle('has-count', count > 0);
    this.jumpButton.setAttribute('aria-label', count > 0 ? `Jump to ${text}` : 'Jump to the latest messages');
    this.jumpButton.title = count > 0 ? `Jump to ${text}` : 'Jump to the latest messages';
    this.jumpButton.hidden = !show;
    if (count > 0) this.announceNew(text);
    // The button went from under the focus (pressed, or the reader reached the bottom): the focus
    // goes to the newest message.
    if (hadFocus && !show) this.focusNewest();
  }

  /** Says how many new messages are below, once a burst has settled. */
  announceNew(text) {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      if (!this.jumpButton.hidden && this.jumpText.textContent === text && this.element.isConnected) announce(`${text} below.`);
    }, 800);
  }

  /** Focus on the newest message, else on the transcript. */
  focusNewest() {
    const items = this.list.querySelectorAll(ITEMS);
    const target = items[items.length - 1] ?? this.element;
    target.focus({ preventScroll: true });
  }

  /** Selects a tapped message (again: unselects it); on touch its reaction button shows. */
  select(messageId) {
    this.selected = this.selected === messageId ? null : messageId;
    for (const entry of this.list.querySelectorAll(':scope > .entry.is-selected')) entry.classList.remove('is-selected');
    if (this.selected) this.list.querySelector(`:scope > [data-message-id="${CSS.escape(this.selected)}"]`)?.classList.add('is-selected');
  }

  /** Counts messages of others that arrived below while the reader was scrolled up. */
  noteArrivals(t) {
    if (!t.loaded) return;
    const me = state.me?.id;
    let newest = this.newestSequence ?? null;
    for (const m of t.messages.values()) {
      if (this.newestSequence !== undefined && m.sequence > (this.newestSequence ?? -Infinity) && countsAsUnread(m, me) && !this.stickToBottom) this.newCount += 1;
      if (newest === null || m.sequence > newest) newest = m.sequence;
    }
    this.newestSequence = newest;
  }

  /** Shows who is typing ("Alice is typing…"), or nothing. */
  setTyping(names) {
    const text = names.length === 0
      ? ''
      : names.length === 1
        ? `${names[0]} is typing…`
        : names.length === 2
          ? `${names[0]} and ${names[1]} are typing…`
          : `${names.length} people are typing…`;
    if (this.typing.dataset.text === text) return;
    this.typing.dataset.text = text;
    this.typing.replaceChildren();
    if (text) {
      this.typing.append(
        h('span', { class: 'typing-dots', attrs: { 'aria-hidden': 'true' } }, h('span'), h('span'), h('span')),
        h('span', { class: 'typing-text', text }),
      );
    }
    if (this.stickToBottom) this.scrollToBottom();
  }

  /** Redraws from the transcript's messages and pending sends. */
  render(t, conversation) {
    this.conversation = conversation;
    // Where the unread run starts is decided once, from the count the conversation had on opening
    // (the read that follows sets it to 0); the divider stays while the conversation is open.
    if (this.unread === undefined && t.loaded && conversation) this.unread = firstUnread(t, conversation, state.me?.id);
    this.noteArrivals(t);
    // A redraw replaces an entry's elements: the control that had the focus gets it back.
    const focused = document.activeElement;
    const focusEntry = this.list.contains(focused) ? focused.closest('[data-key]')?.dataset.key : null;
    const focusKey = focusEntry ? focused.closest('[data-focus-key]')?.dataset.focusKey : null;
    const focusOnEntry = Boolean(focusEntry) && focused.parentElement === this.list;
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
        if (key.startsWith('m:')) this.players.delete(key.slice(2));
      }
    }
    if (this.stickToBottom || sentByMe) {
      this.scrollToBottom();
      this.stickToBottom = true;
    }
    // Opened with more unread than fits: at the divider, the first unread message under it.
    if (this.unread !== undefined && !this.unreadPlaced) {
      this.unreadPlaced = true;
      const divider = this.cache.get(UNREAD_DIVIDER)?.el;
      if (divider && this.element.scrollHeight - divider.offsetTop > this.element.clientHeight) {
        this.stickToBottom = false;
        this.pinnedTop = null;
        this.holdingDivider = true;
        this.scrollToDivider();
      }
    }
    this.settleTabStops();
    this.updateJump();
    if ((focusKey || focusOnEntry) && !this.list.contains(document.activeElement)) {
      const entry = this.cache.get(focusEntry)?.el;
      const target = focusOnEntry ? entry : entry?.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      target?.focus({ preventScroll: true });
    }
  }

  entries(t, conversation) {
    const me = state.me?.id;
    const isGroup = Boolean(conversation?.isGroup);
    const messages = t.sorted();
    const lines = sessionLines(messages);
    const replyCounts = new Map();
    for (const m of messages) if (m.replyTo) replyCounts.set(m.replyTo.id, (replyCounts.get(m.replyTo.id) ?? 0) + 1);
    // Stickers placed on a message this tab holds are drawn on it, not as messages of their own;
    // those on a message since unsent went with it.
    const placedOn = new Map();
    const onUnsent = new Set();
    for (const m of messages) {
      const target = m.placement && t.messages.get(m.placement.message);
      if (target?.kind === 'unsent') onUnsent.add(m.id);
      else if (target) placedOn.set(target.id, [...(placedOn.get(target.id) ?? []), m]);
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
    let dividerAt = this.unread ? this.unread.sequence : null;
    for (const m of messages) {
      if (m.placement && (onUnsent.has(m.id) || placedOn.get(m.placement.message)?.includes(m))) continue;
      if (dividerAt !== null && m.sequence >= dividerAt) {
        dividerAt = null;
        const text = unreadText(this.unread.count);
        entries.push({ key: UNREAD_DIVIDER, sig: text, build: () => h('li', { class: 'entry entry-unread' }, h('span', { class: 'entry-unread-text', text })) });
      }
      if (m.kind === 'event') {
        // A line about the conversation, centred between messages, as Messages draws it.
        add({ id: m.id, sentAt: m.sentAt, sender: m.sender, summary: true });
        entries.push({
          key: `m:${m.id}`, sig: `E${m.text}`,
          build: () => h('li', { class: 'entry entry-event', dataset: { messageId: m.id, sequence: m.sequence }, title: timeLabel(m.sentAt) },
            h('p', { class: 'event-line', text: m.text ?? '' })),
        });
        continue;
      }
      const line = lines.get(m.id);
      // An answer (a like, a vote) is drawn in the name of whoever started its session.
      const drawnAs = line === 'answer' ? m.app.startedBy : null;
      const owner = drawnAs?.id ?? m.sender;
      const mine = owner === me;
      const prevSender = previous && !previous.summary ? previous.sender : null;
      add({ id: m.id, sentAt: m.sentAt, sender: m.sender, summary: Boolean(line) });
      if (line) {
        // Its summary line where it was sent; an answer's is followed by the session's bubble.
        // A reply quoting the message jumps to its line once a newer one took the bubble.
        entries.push({
          key: `${line === 'answer' ? 'a' : 'm'}:${m.id}`, mine: m.sender === me, sig: `S${signatureOf(m)}`,
          build: () => h('li', { class: 'entry entry-summary', dataset: { summaryOf: m.id } }, summaryLine(m)),
        });
        if (line === 'summary') continue;
        previous.summary = false;
        previous.sender = owner;
      }
      const showSender = isGroup && !mine && (drawnAs || prevSender !== m.sender);
      const offered = this.offerFor === m.id;
      const picking = this.pickerFor === m.id;
      const replies = replyCounts.get(m.id) ?? 0;
      let thread = this.thread?.id === m.id ? this.thread : null;
      // Replies the tab holds show as they are now (edited, unsent).
      if (thread?.replies) thread = { ...thread, replies: thread.replies.map((reply) => t.messages.get(reply.id) ?? reply) };
      const history = this.history?.id === m.id ? this.history : null;
      const nameOf = (id) => (id === me ? 'You' : conversation?.members.find((member) => member.id === id)?.displayName ?? 'Former member');
      const placed = placedOn.get(m.id) ?? [];
      entries.push({
        key: `m:${m.id}`,
        // Sent by this person (the view follows it to the bottom), whoever's name it is drawn in.
        mine: m.sender === me,
        sig: `B${showSender ? 1 : 0}${offered ? 1 : 0}${picking ? 1 : 0}${replies}:${conversation?.members.length ?? 0}`
          + `${placed.map((p) => p.id).join(',')}`
          + `${thread ? `T${thread.replies ? thread.replies.map(signatureOf).join('') : '…'}` : ''}`
          + `${history ? `H${history.versions?.length ?? '…'}` : ''}${signatureOf(m)}`,
        build: () => this.messageEntry(m, { mine, showSender, offered, picking, nameOf, replies, thread, history, conversation, placed, drawnAs }),
      });
    }
    // Under the person's own newest message, when it is the conversation's newest: Delivered or Read.
    const last = messages[messages.length - 1];
    // (Not under an answer drawn in someone else's name: its line, just above, says what they did.)
    if (last && last.sender === me && last.kind !== 'unsent' && last.kind !== 'event' && lines.get(last.id) !== 'answer') {
      const status = receiptText(last, conversation, state.reads.get(conversation?.id), me);
      entries.push({ key: `receipt:${last.id}`, sig: status, build: () => h('li', { class: 'entry entry-mine entry-receipt' }, h('p', { class: 'receipt-line', text: status })) });
    }
    for (const p of t.pending.values()) {
      if (t.messages.has(p.id)) continue;
      add({ id: p.id, sentAt: p.sentAt, sender: me, summary: false });
      entries.push({ key: `p:${p.id}`, mine: true, sig: `P${p.status}${p.error ?? ''}`, build: () => this.pendingEntry(p) });
    }
    return entries;
  }

  messageEntry(m, { mine, showSender, offered, picking, nameOf, replies, thread, history, conversation, placed, drawnAs }) {
    const li = h('li', {
      class: ['entry', mine ? 'entry-mine' : 'entry-theirs', m.app && 'entry-app', m.sticker && 'entry-sticker', m.placement && 'entry-placed'],
      dataset: { messageId: m.id, sequence: m.sequence },
      title: timeLabel(m.sentAt),
    });
    if (this.selected === m.id) li.classList.add('is-selected');
    // The bubble's owner: its sender, or for an answer whoever started the session.
    const ownerID = drawnAs?.id ?? m.sender;
    const ownerName = shownName(m);
    if (showSender) {
      const member = conversation?.members.find((person) => person.id === ownerID);
      li.append(h('p', { class: 'entry-sender' }, avatarView(ownerName, ownerID, member?.avatarURL, 'avatar-tiny'), h('span', { class: 'entry-sender-name', text: ownerName })));
    }
    const who = mine ? 'You' : ownerName;
    // In the starter's name, but not their words: Parlor says who sent what it shows now.
    const updater = m.sender === state.me?.id ? 'you' : m.senderName;
    const updatedBy = drawnAs ? `Updated by ${updater}` : null;
    li.append(h('span', { class: 'visually-hidden', text: `${who}${drawnAs ? `, updated by ${updater}` : ''}, ${timeLabel(m.sentAt)}:` }));
    if (m.kind === 'unsent') {
      li.classList.add('entry-unsent');
      li.append(h('p', { class: 'unsent-line', text: `${mine ? 'You' : m.senderName} unsent a message` }));
      return li;
    }
    if (m.replyTo) li.append(this.quote(m.replyTo, conversation));
    // The message and, beside it, the button that opens the reaction picker. Its time shows on
    // hover (the title) and, where there is no hover, when the bubble is tapped.
    const body = h('div', {
      class: 'entry-body',
      on: {
        click: (event) => {
          if (event.target.closest('a, button, input, img.link-preview-image')) return;
          li.classList.toggle('shows-time');
          this.select(m.id);
        },
      },
    });
    li.append(body);
    // The message's menu (tapbacks, Reply, Copy, Edit, Unsend) without the ☺︎+ button: a long
    // press, a right-click, or the context-menu key (Shift+F10) on the message; a swipe to the
    // right replies.
    addMessageGestures(body, { onLongPress: () => this.openPicker(m.id), onSwipeRight: () => this.handlers.onReply(m) });
    body.addEventListener('contextmenu', (event) => {
      // A link or a photo keeps the browser's menu; an app's card (its picture too) is the message.
      const own = event.target.closest('a, img, input, textarea');
      if (own && !own.closest('.app-card-tap')) return;
      event.preventDefault();
      this.openPicker(m.id);
    });
    li.addEventListener('keydown', (event) => {
      if (event.key !== 'ContextMenu' && !(event.shiftKey && event.key === 'F10')) return;
      if (event.target.closest('.reaction-picker, input, textarea')) return;
      event.preventDefault();
      this.openPicker(m.id);
    });
    li.append(h('p', { class: 'entry-sent-time', attrs: { 'aria-hidden': 'true' }, text: timeLabel(m.sentAt) }));
    if (m.text !== undefined && m.text !== null) {
      body.append(textBubble(m.text, conversation, state.me?.id, m.linkPreview));
    } else if (m.sticker) {
      body.append(stickerView(m.sticker));
    } else if (m.attachment) {
      body.append(this.attachmentOf(m));
    } else if (m.app) {
      body.append(appCard(m.app, {
        onOpen: () => this.handlers.onOpen(m),
        onOffer: () => {
          this.offerFor = m.id;
          this.handlers.onRerender();
          this.list.querySelector(`[data-message-id="${CSS.escape(m.id)}"] .offer-get`)?.focus();
        },
      }));
      if (offered) li.append(this.offer(m));
      // (Read before the bubble, with its owner's name.)
      if (updatedBy) li.append(h('p', { class: 'entry-updated-by', text: updatedBy, attrs: { 'aria-hidden': 'true' } }));
      if (m.app.shouldExpire && m.sender !== state.me?.id) {
        li.append(h('button', { type: 'button', class: 'link-button entry-keep', text: 'Keep', on: { click: () => this.handlers.onKeep(m) } }));
      }
    } else {
      body.append(textBubble('This message cannot be shown.'));
    }
    if (placed.length) body.firstElementChild.append(this.placedStickers(placed, nameOf));
    // A placed sticker whose message is not loaded here is shown on its own, saying so.
    if (m.placement) li.append(h('p', { class: 'placed-note', text: 'Placed on an earlier message' }));
    const whose = who === 'You' ? 'your' : `${who}'s`;
    body.append(h('button', {
      type: 'button',
      class: ['react-button', picking && 'is-active'],
      dataset: { focusKey: 'react' },
      attrs: { 'aria-label': `React to or reply to ${whose} message`, 'aria-expanded': picking ? 'true' : 'false' },
      on: { click: () => this.togglePicker(picking ? null : m.id) },
    }, h('span', { attrs: { 'aria-hidden': 'true' }, text: '☺︎+' })));
    if (m.editedAt) {
      li.append(h('button', {
        type: 'button',
        class: 'link-button entry-edited',
        text: history ? 'Hide earlier versions' : 'Edited',
        attrs: { 'aria-expanded': history ? 'true' : 'false', 'aria-label': history ? 'Hide earlier versions' : 'Edited: show earlier versions' },
        on: { click: () => this.toggleHistory(m) },
      }));
      if (history) li.append(this.versionsList(history));
    }
    if (m.reactions?.length) li.append(this.reactions(m, whose, nameOf));
    if (picking) li.append(this.picker(m, whose, mine));
    if (replies > 0) {
      li.append(h('button', {
        type: 'button',
        class: 'link-button entry-replies',
        text: thread ? 'Hide replies' : replies === 1 ? '1 reply' : `${replies} replies`,
        attrs: { 'aria-expanded': thread ? 'true' : 'false' },
        on: { click: () => this.toggleThread(m) },
      }));
    }
    if (thread) li.append(this.threadView(thread, whose));
    return li;
  }

  /** A message's photo, file or voice message. A voice message's player is the same element
   * across redraws (a reaction, a reply): moved into the new entry, it keeps playing. */
  attachmentOf(m) {
    if (!m.attachment.voice) return attachmentView(m.attachment);
    let player = this.players.get(m.id);
    if (!player) {
      player = attachmentView(m.attachment);
      this.players.set(m.id, player);
    }
    return player;
  }

  /** The quote of the message a reply answers; pressing it jumps there. One the person deleted
   * for themselves (up to the conversation's `deletedThrough`) reads "Deleted message". */
  quote(replyTo, conversation) {
    if (conversation?.deletedThrough != null && replyTo.sequence <= conversation.deletedThrough) {
      return h('p', { class: 'reply-quote is-deleted' },
        h('span', { class: 'reply-quote-name', text: replyTo.senderName }), h('span', { class: 'reply-quote-text', text: 'Deleted message' }));
    }
    return h('button', {
      type: 'button',
      class: 'reply-quote',
      attrs: { 'aria-label': `Reply to ${replyTo.senderName}: ${replyTo.preview}. Show that message` },
      on: { click: () => this.handlers.onJump(replyTo.id) },
    }, h('span', { class: 'reply-quote-name', text: replyTo.senderName }), h('span', { class: 'reply-quote-text', text: replyTo.preview }));
  }

  /** Scrolls to a message and marks it for a moment; false when it is not loaded. */
  jumpTo(messageId) {
    const id = CSS.escape(messageId);
    const entry = this.list.querySelector(`[data-message-id="${id}"]`) ?? this.list.querySelector(`[data-summary-of="${id}"]`);
    if (!entry) return false;
    this.stickToBottom = false;
    this.pinnedTop = null;
    this.holdingDivider = false;
    entry.scrollIntoView({ block: 'center' });
    entry.classList.remove('is-highlighted');
    void entry.offsetWidth;
    entry.classList.add('is-highlighted');
    entry.focus({ preventScroll: true });
    return true;
  }

  async toggleThread(m) {
    if (this.thread?.id === m.id) {
      this.thread = null;
      this.handlers.onRerender();
      return;
    }
    this.thread = { id: m.id, replies: null };
    this.handlers.onRerender();
    try {
      const replies = await this.handlers.onThread(m);
      if (this.thread?.id === m.id) this.thread = { id: m.id, replies };
    } catch {
      if (this.thread?.id === m.id) this.thread = { id: m.id, replies: [], failed: true };
    }
    this.handlers.onRerender();
  }

  threadView(thread, whose) {
    const region = h('div', { class: 'thread', attrs: { role: 'region', 'aria-label': `Replies to ${whose} message` } });
    if (!thread.replies || thread.failed) {
      region.append(h('p', { class: 'thread-status', text: thread.failed ? 'The replies could not be loaded.' : 'Loading replies…' }));
      return region;
    }
    const list = h('ol', { class: 'thread-list' });
    for (const reply of thread.replies) {
      list.append(h('li', { class: 'thread-item' },
        h('span', { class: 'thread-name', text: reply.senderName }),
        h('span', { class: 'thread-text', text: reply.kind === 'unsent' ? 'Unsent message' : readableText(reply.text, this.conversation) || (reply.sticker?.description ?? reply.app?.appName ?? '') }),
        h('button', { type: 'button', class: 'link-button', text: 'Show', attrs: { 'aria-label': `Show ${reply.senderName}'s reply` }, on: { click: () => this.handlers.onJump(reply.id) } })));
    }
    region.append(list);
    return region;
  }

  async toggleHistory(m) {
    if (this.history?.id === m.id) {
      this.history = null;
      this.handlers.onRerender();
      return;
    }
    this.history = { id: m.id, versions: null };
    this.handlers.onRerender();
    try {
      const versions = await this.handlers.onVersions(m);
      if (this.history?.id === m.id) this.history = { id: m.id, versions };
    } catch {
      if (this.history?.id === m.id) this.history = { id: m.id, versions: [] };
    }
    this.handlers.onRerender();
  }

  versionsList(history) {
    const region = h('div', { class: 'versions', attrs: { role: 'region', 'aria-label': 'Earlier versions' } });
    if (!history.versions) {
      region.append(h('p', { class: 'thread-status', text: 'Loading…' }));
      return region;
    }
    const list = h('ol', { class: 'versions-list' });
    for (const version of history.versions) {
      list.append(h('li', { class: 'version' }, h('span', { class: 'version-text', text: readableText(version.text, this.conversation) }),
        h('span', { class: 'version-time', text: ` · until ${timeLabel(version.replacedAt)}` })));
    }
    region.append(list);
    return region;
  }

  /** The stickers people placed on a message, each where it was dropped, turned a little as if
   * stuck on by hand. One's own, in the unsend window, is a button that peels it off again. */
  placedStickers(placed, nameOf) {
    const layer = h('div', { class: 'placed-stickers' });
    for (const p of placed) {
      const description = p.sticker.description || 'Sticker';
      const spot = { left: `${p.placement.x * 100}%`, top: `${p.placement.y * 100}%`, '--tilt': `${tiltOf(p.id)}deg` };
      const img = h('img', { class: 'placed-sticker-image', alt: `${description}, placed by ${nameOf(p.sender)}`, decoding: 'async' });
      const src = safeImageURL(p.sticker.url);
      if (src) img.src = src;
      const removable = sameId(p.sender, state.me?.id) && Date.now() - Date.parse(p.sentAt) < unsendWindow();
      layer.append(removable
        ? h('button', {
          type: 'button',
          class: 'placed-sticker is-removable',
          title: 'Placed by you: press to take it off',
          dataset: { messageId: p.id },
          style: spot,
          attrs: { 'aria-label': `${description}, placed by you: take it off` },
          on: { click: () => this.handlers.onUnsend(p) },
        }, img)
        : h('span', { class: 'placed-sticker', title: `Placed by ${nameOf(p.sender)}`, dataset: { messageId: p.id }, style: spot }, img));
    }
    return layer;
  }

  /** Moves focus to a message (its reaction button), as after placing a sticker on it. */
  focusMessage(messageId) {
    this.list.querySelector(`[data-message-id="${CSS.escape(messageId)}"] .react-button`)?.focus();
  }

  /** The message's reactions as toggles ("❤️ 2": pressing one adds or takes off the person's own). */
  reactions(m, whose, nameOf) {
    const me = state.me?.id;
    const row = h('div', { class: 'reactions', attrs: { role: 'group', 'aria-label': `Reactions to ${whose} message` } });
    for (const reaction of m.reactions ?? []) {
      const mineToo = reaction.users.includes(me);
      const names = reaction.users.map(nameOf).join(', ');
      // Who reacted: in the tooltip on hover, and in a small list on a long press (touch) or a
      // right-click, as Messages shows them; a long press (LONG_PRESS, as on a message) does not
      // also toggle the reaction.
      let pressTimer = null;
      let longPressed = false;
      const showWho = () => this.showReactors(row, reaction.emoji, names);
      const chip = h('button', {
        type: 'button',
        class: ['reaction-chip', mineToo && 'is-mine'],
        title: names,
        dataset: { focusKey: `chip:${reaction.emoji}` },
        attrs: { 'aria-pressed': mineToo ? 'true' : 'false', 'aria-label': `${reaction.emoji} ${reaction.users.length}: ${names}` },
        on: {
          click: () => {
            if (longPressed) {
              longPressed = false;
              return;
            }
            this.handlers.onReact(m, reaction.emoji, !mineToo);
          },
          contextmenu: (event) => {
            event.preventDefault();
            showWho();
          },
          pointerdown: (event) => {
            // A long press that no click followed must not swallow the next real tap.
            longPressed = false;
            if (event.pointerType === 'mouse') return;
            clearTimeout(pressTimer);
            pressTimer = setTimeout(() => {
              longPressed = true;
              showWho();
            }, LONG_PRESS);
          },
          pointerup: () => clearTimeout(pressTimer),
          pointercancel: () => clearTimeout(pressTimer),
          pointerleave: () => clearTimeout(pressTimer),
        },
      }, h('span', { class: 'reaction-emoji', text: reaction.emoji }), h('span', { class: 'reaction-count', text: String(reaction.users.length) }));
      row.append(chip);
    }
    return row;
  }

  /** Under a message's reactions, who gave `emoji`; it goes at the next press anywhere or Escape. */
  showReactors(row, emoji, names) {
    // One list at a time: the one shown before goes, with its listeners (a context-menu key
    // opens a list with no press to close the last one).
    this.closeReactors?.();
    row.parentElement?.querySelector('.reactors')?.remove();
    const list = h('p', { class: 'reactors', attrs: { role: 'status' }, text: `${emoji} ${names}` });
    row.after(list);
    const remove = () => {
      list.remove();
      document.removeEventListener('pointerdown', close, true);
      document.removeEventListener('keydown', close, true);
      if (this.closeReactors === remove) this.closeReactors = null;
    };
    const close = (event) => {
      if (event.type === 'keydown' && event.key !== 'Escape') return;
      // This Escape closes the list only, not the panel or picker behind it as well.
      if (event.type === 'keydown') {
        event.preventDefault();
        event.stopPropagation();
      }
      remove();
    };
    this.closeReactors = remove;
    setTimeout(() => {
      if (this.closeReactors !== remove) return;
      document.addEventListener('pointerdown', close, true);
      document.addEventListener('keydown', close, true);
    });
  }

  /** The tapbacks, a field for any other emoji, and Reply (Edit and Unsend on the person's own); Escape closes it. */
  picker(m, whose, mine) {
    const given = new Set((m.reactions ?? []).filter((r) => r.users.includes(state.me?.id)).map((r) => r.emoji));
    const choose = (emoji) => {
      this.handlers.onReact(m, emoji, !given.has(emoji));
      this.togglePicker(null);
    };
    const more = h('button', {
      type: 'button',
      class: 'reaction-more',
      dataset: { focusKey: 'tapback:more' },
      title: 'Other emoji',
      attrs: { 'aria-label': 'Other emoji', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      on: { click: () => openEmojiPicker(more, { title: `React to ${whose} message`, onPick: choose }) },
    }, h('span', { attrs: { 'aria-hidden': 'true' }, text: '+' }));
    const picker = h('div', {
      class: 'reaction-picker',
      attrs: { role: 'group', 'aria-label': `Tapbacks for ${whose} message` },
      on: {
        keydown: (event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            this.togglePicker(null);
          }
        },
      },
    },
    TAPBACKS.map(([emoji, name]) => h('button', {
      type: 'button',
      class: ['tapback', given.has(emoji) && 'is-mine'],
      dataset: { focusKey: `tapback:${emoji}` },
      attrs: { 'aria-label': name, 'aria-pressed': given.has(emoji) ? 'true' : 'false' },
      title: name,
      on: { click: () => choose(emoji) },
    }, h('span', { attrs: { 'aria-hidden': 'true' }, text: emoji }))),
    more,
    this.actions(m, mine));
    return picker;
  }

  /** Copies a text message as people read it (each mention as "@Name"), and says so. */
  async copy(m) {
    try {
      await navigator.clipboard.writeText(readableText(m.text, this.conversation));
      announce('Copied.');
    } catch {
      this.handlers.onError?.('Parlor could not copy: your browser did not allow it. Select the text and copy it instead.');
    }
  }

  /** Reply, Copy (a text), Forward (a text, sticker, photo or file); on the person's own message, Edit (a text, in its window) and Unsend (in its window, not in an app's session). */
  actions(m, mine) {
    const age = Date.now() - Date.parse(m.sentAt);
    const act = (label, handler) => h('button', {
      type: 'button',
      class: 'button message-action',
      text: label,
      on: { click: () => { this.togglePicker(null); handler(m); } },
    });
    return h('div', { class: 'message-actions' },
      m.text !== undefined && m.text !== null || m.sticker || m.app || m.attachment ? act('Reply', this.handlers.onReply) : null,
      m.kind === 'text' && typeof m.text === 'string' ? act('Copy', (message) => this.copy(message)) : null,
      m.text !== undefined && m.text !== null || m.sticker || m.attachment ? act('Forward…', this.handlers.onForward) : null,
      mine && m.kind === 'text' && age < editWindow() ? act('Edit', this.handlers.onEdit) : null,
      mine && !m.app?.sessionID && age < unsendWindow() ? act('Unsend', this.handlers.onUnsend) : null,
      m.placement ? null : act('Place sticker', this.handlers.onPlace));
  }

  /** Opens the picker under one message, or leaves it open when it is (a long press and the
   * context menu it also raises on a phone open it once). */
  openPicker(messageId) {
    if (this.pickerFor !== messageId) this.togglePicker(messageId);
  }

  /** Opens the picker under one message (closing any other), or closes it; focus follows. */
  togglePicker(messageId) {
    const closing = this.pickerFor;
    this.pickerFor = messageId;
    this.handlers.onRerender();
    const entry = (id) => this.list.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
    if (messageId) entry(messageId)?.querySelector('.tapback')?.focus();
    else if (closing) entry(closing)?.querySelector('.react-button')?.focus();
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
    if (p.replyTo) li.append(this.quote(p.replyTo));
    li.append(p.kind === 'text' ? textBubble(p.text, this.conversation, state.me?.id) : stickerView(p.sticker));
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

/**
 * "Read 3:41 PM" in a 1:1 conversation once the other person read it, "Read by Bob, Carol" in a
 * group, else "Delivered" (the server has it). Only members who share read receipts count.
 */
function receiptText(message, conversation, reads, me) {
  const others = (conversation?.members ?? []).filter((member) => member.id !== me);
  const readers = others.filter((member) => (reads?.get(member.id)?.sequence ?? 0) >= message.sequence);
  if (readers.length === 0) return 'Delivered';
  if (!conversation?.isGroup) {
    const at = reads.get(readers[0].id)?.readAt;
    return at ? `Read ${timeLabel(at)}` : 'Read';
  }
  return readers.length === others.length && others.length > 3 ? 'Read by everyone' : `Read by ${readers.map((r) => r.displayName).join(', ')}`;
}

/**
 * Where the unread run starts: the oldest of the last `unreadCount` messages of others (the server
 * counts those after the person's read mark, their own never), as {sequence, count}; null when
 * nothing is unread. With more unread than loaded, the oldest loaded one.
 */
function firstUnread(t, conversation, me) {
  const count = conversation.unreadCount ?? 0;
  if (count <= 0) return null;
  const upTo = conversation.lastSequence ?? Infinity;
  const theirs = t.sorted().filter((m) => countsAsUnread(m, me) && m.sequence <= upTo);
  if (theirs.length === 0) return null;
  return { sequence: theirs[Math.max(0, theirs.length - count)].sequence, count };
}

function unreadText(count) {
  if (!count) return 'New messages';
  return count === 1 ? '1 new message' : `${count} new messages`;
}

/** A placed sticker's tilt, from -12° to 12°, the same for everyone (from its id). */
function tiltOf(id) {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return (Math.abs(hash) % 25) - 12;
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
