// The one WebSocket of a tab: connects, says hello with the last sequence seen per conversation,
// reconnects with backoff when it drops, queues what is sent while offline, and resends
// idempotent sends (same message id) that were not acknowledged.

import { newId } from './ids.js';
import { rules } from './rules.js';
import { ClientFrame, CloseCode, ServerFrame } from './protocol.js';
import { appLanguage } from './language.js';

const PING_INTERVAL = 25000;
const PING_TIMEOUT = 10000;
const CONNECT_TIMEOUT = 10000;

/** How long to wait (ms) before try number `attempt` (from 0) to reach the server: further and
 * further apart up to 15 s, spread at random so that tabs do not all come back at once. */
export function retryDelay(attempt) {
  const base = Math.min(15000, 400 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

export class Connection {
  /**
   * onFrame(frame): every server frame. onStatus(status): 'connecting' | 'online' | 'offline'.
   * since(): {conversationId: lastSequence} for the conversations whose messages the tab holds.
   * onReady(isReconnect): after the replay of what was missed. onSignedOut(): the server closed
   * the socket because the sign-in ended; it does not reconnect.
   */
  constructor({ onFrame, onStatus, since, onReady, onSignedOut }) {
    this.onFrame = onFrame;
    this.onSignedOut = onSignedOut;
    this.onStatus = onStatus;
    this.since = since;
    this.onReady = onReady;
    this.socket = null;
    this.ready = false;
    this.attempt = 0;
    this.everReady = false;
    this.queue = [];
    this.inflight = new Map(); // requestId → {frame, retry}
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && !this.socket) this.reconnectNow();
    });
  }

  connect() {
    if (this.stopped || this.socket) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.onStatus(this.everReady ? 'reconnecting' : 'connecting');
    const url = new URL('/ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let socket;
    try {
      socket = new WebSocket(url.href);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.ready = false;
    // A connection that hangs (a network black hole) is given up and tried again.
    clearTimeout(this.connectTimer);
    this.connectTimer = setTimeout(() => {
      if (socket === this.socket && !this.ready) {
        socket.close();
        this.dropped(socket);
      }
    }, CONNECT_TIMEOUT);
    socket.addEventListener('message', (event) => this.receive(socket, event));
    socket.addEventListener('close', (event) => {
      // The sign-in ended (signed out here or elsewhere, a password change): reconnecting would be refused.
      if (event.code === CloseCode.signedOut && socket === this.socket) {
        this.stop();
        this.onSignedOut?.();
      } else {
        this.dropped(socket);
      }
    });
    socket.addEventListener('error', () => {
      // 'close' follows and reconnects.
    });
  }

  /** Stops for good (sign-out). */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    if (this.socket) this.socket.close(1000, 'Signed out');
    this.socket = null;
  }

  /** Connects again at once, saying hello anew (a new language for apps). */
  restart() {
    const current = this.socket;
    if (this.stopped || !current) return;
    this.dropped(current);
    current.close(1000, 'Saying hello again');
    this.reconnectNow();
  }

  /** The network is back (or the tab visible again): try at once, and soon again if that fails. */
  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    if (this.socket) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  /**
   * Sends a frame now, or when the connection is back. `retry`: resend after a reconnect until
   * acknowledged (only for frames the server treats idempotently, like sends with an id).
   * Returns the request id.
   */
  send(frame, { retry = false } = {}) {
    const requestId = frame.requestId || newId();
    const full = { ...frame, requestId };
    // The server closes the connection on a message over its limit (1009): such a frame is
    // answered here as the server would refuse it, never sent (nor sent again on reconnecting).
    const bytes = new TextEncoder().encode(JSON.stringify(full)).length;
    if (rules.maxFrameBytes && bytes > rules.maxFrameBytes) {
      const limit = Math.floor(rules.maxFrameBytes / 1024);
      queueMicrotask(() => this.onFrame({
        type: ServerFrame.error, requestId,
        error: { code: 'frameTooLarge', message: `This is too long to send: ${Math.ceil(bytes / 1024)} KB, and the limit is ${limit} KB. Shorten it.` },
      }));
      return requestId;
    }
    if (retry) this.inflight.set(requestId, full);
    if (this.ready && this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(full));
    } else if (!retry) {
      this.queue.push(full);
    }
    return requestId;
  }

  /** The server answered a request: stop resending it. */
  settle(requestId) {
    if (requestId) this.inflight.delete(requestId);
  }

  receive(socket, event) {
    if (socket !== this.socket) return;
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!frame || typeof frame.type !== 'string') return;
    switch (frame.type) {
      case ServerFrame.welcome:
        socket.send(JSON.stringify({ type: ClientFrame.hello, since: this.since(), language: appLanguage() }));
        break;
      case ServerFrame.ready: {
        const isReconnect = this.everReady;
        this.ready = true;
        this.everReady = true;
        clearTimeout(this.connectTimer);
        this.attempt = 0;
        this.onStatus('online');
        this.flush();
        this.startPing();
        this.onReady(isReconnect);
        break;
      }
      case ServerFrame.pong:
        clearTimeout(this.pongTimer);
        break;
      default:
        if (frame.requestId && (frame.type === ServerFrame.ack || frame.type === ServerFrame.error)) this.settle(frame.requestId);
        break;
    }
    this.onFrame(frame);
  }

  flush() {
    const resend = [...this.inflight.values()];
    const queued = this.queue;
    this.queue = [];
    for (const frame of [...resend, ...queued]) this.socket.send(JSON.stringify(frame));
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    this.socket = null;
    this.ready = false;
    this.stopPing();
    if (this.stopped) return;
    this.onStatus('offline');
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    if (this.stopped || this.retryTimer) return;
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
      this.socket.send(JSON.stringify({ type: ClientFrame.ping, requestId: newId() }));
      clearTimeout(this.pongTimer);
      const socket = this.socket;
      // No answer: the connection is dead even if the browser has not noticed.
      this.pongTimer = setTimeout(() => {
        socket.close(4000, 'No pong');
        this.dropped(socket);
      }, PING_TIMEOUT);
    }, PING_INTERVAL);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }
}
