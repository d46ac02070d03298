/**
 * `data-sc-show="expression"` and `data-sc-hide="expression"`: the element is shown
 * (or hidden) while the expression is truthy, through the `hidden` property.
 *
 * @example
 * <p data-sc-show="phase.loading">Loading…</p>
 * <p data-sc-hide="todos.length">Nothing to do.</p>
 * @module
 */

import { evaluate, truthy } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/** @implements {Binding} */
export class VisibilityBinding {
  /**
   * @param {any} element
   * @param {import("../expression.js").Expression} expression
   * @param {boolean} showWhenTrue `true` for data-sc-show, `false` for data-sc-hide
   */
  constructor(element, expression, showWhenTrue) {
    this.element = element;
    this.expression = expression;
    this.showWhenTrue = showWhenTrue;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    const hidden = truthy(evaluate(this.expression, scope)) !== this.showWhenTrue;
    if (this.element.hidden !== hidden) this.element.hidden = hidden;
  }
}
