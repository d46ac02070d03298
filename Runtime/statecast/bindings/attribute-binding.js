/**
 * `data-sc-attr="name: expression; ..."`: attributes that follow the state.
 *
 * `true` sets a boolean attribute (`disabled`, `open`), `false`, `null` and missing
 * remove it, anything else is written as text. On inputs, text areas and selects,
 * `value` and `checked` are set as properties (what the user sees), and not while the
 * user is editing the element.
 * Event-handler attributes are never written and URL attributes refuse `javascript:`.
 *
 * @example
 * <button data-sc-attr="disabled: !canClear">Clear</button>
 * <a data-sc-attr="href: profileURL; title: user.name">Profile</a>
 * @module
 */

import { evaluate, parsePairs } from "../expression.js";
import { elementState } from "../internal/element-state.js";
import { isSafeAttributeValue, isWritableAttribute } from "../internal/safe-attribute.js";
import { dependenciesOf } from "./binding.js";
import { writeControl } from "./model-binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/** Controls whose `value` and `checked` the user edits, so they are set as properties. */
const EDITABLE = new Set(["input", "textarea", "select"]);

/** @implements {Binding} */
export class AttributeBinding {
  /**
   * @param {any} element
   * @param {string} source
   */
  constructor(element, source) {
    this.element = element;
    this.pairs = parsePairs(source).map(({ name, expression }) => {
      const lower = name.toLowerCase();
      if (!isWritableAttribute(lower)) throw new Error(`data-sc-attr may not write "${name}"`);
      return { name: lower, expression };
    });
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf(this.pairs.map((pair) => pair.expression));
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    for (const { name, expression } of this.pairs) {
      const value = evaluate(expression, scope);
      if ((name === "value" || name === "checked") && EDITABLE.has(this.element.localName)) {
        if (!elementState(this.element).editing) writeControl(this.element, value, name);
        continue;
      }
      this.write(name, value);
    }
  }

  /**
   * @param {string} name
   * @param {unknown} value
   */
  write(name, value) {
    const element = this.element;
    if (value === true) {
      if (element.getAttribute(name) !== "") element.setAttribute(name, "");
      return;
    }
    if (value === false || value === null || value === undefined) {
      if (element.hasAttribute(name)) element.removeAttribute(name);
      return;
    }
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    if (!isSafeAttributeValue(name, text)) {
      console.warn(`statecast: refused to set ${name}="${text.slice(0, 40)}"`);
      if (element.hasAttribute(name)) element.removeAttribute(name);
      return;
    }
    if (element.getAttribute(name) !== text) element.setAttribute(name, text);
  }
}
