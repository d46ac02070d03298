/**
 * The client's topics by name, and their membership on the server: joins and their
 * answers, joins again, leaves, and what this tab publishes in them.
 *
 * The client keeps the socket's session (the handshake, the resume, the connection
 * state) and the page's API; the registry keeps which topics are joined and how they
 * are joined and left, so that each topic's port (`TopicPort`) leads here and nowhere
 * else. The client tells it what happened to the socket (its first flight, the
 * handshake settled, a drop, a lost session) and hands it each message naming a topic;
 * the registry sends joins and leaves on the connection itself.
 *
 * A topic left while no session holds it on a live socket is left when the session is
 * resumed (or not at all, when it is not); a topic left while its join is in flight is
 * left once the server has joined it. The early snippet's joins are claimed here too
 * (`early-joins.js`).
 *
 * @example
 * const registry = new TopicRegistry({ connection, connected, report, resynced });
 * const counter = registry.join("counter");
 * registry.receive({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
 * @module
 */

import { EarlyJoins } from "./early-joins.js";
import { StatecastError } from "./error.js";
import { deepEqual } from "./patch.js";
import { PresencePublisher } from "./presence.js";
import { Topic } from "./topic.js";

/**
 * What the registry needs of the client.
 * @typedef {object} RegistryHost
 * @property {import("./connection.js").Connection} connection the client's connection
 * @property {() => boolean} connected whether the client is `connected` (greeted and resumed)
 * @property {(error: StatecastError, context: { topic?: string, action?: unknown }) => void} report
 *   logs a server error and emits it
 * @property {(topic: string, reason: string) => void} resynced a topic re-joins to repair its mirror
 * @property {import("./connection.js").EarlySocket} [early] the page's early socket, if any
 * @property {(fn: () => void, ms: number) => unknown} [setTimeout]
 */

export class TopicRegistry {
  /** @type {Map<string, Topic>} */
  #topics = new Map();
  /** @type {Set<string>} topics left while the socket was down, to leave on resume */
  #pendingLeaves = new Set();
  /** @type {RegistryHost} */
  #host;
  /** @type {import("./connection.js").Connection} */
  #connection;
  /** @type {PresencePublisher} what this tab publishes in shared topics */
  #presence;
  /** @type {EarlyJoins} the joins the page's early socket sent, until claimed */
  #early;

  /** @param {RegistryHost} host */
  constructor(host) {
    this.#host = host;
    this.#connection = host.connection;
    this.#presence = new PresencePublisher({
      canPublish: (name) => this.#topics.get(name)?.joinedHere === true && host.connected(),
      send: (name, meta) => this.#connection.request({ op: "presence", topic: name, meta }).catch(() => {}),
      setTimeout: host.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
    });
    this.#early = new EarlyJoins(host.early, {
      adopt: (ref) => this.#connection.adopt(ref),
      topic: (name) => this.#topics.get(name),
      add: (name, params) => this.#add(name, params),
      forget: (topic) => this.#forget(topic),
      report: (error, topic) => host.report(error, { topic }),
    });
  }

  /** @returns {ReadonlyMap<string, Topic>} the active topics by name */
  get topics() {
    return this.#topics;
  }

  /** Whether topics left while the socket was down wait for a resumed session to be left. */
  get leavesPending() {
    return this.#pendingLeaves.size > 0;
  }

  /** Makes a topic of each join the early socket sent; before the connection starts. */
  adoptEarlyJoins() {
    this.#early.adopt();
  }

  /**
   * Makes the topics a server-rendered page was rendered with, before the connection
   * starts (see `rendered-page.js`).
   * @param {Map<string, import("./rendered-page.js").RenderedTopic>} topics
   */
  seedRendered(topics) {
    for (const [name, rendered] of topics) if (!this.#topics.has(name)) this.#early.seed(name, rendered);
  }

  /**
   * Makes the topics of a page that live navigation rendered: joined on this socket by
   * the `navigate`, so marked joined at once. A topic the client has already keeps its
   * mirror. The server lists such a topic only when it joined it again with the new
   * page's params (one it holds with the same params it neither joins nor lists): the
   * navigation's snapshot reached the mirror, and the topic takes those params, so
   * that the page's binding does not join it once more.
   * @param {Map<string, import("./rendered-page.js").RenderedTopic>} topics
   */
  seedJoined(topics) {
    for (const [name, rendered] of topics) {
      const existing = this.#topics.get(name);
      if (existing?.active) {
        existing.adoptParams(rendered.params);
        continue;
      }
      this.#pendingLeaves.delete(name);
      const topic = this.#early.seed(name, rendered);
      topic.markJoined();
      this.#presence.joined(name);
    }
  }

  /** Leaves the early socket's joins nothing claimed; once the page is bound. */
  leaveUnclaimed() {
    this.#early.leaveUnclaimed();
  }

  /**
   * Joins a topic, or returns the handle already joined under that name (see `Client.join`).
   * @param {string} name
   * @param {Record<string, unknown>} [params]
   * @returns {Topic}
   */
  join(name, params) {
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
   * Publishes this tab's presence meta in a topic (see `Client.presence`).
   * @param {string} name
   * @param {Record<string, unknown>} meta
   */
  presence(name, meta) {
    this.#presence.publish(name, meta);
  }

  /**
   * Hands a `snapshot`, `patch` or `closed` message to the active topic it names (the
   * topic keeps its own mirror); a closed topic is forgotten first.
   * @param {any} message
   */
  receive(message) {
    const topic = typeof message.topic === "string" ? this.#topics.get(message.topic) : undefined;
    if (!topic || !topic.active) return;
    if (message.op === "closed") this.#topics.delete(topic.name);
    topic.receive(message);
  }

  /**
   * A new socket is open: joins every active topic the resume does not list, or waits
   * for the answer to the early socket's join of it (the first socket only).
   * @param {ReadonlySet<Topic>} resuming
   */
  firstFlight(resuming) {
    const adopted = this.#early.takeAnswers();
    for (const topic of [...this.#topics.values()]) {
      if (!topic.active || resuming.has(topic)) continue;
      const answer = adopted.get(topic);
      if (answer) this.#joinAnswered(topic, answer).catch(() => {});
      else this.#sendJoin(topic).catch(() => {});
    }
  }

  /**
   * The handshake settled the session, just before the client is `connected`. Resumed:
   * the topics it listed are joined on this socket, presence published meanwhile goes
   * out, and so do the leaves waiting for it. Not resumed: those leaves are moot.
   * @param {ReadonlySet<Topic>} resuming the topics the resume listed
   * @param {boolean} resumed
   */
  settled(resuming, resumed) {
    if (!resumed) {
      this.#pendingLeaves.clear();
      return;
    }
    for (const topic of resuming) if (this.#topics.get(topic.name) === topic) topic.markJoined();
    // A resumed session kept its presence on the server; anything published while
    // the socket was down goes out now.
    this.#presence.resumed();
    for (const name of [...this.#pendingLeaves]) this.#sendLeave(name);
  }

  /**
   * The client is `connected`: joined topics send their waiting actions, and the
   * topics a refused resume listed are joined again.
   * @param {ReadonlySet<Topic>} resuming
   * @param {boolean} resumed
   */
  connected(resuming, resumed) {
    for (const topic of [...this.#topics.values()]) {
      if (!topic.active) continue;
      if (topic.joinedHere) topic.flush();
      else if (!resumed && resuming.has(topic)) this.#sendJoin(topic).catch(() => {});
    }
  }

  /** The socket dropped: every topic must be resumed or joined again on the next one. */
  disconnected() {
    for (const topic of this.#topics.values()) topic.markDisconnected();
  }

  /** The session is lost (another socket resumed it): it holds nothing to leave. */
  sessionLost() {
    this.#pendingLeaves.clear();
    this.#early.sessionLost();
  }

  /**
   * Makes and registers a topic, with the port through which it reaches the client.
   * @param {string} name
   * @param {Record<string, unknown> | undefined} params
   * @returns {Topic}
   */
  #add(name, params) {
    /** @type {import("./topic.js").TopicPort} */
    const port = {
      live: () => this.#host.connected() && this.#connection.isOpen,
      send: (message) => this.#connection.request(message),
      report: (error, context) => this.#host.report(error, context),
      later: this.#host.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
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
    if (!this.#host.connected()) return topic.ready.then(() => {});
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
    if (this.#host.connected() && wasJoinedHere) {
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
    const message = { op: "join", topic: topic.name, events: true };
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
          this.#host.report(error, { topic: topic.name });
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
    this.#host.resynced(topic.name, reason);
    if (this.#connection.canSend) {
      this.#sendJoin(topic).catch(() => {});
    }
  }
}
