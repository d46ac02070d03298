/**
 * JSON Pointers (RFC 6901): parsing, formatting and safe lookup.
 *
 * Patches, bindings and change notifications all speak in pointers, so this module is
 * the one place that knows the escaping rules (`~0` is `~`, `~1` is `/`) and how an
 * array index token must look.
 *
 * @example
 * parsePointer("/todos/0/title")        // ["todos", "0", "title"]
 * formatPointer(["a/b", "m~n"])          // "/a~1b/m~0n"
 * lookup({ todos: [{ title: "Milk" }] }, ["todos", "0", "title"]) // "Milk"
 * @module
 */

/** Thrown for a pointer that is not valid RFC 6901 text. */
export class PointerError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "PointerError";
  }
}

/**
 * Splits a pointer into its unescaped reference tokens.
 * @param {string} pointer `""` (the whole document) or a string starting with `/`.
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (typeof pointer !== "string") throw new PointerError(`pointer must be a string, got ${typeof pointer}`);
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new PointerError(`pointer "${pointer}" must be empty or start with "/"`);
  const raw = pointer.slice(1).split("/");
  for (let i = 0; i < raw.length; i++) {
    const token = raw[i];
    if (token.indexOf("~") === -1) continue;
    if (/~[^01]|~$/.test(token)) throw new PointerError(`pointer "${pointer}" has an invalid "~" escape`);
    raw[i] = token.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return raw;
}

/**
 * Escapes one reference token (`~` → `~0`, `/` → `~1`).
 * @param {string | number} token
 * @returns {string}
 */
export function escapeToken(token) {
  const text = String(token);
  if (text.indexOf("~") === -1 && text.indexOf("/") === -1) return text;
  return text.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Joins reference tokens into a pointer.
 * @param {ReadonlyArray<string | number>} tokens
 * @returns {string}
 */
export function formatPointer(tokens) {
  let out = "";
  for (const token of tokens) out += "/" + escapeToken(token);
  return out;
}

/**
 * Parses an array index token: digits without leading zeros. Returns -1 for anything else.
 * @param {string} token
 * @returns {number}
 */
export function arrayIndex(token) {
  if (token === "0") return 0;
  if (!/^[1-9][0-9]*$/.test(token)) return -1;
  const index = Number(token);
  return Number.isSafeInteger(index) ? index : -1;
}

/**
 * Whether `object` has `key` as its own member (never the prototype's `constructor`).
 * @param {object} object
 * @param {string} key
 */
export function hasMember(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Reads the value at the given tokens, or `undefined` when any step is missing.
 * Never throws and never reads inherited properties, so a binding to a path that is
 * not in the state simply shows nothing.
 * @param {unknown} document
 * @param {ReadonlyArray<string>} tokens
 * @returns {unknown}
 */
export function lookup(document, tokens) {
  let node = document;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (Array.isArray(node)) {
      const index = arrayIndex(token);
      if (index < 0 || index >= node.length) return undefined;
      node = node[index];
    } else if (node !== null && typeof node === "object") {
      if (!hasMember(node, token)) return undefined;
      node = /** @type {Record<string, unknown>} */ (node)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * Whether pointer `a` (as tokens) is `b` or one of `b`'s ancestors.
 * @param {ReadonlyArray<string>} a
 * @param {ReadonlyArray<string>} b
 */
export function isPrefix(a, b) {
  if (a.length > b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether a change at `changed` can alter the value at `watched`: one is a prefix of
 * the other (a change inside the watched value, or a change of one of its ancestors).
 * @param {string} watched
 * @param {string} changed
 */
export function touches(watched, changed) {
  if (watched.length <= changed.length) {
    return changed.startsWith(watched) && (changed.length === watched.length || changed[watched.length] === "/");
  }
  return watched.startsWith(changed) && watched[changed.length] === "/";
}
