/**
 * The protocol client: one connection, the topics joined over it, and the handshake
 * that carries them across reconnects.
 *
 * `statecast.js` creates the page's single client; tests and other hosts create their
 * own with a fake WebSocket. The client joins, resumes and leaves topics and routes
 * each message naming a topic to it: the topic keeps its own mirror (revision check,
 * patches, the decision to resync) and asks the client for what it cannot do alone
 * through the port the client gives it (`TopicPort`: send an action, join again, leave).
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
import { EarlyJoins } from "./early-joins.js";
import { Emitter } from "./emitter.js";
import { StatecastError } from "./error.js";
import { Handshake } from "./handshake.js";
import { deepEqual } from "./patch.js";
import { PresencePublisher } from "./presence.js";
import { Topic } from "./topic.js";

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
  /** @type {Map<string, Topic>} */
  #topics = new Map();
  /** @type {Set<string>} topics left while the socket was down, to leave on resume */
  #pendingLeaves = new Set();
  /** @type {Handshake | null} the current socket's handshake, until it is complete */
  #handshake = null;
  #tracing = false;
  /** @type {Connection} */
  #connection;
  /** @type {PresencePublisher} what this tab publishes in shared topics */
  #presence;
  /** @type {EarlyJoins} the joins the page's early socket sent, until claimed */
  #early;

  /**
   * @param {Omit<import("./connection.js").ConnectionOptions, "onHello" | "onMessage" | "onStatus" | "onTrace">} options
   */
  constructor(options) {
    super();
    this.#connection = new Connection({
      ...options,
      onHello: (hello) => this.#greeted(hello),
      onMessage: (message) => this.#received(message),
      onStatus: (status, detail) => this.#transportChanged(status, detail),
    });
    this.#presence = new PresencePublisher({
      canPublish: (name) => this.#topics.get(name)?.joinedHere === true && this.#connectionState === "connected",
      send: (name, meta) => this.#connection.request({ op: "presence", topic: name, meta }).catch(() => {}),
      setTimeout: options.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
    });
    this.#early = new EarlyJoins(options.early, {
      adopt: (ref) => this.#connection.adopt(ref),
      topic: (name) => this.#topics.get(name),
      add: (name) => this.#add(name, undefined),
      forget: (topic) => this.#forget(topic),
      report: (error, topic) => this.#report(error, { topic }),
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

  /** @returns {ReadonlyMap<string, Topic>} the active topics by name */
  get topics() {
    return this.#topics;
  }

  /** Opens the connection (idempotent), taking over the joins the early socket sent. */
  start() {
    this.#early.adopt();
    this.#connection.start();
  }

  /**
   * Leaves the topics the early socket joined that nothing has claimed with `join`
   * (the page changed or removed their element before binding). `statecast.js` calls
   * it once it has bound the document.
   */
  leaveUnclaimed() {
    this.#early.leaveUnclaimed();
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
   * @returns {Topic}
   */
  join(name, params) {
    if (typeof name !== "string" || name === "") throw new TypeError("statecast.join needs a topic name");
    const existing = this.#topics.get(name);
    // A topic the early socket joined is the page's to claim (early-joins.js).
    const early = existing && this.#early.claim(existing, params);
    if (early) return early;
    if (early === null) {
      this.#topics.delete(name);
    } else if (existing && existing.active) {
      existing.retain();
      if (params !== undefined && !deepEqual(params, existing.params)) {
        existing.rejoin(params).catch(() => {});
      }
      return existing;
    }
    const topic = this.#add(name, params);
    this.#pendingLeaves.delete(name);
    // An open socket takes the join at once, even before the server's hello: it is
    // answered after the greeting (and after a resume in flight), in order.
    if (this.#connection.canSend) this.#sendJoin(topic).catch(() => {});
    return topic;
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
    this.#presence.publish(name, meta);
  }

  /**
   * Makes and registers a topic, with the port through which it reaches this client.
   * @param {string} name
   * @param {Record<string, unknown> | undefined} params
   * @returns {Topic}
   */
  #add(name, params) {
    /** @type {import("./topic.js").TopicPort} */
    const port = {
      live: () => this.#connectionState === "connected" && this.#connection.isOpen,
      send: (message) => this.#connection.request(message),
      report: (error, context) => this.#report(error, context),
      rejoin: () => this.#rejoin(topic),
      resync: (reason) => this.#resync(topic, reason),
      release: (joinedHere) => this.#release(topic, joinedHere),
    };
    const topic = new Topic(name, params, port);
    this.#topics.set(name, topic);
    return topic;
  }

  /**
   * Forgets a topic, if it is still the one registered under its name.
   * @param {Topic} topic
   */
  #forget(topic) {
    if (this.#topics.get(topic.name) === topic) this.#topics.delete(topic.name);
  }

  /**
   * A topic asked to be joined again (`topic.rejoin`).
   * @param {Topic} topic
   * @returns {Promise<void>}
   */
  #rejoin(topic) {
    if (!topic.active) return Promise.reject(new StatecastError("not_joined", `topic "${topic.name}" is ${topic.status}`));
    if (this.#connectionState !== "connected") return topic.ready.then(() => {});
    return this.#sendJoin(topic);
  }

  /**
   * The last holder left a topic (now `left`): leave it on the server, now or on resume.
   * @param {Topic} topic
   * @param {boolean} wasJoinedHere whether the current socket's session had it joined
   */
  #release(topic, wasJoinedHere) {
    this.#presence.forget(topic.name);
    this.#forget(topic);
    if (this.#connectionState === "connected" && wasJoinedHere) {
      this.#sendLeave(topic.name);
    } else {
      this.#pendingLeaves.add(topic.name);
    }
  }

  /** @param {string} name */
  #sendLeave(name) {
    this.#connection.request({ op: "leave", topic: name }).then(
      () => this.#pendingLeaves.delete(name),
      () => {
        // The socket dropped before the answer: leave on the next one, unless the name
        // was joined again meanwhile (that join, sent after this leave, is the one to
        // keep; the next socket joins it again).
        if (!this.#topics.has(name)) this.#pendingLeaves.add(name);
      },
    );
  }

  /**
   * @param {Topic} topic
   * @returns {Promise<void>}
   */
  #sendJoin(topic) {
    if (this.#early.leavesFirst(topic.name)) {
      this.#connection.request({ op: "leave", topic: topic.name }).catch(() => {});
    }
    /** @type {Record<string, unknown>} */
    const message = { op: "join", topic: topic.name };
    if (topic.params !== undefined) message.params = topic.params;
    return this.#joinAnswered(topic, this.#connection.request(message));
  }

  /**
   * Settles a topic by the server's answer to its join.
   * @param {Topic} topic
   * @param {Promise<any>} answer the reply to the join (sent or adopted)
   * @returns {Promise<void>}
   */
  #joinAnswered(topic, answer) {
    return answer.then(
      (reply) => {
        if (this.#topics.get(topic.name) !== topic || !topic.active) {
          // Left while the join was in flight: the server has joined it, so leave it
          // there too (unless the name has been joined again meanwhile).
          if (reply.status === "ok" && !topic.active && !this.#topics.has(topic.name)) this.#sendLeave(topic.name);
          return;
        }
        if (reply.status === "ok") {
          topic.markJoined();
          topic.flush();
          this.#presence.joined(topic.name);
        } else {
          const error = StatecastError.fromReply(reply, { topic: topic.name });
          topic.markFailed(error);
          // An early join nobody has claimed yet keeps its name: the page's own join
          // takes the failure over and reports it then.
          if (this.#early.isUnclaimed(topic)) throw error;
          this.#report(error, { topic: topic.name });
          this.#topics.delete(topic.name);
          throw error;
        }
      },
      (/** @type {StatecastError} */ error) => {
        // The socket dropped: the next handshake joins the topic again.
        throw error;
      },
    );
  }

  /**
   * Re-joins a topic whose mirror went out of step (the topic decided, and ignores
   * patches until the fresh snapshot arrives).
   * @param {Topic} topic
   * @param {string} reason
   */
  #resync(topic, reason) {
    console.warn(`statecast: resyncing "${topic.name}": ${reason}`);
    this.emit("resync", { topic: topic.name, reason });
    if (this.#connection.canSend) {
      this.#sendJoin(topic).catch(() => {});
    }
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
        this.#pendingLeaves.clear();
        this.#early.sessionLost();
      }
      for (const topic of this.#topics.values()) topic.markDisconnected();
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
    const handshake = new Handshake(this.#session, this.#topics.values(), this.#pendingLeaves.size > 0);
    this.#handshake = handshake;
    if (handshake.hello) {
      this.#connection.request(handshake.hello).then(
        (reply) => {
          if (this.#handshake === handshake) this.#handshakeDone(handshake, handshake.answered(reply));
        },
        () => {
          // The socket dropped during the handshake; the next one starts over.
        },
      );
    }
    const adopted = this.#early.takeAnswers();
    for (const topic of [...this.#topics.values()]) {
      if (!topic.active || handshake.resuming.has(topic)) continue;
      const answer = adopted.get(topic);
      if (answer) this.#joinAnswered(topic, answer).catch(() => {});
      else this.#sendJoin(topic).catch(() => {});
    }
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
    if (resumed) {
      for (const topic of handshake.resuming) if (this.#topics.get(topic.name) === topic) topic.markJoined();
      // A resumed session kept its presence on the server; anything published while
      // the socket was down goes out now.
      this.#presence.resumed();
      for (const name of [...this.#pendingLeaves]) this.#sendLeave(name);
    } else {
      this.#pendingLeaves.clear();
    }
    this.#everConnected = true;
    this.#setState("connected");
    for (const topic of [...this.#topics.values()]) {
      if (!topic.active) continue;
      if (topic.joinedHere) topic.flush();
      else if (!resumed && handshake.resuming.has(topic)) this.#sendJoin(topic).catch(() => {});
    }
  }

  /** @param {any} message */
  #received(message) {
    switch (message.op) {
      case "snapshot":
      case "patch":
      case "closed": {
        // The topic keeps its own mirror; the client only forgets a closed one.
        const topic = typeof message.topic === "string" ? this.#topics.get(message.topic) : undefined;
        if (!topic || !topic.active) return;
        if (message.op === "closed") this.#topics.delete(topic.name);
        topic.receive(message);
        return;
      }
      case "reply": {
        if (message.status === "error") this.#report(StatecastError.fromReply(message), {});
        return;
      }
      default:
      // Unknown server messages are ignored: newer servers may add some.
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
