/**
 * `data-sc-model="path"`: a form control that shows the value at `path`.
 *
 * Text inputs, text areas and selects show the value as text; checkboxes are checked
 * while it is truthy; radio buttons while it equals their `value`. Together with an
 * event binding that sends the new value, it makes a two-way input whose truth stays
 * on the server. While the user has an edit that is not yet sent and answered, patches
 * do not overwrite what they are typing; once it settles (or on blur), the control
 * shows the state again, so a refused edit is visibly undone.
 *
 * @example
 * <input data-sc-model="query" data-sc-on-input='{"queryChanged":{"text":"$value"}}' data-sc-debounce="200">
 * <input type="checkbox" data-sc-model="done" data-sc-on-change='{"toggle":{"id":"$key"}}'>
 * @module
 */

import { displayText, evaluate, truthy } from "../expression.js";
import { elementState, markEdited, settleEdit } from "../internal/element-state.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/**
 * Writes a value into a control the way the user would see it.
 * @param {any} element
 * @param {unknown} value
 * @param {"value" | "checked"} [property] force one property (from data-sc-attr)
 */
export function writeControl(element, value, property) {
  const type = typeof element.type === "string" ? element.type : "";
  if (property === "checked" || (property === undefined && type === "checkbox")) {
    const checked = truthy(value);
    if (element.checked !== checked) element.checked = checked;
    return;
  }
  if (property === undefined && type === "radio") {
    const checked = displayText(value) === element.value;
    if (element.checked !== checked) element.checked = checked;
    return;
  }
  const text = displayText(value);
  if (element.value !== text) element.value = text;
}

/** @implements {Binding} */
export class ModelBinding {
  /**
   * @param {any} element
   * @param {import("../expression.js").Expression} expression
   * @param {import("./region.js").Region} region
   */
  constructor(element, expression, region) {
    this.element = element;
    this.expression = expression;
    /** @type {import("../expression.js").Scope | null} */
    this.scope = null;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
    elementState(element).model = this;
    /** @param {unknown} event */
    const edited = (event) => markEdited(element, event);
    const blurred = () => settleEdit(element);
    element.addEventListener("input", edited);
    element.addEventListener("blur", blurred);
    region.onDispose(() => {
      element.removeEventListener("input", edited);
      element.removeEventListener("blur", blurred);
    });
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    this.scope = scope;
    if (elementState(this.element).editing) return;
    writeControl(this.element, evaluate(this.expression, scope));
  }

  /** Shows the latest state again (after an edit settled). */
  refresh() {
    if (this.scope) writeControl(this.element, evaluate(this.expression, this.scope));
  }
}
