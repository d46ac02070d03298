/**
 * A minimal typed event emitter shared by the client and its topics.
 *
 * The runtime runs in browsers and in Node's test runner; a dozen lines of its own
 * avoid depending on `CustomEvent` and give listeners a plain `detail` object and an
 * unsubscribe function. A throwing listener is reported and never stops the others.
 *
 * @example
 * const off = statecast.on("connectionstatechange", ({ state }) => console.log(state));
 * off();
 * @module
 */

export class Emitter {
  /** @type {Map<string, Set<(detail: any) => void>>} */
  #listeners = new Map();

  /**
   * Adds a listener; returns a function that removes it.
   * @param {string} type
   * @param {(detail: any) => void} listener
   * @returns {() => void}
   */
  on(type, listener) {
    let set = this.#listeners.get(type);
    if (!set) {
      set = new Set();
      this.#listeners.set(type, set);
    }
    const listeners = set;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  /**
   * Whether anyone listens to `type` (lets callers skip building costly details).
   * @param {string} type
   */
  hasListeners(type) {
    const set = this.#listeners.get(type);
    return set !== undefined && set.size > 0;
  }

  /**
   * Calls every listener of `type` with `detail`.
   * @param {string} type
   * @param {unknown} detail
   */
  emit(type, detail) {
    const set = this.#listeners.get(type);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(detail);
      } catch (error) {
        console.error(`statecast: a "${type}" listener threw`, error);
      }
    }
  }
}
