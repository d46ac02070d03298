/**
 * A joined topic: the browser's mirror of one store's view state.
 *
 * A topic holds the latest state and revision, tells subscribers what changed, and
 * sends actions to its store. It survives reconnects: the client resumes or re-joins
 * it on every new socket, and actions sent while the socket is down wait until the
 * topic is joined again (they have not reached the server, so sending them later is
 * safe). Get one from `statecast.join(name)`.
 *
 * @example
 * const counter = statecast.join("counter");
 * const stop = counter.subscribe((state, changed) => render(state));
 * await counter.send({ increment: {} });  // the reply; counter.state already shows the effect
 * counter.leave();
 * @module
 */

import { Emitter } from "./emitter.js";
import { StatecastError } from "./error.js";

/**
 * @typedef {"joining" | "joined" | "failed" | "closed" | "left"} TopicStatus
 * - `joining`: waiting for the server to accept the join (or for a socket)
 * - `joined`: the server accepted it; state and patches flow
 * - `failed`: the server refused the join (`error` says why); nothing is retried
 * - `closed`: the server ended the membership (`closedReason` says why)
 * - `left`: `leave()` was called
 */

/**
 * An action waiting for its topic to be joined on a live socket, with the functions
 * that settle the promise `send` returned.
 * @typedef {object} WaitingAction
 * @property {unknown} action
 * @property {(reply: any) => void} resolve
 * @property {(error: Error) => void} reject
 */

/**
 * @callback Subscriber
 * @param {any} state the new state
 * @param {string[]} changed pointers of what changed (`[""]` for a whole snapshot)
 * @returns {void}
 */

export class Topic extends Emitter {
  /** @type {import("./client.js").Client} */
  #client;
  /** @type {string} */
  #name;
  /** @type {Record<string, unknown> | undefined} */
  #params;
  /** @type {any} */
  #state = undefined;
  /** @type {number | undefined} */
  #rev = undefined;
  /** @type {TopicStatus} */
  #status = "joining";
  /** @type {StatecastError | null} */
  #error = null;
  /** @type {string | null} */
  #closedReason = null;
  /** Whether the current socket's session has this topic joined. */
  #joinedHere = false;
  /** A resync (re-join after a revision gap or failed patch) is under way. */
  #resyncing = false;
  /** How many `join` calls share this handle. */
  #holders = 1;
  /** @type {WaitingAction[]} actions waiting for the topic to be joined on a live socket */
  #waiting = [];
  /** @type {Set<Subscriber>} */
  #subscribers = new Set();
  /** @type {{ resolve: (topic: Topic) => void, reject: (error: Error) => void }} */
  #settleReady;

  /**
   * @param {import("./client.js").Client} client
   * @param {string} name
   * @param {Record<string, unknown> | undefined} params
   */
  constructor(client, name, params) {
    super();
    this.#client = client;
    this.#name = name;
    this.#params = params;
    /** @type {(topic: Topic) => void} */
    let resolveReady = () => {};
    /** @type {(error: Error) => void} */
    let rejectReady = () => {};
    /**
     * Resolves when the server first accepts the join (the state is then present);
     * rejects if the join fails.
     * @type {Promise<Topic>}
     */
    this.ready = new Promise((resolve, reject) => {
      resolveReady = resolve;
      rejectReady = reject;
    });
    this.ready.catch(() => {});
    this.#settleReady = { resolve: resolveReady, reject: rejectReady };
  }

  /** The topic's name, e.g. `"counter"` or `"todos/team-42"`. */
  get name() {
    return this.#name;
  }

  /** @returns {Record<string, unknown> | undefined} the join params */
  get params() {
    return this.#params;
  }

  /** @returns {any} the latest view state; `undefined` until the first snapshot (treat it as read-only) */
  get state() {
    return this.#state;
  }

  /** @returns {number | undefined} the revision of `state` */
  get rev() {
    return this.#rev;
  }

  /** @returns {TopicStatus} */
  get status() {
    return this.#status;
  }

  /** @returns {StatecastError | null} why the join failed */
  get error() {
    return this.#error;
  }

  /** @returns {string | null} the server's reason, once closed */
  get closedReason() {
    return this.#closedReason;
  }

  /** Whether the topic still receives state (not failed, closed or left). */
  get active() {
    return this.#status === "joining" || this.#status === "joined";
  }

  /** @internal Whether the current socket's session has this topic joined. */
  get joinedHere() {
    return this.#joinedHere;
  }

  /** @internal Whether a resync is under way (patches are ignored until its snapshot). */
  get resyncing() {
    return this.#resyncing;
  }

  /**
   * Calls `subscriber(state, changed)` on every change, and at once if a state is
   * already present (with `changed` = `[""]`). Returns the unsubscribe function.
   * @param {Subscriber} subscriber
   * @returns {() => void}
   */
  subscribe(subscriber) {
    this.#subscribers.add(subscriber);
    if (this.#state !== undefined) this.#call(subscriber, [""]);
    return () => {
      this.#subscribers.delete(subscriber);
    };
  }

  /**
   * Sends an action to the topic's store. Resolves with the server's reply once the
   * action has been applied (its patch, if any, is already in `state`); rejects with a
   * {@link StatecastError} carrying the server's `code`, or `connection_lost` if the
   * socket dropped after sending (the action is never sent twice).
   * @param {unknown} action the Codable form of the client action, e.g. `{ increment: {} }`
   * @returns {Promise<any>}
   */
  send(action) {
    if (!this.active) {
      const reason = this.#status === "failed" && this.#error ? `: ${this.#error.message}` : "";
      return Promise.reject(
        new StatecastError("not_joined", `topic "${this.name}" is ${this.#status}${reason}`, { topic: this.name, action }),
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ action, resolve, reject });
      this.#client.flush(this);
    });
  }

  /**
   * Joins again, optionally with new params: the server answers with a fresh snapshot
   * (a per-browser store keeps its state; a route may read the new params).
   * @param {Record<string, unknown>} [params]
   * @returns {Promise<void>}
   */
  rejoin(params) {
    if (params !== undefined) this.#params = params;
    return this.#client.rejoin(this);
  }

  /**
   * Releases this handle. When every `join` of the name has been released, the
   * client leaves the topic on the server and waiting actions reject with `not_joined`.
   */
  leave() {
    if (this.#status === "left") return;
    this.#holders--;
    if (this.#holders > 0) return;
    this.#client.release(this);
  }

  /** @internal Another `join` of the same name shares this handle; it takes one more `leave`. */
  retain() {
    this.#holders++;
  }

  /**
   * @internal Hands over the actions waiting to be sent; the topic forgets them.
   * @returns {WaitingAction[]}
   */
  takeWaiting() {
    const waiting = this.#waiting;
    this.#waiting = [];
    return waiting;
  }

  /**
   * @internal A snapshot arrived: it replaces the state and ends any resync.
   * @param {number} rev
   * @param {any} state
   */
  applySnapshot(rev, state) {
    this.#rev = rev;
    this.#state = state;
    this.#resyncing = false;
    this.#notify([""]);
  }

  /**
   * @internal A patch was applied: `state` is the document at `rev`.
   * @param {number} rev
   * @param {any} state
   * @param {string[]} changed
   */
  applyState(rev, state, changed) {
    this.#rev = rev;
    this.#state = state;
    this.#notify(changed);
  }

  /** @internal The server accepted the join (or resumed the session holding it) on the current socket. */
  markJoined() {
    this.#joinedHere = true;
    if (this.#status === "joining") {
      this.#status = "joined";
      this.#settleReady.resolve(this);
      this.emit("status", { status: this.#status });
    }
  }

  /** @internal The mirror went out of step and a re-join was sent; patches wait for its snapshot. */
  markResyncing() {
    this.#resyncing = true;
  }

  /** @internal The socket dropped: the topic must be resumed or joined again on the next one. */
  markDisconnected() {
    this.#joinedHere = false;
    this.#resyncing = false;
  }

  /**
   * @internal The server refused the join; `ready` and waiting actions reject with `error`.
   * @param {StatecastError} error
   */
  markFailed(error) {
    this.#end("failed", error);
  }

  /**
   * @internal The server ended the membership.
   * @param {string} reason the server's words
   */
  markClosed(reason) {
    if (!this.active) return;
    this.#closedReason = reason;
    this.#end("closed", new StatecastError("not_joined", `topic "${this.name}" was closed: ${reason}`, { topic: this.name }));
  }

  /** @internal The last holder left. */
  markLeft() {
    this.#end("left", new StatecastError("not_joined", `topic "${this.name}" was left`, { topic: this.name }));
  }

  /**
   * @param {TopicStatus} status `failed`, `closed` or `left`
   * @param {StatecastError} error what waiting actions reject with
   */
  #end(status, error) {
    if (!this.active) return;
    this.#status = status;
    this.#joinedHere = false;
    this.#resyncing = false;
    if (status === "failed") this.#error = error;
    this.#settleReady.reject(error);
    for (const entry of this.takeWaiting()) entry.reject(error);
    this.emit("status", { status, error });
  }

  /** @param {string[]} changed */
  #notify(changed) {
    for (const subscriber of [...this.#subscribers]) this.#call(subscriber, changed);
  }

  /**
   * @param {Subscriber} subscriber
   * @param {string[]} changed
   */
  #call(subscriber, changed) {
    try {
      subscriber(this.#state, changed);
    } catch (error) {
      console.error(`statecast: a subscriber of "${this.name}" threw`, error);
    }
  }
}
