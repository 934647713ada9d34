// What Parlor shows when it starts without its server: the signed-in person's conversation list
// and the newest messages of each, as this tab last saw them, kept in IndexedDB. One account's copy
// at a time (the last to use Parlor in this browser), bounded (MAX_CONVERSATIONS conversations,
// MAX_MESSAGES messages each), written a moment after what it holds changes, and deleted when the
// person signs out or their sign-in ends: nothing of an account stays behind it.

import { on, state, transcript } from './state.js';

const DATABASE = 'parlor-offline';
const STORE = 'copy';
const MAX_CONVERSATIONS = 50;
const MAX_MESSAGES = 50;
/** How long after a change the copy is written (changes come in bursts). */
const DELAY = 2000;

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs `work(store)` in one transaction; resolves with what its last request gave. */
async function withStore(mode, work) {
  const database = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = database.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    database.close();
  }
}

/** The copy as this tab holds things now. */
function snapshot(rules) {
  const ids = state.order.filter((id) => state.conversations.has(id)).slice(0, MAX_CONVERSATIONS);
  return {
    userId: state.me.id,
    me: state.me,
    rules,
    savedAt: Date.now(),
    conversations: ids.map((id) => state.conversations.get(id)),
    messages: Object.fromEntries(ids.map((id) => [id, (state.transcripts.get(id)?.sorted() ?? []).slice(-MAX_MESSAGES)])),
  };
}

/** Keeps the copy current while Parlor runs (only while it hears from the server, so a copy is
 * never rewritten from itself). */
export function keepCopy(rules) {
  let timer = null;
  const later = () => {
    if (!state.ready || !state.me) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!state.me) return;
      const copy = snapshot(rules);
      // Only this account's: put replaces the one record there is.
      withStore('readwrite', (store) => store.put(copy, 'account')).catch((error) => console.info('Parlor could not keep its offline copy:', error.message));
    }, DELAY);
  };
  on('ready', later);
  on('conversations', later);
  on('transcript', later);
}

/** The copy kept, or null. */
export async function readCopy() {
  if (!('indexedDB' in window)) return null;
  try {
    return (await withStore('readonly', (store) => store.get('account'))) ?? null;
  } catch {
    return null;
  }
}

/** Puts the copy into the tab's state: its conversations in their order, each with its messages
 * (marked loaded until the server is back, when each history is read again). */
export function restoreCopy(copy) {
  state.listIsCopy = true;
  state.conversations = new Map(copy.conversations.map((c) => [c.id, c]));
  state.order = copy.conversations.map((c) => c.id);
  for (const [id, messages] of Object.entries(copy.messages)) {
    const t = transcript(id);
    for (const message of messages) t.put(message);
    t.loaded = true;
  }
}

/** Deletes the copy (signing out, a sign-in that ended). */
export async function deleteCopy() {
  if (!('indexedDB' in window)) return;
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(DATABASE);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}
