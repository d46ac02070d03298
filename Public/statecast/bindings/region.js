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
  /** @param {import("../expression.js").Scope} scope */
  constructor(scope) {
    this.scope = scope;
    /** @type {import("./binding.js").Binding[]} */
    this.bindings = [];
    /** @type {(() => void)[]} */
    this.disposers = [];
    /** @type {string[] | null} */
    this.rootDependenciesCache = null;
  }

  /** @param {import("./binding.js").Binding} binding */
  add(binding) {
    this.bindings.push(binding);
    this.rootDependenciesCache = null;
  }

  /** Pointers of the topic's state that some binding of the region reads through `$root`. */
  get rootDependencies() {
    if (this.rootDependenciesCache === null) this.rootDependenciesCache = this.bindings.flatMap((binding) => binding.rootDependencies);
    return this.rootDependenciesCache;
  }

  /** Whether some binding reads `$index`. */
  get usesIndex() {
    return this.bindings.some((binding) => binding.usesIndex);
  }

  /** @param {string[]} changed */
  updateAll(changed) {
    for (const binding of this.bindings) safeUpdate(binding, this.scope, changed);
  }

  dispose() {
    for (const dispose of this.disposers.splice(0)) {
      try {
        dispose();
      } catch (error) {
        console.error("statecast: cleanup failed", error);
      }
    }
    for (const binding of this.bindings) binding.dispose?.();
  }
}
