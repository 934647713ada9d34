// The service worker (/sw.js, which keeps Parlor's shell so that it opens without the server):
// registered where the browser has them. When a new version's worker takes over the open page,
// a notice offers to reload, rather than let the page go on with files of two versions.

import { h } from './dom.js';

/** Whether a worker controls this page, or one is installed (a hard reload leaves the page
 * uncontrolled): the first one ever to take over a page changes nothing of it, and is not news;
 * any other is a new version. */
let controlled = false;
let notice = null;

/** Registers the worker and listens for a new version taking over. */
export function startUpdates() {
  if (!navigator.serviceWorker) return;
  const workers = navigator.serviceWorker;
  controlled = Boolean(workers.controller);
  workers.getRegistration().then((registration) => {
    if (registration?.active) controlled = true;
  }, (error) => {
    // No registration to read: none is installed, so the first takeover is not news.
    console.info('Parlor could not read its service worker:', error.message);
  });
  // There from the start and empty, so that what goes in is announced (politely).
  notice = h('div', { class: 'update-notice', attrs: { role: 'status' } });
  document.body.append(notice);
  workers.addEventListener('controllerchange', () => {
    if (controlled) showUpdated();
    controlled = true;
  });
  workers.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch((error) => {
    // Offline with a worker already installed, or a browser that refuses workers here: Parlor
    // works as before, only not offline.
    console.warn('Parlor could not install its service worker:', error.message);
  });
}

/** Asks the server whether it has a new version (a reconnect may be to an upgraded server). */
export function checkForUpdate() {
  if (!navigator.serviceWorker) return;
  navigator.serviceWorker.ready.then((registration) => registration.update()).catch((error) => {
    // The server is out of reach again: the next reconnect asks again.
    console.info('Parlor could not check for a new version:', error.message);
  });
}

function showUpdated() {
  if (!notice || notice.firstChild) return;
  notice.append(h('div', { class: 'update-card' },
    h('p', { text: 'Parlor was updated — ' }),
    h('button', { type: 'button', class: 'button button-primary', text: 'Reload', on: { click: () => location.reload() } })));
}
