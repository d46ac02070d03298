/**
 * Actions written in HTML attributes, with placeholders filled from the page.
 *
 * An event binding holds the action as JSON (the Swift `Codable` form of the topic's
 * client action). Any string in it that starts with `$` is a placeholder, replaced by a
 * value read when the event fires, keeping its JSON type. A payload-less action can be
 * written as its bare name.
 *
 *     increment                                  → {"increment":{}}
 *     {"open":{"path":"$href"}}                  → the element's href attribute
 *     {"rename":{"id":"$key","title":"$value"}}  → the row's key and the input's value
 *     {"add":"$form"}                            → all named fields of the form
 *
 * Placeholders: `$value`, `$checked`, `$href`, `$attr.NAME`, `$form`, `$form.NAME`,
 * `$item`, `$item.PATH`, `$root.PATH`, `$index`, `$key`, `$event.key`,
 * `$location.pathname` (also `.search`, `.hash`, `.href`), `$query.NAME`.
 * A string that must start with a literal `$` is written with `$$`.
 *
 * @module
 */

import { ExpressionError, evaluate, parseExpression } from "./expression.js";

/**
 * Where placeholder values come from, all optional (a missing source gives `null`).
 * @typedef {object} PlaceholderSource
 * @property {() => unknown} [value]
 * @property {() => boolean} [checked]
 * @property {(name: string) => string | null} [attribute]
 * @property {() => Record<string, unknown>} [form]
 * @property {import("./expression.js").Scope} [scope]
 * @property {{ pathname?: string, search?: string, hash?: string, href?: string }} [location]
 * @property {{ key?: string }} [event]
 */

const plainNames = new Set(["$value", "$checked", "$href", "$form", "$item", "$index", "$key"]);
const prefixedNames = ["$attr.", "$form.", "$item.", "$item/", "$root.", "$root/", "$location.", "$query.", "$event."];

/**
 * Parses an action attribute: JSON, or a bare case name for a payload-less action.
 * Checks every placeholder, so a typo fails when the page is bound, not on click.
 * @param {string} source
 * @returns {unknown}
 */
export function parseActionTemplate(source) {
  const text = source.trim();
  let template;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) {
    template = { [text]: {} };
  } else {
    try {
      template = JSON.parse(text);
    } catch (error) {
      throw new ExpressionError(`action ${JSON.stringify(text)} is not JSON: ${/** @type {Error} */ (error).message}`);
    }
  }
  checkPlaceholders(template);
  return template;
}

/**
 * Throws an `ExpressionError` for a placeholder the runtime does not know, anywhere in
 * `node` (also used for `data-sc-predict`, whose steps take the same placeholders).
 * @param {unknown} node
 */
export function checkPlaceholders(node) {
  if (typeof node === "string") {
    if (node[0] === "$" && node[1] !== "$" && !isKnownPlaceholder(node)) {
      throw new ExpressionError(`unknown placeholder "${node}" (write "$$" for a literal "$")`);
    }
  } else if (Array.isArray(node)) {
    node.forEach(checkPlaceholders);
  } else if (node !== null && typeof node === "object") {
    for (const key of Object.keys(node)) checkPlaceholders(/** @type {any} */ (node)[key]);
  }
}

/** @param {string} name */
function isKnownPlaceholder(name) {
  return plainNames.has(name) || prefixedNames.some((prefix) => name.startsWith(prefix) && name.length > prefix.length);
}

/**
 * Returns a copy of `template` with every placeholder replaced.
 * @param {unknown} template
 * @param {PlaceholderSource} source
 * @returns {unknown}
 */
export function fillTemplate(template, source) {
  if (typeof template === "string") {
    if (template[0] !== "$") return template;
    if (template[1] === "$") return template.slice(1);
    const value = placeholder(template, source);
    return value === undefined ? null : value;
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, source));
  if (template !== null && typeof template === "object") {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const key of Object.keys(template)) {
      const value = fillTemplate(/** @type {any} */ (template)[key], source);
      if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }
  return template;
}

/**
 * @param {string} name
 * @param {PlaceholderSource} source
 * @returns {unknown}
 */
function placeholder(name, source) {
  switch (name) {
    case "$value":
      return source.value ? source.value() : null;
    case "$checked":
      return source.checked ? source.checked() : null;
    case "$href":
      return source.attribute ? source.attribute("href") : null;
    case "$form":
      return source.form ? source.form() : null;
  }
  if (name.startsWith("$attr.")) return source.attribute ? source.attribute(name.slice(6)) : null;
  if (name.startsWith("$form.")) {
    const form = source.form ? source.form() : null;
    const field = name.slice(6);
    return form && Object.prototype.hasOwnProperty.call(form, field) ? form[field] : null;
  }
  if (name.startsWith("$location.")) {
    const part = /** @type {"pathname" | "search" | "hash" | "href"} */ (name.slice(10));
    const location = source.location;
    return location && ["pathname", "search", "hash", "href"].includes(part) ? (location[part] ?? null) : null;
  }
  if (name.startsWith("$query.")) {
    const search = source.location?.search ?? "";
    return new URLSearchParams(search).get(name.slice(7));
  }
  if (name.startsWith("$event.")) {
    const event = /** @type {Record<string, unknown> | undefined} */ (source.event);
    const field = name.slice(7);
    return event && field === "key" ? (event.key ?? null) : null;
  }
  if (!source.scope) return null;
  return evaluate(parseExpression(name), source.scope);
}
