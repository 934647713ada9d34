// Parlor's service worker: keeps the app shell (the page, its styles, scripts and icons) so that
// Parlor opens without the server, and nothing else: no API answer, no socket, no image or
// upload, nothing of anyone's account, so signing out leaves nothing private here.
//
// The server serves this file at /sw.js (the root: its scope is all of Parlor) with `BUILD`
// written above it (API/WebAppRoutes.swift): `version`, a digest of every file of the client,
// and `shell`, the paths kept. A server with other files serves another worker; the browser
// installs it, it takes over at once and drops the shells of other versions, and the open page
// says "Parlor was updated" (js/updates.js).

/* global BUILD */

const CACHE = `parlor-shell-${BUILD.version}`;
const SHELL = new Set(BUILD.shell);
/** Never answered from here, whatever they are: private or live. */
const PRIVATE = /^\/(api|ws|images|blobs)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the HTTP cache, and without the cookie: the shell is the same for everyone.
    await cache.addAll(BUILD.shell.map((path) => new Request(path, { cache: 'reload', credentials: 'omit' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || PRIVATE.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigation(request));
  } else if (SHELL.has(url.pathname) && !url.search) {
    event.respondWith(shellFile(request));
  }
});

/** The network's page, or the kept one when the server cannot be reached. */
async function navigation(request) {
  try {
    const response = await fetch(request);
    // A proxy in front of a server that is down: Parlor's page says so better.
    if (response.status < 502 || response.status > 504) return response;
    return (await keptPage()) ?? response;
  } catch (error) {
    const kept = await keptPage();
    if (kept) return kept;
    throw error;
  }
}

async function keptPage() {
  const cache = await caches.open(CACHE);
  return cache.match('/');
}

/** A file of this version's shell, from the cache. One missing (the browser evicted it) comes from
 * the network and is not kept: the server may be of another version by now. */
async function shellFile(request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request.url)) ?? fetch(request);
}
