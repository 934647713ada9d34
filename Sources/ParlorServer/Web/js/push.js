// Notifications with Parlor closed (Web Push): this browser's subscription, made with the
// server's key when the person turns notifications on and ended when they turn them off or sign
// out; and Settings' list of the devices that receive them (each removable), with whether a
// notification shows the message's text. The service worker (sw.js) shows what arrives.

import { api } from './api.js';
import { announce, focus, h, replaceChildren } from './dom.js';

/** Whether this browser can receive pushes at all (service workers and the Push API). */
export const canPush = () => 'serviceWorker' in navigator && 'PushManager' in window;

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** "Chrome on Android": enough for a person to tell their devices apart. */
function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : 'A browser';
  const system = /Android/.test(agent) ? 'Android' : /iPhone|iPad/.test(agent) ? 'iOS' : /Mac OS X/.test(agent) ? 'macOS' : /Windows/.test(agent) ? 'Windows' : /Linux/.test(agent) ? 'Linux' : '';
  return system ? `${browser} on ${system}` : browser;
}

/** Subscribes this browser (again, with the server's current key) and tells the server;
 * resolves with the settings, rejects with a sentence when the browser or its push service refuses. */
export async function subscribePush() {
  if (!canPush()) throw new Error('This browser cannot receive notifications with Parlor closed.');
  const settings = await api('/api/me/push');
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes(settings.publicKey);
  let subscription = await registration.pushManager.getSubscription();
  const sameKey = (a, b) => a && a.byteLength === b.byteLength && new Uint8Array(a).every((byte, i) => byte === b[i]);
  if (subscription && !sameKey(subscription.options?.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    throw new Error(`This browser could not sign up for notifications with Parlor closed (${error.message}); they show while Parlor is open.`);
  }
  return api('/api/me/push', { method: 'POST', body: { ...subscription.toJSON(), device: deviceName() } });
}

/** Ends this browser's subscription, here and on the server (sign-out ends it there anyway). */
export async function unsubscribePush() {
  if (!canPush()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  try {
    const mine = (await api('/api/me/push')).devices.find((device) => device.isThisDevice);
    if (mine) await api(`/api/me/push/${encodeURIComponent(mine.id)}`, { method: 'DELETE' });
  } finally {
    await subscription.unsubscribe();
  }
}

/** Signing out, or a sign-in that ended: this browser shows nothing more of the account. Its
 * notifications go, and its subscription ends here too, so that pushes still waiting at the push
 * service for it are dropped there rather than shown to whoever signs in next. */
export async function forgetPush() {
  const registration = await navigator.serviceWorker?.getRegistration();
  if (!registration) return;
  for (const notification of await registration.getNotifications()) notification.close();
  await (await registration.pushManager?.getSubscription())?.unsubscribe();
}

/** Closes the notifications pushes showed for these conversations (opened or read). */
export function closeNotifications(...conversationIds) {
  if (conversationIds.length === 0) return;
  const ids = new Set(conversationIds);
  navigator.serviceWorker?.getRegistration().then((registration) => registration?.getNotifications())
    .then((shown) => { for (const notification of shown ?? []) if (ids.has(notification.tag)) notification.close(); })
    .catch(() => {});
}

/** A click on a notification while Parlor is open: the service worker asks this page to show it. */
export function listenForOpen(open) {
  navigator.serviceWorker?.addEventListener('message', (event) => {
    if (event.data?.type === 'open' && typeof event.data.hash === 'string' && event.data.hash.startsWith('#/')) open(event.data.hash);
  });
}

/** Settings › Notifications with Parlor closed: the devices, each with Remove, and the text setting. */
export class PushSettings {
  constructor() {
    this.showsText = h('input', { type: 'checkbox', id: 'setting-push-text', on: { change: () => this.changeText() } });
    this.list = h('ul', { class: 'blocked-list push-devices', attrs: { 'aria-labelledby': 'push-heading' } });
    this.empty = h('p', { class: 'setting-hint', text: 'No device yet: turn on Show notifications on each device you want them on.' });
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.heading = h('span', { class: 'setting-name', id: 'push-heading', tabIndex: -1, text: 'Notifications with Parlor closed' });
    this.element = h('div', { class: 'setting-push', attrs: { role: 'group', 'aria-labelledby': 'push-heading' } },
      this.heading, this.list, this.empty,
      h('label', { class: 'setting', attrs: { for: 'setting-push-text' } }, this.showsText,
        h('span', { class: 'setting-text' }, h('span', { class: 'setting-name', text: 'Show message text in notifications' }),
          h('span', { class: 'setting-hint', text: 'Off: only who wrote, and where. Push services never see the text either way.' }))),
      this.error);
  }

  /** Reads the devices and the setting from the server as the settings open. */
  async refresh() {
    this.error.textContent = '';
    try {
      this.render(await api('/api/me/push'));
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  render(settings) {
    this.showsText.checked = settings.showsText;
    const focused = this.list.contains(document.activeElement);
    replaceChildren(this.list, settings.devices.map((device) => h('li', { class: 'blocked-person', dataset: { deviceId: device.id } },
      h('span', { class: 'info-member-text' },
        h('span', { class: 'info-member-name', text: device.isThisDevice ? `${device.device} (this one)` : device.device }),
        h('span', { class: 'info-member-username', text: `since ${new Date(device.createdAt).toLocaleDateString()}` })),
      h('button', {
        type: 'button', class: 'link-button', text: 'Remove', attrs: { 'aria-label': `Remove ${device.device}` },
        on: { click: () => this.remove(device) },
      }))));
    this.empty.hidden = settings.devices.length > 0;
    if (focused && !this.list.contains(document.activeElement)) focus(this.list.querySelector('button') ?? this.heading);
  }

  async remove(device) {
    this.error.textContent = '';
    try {
      this.render(await api(`/api/me/push/${encodeURIComponent(device.id)}`, { method: 'DELETE' }));
      announce(`${device.device} gets no more notifications.`);
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  async changeText() {
    this.error.textContent = '';
    try {
      this.render(await api('/api/me/push', { method: 'PATCH', body: { showsText: this.showsText.checked } }));
    } catch (error) {
      this.showsText.checked = !this.showsText.checked;
      this.error.textContent = error.message;
    }
  }
}
