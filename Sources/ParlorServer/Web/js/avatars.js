// People's pictures: a profile picture when they set one, else their initials on a colour.

import { h, safeImageURL } from './dom.js';
import { conversationTitle, state } from './state.js';

export function initials(name) {
  const parts = (name || '?').trim().split(/\s+/).filter(Boolean);
  const first = [...(parts[0] || '?')][0];
  const last = parts.length > 1 ? [...parts[parts.length - 1]][0] : '';
  return (first + last).toUpperCase();
}

/** The hue of `seed`'s colour: a person's id gives them one colour wherever they are drawn (ids
 * are compared without regard to case, as the server's are). */
function avatarHue(seed) {
  return [...(seed || '').toLowerCase()].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
}

/**
 * A round picture: `pictureURL` when there is one (a member's profile picture), else the
 * initials of `name` on a colour of `seed`'s (a person's id, or a group's); the initials come
 * back if the picture fails to load.
 */
export function avatarView(name, seed, pictureURL = null, extraClass = null) {
  const hue = avatarHue(seed);
  const el = h('span', { class: ['avatar', extraClass], attrs: { 'aria-hidden': 'true' }, text: initials(name) });
  el.style.setProperty('--avatar-hue', String(hue));
  const src = pictureURL ? safeImageURL(pictureURL) : null;
  if (src) {
    const img = h('img', { class: 'avatar-picture', src, alt: '', decoding: 'async', on: { error: () => img.remove() } });
    el.append(img);
  }
  return el;
}

/** A conversation's picture: the other person's in a 1:1 conversation, in their own colour (the one
 * they have in a group's details and beside their messages); a group's photo, else its initials
 * in the group's colour. */
export function conversationAvatar(conversation, extraClass = null) {
  const other = conversation.isGroup ? null : conversation.members?.find((m) => m.id !== state.me?.id);
  const picture = conversation.isGroup ? conversation.photoURL : other?.avatarURL;
  const seed = other?.id ?? conversation.id;
  return avatarView(conversationTitle(conversation), seed, picture, [conversation.isGroup && 'avatar-group', extraClass].filter(Boolean).join(' ') || null);
}
