// Mentions in texts. "$<participant id>" tokens in app texts become the names the server sends
// beside them; "<@user id>" in a text message is a member of the conversation, shown as "@Name".
// What surrounds the id is the server's (`Mention` in the generated protocol.js).

import { Mention } from './protocol.js';

const ID = '([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})';
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TOKEN = new RegExp(literal(Mention.participantOpening) + ID, 'g');
const USER_TOKEN = new RegExp(`${literal(Mention.userOpening)}${ID}${literal(Mention.userClosing)}`, 'gu');
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The mention tokens of a text, as the server reads them: by characters, so a closing with a
 * mark, joiner or modifier on it (another character than ">") closes nothing. */
function* userTokens(text) {
  for (const match of text.matchAll(USER_TOKEN)) {
    const closing = match.index + match[0].length - Mention.userClosing.length;
    const first = GRAPHEMES.segment(text.slice(closing, closing + 32))[Symbol.iterator]().next().value;
    if (first?.segment === Mention.userClosing) yield match;
  }
}

/** `text` with every mention replaced by a display name ("someone" when unknown). */
export function resolveMentions(text, names) {
  if (typeof text !== 'string' || !text.includes(Mention.participantOpening)) return text ?? '';
  const map = names || {};
  return text.replace(TOKEN, (_, id) => map[id] ?? map[id.toUpperCase()] ?? map[id.toLowerCase()] ?? 'someone');
}

/** Whether two user ids name the same person (ids compare without case). */
export const sameId = (a, b) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** The member of `conversation` with this id, if still there. */
function member(conversation, id) {
  return conversation?.members?.find((m) => sameId(m.id, id));
}

/** A text message's text in pieces: strings, and `{ mention: id, name }` for each member mentioned. */
export function mentionPieces(text, conversation) {
  const pieces = [];
  let last = 0;
  for (const match of userTokens(text)) {
    if (match.index > last) pieces.push(text.slice(last, match.index));
    const person = member(conversation, match[1]);
    pieces.push({ mention: match[1], member: Boolean(person), name: `@${person?.displayName ?? 'someone'}` });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/** A text message's text as people read it: each mention as "@Name". */
export function readableText(text, conversation) {
  if (typeof text !== 'string' || !text.includes(Mention.userOpening)) return text ?? '';
  return mentionPieces(text, conversation).map((p) => (typeof p === 'string' ? p : p.name)).join('');
}

/** Whether a text mentions the user with this id. */
function mentionsUser(text, userId) {
  if (typeof text !== 'string' || !userId) return false;
  for (const match of userTokens(text)) if (sameId(match[1], userId)) return true;
  return false;
}

/** Whether a message's mention alerts this user (an unread mention, a notification through a mute):
 * it mentions them, and the server did not make the mention quiet (past the sender's allowance). */
export function alertsUser(message, userId) {
  if (!mentionsUser(message?.text, userId)) return false;
  return !(message.quietMentions ?? []).some((id) => sameId(id, userId));
}

/** The token a text holds for a mention of this user. */
export const mentionToken = (userId) => `${Mention.userOpening}${userId}${Mention.userClosing}`;
