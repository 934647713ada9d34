// Alerts for new messages while the person looks elsewhere: a browser notification (once they
// turned notifications on, which asks the browser's permission on that click, never on load),
// not for muted conversations; and the unread count of the conversations not muted, in the tab's
// title and as a badge on its icon (a mention counts even in a muted conversation). A
// conversation read here or on another device loses its notifications, this page's and the
// service worker's.

import { alertsUser } from './mentions.js';
import { closeNotifications } from './push.js';
import { on, previewOf, state, conversationTitle } from './state.js';

/** Where this browser keeps whether the signed-in person turned notifications on: per account. */
const setting = () => `parlor.notifications.${state.me?.id ?? ''}`;

/** Whether this browser can show notifications at all. */
export const canNotify = () => typeof window.Notification === 'function';

/** Whether the person turned notifications on here, and the browser allows them. */
export function notificationsOn() {
  return canNotify() && Notification.permission === 'granted' && localStorage.getItem(setting()) === 'on';
}

/** Turns notifications on (asking the browser first) or off; answers whether they are on. */
export async function setNotifications(wanted) {
  if (!wanted) {
    localStorage.removeItem(setting());
    return false;
  }
  if (!canNotify()) return false;
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return false;
  localStorage.setItem(setting(), 'on');
  return true;
}

/** The notifications this page showed, by conversation. */
const shownHere = new Map();

/** Shows new messages as notifications and keeps the title and icon's count; `open(id)` shows a conversation. */
export function startAlerts({ isShowing, open }) {
  on('incoming', (message) => {
    const conversation = state.conversations.get(message.conversation);
    if (!conversation || !notificationsOn() || isShowing(message.conversation)) return;
    // A mention gets through a mute, as it does in Slack.
    const mentioned = alertsUser(message, state.me?.id);
    if (conversation.isMuted && !mentioned) return;
    const where = conversation.isGroup ? ` in ${conversationTitle(conversation)}` : '';
    const title = `${message.senderName}${mentioned ? ' mentioned you' : ''}${where}`;
    const body = (previewOf(message) || '').replace(/^[^:]*: /, '');
    try {
      const notification = new Notification(title, { body, tag: message.conversation, icon: '/favicon.svg' });
      notification.onclick = () => {
        window.focus();
        open(message.conversation);
        notification.close();
      };
      shownHere.get(message.conversation)?.close();
      shownHere.set(message.conversation, notification);
      notification.onclose = () => { if (shownHere.get(message.conversation) === notification) shownHere.delete(message.conversation); };
    } catch {
      // Some browsers show notifications only from a service worker; the badge still counts.
    }
  });
  on('conversations', () => {
    showCount();
    closeRead();
  });
  showCount();
  closeRead();
}

/** Read conversations whose notifications were still up: each shown on this device goes. Not
 * from the copy an offline start shows: what was pushed since is not in it. */
const closedFor = new Set();
function closeRead() {
  if (state.listIsCopy) return;
  const read = [];
  for (const conversation of state.conversations.values()) {
    if (conversation.unreadCount > 0) {
      closedFor.delete(conversation.id);
    } else if (!closedFor.has(conversation.id)) {
      closedFor.add(conversation.id);
      shownHere.get(conversation.id)?.close();
      read.push(conversation.id);
    }
  }
  closeNotifications(...read);
}

/** The unread messages of conversations not muted, and the unread mentions of muted ones. */
function unreadCount() {
  let count = 0;
  for (const c of state.conversations.values()) count += (c.isMuted ? c.unreadMentions : c.unreadCount) || 0;
  return count;
}

let shownCount = -1;

function showCount() {
  const count = unreadCount();
  if (count === shownCount) return;
  shownCount = count;
  document.title = count > 0 ? `(${count}) Parlor` : 'Parlor';
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = count > 0 ? badgedIcon(count) : '/favicon.svg';
  // The installed app's icon on the home screen or dock, where the browser offers it.
  if (typeof navigator.setAppBadge === 'function') {
    (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(() => {});
  }
}

/** Parlor's icon with a red badge holding `count` (99+ past 99), as a data URL. */
export function badgedIcon(count) {
  const label = count > 99 ? '99+' : String(count);
  const size = label.length > 2 ? 22 : 26;
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    + '<rect width="64" height="64" rx="14" fill="#0062cc"/>'
    + '<path d="M32 14c-11 0-20 7.2-20 16.2 0 5.4 3.3 10.2 8.4 13.1-.4 3.1-1.9 5.9-4.4 8 4.6-.2 8.5-1.9 11.3-4.6 1.5.3 3.1.5 4.7.5 11 0 20-7.2 20-16.2S43 14 32 14z" fill="#fff"/>'
    + '<circle cx="46" cy="18" r="18" fill="#d70015"/>'
    + `<text x="46" y="${18 + size * 0.36}" font-family="Arial, sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="#fff">${label}</text>`
    + '</svg>';
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
