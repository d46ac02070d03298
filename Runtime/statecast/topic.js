/**
 * A joined topic: the browser's mirror of one store's view state.
 *
 * A topic holds the latest state and revision, tells subscribers what changed, and
 * sends actions to its store. It owns its mirror: the client hands it every message
 * naming it (`receive`), and the topic checks the revision, applies the patch and
 * decides when the mirror is out of step and must be joined again (a resync). It
 * survives reconnects: the client resumes or re-joins it on every new socket, and
 * actions sent while the socket is down wait until the topic is joined again (they
 * have not reached the server, so sending them later is safe). It reaches the client
 * only through the narrow port it was made with (`TopicPort`), never the client
 * itself. Get one from `statecast.join(name)`.
 *
 * @example
 * const counter = statecast.join("counter");
 * const stop = counter.subscribe((state, changed) => render(state));
 * await counter.send({ increment: {} });  // the reply; counter.state already shows the effect
 * counter.leave();
 * @module
 */

import { MAX_ATTEMPTS, newActionKey, unavailableRetryDelay } from "./action-retry.js";
import { Emitter } from "./emitter.js";
import { StatecastError } from "./error.js";
import { PatchError, applyPatch } from "./patch.js";
import { Predictions } from "./prediction.js";

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
 * @property {number} order when `send` was called, so an action sent again keeps its place
 * @property {string} [key] its idempotency key, made at its first sending
 * @property {number} [attempts] how many times it was sent
 */

/**
 * All a topic may ask of the client that carries it. The client's registry
 * (`topic-registry.js`) makes one for each topic; through it alone the topic sends,
 * joins again and leaves, so that neither reaches into the other (the client keeps
 * its socket, handshake and membership on the server, the topic its mirror and its
 * actions).
 * @typedef {object} TopicPort
 * @property {() => boolean} live whether a joined topic's actions can go out now: the
 *   client is greeted and resumed, and its socket open
 * @property {(message: Record<string, unknown>) => Promise<any>} send sends a request
 *   (an action) and resolves with the server's reply; rejects with `connection_lost`
 *   when the socket drops first
 * @property {(error: StatecastError, context: { topic: string, action: unknown }) => void} report
 *   reports an action the server refused (the client logs it and emits `error`)
 * @property {(fn: () => void, ms: number) => unknown} later runs `fn` after `ms` milliseconds
 *   (the client's timer, so tests control it)
 * @property {() => Promise<void>} rejoin joins the topic again (its params may have changed)
 * @property {(reason: string) => void} resync the mirror went out of step: join again,
 *   for a fresh snapshot (the topic ignores patches until it comes)
 * @property {(joinedHere: boolean) => void} release the last holder left (the topic is
 *   `left` already): leave it on the server; `joinedHere` tells whether the current
 *   socket's session had it joined
 */

/**
 * @callback Subscriber
 * @param {any} state the new state
 * @param {string[]} changed pointers of what changed (`[""]` for a whole snapshot)
 * @returns {void}
 */

export class Topic extends Emitter {
  /** @type {TopicPort} */
  #port;
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
  /** How many actions `send` has taken, for their order. */
  #sent = 0;
  /** @type {Set<Subscriber>} */
  #subscribers = new Set();
  /** What actions in flight are expected to change; subscribers see it on top of the mirror. */
  #predictions = new Predictions();
  /** @type {{ resolve: (topic: Topic) => void, reject: (error: Error) => void }} */
  #settleReady;

  /**
   * @param {string} name
   * @param {Record<string, unknown> | undefined} params
   * @param {TopicPort} port the topic's way to the client that carries it
   */
  constructor(name, params, port) {
    super();
    this.#port = port;
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
   * {@link StatecastError} carrying the server's `code`. An action whose socket dropped
   * before its reply, or that the server answered `unavailable`, is sent again with the
   * same idempotency key (see `action-retry.js`), so it is applied once; after
   * `MAX_ATTEMPTS` sendings it rejects with the last error.
   * @param {unknown} action the Codable form of the client action, e.g. `{ increment: {} }`
   * @param {import("./prediction.js").PredictionStep[]} [prediction] the change the action is
   *   expected to make, shown until the server answers (see `prediction.js`)
   * @returns {Promise<any>}
   */
  send(action, prediction) {
    if (!this.active) {
      const reason = this.#status === "failed" && this.#error ? `: ${this.#error.message}` : "";
      return Promise.reject(
        new StatecastError("not_joined", `topic "${this.name}" is ${this.#status}${reason}`, { topic: this.name, action }),
      );
    }
    const sent = new Promise((resolve, reject) => {
      this.#waiting.push({ action, resolve, reject, order: this.#sent++ });
      this.flush();
    });
    if (!prediction?.length || this.#state === undefined) return sent;
    const id = this.#predictions.add(prediction);
    this.#notify(prediction.map((step) => step.pointer));
    const settle = () => {
      const ended = this.#predictions.remove(id);
      if (ended.length > 0) this.#notify(ended);
    };
    sent.then(settle, settle);
    return sent;
  }

  /**
   * Joins again, optionally with new params: the server answers with a fresh snapshot
   * (a per-browser store keeps its state; a route may read the new params).
   * @param {Record<string, unknown>} [params]
   * @returns {Promise<void>}
   */
  rejoin(params) {
    if (params !== undefined) this.#params = params;
    return this.#port.rejoin();
  }

  /**
   * Releases this handle. When every `join` of the name has been released, the
   * client leaves the topic on the server and waiting actions reject with `not_joined`.
   */
  leave() {
    if (this.#status === "left") return;
    this.#holders--;
    if (this.#holders > 0) return;
    const joinedHere = this.#joinedHere;
    this.markLeft();
    this.#port.release(joinedHere);
  }

  /** @internal Another `join` of the same name shares this handle; it takes one more `leave`. */
  retain() {
    this.#holders++;
  }

  /**
   * @internal Sends the waiting actions, if the topic is joined on a live socket (the
   * client calls it when a join is accepted and when its handshake completes).
   */
  flush() {
    if (!this.#joinedHere || !this.#port.live()) return;
    for (const entry of this.#takeWaiting()) this.#sendAction(entry);
  }

  /**
   * @internal A message the server sent about this topic, as the client routes it: a
   * `snapshot` replaces the mirror and ends any resync; a `patch` advances it by one
   * revision, or starts a resync when a revision is missing or the patch does not apply;
   * `closed` ends the topic with the server's reason. Ignored once the topic is over.
   * @param {any} message
   */
  receive(message) {
    if (!this.active) return;
    switch (message.op) {
      case "snapshot":
        if (typeof message.rev === "number") this.#applySnapshot(message.rev, message.state);
        return;
      case "patch":
        this.#applyPatch(message);
        return;
      case "closed":
        this.#closed(typeof message.reason === "string" ? message.reason : "closed by the server");
        return;
      case "event":
        // Something the store told its hooks that is not state (never replayed).
        if (typeof message.event === "string") this.emit("event", { name: message.event, payload: message.payload });
        return;
      default:
      // Nothing else names a topic.
    }
  }

  /**
   * @internal The server joined the topic again with `params` (a live navigation to a
   * page that joins it with other params): the page's own join then finds them.
   * @param {Record<string, unknown> | undefined} params
   */
  adoptParams(params) {
    this.#params = params;
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
    for (const entry of this.#takeWaiting()) entry.reject(error);
    this.emit("status", { status, error });
  }

  /**
   * A snapshot arrived: it replaces the state and ends any resync.
   * @param {number} rev
   * @param {any} state
   */
  #applySnapshot(rev, state) {
    this.#rev = rev;
    this.#state = state;
    this.#resyncing = false;
    this.#predictions.clear();
    this.#notify([""]);
  }

  /**
   * Applies the patch of the next revision; an older one was applied already (ignored),
   * a later one means one was missed, and one that does not apply means the mirror is
   * not the server's view: either way only a fresh snapshot can repair it. Patches are
   * ignored while that resync is under way, and before the first snapshot.
   * @param {any} message
   */
  #applyPatch(message) {
    const rev = this.#rev;
    if (this.#resyncing || rev === undefined || typeof message.rev !== "number") return;
    if (message.rev <= rev) return;
    if (message.rev !== rev + 1) {
      this.#resync(`expected revision ${rev + 1}, got ${message.rev}`);
      return;
    }
    let result;
    try {
      result = applyPatch(this.#state, message.ops);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      this.#resync(`patch ${message.rev} does not apply: ${error.message}`);
      return;
    }
    this.#rev = message.rev;
    this.#state = result.document;
    const ended = this.#predictions.size > 0 ? this.#predictions.reconcile(result.changed) : [];
    this.#notify(ended.length > 0 ? [...result.changed, ...ended] : result.changed);
  }

  /**
   * The mirror went out of step: the client joins again (once; patches wait for the
   * fresh snapshot).
   * @param {string} reason
   */
  #resync(reason) {
    if (this.#resyncing) return;
    this.#resyncing = true;
    this.#port.resync(reason);
  }

  /**
   * The server ended the membership.
   * @param {string} reason the server's words
   */
  #closed(reason) {
    this.#closedReason = reason;
    this.#end("closed", new StatecastError("not_joined", `topic "${this.name}" was closed: ${reason}`, { topic: this.name }));
  }

  /**
   * Sends one action; its reply or the socket's drop settles the promise `send` returned.
   * @param {WaitingAction} entry
   */
  #sendAction(entry) {
    const context = { topic: this.#name, action: entry.action };
    entry.key ??= newActionKey();
    entry.attempts = (entry.attempts ?? 0) + 1;
    this.#port.send({ op: "action", topic: this.#name, action: entry.action, key: entry.key }).then(
      (reply) => {
        if (reply.status === "ok") {
          entry.resolve(reply);
          return;
        }
        const error = StatecastError.fromReply(reply, context);
        if (error.code === "unavailable" && (entry.attempts ?? 0) < MAX_ATTEMPTS) {
          this.#port.later(() => this.#sendAgain(entry, error), unavailableRetryDelay(entry.attempts ?? 0));
          return;
        }
        this.#port.report(error, context);
        entry.reject(error);
      },
      (/** @type {StatecastError} */ error) => {
        // The connection knows why the request failed; the action's promise also says which.
        const failure = new StatecastError(error.code, error.message, context);
        if (error.code === "connection_lost") this.#sendAgain(entry, failure);
        else entry.reject(failure);
      },
    );
  }

  /**
   * An action's answer was lost or `unavailable`: it waits to be sent again with its
   * key, in its place among the waiting ones, unless it was sent too often or the topic
   * is over.
   * @param {WaitingAction} entry
   * @param {StatecastError} error what it rejects with if it is not sent again
   */
  #sendAgain(entry, error) {
    if (!this.active || (entry.attempts ?? 0) >= MAX_ATTEMPTS) {
      entry.reject(error);
      return;
    }
    const index = this.#waiting.findIndex((waiting) => waiting.order > entry.order);
    this.#waiting.splice(index === -1 ? this.#waiting.length : index, 0, entry);
    this.flush();
  }

  /**
   * Hands over the actions waiting to be sent; the topic forgets them.
   * @returns {WaitingAction[]}
   */
  #takeWaiting() {
    const waiting = this.#waiting;
    this.#waiting = [];
    return waiting;
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
      subscriber(this.#predictions.size > 0 ? this.#predictions.view(this.#state) : this.#state, changed);
    } catch (error) {
      console.error(`statecast: a subscriber of "${this.name}" threw`, error);
    }
  }
}
