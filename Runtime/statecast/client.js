/**
 * The protocol client: one connection, the topics joined over it, and the handshake
 * that carries them across reconnects.
 *
 * `statecast.js` creates the page's single client; tests and other hosts create their
 * own with a fake WebSocket. The client keeps the socket's session and hands each
 * message naming a topic to its registry (`topic-registry.js`: the topics by name,
 * their joins and leaves), which hands it to the topic: the topic keeps its own mirror
 * (revision check, patches, the decision to resync) and asks for what it cannot do
 * alone through the port it was given (`TopicPort`: send an action, join again, leave).
 * After a reconnect the client resumes the old session with each topic's last
 * revision, or re-joins every topic when the server no longer knows the session.
 *
 * The first state arrives one round trip after the socket opens: as soon as it is open
 * the client sends, in one flight, its `hello` (when resuming) and the `join` of every
 * topic not being resumed, without waiting for the server's hello or for any reply.
 * The server handles one socket's messages in order, so each join's snapshot follows
 * its greeting and the resume. A page's early snippet may have joined its topics
 * before the runtime loaded: the client adopts those joins (and any snapshot already
 * received), the page's bindings claim them, and the ones no binding claims are left
 * (`early-joins.js` keeps that bookkeeping).
 *
 * @example
 * const client = new Client({ url: "ws://127.0.0.1:8080/ws" });
 * client.start();
 * const counter = client.join("counter");
 * client.on("connectionstatechange", ({ state }) => console.log(state));
 * @module
 */

import { Connection } from "./connection.js";
import { Emitter } from "./emitter.js";
import { StatecastError } from "./error.js";
import { Handshake } from "./handshake.js";
import { TopicRegistry } from "./topic-registry.js";

/**
 * @typedef {"connecting" | "connected" | "disconnected"} ConnectionState
 * - `connecting`: a socket is opening, or the session is being resumed, or the server
 *   announced a restart (1012) and the next socket opens within a second
 * - `connected`: greeted by the server and resumed; actions flow
 * - `disconnected`: the socket dropped; waiting (back-off) before the next attempt,
 *   or stopped
 */

/**
 * Client events (listen with `client.on(type, fn)`):
 * - `connectionstatechange` `{ state, previous }`
 * - `error` `{ error: StatecastError, topic?: string, action?: unknown }`: every
 *   error reply from the server and every failed join, also logged to the console
 * - `resync` `{ topic, reason }`: a topic re-joined to repair a gap or a bad patch
 * - `message`: every server message that names no topic and answers no request
 *   (an upload's progress)
 * - `trace` `{ direction: "in" | "out", message, bytes }`: every message, when
 *   `client.tracing` is true (the debug panel turns it on)
 * @typedef {string} ClientEvent
 */

export class Client extends Emitter {
  /** @type {ConnectionState} */
  #connectionState = "disconnected";
  /** @type {string | null} the session in force (from the server's hello or a resume) */
  #session = null;
  #everConnected = false;
  /** @type {Handshake | null} the current socket's handshake, until it is complete */
  #handshake = null;
  #tracing = false;
  /** @type {Connection} */
  #connection;
  /** @type {TopicRegistry} the topics joined over the connection */
  #registry;
  /** @type {import("./connection.js").EarlySocket | undefined} the page's early socket, until started */
  #early;
  /** @type {Promise<any> | null} the answer to the resume the early socket sent, until the first flight takes it */
  #earlyHello = null;

  /**
   * @param {Omit<import("./connection.js").ConnectionOptions, "onHello" | "onMessage" | "onStatus" | "onTrace">} options
   */
  constructor(options) {
    super();
    this.#early = options.early;
    this.#connection = new Connection({
      ...options,
      onHello: (hello) => this.#greeted(hello),
      onMessage: (message) => this.#received(message),
      onStatus: (status, detail) => this.#transportChanged(status, detail),
    });
    this.#registry = new TopicRegistry({
      connection: this.#connection,
      connected: () => this.#connectionState === "connected",
      report: (error, context) => this.#report(error, context),
      resynced: (topic, reason) => this.emit("resync", { topic, reason }),
      early: options.early,
      setTimeout: options.setTimeout,
    });
  }

  /** @returns {ConnectionState} */
  get connectionState() {
    return this.#connectionState;
  }

  /** @returns {string | null} the session in force (from the server's hello or a resume) */
  get session() {
    return this.#session;
  }

  /** Whether any socket has been connected so far (the banner says "reconnecting" then). */
  get everConnected() {
    return this.#everConnected;
  }

  /** @returns {ReadonlyMap<string, import("./topic.js").Topic>} the active topics by name */
  get topics() {
    return this.#registry.topics;
  }

  /** Opens the connection (idempotent), taking over the joins the early socket sent. */
  start() {
    // A rendered page's early socket resumed the page's session already: its answer is
    // the first flight's.
    const early = this.#early;
    this.#early = undefined;
    if (early && !early.closed && early.opened && Number.isSafeInteger(early.hello?.ref)) {
      this.#earlyHello = this.#connection.adopt(/** @type {number} */ (early.hello?.ref));
    }
    this.#registry.adoptEarlyJoins();
    this.#connection.start();
  }

  /**
   * Takes over the session a server-rendered page was rendered in (`rendered-page.js`):
   * its topics start at the rendered state, and the first socket resumes the session
   * from the rendered revisions. Before `start()`.
   * @param {import("./rendered-page.js").RenderedPage} page
   */
  resumeRendered(page) {
    if (this.#session === null) this.#session = page.session;
    this.#registry.seedRendered(page.topics);
  }

  /**
   * Live navigation (`navigation.js`): asks the server for the page at `path`,
   * rendered in this session with its topics joined on this socket. Resolves with its
   * HTML; rejects when not connected or refused (the caller then loads the page).
   * @param {string} path the path and query, e.g. `/counter.html?room=team`
   * @returns {Promise<string>}
   */
  async navigate(path) {
    if (this.#connectionState !== "connected") throw new StatecastError("connection_lost", "not connected");
    const reply = await this.#connection.request({ op: "navigate", path });
    if (reply.status !== "ok" || typeof reply.html !== "string") throw StatecastError.fromReply(reply);
    return reply.html;
  }

  /**
   * The topics a live navigation's page was rendered with, joined on this socket
   * already: they start at the rendered state and are not joined again.
   * @param {Map<string, import("./rendered-page.js").RenderedTopic>} topics
   */
  adoptNavigated(topics) {
    this.#registry.seedJoined(topics);
  }

  /**
   * Leaves the topics the early socket joined that nothing has claimed with `join`
   * (the page changed or removed their element before binding). `statecast.js` calls
   * it once it has bound the document.
   */
  leaveUnclaimed() {
    this.#registry.leaveUnclaimed();
  }

  /** Closes the connection for good; waiting requests reject with `stopped`. */
  stop() {
    this.#connection.stop();
    this.#setState("disconnected");
  }

  /** Retries at once instead of waiting out the back-off. */
  retryNow() {
    this.#connection.retryNow();
  }

  /** Whether every message is reported as a `trace` event (for the debug panel). */
  get tracing() {
    return this.#tracing;
  }

  set tracing(enabled) {
    this.#tracing = enabled;
    this.#connection.traceWith(enabled ? (entry) => this.emit("trace", entry) : undefined);
  }

  /**
   * Joins a topic, or returns the handle already joined under that name. Passing
   * params that differ from the current ones re-joins with the new params.
   * @param {string} name
   * @param {Record<string, unknown>} [params]
   * @returns {import("./topic.js").Topic}
   */
  join(name, params) {
    if (typeof name !== "string" || name === "") throw new TypeError("statecast.join needs a topic name");
    return this.#registry.join(name, params);
  }

  /**
   * Publishes what this tab wants the other members of a shared topic to see about it,
   * under the topic's `/presence` (what it is editing, a cursor, "typing"). Throttled:
   * at most one message per topic every 100 ms, the latest meta winning; published
   * again whenever the topic is joined anew, so it survives a reconnect.
   * @param {string} name the topic's name, e.g. `"board/team"`
   * @param {Record<string, unknown>} meta an object of at most 1,024 bytes as JSON
   */
  presence(name, meta) {
    this.#registry.presence(name, meta);
  }

  /**
   * Sends a request that names no topic's action (an upload's announcement); resolves
   * with the server's reply, whatever its status.
   * @param {Record<string, unknown>} message without `ref`
   * @returns {Promise<any>}
   */
  request(message) {
    return this.#connection.request(message);
  }

  /**
   * Sends a binary message (a chunk of an announced upload).
   * @param {Uint8Array} bytes
   * @returns {boolean} false when the socket is not open
   */
  sendBinary(bytes) {
    return this.#connection.sendBinary(bytes);
  }

  /**
   * @param {"connecting" | "open" | "closed"} status
   * @param {import("./connection.js").CloseDetail} [detail]
   */
  #transportChanged(status, detail) {
    if (status === "connecting") {
      this.#handshake = null;
      this.#setState("connecting");
      return;
    }
    if (status === "open") {
      this.#opened();
      return;
    }
    if (status === "closed") {
      this.#handshake = null;
      // 4000: another socket resumed this session. Resuming it back would take it from
      // that socket in turn, so the next socket starts a session of its own.
      if (detail?.code === 4000) {
        this.#session = null;
        this.#registry.sessionLost();
      }
      this.#registry.disconnected();
      // A restarting server (1012) is back within a second: the page shows that it is
      // reconnecting, not that it lost the server. If that attempt fails, the normal
      // back-off follows and the page shows it disconnected.
      this.#setState(detail?.restarting ? "connecting" : "disconnected", detail);
    }
  }

  /**
   * A new socket is open: send the first flight at once, without waiting for the
   * server's hello: `hello` resuming the previous session (if there is one and it has
   * anything to resume), then the `join` of every other topic.
   */
  #opened() {
    const handshake = new Handshake(this.#session, this.#registry.topics.values(), this.#registry.leavesPending);
    this.#handshake = handshake;
    const earlyHello = this.#earlyHello;
    this.#earlyHello = null;
    if (handshake.hello) {
      (earlyHello ?? this.#connection.request(handshake.hello)).then(
        (reply) => {
          if (this.#handshake === handshake) this.#handshakeDone(handshake, handshake.answered(reply));
        },
        () => {
          // The socket dropped during the handshake; the next one starts over.
        },
      );
    }
    this.#registry.firstFlight(handshake.resuming);
  }

  /**
   * The server greeted the socket with its fresh session.
   * @param {any} hello
   */
  #greeted(hello) {
    const handshake = this.#handshake;
    if (handshake !== null) this.#handshakeDone(handshake, handshake.greeted(hello));
  }

  /**
   * Once the server has greeted the socket and answered the resume (if one was sent):
   * settles the session, re-joins what was not resumed, and sends waiting actions.
   * @param {Handshake} handshake
   * @param {import("./handshake.js").HandshakeOutcome | undefined} outcome undefined while an answer is awaited
   */
  #handshakeDone(handshake, outcome) {
    if (outcome === undefined) return;
    this.#handshake = null;
    const { session, resumed } = outcome;
    this.#session = session;
    this.#registry.settled(handshake.resuming, resumed);
    this.#everConnected = true;
    this.#setState("connected");
    this.#registry.connected(handshake.resuming, resumed);
  }

  /** @param {any} message */
  #received(message) {
    switch (message.op) {
      case "snapshot":
      case "patch":
      case "event":
      case "closed": {
        this.#registry.receive(message);
        return;
      }
      case "reply": {
        if (message.status === "error") this.#report(StatecastError.fromReply(message), {});
        return;
      }
      default:
        // Others (uploads' progress) go to whoever listens; unknown ones are ignored:
        // newer servers may add some.
        this.emit("message", message);
    }
  }

  /**
   * Logs a server error and emits it; never throws.
   * @param {StatecastError} error
   * @param {{ topic?: string, action?: unknown }} context
   */
  #report(error, context) {
    console.warn(`statecast: ${error.code}: ${error.message}`, context.topic ? `(topic "${context.topic}")` : "");
    this.emit("error", { error, ...context });
  }

  /**
   * @param {ConnectionState} state
   * @param {object} [detail]
   */
  #setState(state, detail) {
    if (state === this.#connectionState) return;
    const previous = this.#connectionState;
    this.#connectionState = state;
    this.emit("connectionstatechange", { state, previous, ...detail });
  }
}
