// A conversation on screen: header, transcript, the app open in it (compact in the keyboard's
// place, or expanded over the transcript), the compose bar and the app drawer.

import * as client from './client.js';
import { announce, focus, h, replaceChildren } from './dom.js';
import { Composer } from './compose.js';
import { ConversationInfo } from './conversationinfo.js';
import { Drawer } from './drawer.js';
import { ForwardDialog } from './forward.js';
import { closeNotifications } from './push.js';
import { readableText } from './mentions.js';
import { attachmentKind, conversationTitle, on, state, transcript } from './state.js';
import { AppSurface } from './surface.js';
import { TranscriptView, shownName } from './transcript.js';
import { webPageView } from './viewtree.js';

export class ConversationView {
  /** shell: { openStore(), toast(message) } */
  constructor(conversationId, shell) {
    this.id = conversationId;
    this.shell = shell;
    this.trayMode = 'none';
    this.expectOpen = false;
    this.unsubscribe = [];
    /** The message a sticker is being placed on, from the drawer. */
    this.placingOn = null;

    this.title = h('h1', { class: 'conversation-title', tabIndex: -1 });
    /** The details dialog: title, members and admins, adding, removing, leaving. */
    this.info = new ConversationInfo(conversationId, shell);
    this.forward = new ForwardDialog();
    this.subtitle = h('p', { class: 'conversation-subtitle' });
    this.header = h('header', { class: 'conversation-header' },
      h('a', { class: 'icon-button back-button', href: '#/', attrs: { 'aria-label': 'Back to conversations' } },
        h('span', { class: 'icon icon-back', attrs: { 'aria-hidden': 'true' } })),
      h('div', { class: 'conversation-heading' }, this.title, this.subtitle),
      this.infoButton = h('button', {
        type: 'button', class: 'icon-button info-button', title: 'Conversation info',
        attrs: { 'aria-label': 'Conversation info', 'aria-haspopup': 'dialog' },
        on: { click: () => this.info.open(this.infoButton) },
      }, h('span', { class: 'icon icon-info', attrs: { 'aria-hidden': 'true' } })),
      this.muteButton = h('button', {
        type: 'button', class: 'icon-button mute-button', attrs: { 'aria-label': 'Mute', 'aria-pressed': 'false' },
        on: { click: () => this.toggleMuted() },
      }, h('span', { class: 'icon icon-bell', attrs: { 'aria-hidden': 'true' } })));

    this.transcript = new TranscriptView({
      onOpen: (m) => this.openMessage(m),
      onGet: (m) => this.getApp(m),
      onOpenLink: (url, title) => this.openWeb(url, title),
      onRetry: (id) => client.retry(this.id, id),
      onDiscard: (id) => client.discard(this.id, id),
      onKeep: (m) => {
        client.keep(this.id, m.id);
        announce('Kept.');
      },
      onRerender: () => this.renderTranscript(),
      onError: (message) => this.shell.toast(message),
      onReact: (m, emoji, isOn) => client.react(this.id, m.id, emoji, isOn),
      onReply: (m) => this.composer.startContext({
        kind: 'reply', message: m, name: shownName(m), label: `Replying to ${shownName(m)}`, preview: this.previewOf(m),
      }),
      onEdit: (m) => {
        this.savedDraft = this.composer.input.value;
        this.composer.startContext({ kind: 'edit', message: m, label: 'Editing message', preview: this.previewOf(m) });
      },
      onUnsend: (m) => {
        client.unsend(this.id, m.id);
        announce('Unsent.');
      },
      onPlace: (m) => this.startPlacing(m),
      onForward: (m) => this.forward.open(this.id, m, this.transcript.list.querySelector(`[data-message-id="${CSS.escape(m.id)}"] .react-button`)),
      onPlaceSticker: (messageId, sticker, x, y) => this.placeSticker(messageId, sticker, x, y),
      onJump: (id) => this.jumpTo(id),
      onThread: (m) => client.replies(this.id, m.id),
      onVersions: (m) => client.versions(this.id, m.id),
      onEarlier: () => client.loadEarlier(this.id).catch((error) => this.shell.toast(error.message)),
    });

    this.surface = new AppSurface({
      kind: 'conversation',
      onEvent: (event) => {
        const update = state.apps.get(this.id);
        if (update) client.appEvent(this.id, update.appID, event);
      },
      onClose: () => {
        // Closed while it was still opening: it goes at once (the focus back in the field, as
        // when an app closes), and the server closes it too.
        if (this.surface.isOpening) {
          this.surface.cancelOpening();
          this.expectOpen = false;
          this.composer.focus();
        }
        client.closeApp(this.id);
      },
      onStyle: (style) => client.setStyle(this.id, style),
      redraw: () => this.renderApp(),
    });

    this.composer = new Composer({
      onSend: (text, hasStaged, context, linkPreview) => {
        if (context?.kind === 'edit') {
          if (text && text !== context.message.text) client.edit(this.id, context.message.id, text);
          return;
        }
        if (hasStaged) client.sendStaged(this.id);
        const m = context?.kind === 'reply' ? context.message : null;
        if (text) client.sendText(this.id, text, m ? { id: m.id, senderName: shownName(m), preview: this.previewOf(m) } : null, linkPreview);
        this.transcript.stickToBottom = true;
      },
      onContextEnd: (context) => {
        if (context.kind !== 'edit') return;
        this.composer.setText(this.savedDraft ?? state.drafts.get(this.id) ?? '');
        this.savedDraft = null;
      },
      onRemoveStaged: () => client.removeStaged(this.id),
      linkPreview: (url) => client.linkPreview(url),
      conversation: () => state.conversations.get(this.id),
      onError: (message) => this.shell.toast(message),
      me: () => state.me?.id,
      onToggleDrawer: () => this.setTray(this.trayMode === 'drawer' ? 'none' : 'drawer', true),
      onDraft: (text) => {
        // An edit in progress is neither a draft nor typing a new message.
        if (this.composer?.context?.kind === 'edit') return;
        state.drafts.set(this.id, text);
        this.noteTyping(text);
      },
    });
    /** When this tab last said the person is typing here (0: it has not, or said they stopped). */
    this.typingSaidAt = 0;
    this.composer.setText(state.drafts.get(this.id) || '');
    this.composer.addFiles(state.drafts.takeFiles(this.id), { quietly: true });

    this.drawer = new Drawer({
      onOpenApp: (appId) => {
        this.expectOpen = true;
        this.setTray('none');
        this.surface.showOpening(appId);
        client.openApp(this.id, appId);
      },
      onSendSticker: (sticker) => {
        if (this.placingOn) {
          const target = this.placingOn;
          // From the keyboard or a tap: near the top right corner, each next one a little lower left.
          const count = [...transcript(this.id).messages.values()].filter((m) => m.placement?.message === target.id).length;
          this.placeSticker(target.id, sticker, 0.85 - 0.08 * (count % 5), 0.15 + 0.08 * (count % 5));
          this.setTray('none', true);
          return;
        }
        client.sendSticker(this.id, sticker);
        this.transcript.stickToBottom = true;
        announce(`Sent sticker ${sticker.description}.`);
      },
      onClose: () => this.setTray('none', true),
      onStore: () => this.shell.openStore(),
    });
    this.tray = h('div', { class: 'tray', id: 'tray', hidden: true }, this.drawer.element);
    this.webSheet = h('div', { class: 'conversation-web', hidden: true });

    this.element = h('section', { class: 'conversation', attrs: { 'aria-labelledby': 'conversation-title' } },
      this.header, this.transcript.element, this.surface.element, this.webSheet, this.composer.element, this.tray);
    this.title.id = 'conversation-title';
    // Files dropped anywhere on the conversation wait beside its field for Send.
    const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    this.element.addEventListener('dragover', (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      this.element.classList.add('is-dropping');
    });
    this.element.addEventListener('dragleave', (event) => {
      if (event.target === this.element || !this.element.contains(event.relatedTarget)) this.element.classList.remove('is-dropping');
    });
    this.element.addEventListener('drop', (event) => {
      this.element.classList.remove('is-dropping');
      if (!hasFiles(event)) return;
      event.preventDefault();
      this.composer.addFiles([...event.dataTransfer.files]);
    });
    this.element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.trayMode !== 'none') {
        this.setTray('none', true);
      } else if (event.key === 'Escape' && !this.webSheet.hidden) {
        this.closeWeb();
      } else if (event.key === 'Escape' && !event.defaultPrevented && this.surface.isOpen && event.target === this.composer.input) {
        // From the compose field (no reply, edit or mention list open, which Escape closes
        // first), Escape closes the app open above it; focus stays in the field.
        event.preventDefault();
        client.closeApp(this.id);
      }
    });
  }

  mount() {
    this.unsubscribe.push(
      on('transcript', (id) => id === this.id && this.renderTranscript()),
      on('typing', (id) => id === this.id && this.renderTyping()),
      on('conversations', () => this.renderHeader()),
      on('blocked', () => this.info.refresh()),
      on('deleted', (id) => id === this.id && this.info.deleted()),
      on('staged', (id) => id === this.id && this.composer.setStaged(state.staged.get(this.id) ?? null)),
      on('app', (id) => id === this.id && this.renderApp()),
      // An app refused while opening (not installed, unavailable): its sentence is the toast.
      on('error', () => this.surface.cancelOpening()),
      on('directory', () => {
        this.drawer.render();
        if (this.surface.isOpen) this.surface.drawHeader(this.surface.update);
      }),
      on('composeText', ({ conversation, text }) => {
        if (conversation === this.id) {
          this.composer.insertText(text);
          this.composer.focus();
        }
      }),
    );
    client.setVisibleConversation(this.id);
    closeNotifications(this.id);
    this.renderHeader();
    this.renderTranscript();
    this.renderTyping();
    this.composer.setStaged(state.staged.get(this.id) ?? null);
    this.renderApp();
    if (!state.staged.has(this.id) && transcript(this.id).loaded) client.refreshStaged(this.id).catch(() => {});
    client.ensureTranscript(this.id)
      .then(() => client.markRead(this.id))
      .catch((error) => this.shell.toast(error.message));
  }

  dispose() {
    this.noteTyping('');
    state.drafts.keepFiles(this.id, this.composer.dispose());
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    client.setVisibleConversation(null);
    // Leaving a conversation resigns its app, as switching conversations does in Messages.
    if (this.surface.isOpen || this.surface.isOpening) client.closeApp(this.id);
  }

  focusStart() {
    if (window.matchMedia('(max-width: 700px)').matches) focus(this.title);
    else this.composer.focus();
  }

  async toggleMuted() {
    // Busy, not disabled, while the server answers: a disabled button would drop the focus.
    if (this.muteButton.getAttribute('aria-busy') === 'true') return;
    const muted = !state.conversations.get(this.id)?.isMuted;
    this.muteButton.setAttribute('aria-busy', 'true');
    try {
      await client.setMuted(this.id, muted);
      announce(muted ? 'Muted: no notifications for this conversation.' : 'Unmuted.');
    } catch (error) {
      this.shell.toast(error.message);
    } finally {
      this.muteButton.removeAttribute('aria-busy');
    }
  }

  renderHeader() {
    const conversation = state.conversations.get(this.id);
    const muted = Boolean(conversation?.isMuted);
    this.muteButton.setAttribute('aria-pressed', muted ? 'true' : 'false');
    this.muteButton.title = muted ? 'Muted: no notifications. Press to unmute.' : 'Mute notifications';
    this.muteButton.firstChild.className = `icon ${muted ? 'icon-muted' : 'icon-bell'}`;
    this.title.textContent = conversationTitle(conversation);
    const others = conversation ? conversation.members.filter((m) => !state.me || m.id !== state.me.id).map((m) => m.displayName) : [];
    this.subtitle.textContent = conversation?.isGroup ? (others.length ? `${others.join(', ')} and you` : 'Just you') : '';
    this.subtitle.hidden = !conversation?.isGroup;
    this.infoButton.disabled = !conversation;
    this.info.refresh();
  }

  renderTranscript() {
    this.transcript.render(transcript(this.id), state.conversations.get(this.id));
  }

  /** One line of a message, for a reply's quote. */
  previewOf(m) {
    if (m.text !== undefined && m.text !== null) return readableText(m.text, state.conversations.get(this.id));
    if (m.sticker) return 'Sticker';
    if (m.attachment) {
      const kind = attachmentKind(m.attachment);
      return kind ? kind[0].toUpperCase() + kind.slice(1) : m.attachment.name;
    }
    if (m.app) return `${m.app.appName} message`;
    return 'Message';
  }

  /** Shows a message a search found: loads history back to it, however far. */
  async showMessage(messageId, sequence) {
    try {
      await client.loadBackTo(this.id, sequence);
    } catch (error) {
      this.shell.toast(error.message);
      return;
    }
    this.renderTranscript();
    if (!this.transcript.jumpTo(messageId)) this.shell.toast('That message is no longer here.');
  }

  /** Shows a message, loading earlier pages until it is there (a few at most). */
  async jumpTo(messageId) {
    for (let page = 0; page < 5; page += 1) {
      if (this.transcript.jumpTo(messageId)) return;
      const t = transcript(this.id);
      if (t.reachedStart) break;
      await client.loadEarlier(this.id).catch(() => {});
      this.renderTranscript();
    }
    if (!this.transcript.jumpTo(messageId)) this.shell.toast('That message is no longer here.');
  }

  renderTyping() {
    const conversation = state.conversations.get(this.id);
    const typists = [...(state.typing.get(this.id)?.keys() ?? [])];
    this.transcript.setTyping(typists.map((id) => conversation?.members.find((m) => m.id === id)?.displayName ?? 'Someone'));
  }

  /**
   * Tells the others the person is typing: again every 2 seconds while the field has text (the
   * server passes one on per 3 seconds; others stop showing it after 6), and once when it empties.
   */
  noteTyping(text) {
    const now = Date.now();
    if (text.trim()) {
      if (now - this.typingSaidAt >= 2000) {
        this.typingSaidAt = now;
        client.typing(this.id, true);
      }
    } else if (this.typingSaidAt) {
      this.typingSaidAt = 0;
      client.typing(this.id, false);
    }
  }

  renderApp() {
    const update = state.apps.get(this.id);
    const hadFocus = this.surface.element.contains(document.activeElement);
    const result = this.surface.show(update);
    const open = this.surface.isOpen;
    this.element.classList.toggle('has-app', open);
    this.element.classList.toggle('has-expanded-app', open && this.surface.style === 'expanded');
    this.transcript.element.inert = open && this.surface.style === 'expanded';
    this.placeSurface(open && this.surface.style === 'expanded');
    if (open && this.trayMode !== 'none') this.setTray('none');
    if (result === 'opened' && this.expectOpen) {
      this.expectOpen = false;
      this.surface.focusStart();
    } else if (result === 'closed' && (hadFocus || document.activeElement === document.body)) {
      this.composer.focus();
    }
  }

  /**
   * Puts the app where it is seen in the order of the page, so Tab meets it there: expanded, above
   * the compose bar (it covers the conversation); compact, below it (in the tray). The focus in it
   * stays where it was (moving an element would drop it).
   */
  placeSurface(expanded) {
    const surface = this.surface.element;
    const composer = this.composer.element;
    const inPlace = expanded ? surface.nextElementSibling === composer : composer.nextElementSibling === surface;
    if (inPlace) return;
    const focused = surface.contains(document.activeElement) ? document.activeElement : null;
    if (expanded) composer.before(surface);
    else composer.after(surface);
    focused?.focus({ preventScroll: true });
  }

  /** Opens the drawer's sticker packs to place one on `message` (the keyboard's and a tap's way; dragging is the other). */
  startPlacing(message) {
    this.placingOn = message;
    this.drawer.placing = { label: message.sender === state.me?.id ? 'your message' : `${message.senderName}'s message` };
    this.setTray('drawer', true);
    const packs = this.drawer.element.querySelectorAll('.drawer-item[data-item^="sticker:"]');
    if (packs.length === 1) packs[0].click();
  }

  placeSticker(messageId, sticker, x, y) {
    const clamp = (value) => Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0.5));
    client.sendSticker(this.id, sticker, { message: messageId, x: clamp(x), y: clamp(y) });
    announce(`Placed sticker ${sticker.description || ''} on the message.`);
  }

  setTray(mode, moveFocus = false) {
    this.trayMode = mode;
    const open = mode === 'drawer';
    // Closing the drawer ends placing a sticker; focus goes back to the message it was for.
    const placedOn = open ? null : this.placingOn;
    if (!open) {
      this.placingOn = null;
      this.drawer.placing = null;
    }
    this.tray.hidden = !open;
    this.composer.setDrawerOpen(open);
    this.element.classList.toggle('has-tray', open);
    if (open) {
      if (this.surface.isOpen) client.closeApp(this.id);
      this.drawer.pack = null;
      this.drawer.render();
      if (moveFocus) this.drawer.focusStart();
    } else if (moveFocus) {
      if (placedOn) this.transcript.focusMessage(placedOn.id);
      else focus(this.composer.appsButton);
    }
  }

  openMessage(message) {
    this.expectOpen = true;
    if (message.app?.appID) this.surface.showOpening(message.app.appID);
    client.tapMessage(this.id, message.id);
  }

  async getApp(message) {
    const app = message.app;
    try {
      await client.setInstalled(app.appID, true);
      announce(`${app.appName} is in your drawer.`);
      await client.reloadTranscript(this.id);
      this.openMessage(message);
    } catch (error) {
      this.shell.toast(error.message);
    }
  }

  /** A link shared by an app the person does not have, in the in-app web page. */
  openWeb(url, title) {
    this.webReturn = document.activeElement;
    const back = h('button', { type: 'button', class: 'button button-plain web-back', text: 'Back', on: { click: () => this.closeWeb() } });
    replaceChildren(this.webSheet, h('div', { class: 'web-sheet', attrs: { role: 'dialog', 'aria-label': title || 'Web page' } }, back, webPageView(url, title)));
    this.webSheet.hidden = false;
    focus(back);
  }

  closeWeb() {
    this.webSheet.hidden = true;
    replaceChildren(this.webSheet);
    focus(this.webReturn?.isConnected ? this.webReturn : this.composer.input);
  }
}
