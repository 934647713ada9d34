// Parlor's service worker: keeps the app shell (the page, its styles, scripts and icons) so that
// Parlor opens without the server, and nothing else: no API answer, no socket, no image or
// upload, nothing of anyone's account, so signing out leaves nothing private here.
//
// The server serves this file at /sw.js (the root: its scope is all of Parlor) with `BUILD`
// written above it (API/WebAppRoutes.swift): `version`, a digest of every file of the client,
// and `shell`, the paths kept with the SHA-256 of each. A server with other files serves another
// worker; the browser installs it, it takes over at once and drops the shells of other versions,
// and the open page says "Parlor was updated" (js/updates.js).
//
// While the server answers, everything comes from it, so a page never mixes files of two
// versions; the kept shell is only for when it does not. A file is kept only if its bytes are the
// ones `BUILD` names: a server restarted with other files during the install fails the install
// (the browser tries again later) instead of filling this version's shell with another's files.

/* global BUILD */

const CACHE = `parlor-shell-${BUILD.version}`;
const SHELL = new Set(Object.keys(BUILD.shell));
/** What another app shared with Parlor (the manifest's `share_target`), kept until the page takes
 * it (js/share.js): on this device only, for one start, deleted at once and at sign-out. */
const SHARE_CACHE = 'parlor-share';
const SHARE_ACTION = '/share';
/** The most photos one share keeps (the system's share sheet sends a few; more are left out). */
const MAX_SHARED_PHOTOS = 10;
/** Never answered from here, whatever they are: private or live. */
const PRIVATE = /^\/(api|ws|images|blobs)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(Object.entries(BUILD.shell).map(async ([path, digest]) => {
      // Past the HTTP cache, and without the cookie: the shell is the same for everyone.
      const response = await fetch(new Request(path, { cache: 'reload', credentials: 'omit' }));
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      if (await sha256(response.clone()) !== digest) throw new Error(`${path} is not this version's`);
      await cache.put(path, response);
    }));
    await self.skipWaiting();
  })());
});

/** The SHA-256 of a response's body, in hex. */
async function sha256(response) {
  const digest = await crypto.subtle.digest('SHA-256', await response.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name !== SHARE_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const target = new URL(request.url);
  if (request.method === 'POST' && target.origin === self.location.origin && target.pathname === SHARE_ACTION) {
    event.respondWith(receiveShare(request));
    return;
  }
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || PRIVATE.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fromServer(request, '/'));
  } else if (SHELL.has(url.pathname) && !url.search) {
    event.respondWith(fromServer(request, url.pathname));
  }
});

/** The server's answer, or the kept `path` when the server cannot be reached. */
async function fromServer(request, path) {
  try {
    const response = await fetch(request);
    // A proxy in front of a server that is down: Parlor's page says so better.
    if (response.status < 502 || response.status > 504) return response;
    return (await kept(path)) ?? response;
  } catch (error) {
    const found = await kept(path);
    if (found) return found;
    throw error;
  }
}

/** Keeps what was shared (title, text, link, photos) and opens Parlor's "Send to…" picker. Only
 * the latest share is kept; a form that cannot be read leaves the picker saying so. */
async function receiveShare(request) {
  // The system's share sheet posts with no referrer; a page of another site that posts a form
  // here does not get to fill Parlor's "Send to…".
  if (request.referrer && new URL(request.referrer).origin !== self.location.origin) return Response.redirect('/', 303);
  const cache = await caches.open(SHARE_CACHE);
  for (const key of await cache.keys()) await cache.delete(key);
  try {
    const form = await request.formData();
    const text = (name) => (typeof form.get(name) === 'string' ? form.get(name) : '');
    const photos = form.getAll('photos').filter((file) => file instanceof File && file.size > 0).slice(0, MAX_SHARED_PHOTOS);
    await Promise.all(photos.map((file, index) => cache.put(`/share/photo/${index}`, new Response(file, {
      headers: { 'Content-Type': file.type || 'application/octet-stream' },
    }))));
    const shared = {
      title: text('title'), text: text('text'), url: text('url'), photos: photos.map((file) => file.name || 'photo'), at: Date.now(),
    };
    await cache.put('/share/shared', new Response(JSON.stringify(shared), { headers: { 'Content-Type': 'application/json' } }));
  } catch {
    await cache.put('/share/shared', new Response(JSON.stringify({ unreadable: true, at: Date.now() }), { headers: { 'Content-Type': 'application/json' } }));
  }
  return Response.redirect('/#/share', 303);
}

async function kept(path) {
  const cache = await caches.open(CACHE);
  return cache.match(path);
}

// Notifications with Parlor closed (Web Push): the server sends, encrypted for this browser (the
// push service sees only ciphertext), who wrote where and, unless the person turned it off, what.
// One notification per conversation (its tag, replaced by the next). Every push shows one: a
// browser revokes (Safari) or flags (Chrome) a push that shows nothing, so no push comes only to
// close one. A conversation read on another device loses its notification here at the next push
// (closeRead) or when Parlor opens here and sees it read (js/notify.js); opening it in Parlor here
// closes it at once (js/push.js).
self.addEventListener('push', (event) => {
  event.waitUntil((async () => {
    let push = null;
    try {
      push = event.data ? event.data.json() : null;
    } catch {
      return;
    }
    if (!push || typeof push.conversation !== 'string') return;
    await self.registration.showNotification(String(push.title ?? 'Parlor'), {
      body: String(push.body ?? ''),
      tag: push.conversation,
      renotify: true,
      icon: '/icons/parlor-192.png',
      data: { url: typeof push.url === 'string' ? push.url : '/' },
    });
    await closeRead(push.conversation).catch(() => {});
  })());
});

// Closes the notifications of conversations the person has read since (on any device), but for
// `except`'s, just shown: asked of the server with this browser's sign-in, only when others show.
// Those shown after the question was asked stay (a push that came meanwhile is news).
async function closeRead(except) {
  const others = async () => (await self.registration.getNotifications()).filter((notification) => notification.tag && notification.tag !== except);
  if ((await others()).length === 0) return;
  const asked = Date.now();
  const response = await fetch('/api/conversations', { headers: { Accept: 'application/json' } });
  if (!response.ok) return;
  const conversations = await response.json();
  if (!Array.isArray(conversations)) return;
  const unread = new Set(conversations.filter((conversation) => conversation.unreadCount > 0).map((conversation) => conversation.id));
  for (const notification of await others()) {
    if (!unread.has(notification.tag) && notification.timestamp < asked) notification.close();
  }
}

// Clicked: the conversation opens in a Parlor window already there, or in a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (open) {
      await open.focus();
      open.postMessage({ type: 'open', hash: url.hash });
    } else {
      await self.clients.openWindow(url.href);
    }
  })());
});
