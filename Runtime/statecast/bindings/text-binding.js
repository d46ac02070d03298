/**
 * `data-sc-text="path"`: the element's text is the value at `path`.
 *
 * Always set through `textContent`, never as HTML, so state can never inject markup.
 * Missing values show as nothing; numbers and booleans are printed; objects as JSON.
 *
 * @example
 * <span data-sc-text="count"></span>
 * @module
 */

import { displayText, evaluate } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/** @implements {Binding} */
export class TextBinding {
  /**
   * @param {any} element
   * @param {import("../expression.js").Expression} expression
   */
  constructor(element, expression) {
    this.element = element;
    this.expression = expression;
    /** @type {string | undefined} */
    this.shown = undefined;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    const text = displayText(evaluate(this.expression, scope));
    if (text === this.shown) return;
    this.shown = text;
    if (this.element.textContent === text && hasOnlyText(this.element)) return;
    this.element.textContent = text;
  }
}

/**
 * Whether the element holds nothing but one text node (or nothing): then a text equal to
 * the one to show is already shown as `textContent` would show it. A page the server
 * rendered is bound without touching the text it rendered, which would have the browser
 * lay out and paint that text again while it paints the page's first frames.
 * @param {any} element
 */
function hasOnlyText(element) {
  const first = element.firstChild;
  return first === null || (first.nodeType === 3 && first.nextSibling === null);
}
