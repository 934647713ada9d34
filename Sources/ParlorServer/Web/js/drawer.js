// The app drawer (installed apps and sticker packs, in the person's order), a sticker pack's
// browser, and the store where apps and packs are installed or removed.

import { dialogHeader, focus, h, replaceChildren, safeImageURL } from './dom.js';
import { stickerGrid } from './viewtree.js';
import { state } from './state.js';

function iconImage(url, className) {
  const src = safeImageURL(url);
  return src
    ? h('img', { class: className, src, alt: '', attrs: { 'aria-hidden': 'true' } })
    : h('span', { class: [className, 'icon-placeholder'], attrs: { 'aria-hidden': 'true' } });
}

/** The first sticker of a pack stands for it in the drawer. */
function packIcon(pack) {
  return pack.stickers.length ? pack.stickers[0].url : null;
}

/** The drawer's items in order: {kind: 'app'|'pack', id, name, icon, info}. */
export function drawerItems() {
  const dir = state.directory;
  if (!dir) return [];
  const items = [];
  for (const id of dir.drawer) {
    if (id.startsWith('sticker:')) {
      const pack = dir.packs.find((p) => p.drawerID === id);
      if (pack) items.push({ kind: 'pack', id: pack.id, name: pack.name, icon: packIcon(pack), info: pack });
    } else {
      const app = dir.apps.find((a) => a.id === id);
      if (app) items.push({ kind: 'app', id: app.id, name: app.name, icon: app.iconURL, info: app });
    }
  }
  return items;
}

export class Drawer {
  /** handlers: onOpenApp(appId), onSendSticker(sticker), onClose(), onStore() */
  constructor(handlers) {
    this.handlers = handlers;
    this.pack = null;
    /** While a sticker is being placed on a message: `{ label }` ("Bob's message"); the drawer offers sticker packs only. */
    this.placing = null;
    this.element = h('div', { class: 'drawer', attrs: { role: 'region', 'aria-label': 'App drawer' } });
  }

  render() {
    if (this.pack) {
      this.renderPack();
      return;
    }
    const items = drawerItems().filter((item) => !this.placing || item.kind === 'pack');
    const list = h('ul', { class: 'drawer-items', attrs: { 'aria-label': this.placing ? 'Your stickers' : 'Your apps and stickers' } });
    for (const item of items) {
      list.append(h('li', {}, h('button', {
        type: 'button',
        class: 'drawer-item',
        dataset: { item: item.kind === 'app' ? item.id : `sticker:${item.id}`, focusKey: `drawer:${item.id}` },
        attrs: { 'aria-label': item.kind === 'app' ? `Open ${item.name}` : `${item.name} stickers` },
        on: { click: () => (item.kind === 'app' ? this.handlers.onOpenApp(item.id) : this.openPack(item.info)) },
      }, iconImage(item.icon, 'drawer-icon'), h('span', { class: 'drawer-name', text: item.name }))));
    }
    list.append(h('li', {}, h('button', {
      type: 'button',
      class: 'drawer-item drawer-store',
      attrs: { 'aria-label': 'Store: get more apps and stickers' },
      on: { click: () => this.handlers.onStore() },
    }, h('span', { class: 'drawer-icon icon-store', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'drawer-name', text: 'Store' }))));
    replaceChildren(this.element,
      h('div', { class: 'tray-header' },
        h('h2', { class: 'tray-title', tabIndex: -1, text: this.placing ? 'Place a sticker' : 'Apps' }),
        h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': this.placing ? 'Cancel placing a sticker' : 'Close app drawer' }, on: { click: () => this.handlers.onClose() } },
          h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }))),
      this.placingNote(),
      items.length ? null : h('p', { class: 'drawer-empty', text: this.placing ? 'You have no stickers yet. Get a sticker pack from the store.' : 'Your drawer is empty. Get apps and stickers from the store.' }),
      list);
  }

  /** While placing: which message the sticker goes on. */
  placingNote() {
    return this.placing ? h('p', { class: 'drawer-placing', text: `Choose a sticker to place on ${this.placing.label}.` }) : null;
  }

  openPack(pack) {
    this.pack = pack;
    this.renderPack();
    focus(this.element.querySelector('.sticker-button') || this.element.querySelector('.tray-title'));
  }

  closePack() {
    const id = this.pack?.id;
    this.pack = null;
    this.render();
    focus(this.element.querySelector(`[data-item="sticker:${CSS.escape(id || '')}"]`));
  }

  renderPack() {
    const pack = this.pack;
    const fresh = state.directory?.packs.find((p) => p.id === pack.id) || pack;
    replaceChildren(this.element,
      h('div', { class: 'tray-header' },
        h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': 'Back to apps' }, on: { click: () => this.closePack() } },
          h('span', { class: 'icon icon-back', attrs: { 'aria-hidden': 'true' } })),
        h('h2', { class: 'tray-title', tabIndex: -1, text: fresh.name }),
        fresh.author ? h('span', { class: 'tray-subtitle', text: `by ${fresh.author}` }) : null,
        h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': this.placing ? 'Cancel placing a sticker' : 'Close app drawer' }, on: { click: () => this.handlers.onClose() } },
          h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } }))),
      this.placingNote() ?? h('p', { class: 'drawer-hint', text: 'Tap a sticker to send it, or drag it onto a message to place it there.' }),
      stickerGrid({
        label: `${fresh.name} stickers`,
        gridSize: fresh.gridSize,
        stickers: fresh.stickers,
        verb: this.placing ? 'Place' : 'Send',
        draggable: !this.placing,
        onPick: (sticker) => this.handlers.onSendSticker(sticker),
      }));
  }

  focusStart() {
    focus(this.element.querySelector('.drawer-item') || this.element.querySelector('.tray-title'));
  }
}

/** The store: every app and sticker pack of the server, with Get or Remove. */
/** Who an app comes from, as the store says it: an app from outside the server names its
 * publisher and its id, so that it is not taken for one the server ships. */
function appOrigin(app) {
  if (!app.isOutside) return 'Comes with Parlor';
  return `From ${app.publisher ? app.publisher : 'an unnamed publisher'}, outside this server (${app.id})`;
}

export class StoreDialog {
  /** handlers: onInstall(item, installed) → Promise */
  constructor(handlers) {
    this.handlers = handlers;
    this.status = h('p', { class: 'store-status', attrs: { role: 'status' } });
    this.content = h('div', { class: 'store-content' });
    this.element = h('dialog', { class: 'dialog store', attrs: { 'aria-labelledby': 'store-title' } },
      dialogHeader('Store', { id: 'store-title', label: 'Close store', onClose: () => this.element.close() }),
      this.content, this.status);
    document.body.append(this.element);
  }

  open() {
    this.render();
    this.status.textContent = '';
    this.element.showModal();
  }

  render() {
    const dir = state.directory;
    if (!dir) return;
    const row = (item, name, summary, icon, installed, detail, permissions = []) => h('li', { class: 'store-row' },
      iconImage(icon, 'store-icon'),
      h('div', { class: 'store-text' }, h('h3', { class: 'store-name', text: name }), summary ? h('p', { class: 'store-summary', text: summary }) : null,
        detail ? h('p', { class: 'store-detail', text: detail }) : null,
        // What the app may do, read before it is added (as Slack's install screen shows).
        permissions.length ? h('div', { class: 'store-permissions' },
          h('p', { class: 'store-detail', text: `${name} can:` }),
          h('ul', { attrs: { 'aria-label': `What ${name} can do` } }, permissions.map((line) => h('li', { class: 'store-detail', text: line })))) : null),
      h('button', {
        type: 'button',
        class: ['button', installed ? 'button-secondary' : 'button-primary'],
        text: installed ? 'Remove' : 'Get',
        dataset: { storeItem: item },
        attrs: { 'aria-label': installed ? `Remove ${name}` : `Get ${name}` },
        on: { click: (event) => this.toggle(item, !installed, name, event.currentTarget) },
      }));
    replaceChildren(this.content,
      h('h3', { class: 'store-section', text: 'Apps' }),
      h('ul', { class: 'store-list' }, dir.apps.map((a) => row(a.id, a.name, a.summary, a.iconURL, a.installed, appOrigin(a), a.permissions || []))),
      h('h3', { class: 'store-section', text: 'Sticker packs' }),
      h('ul', { class: 'store-list' }, dir.packs.map((p) => row(p.drawerID, p.name, p.author ? `by ${p.author}` : null, packIcon(p), p.installed, `${p.stickers.length} stickers`))));
  }

  async toggle(item, install, name, button) {
    button.disabled = true;
    try {
      await this.handlers.onInstall(item, install);
      this.status.textContent = install ? `${name} is in your drawer.` : `${name} was removed.`;
      this.render();
      focus(this.content.querySelector(`[data-store-item="${CSS.escape(item)}"]`));
    } catch (error) {
      this.status.textContent = error.message;
      button.disabled = false;
    }
  }
}
