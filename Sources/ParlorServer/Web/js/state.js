// What the tab knows, and a tiny publish/subscribe so views redraw what changed.

import { readableText } from './mentions.js';

const listeners = new Map();

/** Calls `fn(detail)` on every `emit(topic)`; returns the unsubscribe function. */
export function on(topic, fn) {
  if (!listeners.has(topic)) listeners.set(topic, new Set());
  listeners.get(topic).add(fn);
  return () => listeners.get(topic).delete(fn);
}

export function emit(topic, detail) {
  for (const fn of [...(listeners.get(topic) || [])]) {
    try {
      fn(detail);
    } catch (error) {
      console.error(`A ${topic} listener failed`, error);
    }
  }
}

/**
 * Unsent text per conversation. Each draft is kept in the tab's session storage too (one entry per
 * conversation, so a keystroke writes only its own), so a reload (or a crash of the page) does
 * not lose what the person was writing; the storage is the tab's own, gone when the tab closes,
 * and sign-out clears it (`forget`).
 */
class Drafts {
  constructor() {
    this.texts = new Map();
    this.prefix = null;
    /** Photos and files chosen in a conversation and not sent, while another is open: kept in
     * this page only, never stored. */
    this.staged = new Map();
  }

  /** Takes the photos and files left waiting in a conversation (they go back in its field). */
  takeFiles(conversationId) {
    const files = this.staged.get(conversationId) ?? [];
    this.staged.delete(conversationId);
    return files;
  }

  /** Keeps the photos and files waiting in a conversation that is being left. */
  keepFiles(conversationId, files) {
    if (files.length > 0) this.staged.set(conversationId, files);
    else this.staged.delete(conversationId);
  }

  /** Reads back what this tab kept for `userId` (after a reload). */
  restore(userId) {
    this.prefix = `parlor.draft.${userId}.`;
    for (const key of this.storedKeys()) {
      const text = Drafts.storage((storage) => storage.getItem(key));
      if (text) this.texts.set(key.slice(this.prefix.length), text);
    }
  }

  get(conversationId) {
    return this.texts.get(conversationId);
  }

  set(conversationId, text) {
    if (text) this.texts.set(conversationId, text);
    else this.texts.delete(conversationId);
    if (!this.prefix) return;
    const key = this.prefix + conversationId;
    // Full or unavailable storage: the draft stays in this page only.
    Drafts.storage((storage) => (text ? storage.setItem(key, text) : storage.removeItem(key)));
  }

  /** Drops every draft, kept ones included (sign-out). */
  forget() {
    for (const key of this.storedKeys()) Drafts.storage((storage) => storage.removeItem(key));
    this.texts.clear();
    this.staged.clear();
    this.prefix = null;
  }

  /** This user's keys in the tab's storage. */
  storedKeys() {
    if (!this.prefix) return [];
    const keys = Drafts.storage((storage) => Array.from({ length: storage.length }, (_, i) => storage.key(i))) ?? [];
    return keys.filter((key) => key?.startsWith(this.prefix));
  }

  /** `use(sessionStorage)`, or undefined where storage is turned off or blocked. */
  static storage(use) {
    try {
      return use(sessionStorage);
    } catch {
      return undefined;
    }
  }
}

export const state = {
  /** The signed-in user. */
  me: null,
  /** Conversation id → the server's Conversation. */
  conversations: new Map(),
  /** Conversation ids, most recently active first. */
  order: [],
  /** Whether the list is this device's copy from an earlier visit (offline.js), not yet the server's. */
  listIsCopy: false,
  /** Conversation id → Transcript. */
  transcripts: new Map(),
  /** Conversation id → the staged item, or null. */
  staged: new Map(),
  /** Conversation id → the open app's last update. */
  apps: new Map(),
  /** App id → the home surface's last update. */
  homes: new Map(),
  /** {apps, packs, drawer} from /api/apps. */
  directory: null,
  /** User id → user: the people the signed-in user blocked (null until read: blocks.js). */
  blocked: null,
  /** Conversation id → (user id → {sequence, readAt}): how far members who share receipts have read. */
  reads: new Map(),
  /** Conversation id → (user id → the timer that stops showing them typing). */
  typing: new Map(),
  /** Conversation id → unsent text in the compose field. */
  drafts: new Drafts(),
  /** 'connecting' | 'online' | 'reconnecting' | 'offline'. */
  status: 'connecting',
  /** Whether the socket has replayed and is streaming. */
  ready: false,
};

/** One conversation's messages, by id, and what is still being sent. */
export class Transcript {
  constructor() {
    this.messages = new Map();
    this.pending = new Map();
    this.lastSequence = null;
    this.loaded = false;
    this.loading = null;
    /** Whether the first message of the conversation is loaded (no earlier page to fetch). */
    this.reachedStart = false;
  }

  /** The oldest sequence held, or null. */
  firstSequence() {
    let first = null;
    for (const m of this.messages.values()) if (first === null || m.sequence < first) first = m.sequence;
    return first;
  }

  /** Adds or replaces a message; true when it was not there before. */
  put(message) {
    const isNew = !this.messages.has(message.id);
    this.messages.set(message.id, message);
    this.pending.delete(message.id);
    if (this.lastSequence === null || message.sequence > this.lastSequence) this.lastSequence = message.sequence;
    return isNew;
  }

  /** Messages in sequence order. */
  sorted() {
    return [...this.messages.values()].sort((a, b) => a.sequence - b.sequence);
  }
}

export function transcript(conversationId) {
  let t = state.transcripts.get(conversationId);
  if (!t) {
    t = new Transcript();
    state.transcripts.set(conversationId, t);
  }
  return t;
}

/** The last sequence per conversation this tab has seen, for `hello`. */
export function sinceMap() {
  const since = {};
  for (const [id, t] of state.transcripts) {
    if (t.lastSequence !== null) since[id] = t.lastSequence;
  }
  return since;
}

/** Puts a conversation first in the list. */
export function bump(conversationId) {
  state.order = [conversationId, ...state.order.filter((id) => id !== conversationId)];
}

/** The title people see for a conversation: its title, else the other members' names. */
export function conversationTitle(conversation) {
  if (!conversation) return 'Conversation';
  if (conversation.title) return conversation.title;
  const others = conversation.members.filter((m) => !state.me || m.id !== state.me.id);
  if (others.length === 0) return 'Just you';
  return others.map((m) => m.displayName).join(', ');
}

/** Whether a message counts as unread for `me` until read: someone else's, and not a line about the
 * conversation ("Alice added Dave"), as the server counts (docs/PROTOCOL.md). */
export const countsAsUnread = (message, me) => message.sender !== me && message.kind !== 'event';

/** A one-line preview of a message for the conversation list, drawn as the message arrives: the
 * server's rule (Renderer.preview), which writes it after a reload and in notifications; the
 * person's own reads "You: …". test_conversation_list holds the two equal for every kind. */
export function previewOf(message) {
  const name = message.sender === state.me?.id ? 'You' : message.senderName;
  if (message.kind === 'unsent') return `${name} unsent a message`;
  // A line about the conversation ("Alice added Dave") reads as it is.
  if (message.kind === 'event') return message.text ?? '';
  if (message.text !== undefined && message.text !== null) {
    return `${name}: ${readableText(message.text, state.conversations.get(message.conversation)).slice(0, 80)}`;
  }
  if (message.sticker) return message.placement ? `${name} placed a sticker on a message` : `${name} sent a sticker`;
  if (message.attachment) {
    const kind = attachmentKind(message.attachment);
    return `${name} sent ${kind ? `a ${kind}` : message.attachment.name}`;
  }
  if (message.app) return `${name} · ${message.app.appName}`;
  return name;
}

/** What an attachment is called in a line about it: 'photo', 'voice message', or null for a file
 * (called by its name). The server's previews say the same (Renderer). */
export function attachmentKind(attachment) {
  if (attachment.isImage) return 'photo';
  return attachment.voice ? 'voice message' : null;
}

/** The app of the directory with this id. */
export function appInfo(appId) {
  return state.directory ? state.directory.apps.find((a) => a.id === appId) : undefined;
}
