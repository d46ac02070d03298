/**
 * The joins the page's early snippet sent before the runtime loaded, from their
 * adoption until the page's own joins have claimed them.
 *
 * Why it exists: the snippet (`early.js`; docs/RUNTIME.md, "Live sooner") joins the
 * page's top-level topics on its own socket while the runtime still downloads, so the
 * first state travels sooner. The runtime then holds joins it did not send, and each
 * needs care that the client's own joins do not:
 * - its ref is taken over (its reply settles it; later requests use higher refs), and a
 *   topic is made of it before the socket's messages are replayed, so a snapshot that
 *   came early finds it; the first flight does not send that join again;
 * - the page's first `join` of the name takes it over; a refusal that came before the
 *   page asked is reported then, once, and shared by every holder until the page is bound;
 * - a `join` with params cannot take it over: the server keeps a joined topic's store on
 *   a second join, so the early join is left just ahead of the new one, on whichever
 *   socket carries it (unless the session is lost meanwhile);
 * - once the page is bound, the joins nobody claimed are left.
 * All of it concerns the first page load only: the client asks this module at those few
 * points and keeps none of this bookkeeping itself.
 *
 * @example
 * const early = new EarlyJoins(options.early, host);
 * early.adopt();                        // before the connection takes the socket over
 * const handle = early.claim(topic, params);
 * early.leaveUnclaimed();               // once the page is bound
 * @module
 */

import { deepEqual } from "./patch.js";

/** @typedef {import("./topic.js").Topic} Topic */

/**
 * What the early joins need of the client.
 * @typedef {object} EarlyJoinsHost
 * @property {(ref: number) => Promise<any>} adopt takes over a request the snippet sent
 *   (`Connection.adopt`); resolves with its reply
 * @property {(name: string) => Topic | undefined} topic the client's topic of that name
 * @property {(name: string, params?: Record<string, unknown>) => Topic} add makes a topic
 *   and registers it under its name
 * @property {(topic: Topic) => void} forget drops the topic from the client's topics, if
 *   it is still the one registered under its name
 * @property {(error: import("./error.js").StatecastError, topic: string) => void} report
 *   reports a refused join
 */

export class EarlyJoins {
  /** @type {import("./connection.js").EarlySocket | undefined} the early socket, until adopted */
  #early;
  /** @type {EarlyJoinsHost} */
  #host;
  /** @type {Map<Topic, Promise<any>>} answers to the adopted joins, until the first flight takes them */
  #answers = new Map();
  /** @type {Set<Topic>} topics of early joins that no `join` call has claimed yet */
  #unclaimed = new Set();
  /** @type {Set<Topic>} early joins refused before the page claimed them, until it is bound */
  #refused = new Set();
  /** @type {Set<string>} names the early socket joined without params, to leave before joining them anew */
  #leaveFirst = new Set();

  /**
   * @param {import("./connection.js").EarlySocket | undefined} early the page's early socket, if any
   * @param {EarlyJoinsHost} host
   */
  constructor(early, host) {
    this.#early = early;
    this.#host = host;
  }

  /**
   * Makes a topic of each join the early socket sent, before the connection takes the
   * socket over and replays what the server sent: their snapshots then find them. A
   * name the page joined already (before `start`) keeps the page's join, which goes out
   * too; the early join's answer is dropped, but its ref stays taken. Once only.
   */
  adopt() {
    const early = this.#early;
    this.#early = undefined;
    if (!early || early.closed || !early.opened || !Array.isArray(early.joins)) return;
    for (const join of early.joins) {
      const { ref, topic: name } = join ?? {};
      if (!Number.isSafeInteger(ref) || ref < 1) continue;
      if (typeof name !== "string" || name === "" || this.#host.topic(name)) {
        this.#host.adopt(ref).catch(() => {});
        continue;
      }
      const topic = this.#host.add(name);
      this.#unclaimed.add(topic);
      this.#answers.set(topic, this.#host.adopt(ref));
    }
  }

  /**
   * Makes a topic of one the server rendered the page with (`rendered-page.js`): its
   * mirror starts at the rendered state and revision, and the session's resume lists
   * it instead of a join. The page's bindings claim it like an early join.
   * @param {string} name
   * @param {import("./rendered-page.js").RenderedTopic} rendered
   * @returns {Topic}
   */
  seed(name, rendered) {
    const topic = this.#host.add(name, rendered.params);
    topic.receive({ op: "snapshot", topic: name, rev: rendered.rev, state: rendered.state });
    this.#unclaimed.add(topic);
    return topic;
  }

  /**
   * Hands over the answers to the adopted joins, once: the first socket's flight waits
   * for these instead of sending the joins again; a later socket joins anew.
   * @returns {Map<Topic, Promise<any>>}
   */
  takeAnswers() {
    const answers = this.#answers;
    this.#answers = new Map();
    return answers;
  }

  /**
   * A page's `join` of a name whose topic is `topic`: whether the early join gives the
   * handle. Without params the first holder takes the early topic over, with the
   * server's refusal if it came already (reported now, once), and later holders share a
   * refused one until the page is bound. With params the early topic is over: it is
   * left ahead of the page's new join (`leavesFirst`), or just forgotten if refused.
   * @param {Topic} topic the client's topic of the name
   * @param {Record<string, unknown> | undefined} params the `join`'s params
   * @returns {Topic | null | undefined} the handle the `join` returns; `null` when the
   *   `join` must join anew and the client forget `topic`; `undefined` when `topic` is no
   *   early join left to claim (the client's own rules apply)
   */
  claim(topic, params) {
    if (params === undefined && this.#refused.has(topic)) return topic;
    if (!this.#unclaimed.delete(topic)) return undefined;
    if (topic.status === "failed") {
      if (params !== undefined) return null;
      if (topic.error) this.#host.report(topic.error, topic.name);
      this.#refused.add(topic);
      return topic;
    }
    if (params === undefined || (topic.params !== undefined && deepEqual(params, topic.params))) return topic;
    topic.markLeft();
    this.#leaveFirst.add(topic.name);
    return null;
  }

  /**
   * Whether `topic` is an early join no `join` has claimed yet: a refusal stays with it,
   * unreported, for the page's own `join` to take over.
   * @param {Topic} topic
   */
  isUnclaimed(topic) {
    return this.#unclaimed.has(topic);
  }

  /**
   * Whether the early join of `name` must be left just before the page's join of it
   * goes out; answers `true` once.
   * @param {string} name
   */
  leavesFirst(name) {
    return this.#leaveFirst.delete(name);
  }

  /** The session is lost (a new one starts): it holds none of the early joins to leave. */
  sessionLost() {
    this.#leaveFirst.clear();
  }

  /**
   * Once the page is bound: forgets the refused early joins its holders shared, and
   * leaves the ones no `join` claimed (the page changed or removed their element).
   */
  leaveUnclaimed() {
    for (const topic of this.#refused) this.#host.forget(topic);
    this.#refused.clear();
    for (const topic of [...this.#unclaimed]) {
      this.#unclaimed.delete(topic);
      if (this.#host.topic(topic.name) !== topic) continue;
      if (topic.active) topic.leave();
      else this.#host.forget(topic);
    }
  }
}
