// Sharing to Parlor from another app on the phone (the manifest's `share_target`): the service
// worker keeps what was shared on this device (sw.js) and opens `#/share`; this takes it, at once
// and once, and shows "Send to…": the text (editable) and the photos, and the conversations to tick.
// Send uploads each photo once, sends it to each conversation, then the text, and opens the
// conversation when there is one. Nothing shared ever waits on the server: a person who cancels
// leaves nothing behind.

import { api } from './api.js';
import { upload } from './attachments.js';
import { sendText } from './client.js';
import { announce, dialogHeader, focus, h, replaceChildren } from './dom.js';
import { ConversationPicker } from './forward.js';
import { newId } from './ids.js';
import { rules } from './rules.js';

/** Where the worker keeps a share (sw.js's `SHARE_CACHE`). */
const SHARE_CACHE = 'parlor-share';
/** A share older than this was not meant for now (Parlor was closed before it opened): dropped. */
const SHARE_LIFETIME_MS = 10 * 60 * 1000;

/** One text from what was shared: its text (or title) and its link, the link once. */
export function sharedText({ title = '', text = '', url = '' }) {
  const body = text.trim() || title.trim();
  const link = url.trim();
  if (!link || body.includes(link)) return body;
  return body ? `${body}\n${link}` : link;
}

/** What the worker kept, as `{ text, photos: [File], unreadable }`, deleted as it is read; null
 * when nothing is kept (the server answered the share: no worker ran yet). */
export async function takeShared() {
  if (!('caches' in window) || !(await caches.has(SHARE_CACHE))) return null;
  try {
    const cache = await caches.open(SHARE_CACHE);
    const kept = await cache.match('/share/shared');
    if (!kept) return null;
    const shared = await kept.json();
    if (!(Date.now() - Number(shared.at) < SHARE_LIFETIME_MS)) return null;
    const photos = [];
    for (const [index, name] of (Array.isArray(shared.photos) ? shared.photos : []).entries()) {
      const photo = await cache.match(`/share/photo/${index}`);
      if (photo) photos.push(new File([await photo.blob()], String(name), { type: photo.headers.get('Content-Type') ?? '' }));
    }
    return { text: sharedText(shared), photos, unreadable: Boolean(shared.unreadable) };
  } finally {
    await caches.delete(SHARE_CACHE);
  }
}

/** Deletes a share not yet taken (at sign-out). */
export async function forgetShared() {
  if ('caches' in window) await caches.delete(SHARE_CACHE);
}

export class ShareDialog {
  /** `onSent(conversationId)`: opens the conversation sent to (the first, when several). */
  constructor(onSent) {
    this.onSent = onSent;
    this.photos = [];
    this.previews = [];
    this.picker = new ConversationPicker('share', () => this.update());
    this.text = h('textarea', { id: 'share-text', class: 'input', rows: 3, on: { input: () => this.update() } });
    this.photoList = h('ul', { class: 'share-photos', attrs: { 'aria-label': 'Photos' } });
    this.error = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    this.send = h('button', { type: 'submit', class: 'button button-primary', text: 'Send', disabled: true });
    this.element = h('dialog', {
      class: 'dialog forward-dialog', attrs: { 'aria-labelledby': 'share-title' },
      on: { close: () => this.closed() },
    }, h('form', { class: 'dialog-form', on: { submit: (event) => this.submit(event) } },
      dialogHeader('Send to…', { id: 'share-title', onClose: () => this.element.close() }),
      h('p', { class: 'setting-hint', text: 'Shared from another app. Nothing is sent until you press Send.' }),
      h('div', { class: 'form-field' }, h('label', { htmlFor: 'share-text', text: 'Message' }), this.text),
      this.photoList,
      this.picker.field,
      this.picker.list,
      this.error,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'button button-plain', text: 'Cancel', on: { click: () => this.element.close() } }),
        this.send)));
  }

  /** Opens with what was shared. */
  open({ text, photos }) {
    this.photos = photos;
    /** What was sent already, kept across a retry after a failure: each photo's upload, and
     * "photo:conversation" for each photo sent. */
    this.uploaded = new Map();
    this.sent = new Set();
    this.text.value = text;
    this.text.maxLength = rules.maxTextLength;
    this.error.textContent = '';
    this.previews = photos.map((photo) => URL.createObjectURL(photo));
    replaceChildren(this.photoList, photos.map((photo, index) => h('li', { class: 'share-photo' },
      h('img', { src: this.previews[index], alt: photo.name }))));
    this.photoList.hidden = photos.length === 0;
    this.picker.reset();
    document.body.append(this.element);
    this.element.showModal();
    focus(this.picker.search);
  }

  closed() {
    for (const preview of this.previews) URL.revokeObjectURL(preview);
    this.previews = [];
    this.photos = [];
    this.element.remove();
    focus(document.getElementById('main'));
  }

  update() {
    this.send.disabled = this.picker.picked.size === 0 || (!this.text.value.trim() && this.photos.length === 0);
  }

  async submit(event) {
    event.preventDefault();
    const targets = [...this.picker.picked];
    const text = this.text.value.trim();
    if (targets.length === 0 || (!text && this.photos.length === 0)) return;
    this.error.textContent = '';
    this.send.disabled = true;
    try {
      // Each photo is uploaded once, then sent (a message each) to every conversation ticked.
      for (const [index, photo] of this.photos.entries()) {
        if (!this.uploaded.has(index)) this.uploaded.set(index, (await upload(photo)).hash);
        for (const conversation of targets) {
          if (this.sent.has(`${index}:${conversation}`)) continue;
          await api(`/api/conversations/${encodeURIComponent(conversation)}/messages`, {
            method: 'POST', body: { id: newId(), attachment: { hash: this.uploaded.get(index), name: photo.name || 'photo' } },
          });
          this.sent.add(`${index}:${conversation}`);
        }
      }
      this.photos = [];
      // The text goes like one typed: through the outbox, sent once even across a reconnect.
      if (text) for (const conversation of targets) sendText(conversation, text);
      const names = this.picker.names();
      this.element.close();
      announce(`Sent to ${names}.`);
      this.onSent(targets[0]);
    } catch (error) {
      this.error.textContent = error.message;
      this.send.disabled = false;
    }
  }
}
