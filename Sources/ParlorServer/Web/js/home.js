// An app's home surface (the app itself, outside any conversation: Icon Store's shop, Todo's
// list), full size in the main area.

import * as client from './client.js';
import { focus, h } from './dom.js';
import { appInfo, on, state } from './state.js';
import { AppSurface } from './surface.js';

export class HomeView {
  constructor(appId) {
    this.appId = appId;
    this.unsubscribe = [];
    this.surface = new AppSurface({
      kind: 'home',
      onEvent: (event) => client.homeEvent(this.appId, event),
      onClose: () => {
        location.hash = '#/';
      },
      redraw: () => this.render(),
    });
    const info = appInfo(appId);
    this.loading = h('p', { class: 'home-loading', attrs: { role: 'status' }, text: `Opening ${info?.name ?? 'the app'}…` });
    this.element = h('section', { class: 'home' }, this.loading, this.surface.element);
  }

  mount() {
    this.unsubscribe.push(
      on('home', (appId) => appId === this.appId && this.render()),
      on('ready', (isReconnect) => isReconnect && client.openHome(this.appId)),
      on('directory', () => this.surface.isOpen && this.surface.drawHeader(this.surface.update)),
    );
    state.homes.delete(this.appId);
    client.openHome(this.appId);
  }

  render() {
    const result = this.surface.show(state.homes.get(this.appId));
    this.loading.hidden = this.surface.isOpen;
    if (result === 'opened') this.surface.focusStart();
  }

  focusStart() {
    focus(this.loading);
  }

  dispose() {
    for (const off of this.unsubscribe) off();
    client.closeHome(this.appId);
  }
}
