/**
 * A scripted stand-in for the browser's WebSocket, playing the server's side.
 *
 * Tests create a `FakeNetwork`, pass `network.WebSocket` to the client, and then read
 * what the client sent (`socket.sent`) and answer as the server would
 * (`socket.serverSend(...)`, `socket.serverClose(...)`).
 */

export class FakeNetwork {
  constructor() {
    /** @type {FakeSocket[]} */
    this.sockets = [];
    const network = this;
    /** The constructor handed to the client. */
    this.WebSocket = class extends FakeSocket {
      /** @param {string} url @param {string | string[]} protocols */
      constructor(url, protocols) {
        super(url, protocols);
        network.sockets.push(this);
      }
    };
  }

  /** The most recently opened socket. */
  get socket() {
    return this.sockets[this.sockets.length - 1];
  }
}

export class FakeSocket {
  /** @param {string} url @param {string | string[]} protocols */
  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    /** @type {any[]} every message the client sent, parsed */
    this.sent = [];
    this.closedByClient = null;
    /** Whether the socket has fired its open event. */
    this.isOpen = false;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
    this.onopen = null;
  }

  /** @param {string} text */
  send(text) {
    if (!this.isOpen) throw new Error("InvalidStateError: the socket is still connecting");
    if (typeof text !== "string") throw new Error("the runtime must send text frames");
    this.sent.push(JSON.parse(text));
  }

  /** @param {number} [code] @param {string} [reason] */
  close(code, reason) {
    this.closedByClient = { code, reason };
  }

  /** Delivers a server message (an object, or raw text). @param {any} message */
  serverSend(message) {
    const data = typeof message === "string" ? message : JSON.stringify(message);
    this.onmessage?.({ data });
  }

  /** The socket opens (the upgrade succeeded): the client may send from now on. */
  open() {
    if (this.isOpen) return;
    this.isOpen = true;
    this.onopen?.({});
  }

  /** The server's greeting, on a socket that opens first if it has not yet. @param {string} session */
  hello(session) {
    this.open();
    this.serverSend({ op: "hello", session, server: "fake" });
  }

  /** Drops the socket as the network or server would. @param {number} [code] */
  serverClose(code = 1006, reason = "") {
    this.onclose?.({ code, reason });
  }

  /**
   * The client's messages with a given op, oldest first.
   * @param {string} op
   */
  sentOps(op) {
    return this.sent.filter((message) => message.op === op);
  }

  /** The last message the client sent. */
  get last() {
    return this.sent[this.sent.length - 1];
  }

  /**
   * Answers a request with `ok` (plus extra fields).
   * @param {any} request
   * @param {object} [extra]
   */
  ok(request, extra = {}) {
    this.serverSend({ op: "reply", ref: request.ref, status: "ok", ...extra });
  }

  /**
   * Answers a request with an error.
   * @param {any} request
   * @param {string} code
   * @param {string} [message]
   */
  fail(request, code, message = code) {
    this.serverSend({ op: "reply", ref: request.ref, status: "error", error: { code, message } });
  }
}
