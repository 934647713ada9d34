// The client's side of the protocol: loads what the HTTP API has, applies the WebSocket's
// frames to the state, and turns what the person does into frames.

import { api } from './api.js';
import { newId } from './ids.js';
import { Connection } from './socket.js';
import { attachmentKind, bump, countsAsUnread, emit, previewOf, sinceMap, state, transcript } from './state.js';
import { alertsUser, readableText } from './mentions.js';
import { rules } from './rules.js';
import { ClientFrame, ServerFrame } from './protocol.js';

/** Where a conversation's routes start. */
const conversationPath = (conversationId) => `/api/conversations/${encodeURIComponent(conversationId)}`;

const HISTORY_PAGE = 200;
let connection = null;
/** Conversation ids the person is looking at (for unread counts and read receipts). */
let visibleConversation = null;
/** The shortest time between two reads of one conversation sent to the server, in ms (`markRead`). */
const READ_INTERVAL = 1000;
/** Per conversation: the read waiting for its turn, and when the last one was sent. */
const readTimers = new Map();
const readSentAt = new Map();

export function start() {
  connection = new Connection({
    onFrame: handleFrame,
    onStatus: (status) => {
      state.status = status;
      state.ready = status === 'online';
      emit('status', status);
    },
    since: sinceMap,
    onSignedOut: () => emit('signedOut'),
    onReady: (isReconnect) => {
      emit('ready', isReconnect);
      if (isReconnect) {
        loadConversations().catch(() => {});
        // Reactions changed meanwhile are not replayed: load each history again when shown.
        for (const t of state.transcripts.values()) t.loaded = false;
        // A read sent as the connection dropped may be lost: each goes again (one that moves
        // nothing costs the server little).
        for (const [id, t] of state.transcripts) {
          if (t.seenUpTo === undefined || readTimers.has(id)) continue;
          t.readUpTo = undefined;
          sendRead(id);
        }
        for (const conversation of state.typing.keys()) clearTyping(conversation);
        // What was staged or removed meanwhile is not replayed: ask again, now or when opened.
        for (const id of [...state.staged.keys()]) if (id !== visibleConversation) state.staged.delete(id);
        if (visibleConversation) refreshStaged(visibleConversation).catch(() => {});
        // An open app may have changed meanwhile: asking for the style it has redraws it.
        const open = visibleConversation ? state.apps.get(visibleConversation) : null;
        if (open?.isActive) setStyle(visibleConversation, open.presentationStyle);
      }
      if (visibleConversation && document.visibilityState === 'visible') {
        ensureTranscript(visibleConversation).then(() => markRead(visibleConversation));
      }
    },
  });
  connection.connect();
}

/** Says hello again (the person chose another language for apps): their apps draw in it from their next look. */
export function sayLanguage() {
  connection?.restart();
}

export function stop() {
  for (const timer of readTimers.values()) clearTimeout(timer);
  readTimers.clear();
  connection?.stop();
  connection = null;
}

// MARK: Loading

export async function loadConversations() {
  const list = await api('/api/conversations');
  state.listIsCopy = false;
  state.conversations = new Map(list.map((c) => [c.id, c]));
  const known = state.order.filter((id) => state.conversations.has(id));
  const fresh = list.map((c) => c.id).filter((id) => !known.includes(id));
  state.order = state.order.length ? [...fresh, ...known] : list.map((c) => c.id);
  emit('conversations');
}

export async function loadDirectory() {
  state.directory = await api('/api/apps');
  emit('directory');
}

/** Loads a conversation's history once the socket streams, so nothing falls between the two. */
export function ensureTranscript(conversationId) {
  const t = transcript(conversationId);
  if (t.loaded) return Promise.resolve(t);
  if (t.loading) return t.loading;
  if (!state.ready) {
    return new Promise((resolve) => {
      const check = () => {
        if (state.ready) {
          window.removeEventListener('parlor-ready', check);
          resolve(ensureTranscript(conversationId));
        }
      };
      window.addEventListener('parlor-ready', check);
    });
  }
  t.loading = (async () => {
    try {
      const [messages, staged, reads] = await Promise.all([
        api(`${conversationPath(conversationId)}/messages?limit=${HISTORY_PAGE}`),
        api(`${conversationPath(conversationId)}/staged`),
        api(`${conversationPath(conversationId)}/reads`).catch(() => []),
      ]);
      state.reads.set(conversationId, new Map(reads.map((r) => [r.userID, r])));
      for (const message of messages) t.put(message);
      t.loaded = true;
      if (messages.length < HISTORY_PAGE) t.reachedStart = true;
      if (!state.staged.has(conversationId)) state.staged.set(conversationId, staged?.staged ?? null);
      emit('transcript', conversationId);
      emit('staged', conversationId);
      return t;
    } finally {
      t.loading = null;
    }
  })();
  return t.loading;
}

export async function refreshStaged(conversationId) {
  const body = await api(`${conversationPath(conversationId)}/staged`);
  state.staged.set(conversationId, body?.staged ?? null);
  emit('staged', conversationId);
}

/** Loads the page of messages before the oldest one the tab holds. */
export async function loadEarlier(conversationId) {
  const t = transcript(conversationId);
  const oldest = t.firstSequence();
  if (oldest === null || t.reachedStart) return;
  const after = Math.max(0, oldest - HISTORY_PAGE - 1);
  const messages = await api(`${conversationPath(conversationId)}/messages?after=${after}&limit=${HISTORY_PAGE}`);
  for (const message of messages) if (message.sequence < oldest) t.put(message);
  if (after === 0) t.reachedStart = true;
  emit('transcript', conversationId);
}

/** Loads earlier pages until the tab holds the message numbered `sequence` (and a few before it),
 * one contiguous page after another, as far back as it is. */
export async function loadBackTo(conversationId, sequence) {
  await ensureTranscript(conversationId);
  const t = transcript(conversationId);
  for (;;) {
    const oldest = t.firstSequence();
    if (oldest === null || t.reachedStart || oldest <= sequence) return;
    const after = Math.max(0, sequence - 11, oldest - 1 - rules.maxPageSize);
    const messages = await api(`${conversationPath(conversationId)}/messages?after=${after}&limit=${oldest - 1 - after}`);
    for (const message of messages) if (message.sequence < oldest) t.put(message);
    if (after === 0) t.reachedStart = true;
    emit('transcript', conversationId);
    if (messages.length === 0) return;
  }
}

/** Reloads a conversation from scratch (after a resync, or when installing an app changes how it draws). */
export async function reloadTranscript(conversationId) {
  const t = transcript(conversationId);
  const pending = t.pending;
  state.transcripts.delete(conversationId);
  const fresh = transcript(conversationId);
  fresh.pending = pending;
  await ensureTranscript(conversationId);
}

// MARK: Frames

function handleFrame(frame) {
  switch (frame.type) {
    case ServerFrame.welcome:
      if (frame.user) state.me = frame.user;
      break;
    case ServerFrame.ready:
      window.dispatchEvent(new Event('parlor-ready'));
      break;
    case ServerFrame.message:
    case ServerFrame.ack:
      if (frame.message) receiveMessage(frame.message);
      break;
    case ServerFrame.messageChanged:
      if (frame.message) receiveChange(frame.message);
      break;
    case ServerFrame.error:
      receiveError(frame);
      break;
    case ServerFrame.staged:
      state.staged.set(frame.conversation, frame.staged ?? null);
      emit('staged', frame.conversation);
      break;
    case ServerFrame.composeText:
      emit('composeText', { conversation: frame.conversation, text: frame.text ?? '' });
      break;
    case ServerFrame.app:
      if (frame.update) {
        state.apps.set(frame.conversation, frame.update);
        emit('app', frame.conversation);
      }
      break;
    case ServerFrame.home:
      if (frame.update) {
        state.homes.set(frame.app, frame.update);
        emit('home', frame.app);
      }
      break;
    case ServerFrame.conversation:
      receiveConversation(frame);
      break;
    case ServerFrame.expired: {
      const t = state.transcripts.get(frame.conversation);
      if (t && t.messages.delete(frame.messageID)) emit('transcript', frame.conversation);
      break;
    }
    case ServerFrame.resync:
      reloadTranscript(frame.conversation).catch(() => {});
      break;
    case ServerFrame.reactions:
      receiveReactions(frame);
      break;
    case ServerFrame.readReceipt:
      if (frame.receipt) {
        if (!state.reads.has(frame.conversation)) state.reads.set(frame.conversation, new Map());
        state.reads.get(frame.conversation).set(frame.receipt.userID, frame.receipt);
        emit('transcript', frame.conversation);
      }
      break;
    case ServerFrame.typing:
      if (frame.typing) startTyping(frame.conversation, frame.userID);
      else stopTyping(frame.conversation, frame.userID);
      break;
    default:
      break;
  }
}

function receiveMessage(message) {
  stopTyping(message.conversation, message.sender);
  const t = transcript(message.conversation);
  const isNew = t.put(message);
  if (!isNew) {
    emit('transcript', message.conversation);
    return;
  }
  const conversation = state.conversations.get(message.conversation);
  const fromMe = state.me && message.sender === state.me.id;
  if (isNew && conversation) {
    conversation.preview = previewOf(message);
    conversation.lastActivityAt = message.sentAt;
    conversation.lastSequence = Math.max(conversation.lastSequence ?? 0, message.sequence);
    const seen = visibleConversation === message.conversation && document.visibilityState === 'visible';
    // A line about the conversation ("Alice added Dave") is read, but counts and alerts nothing.
    const isEvent = message.kind === 'event';
    if (countsAsUnread(message, state.me?.id) && !seen) {
      conversation.unreadCount = (conversation.unreadCount ?? 0) + 1;
      if (alertsUser(message, state.me?.id)) conversation.unreadMentions = (conversation.unreadMentions ?? 0) + 1;
    }
    bump(message.conversation);
    emit('conversations');
    // A message may bring an archived conversation back into the list (never a muted one): the
    // server says whether.
    if (conversation.isArchived && !conversation.isMuted) refreshConversation(message.conversation);
    if (countsAsUnread(message, state.me?.id)) emit('incoming', message);
    // Said by the page (main.js listens): the data layer does not reach into the view.
    if (!fromMe && visibleConversation === message.conversation) emit('announce', isEvent ? message.text : `${message.senderName}: ${spoken(message)}`);
    if (!fromMe && seen) markRead(message.conversation);
  } else if (isNew && !conversation) {
    loadConversations().catch(() => {});
  }
  emit('transcript', message.conversation);
}

/** An edited or unsent message replaces the one the tab has (one it does not have is left). */
function receiveChange(message) {
  const t = state.transcripts.get(message.conversation);
  if (!t?.messages.has(message.id)) return;
  t.messages.set(message.id, message);
  // Replies quoting it show what it says now.
  for (const [id, other] of t.messages) {
    if (other.replyTo?.id === message.id) {
      const preview = message.kind === 'unsent' ? 'Unsent message' : (message.text ?? other.replyTo.preview);
      t.messages.set(id, { ...other, replyTo: { ...other.replyTo, preview } });
    }
  }
  // The list's preview follows from the server's conversation frame when it was the newest.
  emit('transcript', message.conversation);
}

function receiveReactions(frame) {
  const t = state.transcripts.get(frame.conversation);
  const message = t?.messages.get(frame.messageID);
  if (!message) return;
  // A new object, so the transcript sees that the message changed.
  t.messages.set(message.id, { ...message, reactions: frame.reactions?.length ? frame.reactions : undefined });
  emit('transcript', frame.conversation);
}

/** How long someone shows as typing after their last notice (two of the server's intervals). */
const TYPING_SHOWN_FOR = 6000;

function startTyping(conversationId, userId) {
  let typists = state.typing.get(conversationId);
  if (!typists) {
    typists = new Map();
    state.typing.set(conversationId, typists);
  }
  clearTimeout(typists.get(userId));
  typists.set(userId, setTimeout(() => stopTyping(conversationId, userId), TYPING_SHOWN_FOR));
  emit('typing', conversationId);
}

function stopTyping(conversationId, userId) {
  const typists = state.typing.get(conversationId);
  if (!typists?.has(userId)) return;
  clearTimeout(typists.get(userId));
  typists.delete(userId);
  emit('typing', conversationId);
}

function clearTyping(conversationId) {
  for (const userId of [...(state.typing.get(conversationId)?.keys() ?? [])]) stopTyping(conversationId, userId);
}

function spoken(message) {
  if (message.text) return readableText(message.text, state.conversations.get(message.conversation));
  if (message.sticker) return `sticker, ${message.sticker.description}`;
  if (message.attachment) {
    const kind = attachmentKind(message.attachment);
    return kind === 'voice message' ? kind : `${kind ?? 'file'} ${message.attachment.name}`;
  }
  if (message.app) return message.app.accessibilityLabel || message.app.layout?.caption || message.app.appName;
  return 'a message';
}

function receiveError(frame) {
  const error = frame.error || { code: 'unknown', message: 'Something went wrong.' };
  if (frame.head) receiveMessage(frame.head);
  let handled = false;
  for (const [conversationId, t] of state.transcripts) {
    for (const pending of t.pending.values()) {
      if (frame.requestId && pending.requestId === frame.requestId) {
        pending.status = 'failed';
        pending.error = error.message;
        handled = true;
        emit('transcript', conversationId);
      }
    }
  }
  emit('error', { ...error, requestId: frame.requestId, handled });
}

function receiveConversation(frame) {
  applyConversation(frame.conversation, frame.conversationInfo ?? null);
}

/** The conversation as the server shows it to this person now; null: they are no longer in it
 * (they left or were removed), and it leaves their list. One they deleted for themselves
 * (`isDeleted`, here or on another device) leaves it too, and the tab forgets its messages and
 * draft: a new message brings it back with only what follows. */
function applyConversation(conversationId, info) {
  if (info?.isDeleted) {
    emit('deleted', conversationId);
    state.transcripts.delete(conversationId);
    state.drafts.set(conversationId, '');
    info = null;
  }
  if (info) {
    const isNew = !state.conversations.has(conversationId);
    // The server counts from the last read it heard of; what is on screen is read already.
    if (conversationId === visibleConversation && document.visibilityState === 'visible') {
      info.unreadCount = 0;
      info.unreadMentions = 0;
    }
    state.conversations.set(conversationId, info);
    if (isNew) bump(conversationId);
    // The person as the server shows them to others: a name changed on another device shows here.
    const mine = state.me && info.members?.find((m) => m.id === state.me.id);
    if (mine) state.me = { ...state.me, ...mine };
  } else {
    state.conversations.delete(conversationId);
    state.order = state.order.filter((id) => id !== conversationId);
    // No longer a member: a read still waiting to be sent would only be refused.
    clearTimeout(readTimers.get(conversationId));
    readTimers.delete(conversationId);
  }
  emit('conversations');
}

// MARK: What the person does

function send(frame, options) {
  if (!connection) return null;
  return connection.send(frame, options);
}

export function setVisibleConversation(conversationId) {
  if (conversationId !== visibleConversation) flushReads();
  visibleConversation = conversationId;
  // Opened: a conversation the person marked unread is read again, on all their devices.
  if (conversationId && state.conversations.get(conversationId)?.isMarkedUnread) {
    setListSetting(conversationId, 'unread', false).catch(() => {});
  }
}

/**
 * Sends a text; `reply` ({id, senderName, preview}) makes it a reply to that message; `linkPreview`
 * (a link in the text) keeps that page's card with it.
 */
export function sendText(conversationId, text, reply = null, linkPreview = null) {
  const id = newId();
  const t = transcript(conversationId);
  const requestId = newId();
  t.pending.set(id, {
    id, kind: 'text', text, replyTo: reply ?? undefined, linkPreview: linkPreview ?? undefined, status: 'sending', requestId, sentAt: new Date().toISOString(),
  });
  emit('transcript', conversationId);
  send({ type: ClientFrame.sendText, requestId, conversation: conversationId, id, text, replyTo: reply?.id, linkPreview: linkPreview ?? undefined }, { retry: true });
}

/** The card of the page at `url` (GET /api/link-preview), as the compose field shows it before sending. */
export function linkPreview(url) {
  return api(`/api/link-preview?url=${encodeURIComponent(url)}`);
}

/** Sends a sticker, or places it on a message (`placement`: `{message, x, y}`, protocol §5.3). */
export function sendSticker(conversationId, sticker, placement = null) {
  const id = newId();
  const t = transcript(conversationId);
  const requestId = newId();
  t.pending.set(id, { id, kind: 'sticker', sticker, placement, status: 'sending', requestId, sentAt: new Date().toISOString() });
  emit('transcript', conversationId);
  send({ type: ClientFrame.sendSticker, requestId, conversation: conversationId, id, sticker: sticker.id, placement: placement ?? undefined }, { retry: true });
}

/** Sends a failed message again, with the same id (the server keeps one copy). */
export function retry(conversationId, id) {
  const t = transcript(conversationId);
  const pending = t.pending.get(id);
  if (!pending) return;
  pending.status = 'sending';
  pending.requestId = newId();
  emit('transcript', conversationId);
  const frame = pending.kind === 'text'
    ? { type: ClientFrame.sendText, text: pending.text, replyTo: pending.replyTo?.id, linkPreview: pending.linkPreview }
    : { type: ClientFrame.sendSticker, sticker: pending.sticker.id, placement: pending.placement ?? undefined };
  send({ ...frame, requestId: pending.requestId, conversation: conversationId, id }, { retry: true });
}

export function discard(conversationId, id) {
  transcript(conversationId).pending.delete(id);
  emit('transcript', conversationId);
}

export const sendStaged = (conversation) => send({ type: ClientFrame.sendStaged, conversation });
export const removeStaged = (conversation) => send({ type: ClientFrame.removeStaged, conversation });
export const openApp = (conversation, app) => send({ type: ClientFrame.openApp, conversation, app });
export const tapMessage = (conversation, message) => send({ type: ClientFrame.tapMessage, conversation, message });
export const appEvent = (conversation, app, event) => send({ type: ClientFrame.appEvent, conversation, app, event });
export const setStyle = (conversation, style) => send({ type: ClientFrame.setStyle, conversation, style });
export const closeApp = (conversation) => send({ type: ClientFrame.closeApp, conversation });
export const openHome = (app) => send({ type: ClientFrame.openHome, app });
export const homeEvent = (app, event) => send({ type: ClientFrame.homeEvent, app, event });
export const closeHome = (app) => send({ type: ClientFrame.closeHome, app });
export const keep = (conversation, message) => send({ type: ClientFrame.keep, conversation, message });
export const edit = (conversation, message, text) => send({ type: ClientFrame.edit, conversation, message, text });
export const unsend = (conversation, message) => send({ type: ClientFrame.unsend, conversation, message });

/** The texts a message had before its edits, oldest first. */
export const versions = (conversation, message) =>
  api(`${conversationPath(conversation)}/messages/${encodeURIComponent(message)}/versions`);

/** The replies to a message, oldest first. */
export const replies = (conversation, message) =>
  api(`${conversationPath(conversation)}/messages/${encodeURIComponent(message)}/replies`);

export const react = (conversation, message, emoji, on) => send({ type: ClientFrame.react, conversation, message, emoji, on });
/** Says whether the person is typing; said only while online (a late notice would be wrong). */
export const typing = (conversation, isTyping) => (state.ready ? send({ type: ClientFrame.typing, conversation, typing: isTyping }) : null);

/**
 * The person has seen the conversation up to its last message. The server hears of it at once,
 * then at most once a second while messages keep arriving (a busy group would otherwise send a
 * read for each message, from every member looking at it); the later read covers only what had
 * been seen by then.
 */
export function markRead(conversationId) {
  const t = state.transcripts.get(conversationId);
  if (!t || t.lastSequence === null || !state.ready) return;
  clearUnread(state.conversations.get(conversationId));
  t.seenUpTo = Math.max(t.seenUpTo ?? 0, t.lastSequence);
  if (readTimers.has(conversationId)) return;
  const wait = (readSentAt.get(conversationId) ?? -Infinity) + READ_INTERVAL - Date.now();
  if (wait <= 0) {
    sendRead(conversationId);
  } else {
    readTimers.set(conversationId, setTimeout(() => {
      readTimers.delete(conversationId);
      sendRead(conversationId);
    }, wait));
  }
}

function sendRead(conversationId) {
  const t = state.transcripts.get(conversationId);
  // Offline, the connection queues it until it is back. Not for a conversation the person left.
  if (!t || t.seenUpTo === undefined || t.readUpTo === t.seenUpTo || !state.conversations.has(conversationId)) return;
  t.readUpTo = t.seenUpTo;
  readSentAt.set(conversationId, Date.now());
  send({ type: ClientFrame.read, conversation: conversationId, sequence: t.seenUpTo });
}

/** "Mark as read" in the list: everything the conversation holds now counts as seen, as if it
 * had been opened (its senders see it read, as in Messages), and a mark of unread goes too. */
export async function markConversationRead(conversationId) {
  const conversation = state.conversations.get(conversationId);
  if (!conversation) return;
  if (conversation.unreadCount > 0 || conversation.unreadMentions > 0) {
    const t = transcript(conversationId);
    const sequence = Math.max(conversation.lastSequence ?? 0, t.lastSequence ?? 0);
    clearUnread(conversation);
    if (sequence > 0) {
      t.seenUpTo = Math.max(t.seenUpTo ?? 0, sequence);
      sendRead(conversationId);
    }
  }
  if (conversation.isMarkedUnread) await setListSetting(conversationId, 'unread', false);
}

/** The list no longer counts the conversation's messages as unread. */
function clearUnread(conversation) {
  if (!conversation || (conversation.unreadCount === 0 && conversation.unreadMentions === 0)) return;
  conversation.unreadCount = 0;
  conversation.unreadMentions = 0;
  emit('conversations');
}

/** Sends the reads still waiting for their turn (the person leaves the conversation or the page). */
export function flushReads() {
  for (const [conversationId, timer] of readTimers) {
    clearTimeout(timer);
    sendRead(conversationId);
  }
  readTimers.clear();
}

/** The signed-in person and their settings ({user, sharesReadReceipts}). */
export const loadMe = () => api('/api/me');

/**
 * Where a conversation sits in this person's own list: `setting` is 'muted', 'pinned', 'archived'
 * or 'unread', turned on or off. Their other tabs and devices hear of it from the server; the
 * answer is the conversation as it is now (a sixth pin is refused with the server's sentence).
 */
export async function setListSetting(conversationId, setting, on) {
  const conversation = await api(`${conversationPath(conversationId)}/${setting}`, { method: on ? 'PUT' : 'DELETE' });
  applyConversation(conversationId, conversation);
  return conversation;
}

export const setMuted = (conversationId, muted) => setListSetting(conversationId, 'muted', muted);

/** Deletes a conversation for this person alone: out of their list and its history gone for them,
 * on all their devices; the others keep it. */
export async function deleteConversation(conversationId) {
  // Up to what this tab has seen: a message that came meanwhile brings the conversation back.
  const seen = state.conversations.get(conversationId)?.lastSequence;
  const through = Number.isInteger(seen) ? `?through=${seen}` : '';
  applyConversation(conversationId, await api(`${conversationPath(conversationId)}${through}`, { method: 'DELETE' }));
}

const refreshing = new Set();

/** The conversation as the server shows it now, into the list (whether it is still archived is
 * the server's rule, not the page's); one request at a time per conversation. */
async function refreshConversation(conversationId) {
  if (refreshing.has(conversationId)) return;
  refreshing.add(conversationId);
  try {
    applyConversation(conversationId, await api(conversationPath(conversationId)));
  } catch {
    // Offline or gone: the next conversation frame or reload says.
  } finally {
    refreshing.delete(conversationId);
  }
}

// A conversation's details: each call answers with the conversation as it is now (the members'
// other tabs hear of it by a `conversation` frame); the server decides who may do what.

/** Renames a group (a blank title removes it). */
export async function renameConversation(conversationId, title) {
  const conversation = await api(conversationPath(conversationId), { method: 'PATCH', body: { title } });
  applyConversation(conversationId, conversation);
  return conversation;
}

/** Sets a group's photo to an uploaded image (its hash), or removes it (null). */
export async function setConversationPhoto(conversationId, hash) {
  const conversation = await api(conversationPath(conversationId), { method: 'PATCH', body: { photo: hash } });
  applyConversation(conversationId, conversation);
  return conversation;
}

/** Adds the person called `username` to a group. */
export async function addMember(conversationId, username) {
  const conversation = await api(`${conversationPath(conversationId)}/members`, { method: 'POST', body: { username } });
  applyConversation(conversationId, conversation);
  return conversation;
}

/** Removes a member from a group; removing yourself is leaving, and the conversation leaves the
 * list. The server answers with nothing: the members' lists, this one's too, follow its
 * `conversation` frame. */
export async function removeMember(conversationId, userId) {
  await api(`${conversationPath(conversationId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });
  if (userId === state.me?.id) applyConversation(conversationId, null);
}

/** Makes a member one of the group's admins, or not. */
export async function setAdmin(conversationId, userId, isAdmin) {
  const conversation = await api(`${conversationPath(conversationId)}/admins/${encodeURIComponent(userId)}`, { method: isAdmin ? 'PUT' : 'DELETE' });
  applyConversation(conversationId, conversation);
  return conversation;
}

/** Sets the person's profile picture to an upload of theirs (its hash), or clears it (null). */
export const setAvatar = (hash) => api('/api/me', { method: 'PATCH', body: { avatar: hash } });

/** The name the person shows to others; the page's own copy follows the server's answer. */
export async function setDisplayName(displayName) {
  const me = await api('/api/me', { method: 'PATCH', body: { displayName } });
  state.me = me.user;
  emit('conversations');
  return me;
}

/** Sets the line the person writes about themselves (blank removes it). */
export async function setAbout(about) {
  const me = await api('/api/me', { method: 'PATCH', body: { about } });
  state.me = me.user;
  return me;
}

/** Whether others see how far the person has read. */
export const setSharesReadReceipts = (shares) => api('/api/me', { method: 'PATCH', body: { sharesReadReceipts: shares } });

/** Installs an app or sticker pack (`sticker:<pack>`), or removes it. */
export async function setInstalled(item, installed) {
  state.directory = await api(`/api/apps/${encodeURIComponent(item)}/install`, { method: installed ? 'POST' : 'DELETE' });
  emit('directory');
}
