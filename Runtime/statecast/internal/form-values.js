/**
 * Reads values from form controls as JSON, for `$value` and `$form` placeholders.
 *
 * Actions are Swift `Codable` values, so fields keep useful JSON types: numbers from
 * number and range inputs, booleans from lone checkboxes, arrays from checkbox groups,
 * and nested objects from dotted names (`address.city`).
 * @module
 */

const CONTROLS = new Set(["input", "select", "textarea"]);
const SKIPPED_TYPES = new Set(["submit", "button", "reset", "file", "image"]);

/**
 * The value of one element: a number for number/range inputs (`null` when empty),
 * the `value` property of other controls, else its `value` attribute.
 * @param {any} element
 * @returns {unknown}
 */
export function elementValue(element) {
  if (!("value" in element)) return element.getAttribute("value");
  const type = typeof element.type === "string" ? element.type : "";
  if (type === "number" || type === "range") {
    if (element.value === "") return null;
    const number = Number(element.value);
    return Number.isFinite(number) ? number : null;
  }
  return element.value;
}

/**
 * All named, enabled controls inside a form, as one object.
 * @param {any} form
 * @returns {Record<string, unknown>}
 */
export function formValues(form) {
  /** @type {any[]} */
  const controls = [];
  collect(form, controls);
  /** @type {Map<string, number>} */
  const checkboxCounts = new Map();
  for (const control of controls) {
    if (control.type === "checkbox") checkboxCounts.set(control.getAttribute("name"), (checkboxCounts.get(control.getAttribute("name")) ?? 0) + 1);
  }
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const control of controls) {
    const name = control.getAttribute("name");
    if (control.type === "checkbox") {
      if ((checkboxCounts.get(name) ?? 0) > 1) {
        const list = /** @type {unknown[]} */ (read(values, name) ?? []);
        if (control.checked) list.push(control.value);
        write(values, name, list);
      } else {
        write(values, name, Boolean(control.checked));
      }
    } else if (control.type === "radio") {
      if (control.checked) write(values, name, control.value);
      else if (read(values, name) === undefined) write(values, name, null);
    } else {
      write(values, name, elementValue(control));
    }
  }
  return values;
}

/**
 * @param {any} element
 * @param {any[]} into
 */
function collect(element, into) {
  for (const child of Array.from(/** @type {ArrayLike<any>} */ (element.children))) {
    if (CONTROLS.has(child.localName) && child.getAttribute("name") && !child.disabled && !SKIPPED_TYPES.has(child.type)) {
      into.push(child);
    }
    collect(child, into);
  }
}

/**
 * @param {Record<string, any>} values
 * @param {string} name
 */
function read(values, name) {
  let node = values;
  for (const part of name.split(".")) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * @param {Record<string, any>} values
 * @param {string} name
 * @param {unknown} value
 */
function write(values, name, value) {
  const parts = name.split(".");
  let node = values;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i];
    if (part === "__proto__" || part === "constructor" || part === "prototype") return;
    if (node[part] === null || typeof node[part] !== "object") node[part] = {};
    node = node[part];
  }
  const last = parts[parts.length - 1];
  if (last === "__proto__") return;
  node[last] = value;
}
