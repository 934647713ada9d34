// The limits and windows the server enforces (GET /api/rules, from its configuration), read once
// when the page starts: an operator who changes one changes it for the browser too. Nothing here
// is a copy of a server's number.

import { api } from './api.js';

/** The server's rules, once `loadRules` has read them. */
export const rules = {};

/** Reads the server's rules; the page starts after it. */
export async function loadRules() {
  Object.assign(rules, await api('/api/rules'));
}

/** How long after sending a text its sender may edit it, in milliseconds. */
export const editWindow = () => rules.editWindowSeconds * 1000;

/** How long after sending a message its sender may unsend it, in milliseconds. */
export const unsendWindow = () => rules.unsendWindowSeconds * 1000;

/** A voice message's bounds (`{maxSeconds, maxLevels, maxLevel}`), or null from a server without
 * voice messages (the microphone is then not offered). */
export const voiceBounds = () => rules.voice ?? null;
