// Photos and files: chosen with the paperclip, dropped on the conversation or pasted into the
// field; each is uploaded with a progress bar (which can be cancelled), then sent as a message.
// The server keeps an upload private until the message uses it, and then shows it to the
// conversation's members only.

import { api } from './api.js';
import { announce, h, replaceChildren, safeImageURL } from './dom.js';
import { newId } from './ids.js';
import { voiceView } from './voice.js';

/** "820 bytes", "14 KB", "3.2 MB". */
export function formatSize(bytes) {
  if (!(bytes >= 0)) return '';
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Uploads `file` (any kind), calling `onProgress(fraction)`; resolves to the server's blob. */
export function upload(file, onProgress = () => {}, signal = new AbortController().signal) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/blobs?kind=file');
    // Raw bytes, typed as such whatever the file is: the server reads the type from the bytes.
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300 && body?.hash) resolve(body);
      else reject(new Error(body?.error?.message || `The upload failed (${request.status}).`));
    });
    request.addEventListener('error', () => reject(new Error('The upload failed: Parlor cannot be reached.')));
    request.addEventListener('abort', () => reject(Object.assign(new Error('Upload cancelled.'), { cancelled: true })));
    signal.addEventListener('abort', () => request.abort());
    request.send(file);
  });
}

/** The uploads under way in one compose bar, each shown with its progress. */
export class Uploads {
  /** conversationId(): where to send; onError(message) */
  constructor({ conversationId, onError }) {
    this.conversationId = conversationId;
    this.onError = onError;
    this.element = h('ul', { class: 'composer-uploads', hidden: true, attrs: { 'aria-label': 'Uploads' } });
  }

  /** Uploads and sends each file, one message each, in the order given. */
  async send(files) {
    for (const file of [...files]) await this.sendOne(file);
  }

  /** Uploads `file` and sends it; `voice` (its length and waveform) makes a recording a voice message. */
  async sendOne(file, voice = null) {
    const controller = new AbortController();
    const bar = h('progress', { class: 'upload-progress', max: 1, value: 0, attrs: { 'aria-label': `Uploading ${file.name}` } });
    const row = h('li', { class: 'upload' },
      h('span', { class: 'upload-name', text: file.name }), bar,
      h('button', {
        type: 'button', class: 'staged-remove', attrs: { 'aria-label': `Cancel ${file.name}` },
        on: { click: () => controller.abort() },
      }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } })));
    this.element.append(row);
    this.element.hidden = false;
    announce(`Uploading ${file.name}.`);
    try {
      const blob = await upload(file, (fraction) => { bar.value = fraction; }, controller.signal);
      await api(`/api/conversations/${encodeURIComponent(this.conversationId())}/messages`, {
        method: 'POST', body: { id: newId(), attachment: { hash: blob.hash, name: file.name || 'file', ...(voice ? { voice } : {}) } },
      });
      announce(`Sent ${file.name}.`);
    } catch (error) {
      if (!error.cancelled) this.onError(`${file.name}: ${error.message}`);
    } finally {
      row.remove();
      if (this.element.children.length === 0) {
        this.element.hidden = true;
        replaceChildren(this.element);
      }
    }
  }
}

/** An attachment's address, which is always one of the server's blobs. */
export const blobURL = (attachment) => (/^\/blobs\/[0-9a-f]{64}$/.test(attachment?.url ?? '') ? attachment.url : null);

/** A photo in the transcript (pressing it shows it full size), a voice message's player, or a
 * file's card with a download. */
export function attachmentView(attachment) {
  const url = blobURL(attachment);
  if (attachment.voice && url) return voiceView(url, attachment.voice);
  if (attachment.isImage && url) {
    return h('button', {
      type: 'button', class: 'attachment-photo', attrs: { 'aria-label': `Photo ${attachment.name}: show it full size` },
      on: { click: () => showPhoto(attachment) },
    }, h('img', { src: safeImageURL(url), alt: '', loading: 'lazy', decoding: 'async' }));
  }
  return h('div', { class: 'attachment-file' },
    h('span', { class: 'icon icon-file', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'attachment-text' },
      h('span', { class: 'attachment-name', text: attachment.name }),
      h('span', { class: 'attachment-size', text: formatSize(attachment.size) })),
    url ? h('a', { class: 'button attachment-download', href: url, download: attachment.name, text: 'Download', attrs: { 'aria-label': `Download ${attachment.name}` } }) : null);
}

/** A full-size view of a photo, over everything; Escape or Close ends it. */
export function showPhoto(attachment) {
  const close = h('button', { type: 'button', class: 'button', text: 'Close' });
  const dialog = h('dialog', { class: 'photo-viewer', attrs: { 'aria-label': attachment.name } },
    h('img', { class: 'photo-viewer-image', src: safeImageURL(blobURL(attachment)), alt: attachment.name }),
    h('div', { class: 'photo-viewer-bar' },
      h('span', { class: 'photo-viewer-name', text: `${attachment.name} · ${formatSize(attachment.size)}` }),
      h('a', { class: 'button', href: blobURL(attachment), download: attachment.name, text: 'Download' }),
      close));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}
