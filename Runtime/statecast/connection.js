/**
 * One WebSocket to the server, kept alive across drops.
 *
 * The connection owns the socket's life: it opens `/ws` with the `statecast.v1`
 * subprotocol, reports the socket open as soon as it can carry messages (before the
 * server's hello: the protocol lets a client send its first requests at once, and the
 * server answers them in order after its hello), matches each reply to its request by `ref`, reconnects after a drop with
 * jittered exponential back-off (or within a second when the server closed the socket
 * because it is restarting), and hands every other message to its owner (the
 * client), which decides what they mean. It never re-sends anything: when the socket
 * drops, every request still waiting for its reply is rejected with `connection_lost`.
 *
 * @example
 * const connection = new Connection({ url: "ws://127.0.0.1:8080/ws", onHello, onMessage, onStatus });
 * connection.start();
 * const reply = await connection.request({ op: "join", topic: "counter" });
 * @module
 */

import { backoffDelay, restartDelay } from "./backoff.js";
import { StatecastError } from "./error.js";

/** The subprotocol of this wire protocol version. */
export const SUBPROTOCOL = "statecast.v1";

/** The close code of a server that is restarting or draining; the session survives it. */
const RESTARTING = 1012;

/**
 * How a socket ended, as the connection reports it with the `closed` status.
 * @typedef {object} CloseDetail
 * @property {number} [code] the close code (1006 when the socket could not be opened)
 * @property {string} [reason]
 * @property {number} [delay] ms until the next attempt
 * @property {boolean} [restarting] the server closed a greeted socket with 1012 and the
 *   next attempt comes within a second, not after the back-off
 */

/**
 * @typedef {object} TraceEntry
 * @property {"in" | "out"} direction
 * @property {any} message
 * @property {number} bytes the message's size in UTF-8
 */

/**
 * A WebSocket as the connection uses it: the browser's, or a test's stand-in.
 * @typedef {object} SocketLike
 * @property {(data: string | Uint8Array) => void} send
 * @property {number} [readyState] 1 while open (a browser's WebSocket)
 * @property {(code?: number, reason?: string) => void} close
 * @property {((event: unknown) => void) | null} onopen
 * @property {((event: { data: unknown }) => void) | null} onmessage
 * @property {((event: { code?: number, reason?: string }) => void) | null} onclose
 * @property {((event: unknown) => void) | null} onerror
 */

/**
 * @typedef {object} ConnectionOptions
 * @property {string} url
 * @property {(hello: any) => void} onHello the server's first message on each new socket
 * @property {(message: any) => void} onMessage every message except hello and replies to requests
 * @property {(status: "connecting" | "open" | "closed", detail?: CloseDetail) => void} onStatus
 *   `connecting` when a socket is being opened; `open` when it can carry requests (its
 *   `open` event, always before the server's hello is handed to `onHello`); `closed`
 *   when it ended
 * @property {(entry: TraceEntry) => void} [onTrace]
 * @property {new (url: string, protocols: string) => SocketLike} [WebSocket] the WebSocket constructor (defaults to the global one)
 * @property {{ base?: number, cap?: number }} [backoff]
 * @property {() => number} [random]
 * @property {number} [handshakeTimeout] ms from opening a socket to the server's hello (8000)
 * @property {EarlySocket} [early] a socket the page opened before the runtime loaded: the
 *   first socket, if it has not closed meanwhile. A `Client` adopts the joins it sent;
 *   its host calls `client.leaveUnclaimed()` once the page's own joins are made.
 * @property {(fn: () => void, ms: number) => any} [setTimeout]
 * @property {(id: any) => void} [clearTimeout]
 */

/**
 * A socket the page opened itself while its styles and the runtime were still loading
 * (the snippet in docs/RUNTIME.md, "Live sooner"), with what happened to it so far:
 * the handshake then overlaps the page's loading instead of following it.
 * @typedef {object} EarlySocket
 * @property {SocketLike} socket
 * @property {string[]} messages what the server sent before the runtime took the socket over
 * @property {boolean} opened whether its open event fired
 * @property {boolean} closed whether its close event fired (the runtime then opens its own)
 * @property {{ ref: number, topic: string }[]} [joins] the joins it sent once it was open
 *   and the document parsed (refs from 1), for the client to adopt
 * @property {{ ref: number }} [hello] on a page the server rendered: the `hello` it sent
 *   to resume the page's session, for the client to adopt as its first flight's
 */

export class Connection {
  /** @type {ConnectionOptions} */
  #options;
  /** @type {((entry: TraceEntry) => void) | undefined} */
  #onTrace;
  /** @type {new (url: string, protocols: string) => SocketLike} */
  #WebSocket;
  /** @type {(fn: () => void, ms: number) => any} */
  #setTimeout;
  /** @type {(id: any) => void} */
  #clearTimeout;
  /** @type {SocketLike | null} */
  #socket = null;
  /** Whether the current socket is open (it may carry requests, even before the hello). */
  #opened = false;
  /** Whether the current socket has delivered the server's hello. */
  #greeted = false;
  #running = false;
  /** Attempts since the last greeted socket; drives the back-off. */
  #failures = 0;
  #nextRef = 1;
  /** @type {Map<number, { resolve: (reply: any) => void, reject: (error: Error) => void }>} */
  #pending = new Map();
  /** @type {any} */
  #retryTimer = null;
  /** @type {any} */
  #handshakeTimer = null;

  /** @type {EarlySocket | undefined} */
  #early;

  /** @param {ConnectionOptions} options */
  constructor(options) {
    this.#options = options;
    this.#early = options.early;
    this.#onTrace = options.onTrace;
    // The browser's WebSocket is a SocketLike: the handlers the connection sets read
    // fewer fields of their events than the browser passes.
    this.#WebSocket = options.WebSocket ?? /** @type {new (url: string, protocols: string) => SocketLike} */ (/** @type {unknown} */ (globalThis.WebSocket));
    this.#setTimeout = options.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
    this.#clearTimeout = options.clearTimeout ?? ((id) => globalThis.clearTimeout(id));
  }

  /** Opens the first socket. */
  start() {
    if (this.#running) return;
    this.#running = true;
    this.#open();
  }

  /** Closes the socket for good and rejects what is pending. */
  stop() {
    this.#running = false;
    this.#cancelTimers();
    const socket = this.#socket;
    this.#socket = null;
    this.#opened = false;
    this.#greeted = false;
    this.#rejectPending("stopped", "the client was stopped before the server answered");
    if (socket) {
      try {
        socket.close(1000, "client stopped");
      } catch {
        // Already closing.
      }
    }
  }

  /** Skips the remaining back-off wait (the browser came back online, the tab became visible). */
  retryNow() {
    if (!this.#running || this.#socket) return;
    this.#cancelTimers();
    this.#open();
  }

  /** Whether a socket is open and greeted by the server. */
  get isOpen() {
    return this.#socket !== null && this.#greeted;
  }

  /**
   * Whether requests can be sent now: the socket is open, greeted or not. Requests sent
   * before the server's hello are answered after it, in order.
   */
  get canSend() {
    return this.#socket !== null && this.#opened;
  }

  /**
   * Reports every message from now on to `listener`, or to no one when it is
   * `undefined`. Off by default: measuring and handing over each message costs time
   * that only the debug panel needs.
   * @param {((entry: TraceEntry) => void) | undefined} listener
   */
  traceWith(listener) {
    this.#onTrace = listener;
  }

  /**
   * Sends a request with a fresh `ref` and resolves with the server's reply (whatever
   * its status). Rejects with `connection_lost` if the socket is not open (see
   * `canSend`) or drops first.
   * @param {Record<string, unknown>} message without `ref`
   * @returns {Promise<any>}
   */
  request(message) {
    const socket = this.#socket;
    if (socket === null || !this.#opened) {
      return Promise.reject(new StatecastError("connection_lost", "not connected to the server; nothing was sent"));
    }
    const ref = this.#nextRef++;
    return new Promise((resolve, reject) => {
      this.#pending.set(ref, { resolve, reject });
      this.#transmit(socket, { op: message.op, ref, ...message });
    });
  }

  /**
   * Sends a binary message (a chunk of an announced upload) as it is.
   * @param {Uint8Array} bytes
   * @returns {boolean} false when no socket is open (nothing was sent)
   */
  sendBinary(bytes) {
    const socket = this.#socket;
    // A socket closed by the page or the network refuses, noisily, until its close event.
    if (socket === null || !this.#greeted || (socket.readyState !== undefined && socket.readyState !== 1)) return false;
    socket.send(bytes);
    return true;
  }

  /**
   * Takes on a request the page's early snippet sent on the early socket: the reply
   * carrying `ref` resolves the returned promise as it would `request`'s, and later
   * requests use higher refs. Call before `start()`, which takes the socket over.
   * @param {number} ref
   * @returns {Promise<any>}
   */
  adopt(ref) {
    this.#nextRef = Math.max(this.#nextRef, ref + 1);
    return new Promise((resolve, reject) => {
      this.#pending.set(ref, { resolve, reject });
    });
  }

  /**
   * Closes the current socket as if it had dropped (used after a protocol violation).
   * @param {string} reason
   */
  drop(reason) {
    const socket = this.#socket;
    if (!socket) return;
    this.#closed(socket, { code: 4001, reason });
    try {
      socket.close(4001, reason);
    } catch {
      // Already closing.
    }
  }

  /**
   * @param {SocketLike} socket
   * @param {Record<string, unknown>} message
   */
  #transmit(socket, message) {
    const text = JSON.stringify(message);
    this.#onTrace?.({ direction: "out", message, bytes: byteLength(text) });
    socket.send(text);
  }

  #open() {
    this.#options.onStatus("connecting");
    const early = this.#early;
    this.#early = undefined;
    /** @type {SocketLike} */
    let socket;
    try {
      socket = early && !early.closed ? early.socket : new this.#WebSocket(this.#options.url, SUBPROTOCOL);
    } catch (error) {
      console.error("statecast: cannot open a WebSocket", error);
      this.#socket = null;
      this.#scheduleRetry({ code: 1006, reason: String(error) });
      return;
    }
    this.#socket = socket;
    this.#opened = false;
    this.#greeted = false;
    this.#handshakeTimer = this.#setTimeout(() => {
      if (this.#socket === socket && !this.#greeted) this.drop("no hello from the server in time");
    }, this.#options.handshakeTimeout ?? 8000);
    socket.onopen = () => {
      if (this.#socket === socket) this.#becameOpen();
    };
    socket.onmessage = (event) => {
      if (this.#socket === socket) this.#received(event.data);
    };
    socket.onclose = (event) => {
      this.#closed(socket, { code: event?.code, reason: event?.reason });
    };
    socket.onerror = () => {
      // A close event always follows; reconnecting happens there.
    };
    if (early && !early.closed && early.socket === socket) {
      // Catch up with what the early socket did before the runtime had it: opened (the
      // first flight goes out now), then the server's hello and anything after it.
      if (early.opened) this.#becameOpen();
      for (const data of early.messages) {
        if (this.#socket !== socket) break;
        this.#received(data);
      }
    }
  }

  /** @param {unknown} data */
  #received(data) {
    if (typeof data !== "string") {
      console.warn("statecast: ignoring a non-text message");
      return;
    }
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      console.warn("statecast: ignoring a message that is not JSON", data.slice(0, 200));
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) return;
    this.#onTrace?.({ direction: "in", message, bytes: byteLength(data) });
    if (!this.#greeted) {
      if (message.op !== "hello") {
        console.warn("statecast: the server's first message was not hello", message.op);
        return;
      }
      // A socket without open events (some stand-ins) is open once it speaks.
      if (!this.#opened) this.#becameOpen();
      if (this.#socket === null) return;
      this.#greeted = true;
      this.#failures = 0;
      if (this.#handshakeTimer !== null) {
        this.#clearTimeout(this.#handshakeTimer);
        this.#handshakeTimer = null;
      }
      this.#options.onHello(message);
      return;
    }
    if (message.op === "reply" && typeof message.ref === "number") {
      const waiter = this.#pending.get(message.ref);
      if (waiter) {
        this.#pending.delete(message.ref);
        waiter.resolve(message);
        return;
      }
    }
    this.#options.onMessage(message);
  }

  #becameOpen() {
    this.#opened = true;
    this.#options.onStatus("open");
  }

  /**
   * @param {SocketLike} socket
   * @param {{ code?: number, reason?: string }} detail
   */
  #closed(socket, detail) {
    if (this.#socket !== socket) return;
    this.#socket = null;
    this.#opened = false;
    this.#greeted = false;
    if (this.#handshakeTimer !== null) {
      this.#clearTimeout(this.#handshakeTimer);
      this.#handshakeTimer = null;
    }
    this.#rejectPending(
      "connection_lost",
      "the connection dropped before the server answered; the request may or may not have been applied",
    );
    if (this.#running) this.#scheduleRetry(detail);
  }

  /** @param {{ code?: number, reason?: string }} detail */
  #scheduleRetry(detail) {
    // 1012: the server is restarting or draining and keeps the session, so a greeted
    // socket comes back within a second. Only right after a greeting: a server that
    // closes every new socket with 1012 gets the normal back-off.
    const restarting = detail.code === RESTARTING && this.#failures === 0;
    const delay = restarting
      ? restartDelay(this.#options.random)
      : backoffDelay(this.#failures, { ...this.#options.backoff, random: this.#options.random });
    this.#failures++;
    this.#options.onStatus("closed", restarting ? { ...detail, delay, restarting } : { ...detail, delay });
    this.#retryTimer = this.#setTimeout(() => {
      this.#retryTimer = null;
      if (this.#running && !this.#socket) this.#open();
    }, delay);
  }

  /**
   * @param {string} code
   * @param {string} message
   */
  #rejectPending(code, message) {
    const waiters = [...this.#pending.values()];
    this.#pending.clear();
    for (const waiter of waiters) waiter.reject(new StatecastError(code, message));
  }

  #cancelTimers() {
    if (this.#retryTimer !== null) this.#clearTimeout(this.#retryTimer);
    if (this.#handshakeTimer !== null) this.#clearTimeout(this.#handshakeTimer);
    this.#retryTimer = null;
    this.#handshakeTimer = null;
  }
}

/**
 * UTF-8 size of a string, for the debug log.
 * @param {string} text
 */
function byteLength(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
