// The compose bar: the app drawer button, the staged item (an app message or a sticker the
// person has not sent yet), the text field and Send.

import { appCard, firstLink, linkPreviewCard, stickerView } from './bubbles.js';
import { announce, h, replaceChildren } from './dom.js';
import { closeEmojiPicker, openEmojiPicker } from './emojipicker.js';
import { MentionPicker } from './mentionpicker.js';
import { Uploads, formatSize } from './attachments.js';
import { VoiceRecorder, durationLabel } from './voice.js';

/** The most photos and files one Send takes (each is a message of its own). */
const MAX_FILES = 10;
/** How long the microphone is held for the recording to go when it is let go, in ms; a shorter
 * press is a tap, and the recording goes on until the button is pressed again. */
const HOLD_TO_RECORD = 400;
/** How long after a press its click may come, in ms (a touch's comes a little later). */
const CLICK_AFTER_PRESS = 700;

/** A link's host, as a person reads it ("example.com"). */
function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class Composer {
  /** handlers: onSend(text, hasStaged, context, linkPreview), onRemoveStaged(), onToggleDrawer(), onDraft(text), onContextEnd(),
   * conversation() (the conversation, whose other members can be mentioned), onError(message), linkPreview(url) → Promise<card> */
  constructor(handlers) {
    this.handlers = handlers;
    this.staged = null;
    /** The card of the first link in the field: `{url, card}` once fetched; links whose card the person removed. */
    this.link = { url: null, card: null, timer: null, removed: new Set() };
    this.linkBox = h('div', { class: 'composer-link', hidden: true, attrs: { role: 'group', 'aria-label': 'Link preview' } });
    /** What the field does besides sending: `{kind: 'reply' | 'edit', message, label, preview}`, or null. */
    this.context = null;
    this.contextBar = h('div', { class: 'composer-context', hidden: true });
    this.appsButton = h('button', {
      type: 'button',
      class: 'icon-button composer-apps',
      attrs: { 'aria-label': 'Apps', 'aria-expanded': 'false', 'aria-controls': 'tray' },
      on: { click: () => handlers.onToggleDrawer() },
    }, h('span', { class: 'icon icon-apps', attrs: { 'aria-hidden': 'true' } }));
    this.stagedBox = h('div', { class: 'composer-staged', hidden: true, attrs: { role: 'group', 'aria-label': 'Ready to send' } });
    /** Photos and files chosen, pasted or dropped, waiting for Send: `{file, url}` (url: a photo's preview). */
    this.files = [];
    this.filesBox = h('ul', { class: 'composer-files', hidden: true, attrs: { 'aria-label': 'Photos and files to send' } });
    this.uploads = new Uploads({ conversationId: () => handlers.conversation?.()?.id, onError: (message) => handlers.onError?.(message) });
    this.fileInput = h('input', {
      type: 'file', class: 'visually-hidden', multiple: true, tabIndex: -1, attrs: { 'aria-hidden': 'true' },
      on: {
        change: () => {
          const files = [...this.fileInput.files];
          this.fileInput.value = '';
          this.addFiles(files);
        },
      },
    });
    this.attachButton = h('button', {
      type: 'button',
      class: 'icon-button composer-attach',
      attrs: { 'aria-label': 'Add a photo or file' },
      on: { click: () => this.fileInput.click() },
    }, h('span', { class: 'icon icon-attach', attrs: { 'aria-hidden': 'true' } }));
    this.emojiButton = h('button', {
      type: 'button',
      class: 'icon-button composer-emoji',
      attrs: { 'aria-label': 'Emoji', 'aria-haspopup': 'dialog', 'aria-expanded': 'false' },
      on: {
        click: () => openEmojiPicker(this.emojiButton, {
          title: 'Emoji',
          onPick: (emoji) => this.insert(emoji),
          returnFocus: () => this.input,
        }),
      },
    }, h('span', { class: 'composer-emoji-face', attrs: { 'aria-hidden': 'true' }, text: '☺︎' }));
    // A voice message: the microphone button starts recording; pressed again (or Send, or Return),
    // the recording is sent; Cancel or Escape throws it away. Held down instead, as in Messages,
    // it records while held and sends when let go.
    this.recording = null;
    /** A press on the microphone that started a recording: when, and by which pointer. */
    this.hold = null;
    /** Whether the click that follows such a press is to be ignored (the press decided). */
    this.swallowClick = false;
    this.voiceButton = h('button', {
      type: 'button',
      class: 'icon-button composer-voice',
      hidden: !VoiceRecorder.supported,
      attrs: { 'aria-label': 'Record a voice message', 'aria-pressed': 'false' },
      on: {
        click: () => {
          // The click that ends a press which started recording: the press already decided.
          if (this.swallowClick) {
            this.swallowClick = false;
            return;
          }
          if (this.recording) this.finishRecording();
          else this.startRecording();
        },
        pointerdown: (event) => {
          this.swallowClick = false;
          if (this.recording || !event.isPrimary || event.button !== 0) return;
          this.hold = { pointerId: event.pointerId, at: performance.now() };
          // Where the press ends, wherever that is: the compose bar redraws its buttons as the
          // recording starts, which would lose a capture of the pointer.
          const ended = (end) => {
            if (end.pointerId !== event.pointerId) return;
            document.removeEventListener('pointerup', ended, true);
            document.removeEventListener('pointercancel', ended, true);
            this.releaseHold(end, { cancelled: end.type === 'pointercancel' });
          };
          document.addEventListener('pointerup', ended, true);
          document.addEventListener('pointercancel', ended, true);
          this.startRecording();
        },
        // A long press on a phone would otherwise open the browser's menu for the button.
        contextmenu: (event) => { if (this.hold) event.preventDefault(); },
      },
    }, this.voiceIcon = h('span', { class: 'icon icon-mic', attrs: { 'aria-hidden': 'true' } }));
    this.recordingTime = h('span', { class: 'recording-time', text: '0:00' });
    this.recordingLevel = h('span', { class: 'recording-level', attrs: { 'aria-hidden': 'true' } });
    this.recordingBox = h('div', { class: 'composer-recording', hidden: true, attrs: { role: 'group', 'aria-label': 'Recording a voice message' } },
      h('span', { class: 'recording-dot', attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'recording-label', text: 'Recording' }), this.recordingTime, this.recordingLevel,
      h('button', {
        type: 'button', class: 'button button-plain recording-cancel', text: 'Cancel',
        attrs: { 'aria-label': 'Cancel the voice message' },
        on: { click: () => this.cancelRecording() },
      }));
    this.input = h('textarea', {
      class: 'composer-input',
      rows: 1,
      placeholder: 'Message',
      attrs: { 'aria-label': 'Message', enterkeyhint: 'send' },
      on: {
        input: () => {
          this.autosize();
          this.refresh();
          this.watchLink();
          handlers.onDraft(this.input.value);
        },
        paste: (event) => {
          const files = [...(event.clipboardData?.files ?? [])];
          // Copied text may come with a picture of itself (office apps): the text is what was meant.
          if (files.length === 0 || event.clipboardData.types.includes('text/plain')) return;
          event.preventDefault();
          this.addFiles(files);
        },
        keydown: (event) => {
          if (this.mentions.handleKey(event)) return;
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            this.submit();
          } else if (event.key === 'Escape' && this.context) {
            event.preventDefault();
            event.stopPropagation();
            this.endContext();
          }
        },
      },
    });
    this.sendButton = h('button', {
      type: 'submit',
      class: 'composer-send',
      attrs: { 'aria-label': 'Send' },
    }, h('span', { class: 'icon icon-send', attrs: { 'aria-hidden': 'true' } }));
    this.mentions = new MentionPicker(this.input, {
      members: () => (handlers.conversation?.()?.members ?? []).filter((m) => m.id !== handlers.me?.()),
      onChange: () => {
        this.autosize();
        this.refresh();
        handlers.onDraft(this.input.value);
      },
    });
    this.field = h('div', { class: 'composer-field' },
      this.mentions.list, this.uploads.element, this.contextBar, this.stagedBox, this.filesBox, this.linkBox, this.recordingBox, this.input);
    this.element = h('form', {
      class: 'composer',
      attrs: { 'aria-label': 'Write a message' },
      on: {
        submit: (event) => {
          event.preventDefault();
          this.submit();
        },
        keydown: (event) => {
          if (event.key !== 'Escape' || !this.recording) return;
          event.preventDefault();
          event.stopPropagation();
          this.cancelRecording();
          this.voiceButton.focus();
        },
      },
    }, this.appsButton, this.attachButton, this.fileInput, this.emojiButton, this.field, this.voiceButton, this.sendButton);
    this.refresh();
  }

  submit() {
    if (this.recording) {
      this.finishRecording();
      return;
    }
    const text = this.mentions.encode(this.input.value);
    const hasText = text.trim().length > 0;
    const context = this.context;
    const editing = context?.kind === 'edit';
    const files = editing ? [] : this.takeFiles();
    if (!hasText && files.length === 0 && (!this.staged || editing)) return;
    const linkPreview = this.link.card && hasText && text.includes(this.link.url) ? this.link.url : null;
    // What this Send sends is decided now: the staged item shown as it was pressed, and the words.
    const hasStaged = Boolean(this.staged) && !editing;
    if (files.length === 0) {
      this.handlers.onSend(hasText ? text : null, hasStaged, context, linkPreview);
    } else {
      if (hasStaged) this.handlers.onSend(null, true, null, null);
      // The photos first, then the words typed with them, as Messages sends them: each its own
      // message. The words stay the conversation's draft until they are handed over.
      this.uploads.send(files).finally(() => {
        if (!hasText) return;
        this.handlers.onSend(text, false, context, linkPreview);
        if (this.input.value === '') this.handlers.onDraft('');
      });
    }
    if (hasText) {
      clearTimeout(this.link.timer);
      this.link.removed.clear();
      this.showLink(null, null);
      this.mentions.reset();
      this.input.value = '';
      this.autosize();
      if (!editing && files.length === 0) this.handlers.onDraft('');
    }
    // After clearing: ending an edit brings back what the field held before it.
    if (context) this.endContext();
    this.refresh();
    this.input.focus();
  }

  /** Puts `text` (an emoji) where the caret is, in place of what is selected, as if typed. */
  insert(text) {
    const { selectionStart, selectionEnd } = this.input;
    this.input.focus();
    this.input.setRangeText(text, selectionStart, selectionEnd, 'end');
    this.input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /** Puts photos and files beside the field, each shown (a photo's preview) and removable, until
   * Send; `quietly` when they come back with their conversation (nothing is said, the focus stays). */
  addFiles(files, { quietly = false } = {}) {
    const room = MAX_FILES - this.files.length;
    if (files.length > room) {
      this.handlers.onError?.(`You can send up to ${MAX_FILES} photos and files at once; send these first, then add more.`);
    }
    for (const file of files.slice(0, Math.max(0, room))) {
      this.files.push({ file, url: file.type.startsWith('image/') ? URL.createObjectURL(file) : null });
    }
    this.drawFiles();
    this.refresh();
    if (files.length > 0 && !quietly) {
      announce(this.files.length === 1 ? '1 photo or file ready to send.' : `${this.files.length} photos and files ready to send.`);
      this.input.focus();
    }
  }

  /** The conversation is left: its photos and files not sent are handed back (they wait for the
   * person's return, `Drafts.keepFiles`) and their previews freed; a recording under way is thrown
   * away (and the microphone let go). */
  dispose() {
    clearTimeout(this.link.timer);
    closeEmojiPicker();
    if (this.recording) this.cancelRecording();
    return this.takeFiles();
  }

  async startRecording() {
    const recorder = new VoiceRecorder({
      onTick: (elapsed, level) => {
        this.recordingTime.textContent = durationLabel(elapsed);
        this.recordingLevel.style.setProperty('--level', level.toFixed(2));
      },
      onLimit: () => this.finishRecording(),
    });
    this.recording = recorder;
    this.showRecording(true);
    try {
      await recorder.start();
      if (this.recording !== recorder) await recorder.cancel();
      else announce(this.hold ? 'Recording a voice message. Let go to send it, or slide away to cancel.' : 'Recording a voice message. Press Send to send it, Escape to cancel.');
    } catch (error) {
      await recorder.cancel().catch(() => {});
      // Cancelled while the browser asked for the microphone: nothing to say.
      if (this.recording !== recorder) return;
      this.recording = null;
      this.showRecording(false);
      this.handlers.onError?.(error.message);
    }
  }

  /** The press that started a recording ends: held past `HOLD_TO_RECORD`, the recording is sent
   * as the finger lifts, or thrown away when it lifts off the button (dragged away, as any
   * press is undone); a tap, or a hold that ended while the browser still asked for the
   * microphone, leaves it recording until the button is pressed again. A press the browser took
   * over keeps recording, with Cancel and Send there. */
  releaseHold(event, { cancelled = false } = {}) {
    const hold = this.hold;
    if (!hold || hold.pointerId !== event.pointerId) return;
    this.hold = null;
    if (cancelled) return;
    // Its click may follow; it must not toggle again. (None follows a lift off the button, or a
    // long touch in some browsers: then it lapses.)
    this.swallowClick = true;
    setTimeout(() => { this.swallowClick = false; }, CLICK_AFTER_PRESS);
    if (performance.now() - hold.at < HOLD_TO_RECORD || !this.recording?.started) return;
    const box = this.voiceButton.getBoundingClientRect();
    const over = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (over) this.finishRecording();
    else this.cancelRecording();
  }

  /** Stops the recording and sends it as a voice message. */
  async finishRecording() {
    const recorder = this.recording;
    if (!recorder) return;
    this.recording = null;
    this.showRecording(false);
    // Sent before the microphone was given: there is nothing recorded, and start() lets it go.
    if (!recorder.started) return;
    const { file, voice } = await recorder.finish();
    if (file.size === 0) {
      this.handlers.onError?.('Nothing was recorded: check that a microphone is connected, then try again.');
      return;
    }
    await this.uploads.sendOne(file, voice);
  }

  async cancelRecording() {
    const recorder = this.recording;
    if (!recorder) return;
    this.recording = null;
    this.showRecording(false);
    announce('Voice message cancelled.');
    await recorder.cancel();
  }

  showRecording(on) {
    this.recordingBox.hidden = !on;
    this.input.hidden = on;
    this.recordingTime.textContent = '0:00';
    this.voiceButton.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.voiceButton.setAttribute('aria-label', on ? 'Send the voice message' : 'Record a voice message');
    this.voiceButton.classList.toggle('is-recording', on);
    // Recording, it sends: it shows Send's arrow.
    this.voiceIcon.classList.toggle('icon-mic', !on);
    this.voiceIcon.classList.toggle('icon-send', on);
    this.element.classList.toggle('is-recording', on);
    this.refresh();
    // The focus stays where the person works: on the button, or in the field after it.
    if (!on && document.activeElement === document.body) this.input.focus();
  }

  /** The files waiting, taken for sending (the field no longer shows them). */
  takeFiles() {
    const files = this.files.map((entry) => entry.file);
    for (const entry of this.files) if (entry.url) URL.revokeObjectURL(entry.url);
    this.files = [];
    this.drawFiles();
    return files;
  }

  removeFile(entry) {
    if (entry.url) URL.revokeObjectURL(entry.url);
    this.files = this.files.filter((e) => e !== entry);
    this.drawFiles();
    this.refresh();
    announce(`${entry.file.name || 'The file'} removed.`);
    this.input.focus();
  }

  drawFiles() {
    this.filesBox.hidden = this.files.length === 0;
    replaceChildren(this.filesBox, this.files.map((entry) => {
      const name = entry.file.name || 'file';
      return h('li', { class: 'composer-file' },
        entry.url
          ? h('img', { class: 'composer-file-preview', src: entry.url, alt: `Photo ${name}` })
          : h('span', { class: 'composer-file-name', text: `${name} · ${formatSize(entry.file.size)}` }),
        h('button', {
          type: 'button', class: 'staged-remove composer-file-remove', attrs: { 'aria-label': `Remove ${name}` },
          on: { click: () => this.removeFile(entry) },
        }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } })));
    }));
  }

  /** Replies to a message, or edits one (its text fills the field); the bar above says which. */
  startContext(context) {
    if (this.context) this.endContext();
    this.context = context;
    if (context.kind === 'edit') clearTimeout(this.link.timer);
    const cancel = context.kind === 'edit' ? 'Cancel editing' : 'Cancel reply';
    replaceChildren(this.contextBar,
      h('span', { class: 'composer-context-label', text: context.label }),
      h('span', { class: 'composer-context-text', text: context.preview }),
      h('button', {
        type: 'button',
        class: 'staged-remove composer-context-cancel',
        attrs: { 'aria-label': cancel },
        on: { click: () => { this.endContext(); this.input.focus(); } },
      }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } })));
    this.contextBar.hidden = false;
    if (context.kind === 'edit') this.setText(this.mentions.decode(context.message.text, this.handlers.conversation?.()));
    this.element.classList.add('has-context');
    this.input.setAttribute('aria-label', context.kind === 'edit' ? 'Edit message' : `Reply to ${context.name}`);
    this.input.focus();
  }

  endContext() {
    const context = this.context;
    if (!context) return;
    this.context = null;
    this.contextBar.hidden = true;
    replaceChildren(this.contextBar);
    this.element.classList.remove('has-context');
    this.input.setAttribute('aria-label', 'Message');
    this.handlers.onContextEnd?.(context);
  }

  setText(text) {
    this.input.value = text;
    this.autosize();
    this.refresh();
  }

  /** Inserts text where the cursor is (an app's insertText). */
  insertText(text) {
    const { selectionStart: start, selectionEnd: end, value } = this.input;
    this.input.value = value.slice(0, start) + text + value.slice(end);
    this.input.selectionStart = this.input.selectionEnd = start + text.length;
    this.autosize();
    this.refresh();
    this.handlers.onDraft(this.input.value);
  }

  setDrawerOpen(open) {
    this.appsButton.setAttribute('aria-expanded', open ? 'true' : 'false');
    this.appsButton.classList.toggle('is-active', open);
  }

  /** Shows what an app staged, or nothing. */
  setStaged(staged) {
    this.staged = staged;
    if (!staged) {
      this.stagedBox.hidden = true;
      replaceChildren(this.stagedBox);
      this.refresh();
      return;
    }
    const name = staged.app ? staged.app.appName : 'Sticker';
    const preview = staged.app ? appCard(staged.app, { interactive: false }) : stickerView(staged.sticker);
    const remove = h('button', {
      type: 'button',
      class: 'staged-remove',
      attrs: { 'aria-label': `Remove ${name} message` },
      on: {
        click: () => {
          this.handlers.onRemoveStaged();
          this.input.focus();
        },
      },
    }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }));
    // A Send the server refused (the message's `error`, MSMessage.error): said on the message, which
    // stays here to send again or remove.
    const failure = staged.app?.error
      ? h('p', { class: 'staged-error', attrs: { role: 'alert' } },
        h('span', { class: 'icon icon-warning', attrs: { 'aria-hidden': 'true' } }),
        h('span', { text: `Not sent: ${staged.app.error.message}` }))
      : null;
    replaceChildren(this.stagedBox, h('div', { class: ['staged-item', failure && 'is-failed'] }, preview, remove), failure);
    this.stagedBox.hidden = false;
    this.refresh();
  }

  /** Shows the card of the first link in the field, a moment after the person stops typing; not while editing. */
  watchLink() {
    clearTimeout(this.link.timer);
    const url = this.context?.kind === 'edit' ? null : firstLink(this.input.value);
    if (url === this.link.url) return;
    if (!url || this.link.removed.has(url) || !this.handlers.linkPreview) {
      this.showLink(null, null);
      return;
    }
    this.link.timer = setTimeout(async () => {
      const current = () => this.context?.kind !== 'edit' && firstLink(this.input.value) === url && !this.link.removed.has(url);
      if (!current()) return;
      this.showLinkNote(url, `Getting a preview of ${hostOf(url)}…`);
      try {
        const card = await this.handlers.linkPreview(url);
        if (current()) this.showLink(url, card);
      } catch (error) {
        // No card for that page (private, unreadable, untitled): said, and the link is sent as it is.
        const reason = error?.message ? ` ${error.message}` : '';
        if (current()) this.showLinkNote(url, `No preview for ${hostOf(url)}.${reason} The link is sent as it is.`);
      }
    }, 500);
  }

  /** A line where the card goes: the preview being fetched, or why there is none. */
  showLinkNote(url, text) {
    this.link.url = url;
    this.link.card = null;
    replaceChildren(this.linkBox, h('p', { class: 'composer-link-note', attrs: { role: 'status' }, text }));
    this.linkBox.hidden = false;
  }

  showLink(url, card) {
    this.link.url = url;
    this.link.card = card;
    if (!card) {
      this.linkBox.hidden = true;
      replaceChildren(this.linkBox);
      return;
    }
    const remove = h('button', {
      type: 'button',
      class: 'staged-remove',
      attrs: { 'aria-label': 'Remove link preview' },
      on: {
        click: () => {
          this.link.removed.add(url);
          this.showLink(url, null);
          this.input.focus();
        },
      },
    }, h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }));
    replaceChildren(this.linkBox, h('div', { class: 'staged-item composer-link-item' }, linkPreviewCard(card), remove));
    this.linkBox.hidden = false;
  }

  refresh() {
    const hasContent = this.input.value.trim().length > 0 || Boolean(this.staged) || this.files.length > 0;
    this.sendButton.disabled = !hasContent && !this.recording;
    // On a phone, Send and the microphone take turns in one place (responsive.css).
    this.element.classList.toggle('has-content', hasContent);
    this.element.classList.toggle('has-staged', Boolean(this.staged));
  }

  autosize() {
    this.input.style.setProperty('height', 'auto');
    this.input.style.setProperty('height', `${Math.min(this.input.scrollHeight, 160)}px`);
  }

  focus() {
    this.input.focus({ preventScroll: true });
  }
}
