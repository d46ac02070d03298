/**
 * Which attribute bindings are allowed to write.
 *
 * Bound values come from the server's state, which may hold text that users typed.
 * Event-handler attributes (`onclick`, ...) are never written, and URL attributes
 * refuse `javascript:` and `vbscript:` URLs, so state can never become script.
 * @module
 */

const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "poster", "cite", "data", "background", "ping"]);

/**
 * @param {string} name lower-case attribute name
 * @returns {boolean}
 */
export function isWritableAttribute(name) {
  return !name.startsWith("on") && name !== "srcdoc";
}

/**
 * Whether `value` may be written to attribute `name`.
 * @param {string} name lower-case attribute name
 * @param {string} value
 * @returns {boolean}
 */
export function isSafeAttributeValue(name, value) {
  if (!URL_ATTRIBUTES.has(name)) return true;
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:").
  const scheme = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
  return !scheme.startsWith("javascript:") && !scheme.startsWith("vbscript:");
}
