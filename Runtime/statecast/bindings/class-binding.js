/**
 * `data-sc-class="name: expression; ..."`: classes switched on while their
 * expression is truthy.
 *
 * @example
 * <li data-sc-class="done: completed; selected: $key == $root.selectedID">...</li>
 * @module
 */

import { evaluate, parsePairs, truthy } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/** @implements {Binding} */
export class ClassBinding {
  /**
   * @param {any} element
   * @param {string} source
   */
  constructor(element, source) {
    this.element = element;
    this.pairs = parsePairs(source);
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf(this.pairs.map((pair) => pair.expression));
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    for (const { name, expression } of this.pairs) {
      const on = truthy(evaluate(expression, scope));
      if (this.element.classList.contains(name) !== on) this.element.classList.toggle(name, on);
    }
  }
}
