// Starts Parlor in the browser: signs in, lays out the sidebar and the main area, follows the
// address (#/c/<conversation>, #/home/<app>), and shows the connection's state: without the
// server (a start from the service worker's shell), a page that says so and starts once it answers.

import { api, ApiError } from './api.js';
import { noteSignedOut, showAuth } from './auth.js';
import { upload } from './attachments.js';
import * as client from './client.js';
import { ConversationView } from './conversation.js';
import { announce, focus, h, replaceChildren } from './dom.js';
import { StoreDialog } from './drawer.js';
import { keepFocus } from './focuskeeper.js';
import { HomeView } from './home.js';
import { NewConversationDialog } from './newconversation.js';
import { notificationsOn, setNotifications, startAlerts } from './notify.js';
import { forgetPush, listenForOpen, subscribePush, unsubscribePush } from './push.js';
import { forgetShared, ShareDialog, takeShared } from './share.js';
import { Sidebar } from './sidebar.js';
import { bump, emit, on, state } from './state.js';
import { loadRules, rules } from './rules.js';
import { deleteCopy, keepCopy, readCopy, restoreCopy } from './offline.js';
import { retryDelay } from './socket.js';
import { checkForUpdate, startUpdates } from './updates.js';

const root = document.getElementById('app');
/** What the banner says while the server cannot be reached. */
const OFFLINE_TEXT = 'Connection lost. Reconnecting…';
/** Starts tried while the server cannot be reached, and the timer of the next. */
let bootAttempts = 0;
let bootTimer = null;
let booting = false;

async function boot() {
  clearTimeout(bootTimer);
  bootTimer = null;
  if (booting) return;
  booting = true;
  try {
    // The server's limits and windows come first: every screen follows them.
    await loadRules();
    const me = await api('/api/me');
    document.body.classList.remove('is-offline');
    // Back after a start without the server: it may be a newer version by now.
    if (bootAttempts > 0) checkForUpdate();
    startApp(me.user);
  } catch (error) {
    if (unreachable(error)) {
      // Started without the server: what this browser kept of the account, if anything, with the
      // banner; the socket connects by itself once the server is back.
      const copy = bootAttempts === 0 && !started ? await readCopy() : null;
      if (copy) {
        Object.assign(rules, copy.rules);
        restoreCopy(copy);
        document.body.classList.add('is-offline');
        startApp(copy.me, { offline: true });
        return;
      }
      showOffline();
      return;
    }
    document.body.classList.remove('is-offline');
    if (error instanceof ApiError && error.status === 401) {
      // Signed out (here or elsewhere): nothing of the account stays in this browser.
      await deleteCopy();
      root.removeAttribute('aria-busy');
      showAuth(root, (user) => startApp(user, { signedIn: true }));
    } else {
      replaceChildren(root, h('main', { class: 'auth' }, h('div', { class: 'auth-card' },
        h('h1', { class: 'auth-title', text: 'Parlor cannot be reached' }),
        h('p', { text: error.message }),
        h('button', { type: 'button', class: 'button button-primary', text: 'Try again', on: { click: () => location.reload() } }))));
    }
  } finally {
    booting = false;
  }
}

/** No answer from the server: the network is down, or the server (a proxy answers for it). */
function unreachable(error) {
  return error instanceof ApiError && (error.status === 0 || (error.status >= 502 && error.status <= 504));
}

/** Parlor opened without its server (its page kept by the service worker): it says so with the
 * connection banner and starts by itself once the server answers, trying as the socket does
 * (further and further apart, up to 15 s; at once when the browser is back online). */
function showOffline() {
  root.removeAttribute('aria-busy');
  document.body.classList.add('is-offline');
  if (!root.querySelector('.offline-start')) {
    replaceChildren(root,
      h('div', { class: 'connection-banner', text: OFFLINE_TEXT, attrs: { role: 'status' } }),
      h('main', { class: 'auth offline-start' }, h('div', { class: 'auth-card' },
        h('span', { class: 'brand-mark brand-mark-large', attrs: { 'aria-hidden': 'true' } }),
        h('h1', { class: 'auth-title', text: 'Parlor' }),
        h('p', { text: 'Parlor cannot reach its server. It opens by itself as soon as the server answers.' }),
        h('button', { type: 'button', class: 'button button-primary', text: 'Try again', on: { click: () => boot() } }))));
  }
  bootTimer = setTimeout(boot, retryDelay(bootAttempts));
  bootAttempts += 1;
}

window.addEventListener('online', () => {
  if (bootTimer) boot();
});

/** Whether Parlor was laid out once in this page (a copy is shown only at the first start). */
let started = false;

/** Lays out Parlor for `user`; `signedIn` when they just signed in or up (focus then moves on
 * purpose, to the open view or the conversation list, instead of falling to <body>); `offline`
 * when it starts from the copy kept in this browser, the server out of reach. */
function startApp(user, { signedIn = false, offline = false } = {}) {
  started = true;
  state.me = user;
  state.drafts.restore(user.id);
  root.removeAttribute('aria-busy');
  let view = null;
  let route = null;
  /** A message a search found, to show once its conversation is open. */
  let pendingMessage = null;

  const banner = h('div', { class: 'connection-banner', hidden: true, attrs: { role: 'status' } });
  const toasts = h('div', { class: 'toasts', attrs: { 'aria-live': 'assertive' } });
  const main = h('main', { class: 'main', id: 'main', tabIndex: -1 });
  const placeholder = () => h('div', { class: 'placeholder' },
    h('span', { class: 'brand-mark brand-mark-large', attrs: { 'aria-hidden': 'true' } }),
    h('h1', { class: 'placeholder-title', text: `Hi, ${state.me.displayName}` }),
    h('p', { text: 'Pick a conversation, or start a new one.' }),
    h('button', { type: 'button', class: 'button button-primary', text: 'New conversation', on: { click: () => newConversation.open() } }));

  const toast = (message) => {
    const item = h('div', { class: 'toast', attrs: { role: 'alert' } },
      h('p', { text: message }),
      h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': 'Dismiss' }, on: { click: () => item.remove() } },
        h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } })));
    toasts.append(item);
    setTimeout(() => item.remove(), 8000);
  };

  const store = new StoreDialog({ onInstall: (item, installed) => client.setInstalled(item, installed) });
  const shell = { openStore: () => store.open(), toast };
  const newConversation = new NewConversationDialog((conversation) => {
    state.conversations.set(conversation.id, conversation);
    bump(conversation.id);
    emit('conversations');
    location.hash = `#/c/${encodeURIComponent(conversation.id)}`;
  });
  /** Leaves for the sign-in page, forgetting what this tab kept of the account. */
  const leave = () => {
    client.stop();
    state.drafts.forget();
    navigator.clearAppBadge?.().catch(() => {});
    location.hash = '';
    Promise.all([deleteCopy(), forgetShared(), forgetPush().catch(() => {})]).finally(() => location.reload());
  };
  /** The sign-in ended elsewhere (another device signed out everywhere, a password change). */
  const signedOut = () => {
    noteSignedOut();
    leave();
  };
  on('signedOut', signedOut);
  on('announce', announce);
  /** `work` as a Settings or list handler: a refusal is said in a toast, then thrown on to the
   * caller, which keeps the person's place. */
  const sayingWhy = (work) => async (...args) => {
    try {
      return await work(...args);
    } catch (error) {
      toast(error.message);
      throw error;
    }
  };
  const sidebar = new Sidebar({
    onNewConversation: () => newConversation.open(),
    onSignOut: async () => {
      client.stop();
      // This browser's notifications with Parlor closed end with the sign-in (the server drops
      // its subscription too).
      await unsubscribePush().catch(() => {});
      try {
        await api('/api/auth/signout', { method: 'POST' });
      } finally {
        leave();
      }
    },
    onLanguage: () => client.sayLanguage(),
    onSignOutEverywhere: async () => {
      // This tab's socket closes too: stopped first, so that its close is not taken for news.
      client.stop();
      try {
        await api('/api/auth/signout-everywhere', { method: 'POST' });
      } catch (error) {
        client.start();
        throw error;
      }
      leave();
    },
    onSettings: async () => ({ ...(await client.loadMe()), notifications: notificationsOn() }),
    onDeleteConversation: sayingWhy((conversationId) => client.deleteConversation(conversationId)),
    onListSetting: sayingWhy((conversationId, setting, on) => client.setListSetting(conversationId, setting, on)),
    onMarkRead: sayingWhy((conversationId) => client.markConversationRead(conversationId)),
    onNotifications: async (wanted) => {
      const enabled = await setNotifications(wanted);
      announce(enabled ? 'Notifications on.' : 'Notifications off.');
      // With Parlor closed too, where the browser can: said when it cannot.
      const push = enabled ? subscribePush() : unsubscribePush();
      push.then(() => sidebar.push.refresh(), (error) => { if (enabled) toast(error.message); });
      return enabled;
    },
    onSearchResult: (result) => {
      const target = { conversation: result.conversation, id: result.message.id, sequence: result.message.sequence };
      if (route?.name === 'conversation' && route.id === target.conversation) {
        view.showMessage(target.id, target.sequence);
      } else {
        pendingMessage = target;
        location.hash = `#/c/${encodeURIComponent(target.conversation)}`;
      }
    },
    onPicture: sayingWhy(async (file) => {
      const me = await client.setAvatar(file ? (await upload(file)).hash : null);
      announce(file ? 'Profile picture changed.' : 'Profile picture removed.');
      return me;
    }),
    onDisplayName: sayingWhy(async (name) => {
      const me = await client.setDisplayName(name);
      announce(`Your name is now ${me.user.displayName}.`);
      return me;
    }),
    onAbout: sayingWhy(async (about) => {
      const me = await client.setAbout(about);
      announce(me.user.about ? 'Saved what you say about yourself.' : 'Removed what you said about yourself.');
      return me;
    }),
    onReadReceipts: sayingWhy(async (shares) => {
      const me = await client.setSharesReadReceipts(shares);
      announce(me.sharesReadReceipts ? 'Read receipts on.' : 'Read receipts off.');
      return me;
    }),
  });

  replaceChildren(root, h('a', { class: 'skip-link', href: '#main', text: 'Skip to content', on: { click: (event) => { event.preventDefault(); focus(main); } } }),
    banner, h('div', { class: 'layout' }, sidebar.element, main), toasts);

  /** Read once the conversations are known (the share picker lists them). */
  let listed = Promise.resolve();
  const share = new ShareDialog((id) => { location.hash = `#/c/${encodeURIComponent(id)}`; });
  /** Another app shared something (sw.js kept it and opened #/share): "Send to…", once. */
  const receiveShare = async () => {
    await listed;
    const shared = await takeShared().catch(() => null);
    if (!shared) toast('Nothing arrived to share. Open Parlor once, then share again from the other app.');
    else if (shared.unreadable) toast('What was shared could not be read. Share it again from the other app.');
    else share.open(shared);
  };

  const navigate = () => {
    const hash = location.hash.replace(/^#\/?/, '');
    const [kind, rawId] = hash.split('/');
    if (kind === 'share') {
      // Taken once: a reload or Back does not open it again.
      history.replaceState(null, '', '#/');
      receiveShare();
    }
    const id = rawId ? decodeURIComponent(rawId) : null;
    const next = kind === 'c' && id ? { name: 'conversation', id } : kind === 'home' && id ? { name: 'home', id } : { name: 'list' };
    if (route && next.name === route.name && next.id === route.id) return;
    route = next;
    view?.dispose();
    view = null;
    if (next.name === 'conversation') view = new ConversationView(next.id, shell);
    else if (next.name === 'home') view = new HomeView(next.id);
    replaceChildren(main, view ? view.element : placeholder());
    root.querySelector('.layout').dataset.route = next.name;
    view?.mount();
    sidebar.setCurrent(next);
    if (pendingMessage && next.name === 'conversation' && pendingMessage.conversation === next.id) {
      view.showMessage(pendingMessage.id, pendingMessage.sequence);
    } else if (view) {
      view.focusStart();
    }
    pendingMessage = null;
  };

  on('conversations', () => sidebar.render());
  // A notification clicked while Parlor is open (the service worker asks): its conversation.
  listenForOpen((hash) => { location.hash = hash; });
  // Deleted by the person (here or on another device) while open: back to the list.
  on('deleted', (id) => {
    if (route?.name === 'conversation' && route.id === id) location.hash = '#/';
  });
  // Notifications with Parlor closed follow this sign-in: the browser's subscription (ended with
  // the last sign-in) is given again, quietly, when the person has them on here.
  if (notificationsOn()) subscribePush().catch(() => {});
  startAlerts({
    isShowing: (id) => route?.name === 'conversation' && route.id === id && document.visibilityState === 'visible' && document.hasFocus(),
    open: (id) => { location.hash = `#/c/${encodeURIComponent(id)}`; },
  });
  on('directory', () => sidebar.render());
  // A reconnect may be to a server of a newer version: its worker then takes over, and says so.
  on('ready', (isReconnect) => { if (isReconnect) checkForUpdate(); });
  on('status', (status) => {
    const offline = status === 'offline' || status === 'reconnecting';
    banner.hidden = !offline;
    banner.textContent = offline ? OFFLINE_TEXT : '';
    document.body.classList.toggle('is-offline', offline);
  });
  on('error', (error) => {
    // Sends that failed are marked on their bubble; the rest is said here.
    if (error.handled) return;
    if (error.code === 'sessionConflict') toast('Someone else answered first: the newest message is now in the conversation.');
    else toast(error.message);
  });
  on('status', async (status) => {
    // A socket refused may mean the sign-in ended while this tab was away (asleep, offline) and
    // missed the close that says so: asked at each failure, as often as the socket's backoff.
    if (status !== 'offline') return;
    try {
      await api('/api/me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) signedOut();
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && route?.name === 'conversation') client.markRead(route.id);
    // A hidden tab's timers are slowed down: what was read goes now.
    if (document.visibilityState === 'hidden') client.flushReads();
  });
  window.addEventListener('pagehide', () => client.flushReads());
  window.addEventListener('hashchange', navigate);

  keepCopy({ ...rules });
  if (offline) {
    // The copy is on screen; once the server answers, everything is read from it again.
    const unsubscribe = on('ready', () => {
      unsubscribe();
      for (const t of state.transcripts.values()) t.loaded = false;
      Promise.all([client.loadConversations(), client.loadDirectory()]).catch((error) => toast(error.message)).finally(() => sidebar.render());
      if (route?.name === 'conversation') client.ensureTranscript(route.id).catch(() => {});
      checkForUpdate();
    });
    sidebar.render();
  } else {
    listed = Promise.all([client.loadConversations(), client.loadDirectory()]).catch((error) => toast(error.message)).finally(() => {
      sidebar.render();
    });
  }
  client.start();
  navigate();
  if (signedIn && !view) sidebar.focusStart();
}

keepFocus();
startUpdates();
boot();
