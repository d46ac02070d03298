/**
 * What this tab publishes about itself in shared topics (`statecast.presence`), throttled.
 *
 * A page may publish on every keystroke or pointer move; the other members need only the
 * latest meta, and the server limits how often a socket may send. So the latest meta of
 * each topic is kept here and sent at most once every 100 ms, the latest winning, and
 * sent again whenever the topic is joined anew: a fresh join starts without presence on
 * the server (a resumed session kept it, so then only what waited is sent).
 *
 * @example
 * const presence = new PresencePublisher({ canPublish, send, setTimeout });
 * presence.publish("board/team", { editing: "item-3" });
 * @module
 */

/**
 * @typedef {object} PresenceEntry
 * @property {Record<string, unknown>} meta the latest meta published
 * @property {boolean} pending a newer meta waits for the throttle or for the join
 * @property {boolean} throttled a message went out less than 100 ms ago
 */

/**
 * What publishing needs of the client.
 * @typedef {object} PresenceHost
 * @property {(name: string) => boolean} canPublish whether the topic is joined on the
 *   current socket and the client is connected
 * @property {(name: string, meta: Record<string, unknown>) => void} send sends a `presence` message
 * @property {(fn: () => void, ms: number) => unknown} setTimeout
 */

export class PresencePublisher {
  /** @type {Map<string, PresenceEntry>} the latest presence meta published per topic */
  #entries = new Map();
  /** @type {PresenceHost} */
  #host;

  /** @param {PresenceHost} host */
  constructor(host) {
    this.#host = host;
  }

  /**
   * Publishes `meta` for the topic `name`: at once, or when the throttle or the join
   * allows.
   * @param {string} name
   * @param {Record<string, unknown>} meta
   */
  publish(name, meta) {
    const entry = this.#entries.get(name) ?? { meta, pending: false, throttled: false };
    entry.meta = meta;
    this.#entries.set(name, entry);
    if (entry.throttled) {
      entry.pending = true;
    } else {
      this.#send(name);
    }
  }

  /**
   * The topic was joined (its join accepted): what it published goes out again, unless
   * the throttle holds it (it then goes out when the throttle ends).
   * @param {string} name
   */
  joined(name) {
    if (this.#entries.get(name)?.throttled === false) this.#send(name);
  }

  /** The session was resumed with its presence: what was published meanwhile goes out. */
  resumed() {
    for (const [name, entry] of this.#entries) if (entry.pending && !entry.throttled) this.#send(name);
  }

  /**
   * The topic was left: nothing more is published for it.
   * @param {string} name
   */
  forget(name) {
    this.#entries.delete(name);
  }

  /** @param {string} name */
  #send(name) {
    const entry = this.#entries.get(name);
    if (!entry) return;
    if (!this.#host.canPublish(name)) {
      entry.pending = true;  // published once the topic is joined
      return;
    }
    entry.pending = false;
    entry.throttled = true;
    this.#host.send(name, entry.meta);
    this.#host.setTimeout(() => {
      entry.throttled = false;
      if (entry.pending) this.#send(name);
    }, 100);
  }
}
