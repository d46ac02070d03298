/**
 * One socket's handshake: what its first flight resumes, and what the server's hello
 * and its answer to the resume settle.
 *
 * The client sends its first flight the moment a socket is open, without waiting for
 * the server: `hello` resuming the previous session (when there is one, and it has a
 * topic with a revision or a leave to carry), then the joins of the other topics. Two
 * answers then arrive in either order as far as the client can tell, the server's own
 * hello (its fresh session) and the reply to the resume, and only both together say
 * which session is in force and whether the resumed topics are still joined. Kept as a
 * value with those two events in and one outcome out, so that the client only acts on
 * the outcome.
 *
 * @example
 * const handshake = new Handshake(previous, client.topics.values(), leavesPending);
 * if (handshake.hello) connection.request(handshake.hello).then((reply) => done(handshake.answered(reply)));
 * onHello = (hello) => done(handshake.greeted(hello));
 * @module
 */

/** @typedef {import("./topic.js").Topic} Topic */

/**
 * How a completed handshake settled the socket.
 * @typedef {object} HandshakeOutcome
 * @property {string | null} session the session in force
 * @property {boolean} resumed whether the previous session was resumed: its topics are
 *   joined on this socket, and its pending leaves can be sent
 */

export class Handshake {
  /** @type {string | null} the session being resumed (or null) */
  #previous;
  /** @type {Record<string, unknown> | null} the resuming `hello`, or null when none is sent */
  #hello = null;
  /** @type {Set<Topic>} the topics listed in the resume (not joined in the first flight) */
  #resuming = new Set();
  /** @type {string | null | undefined} the session of the server's hello; `undefined` until it arrives */
  #fresh = undefined;
  /** @type {any} the answer to the resume; `undefined` while awaited, `null` when none was sent */
  #reply = null;

  /**
   * Plans a new socket's first flight.
   * @param {string | null} previous the session in force on the last socket, if any
   * @param {Iterable<Topic>} topics the client's topics: each active one with a revision is resumed
   * @param {boolean} leavesPending whether topics left while the socket was down wait to be left on the session
   */
  constructor(previous, topics, leavesPending) {
    this.#previous = previous;
    /** @type {Record<string, number>} */
    const resume = {};
    /** @type {Set<Topic>} */
    const resumed = new Set();
    for (const topic of topics) {
      if (topic.active && typeof topic.rev === "number") {
        resume[topic.name] = topic.rev;
        resumed.add(topic);
      }
    }
    if (previous !== null && (resumed.size > 0 || leavesPending)) {
      this.#hello = { op: "hello", session: previous, resume };
      this.#resuming = resumed;
      this.#reply = undefined;
    }
  }

  /** @returns {Record<string, unknown> | null} the `hello` resuming the previous session, to send first; null when there is nothing to resume */
  get hello() {
    return this.#hello;
  }

  /** @returns {ReadonlySet<Topic>} the topics the resume lists: joined again only if it is refused */
  get resuming() {
    return this.#resuming;
  }

  /**
   * The server greeted the socket with its fresh session.
   * @param {any} hello
   * @returns {HandshakeOutcome | undefined} the outcome, once the resume is answered too
   */
  greeted(hello) {
    this.#fresh = typeof hello.session === "string" ? hello.session : null;
    return this.#outcome();
  }

  /**
   * The server answered the resume.
   * @param {any} reply
   * @returns {HandshakeOutcome | undefined} the outcome, once the server has greeted the socket too
   */
  answered(reply) {
    this.#reply = reply;
    return this.#outcome();
  }

  /** @returns {HandshakeOutcome | undefined} */
  #outcome() {
    const fresh = this.#fresh;
    const reply = this.#reply;
    if (fresh === undefined || reply === undefined) return undefined;
    if (reply === null) return { session: fresh, resumed: false };
    if (reply.status === "ok" && reply.resumed === true) {
      return { session: typeof reply.session === "string" ? reply.session : this.#previous, resumed: true };
    }
    return { session: typeof reply.session === "string" ? reply.session : fresh, resumed: false };
  }
}
