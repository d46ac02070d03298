/**
 * The bindings of one scope: a topic's root element, or one row of a list.
 *
 * A region owns its bindings and the listeners and timers they set up, so removing a
 * list row (or unbinding a page) releases everything at once. Its `scope` is replaced
 * on every update, so event handlers always read the row's current item and index.
 * @module
 */

import { safeUpdate } from "./binding.js";

export class Region {
  /** @type {import("../expression.js").Scope} */
  #scope;
  /** @type {import("./binding.js").Binding[]} */
  #bindings = [];
  /** @type {(() => void)[]} */
  #disposers = [];
  /** @type {string[] | null} */
  #rootDependencies = null;

  /** @param {import("../expression.js").Scope} scope */
  constructor(scope) {
    this.#scope = scope;
  }

  /** The scope the region's bindings read: the topic's latest state, or the row's item. */
  get scope() {
    return this.#scope;
  }

  /** @returns {ReadonlyArray<import("./binding.js").Binding>} */
  get bindings() {
    return this.#bindings;
  }

  /**
   * A new state (or a moved or changed row) arrived; bindings read it from now on.
   * @param {import("../expression.js").Scope} scope
   */
  rescope(scope) {
    this.#scope = scope;
  }

  /** @param {import("./binding.js").Binding} binding */
  add(binding) {
    this.#bindings.push(binding);
    this.#rootDependencies = null;
  }

  /**
   * Runs `dispose` when the region goes away (removes a listener, cancels a timer).
   * @param {() => void} dispose
   */
  onDispose(dispose) {
    this.#disposers.push(dispose);
  }

  /** Pointers of the topic's state that some binding of the region reads through `$root`. */
  get rootDependencies() {
    if (this.#rootDependencies === null) this.#rootDependencies = this.#bindings.flatMap((binding) => binding.rootDependencies);
    return this.#rootDependencies;
  }

  /** Whether some binding reads `$index`. */
  get usesIndex() {
    return this.#bindings.some((binding) => binding.usesIndex);
  }

  /** @param {string[]} changed */
  updateAll(changed) {
    for (const binding of this.#bindings) safeUpdate(binding, this.#scope, changed);
  }

  dispose() {
    for (const dispose of this.#disposers.splice(0)) {
      try {
        dispose();
      } catch (error) {
        console.error("statecast: cleanup failed", error);
      }
    }
    for (const binding of this.#bindings) binding.dispose?.();
  }
}
