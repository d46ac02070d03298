/**
 * JSON Patch (RFC 6902) applied without mutating the input.
 *
 * The server sends every change of a topic's view as a patch; the runtime applies it to
 * its mirror of the state. Application is copy-on-write: containers along the changed
 * paths are copied once per patch and everything else is shared with the previous
 * state. That makes a failed patch harmless (the previous state was never touched, so
 * application is atomic) and lets renderers detect unchanged rows with `===`.
 *
 * @example
 * const { document, changed } = applyPatch({ count: 1 }, [{ op: "replace", path: "/count", value: 2 }]);
 * // document: { count: 2 }, changed: ["/count"]
 * @module
 */

import { PointerError, arrayIndex, formatPointer, hasMember, parsePointer } from "./pointer.js";

/** Thrown when a patch cannot be applied; the input document is unchanged. */
export class PatchError extends Error {
  /**
   * @param {string} message
   * @param {number} index position of the failing operation in the patch
   * @param {unknown} operation the failing operation
   */
  constructor(message, index, operation) {
    super(`operation ${index}: ${message}`);
    this.name = "PatchError";
    this.index = index;
    this.operation = operation;
  }
}

/**
 * @typedef {object} PatchResult
 * @property {unknown} document the new document (shares unchanged parts with the input)
 * @property {string[]} changed pointers of the values that changed, one or two per
 *   operation. An insertion into or removal from an array shifts its later elements,
 *   so for those the array's own pointer is reported; `test` reports nothing.
 */

/**
 * Applies an RFC 6902 patch. The input is never modified.
 * @param {unknown} document
 * @param {ReadonlyArray<unknown>} operations
 * @returns {PatchResult}
 * @throws {PatchError} when any operation fails (the input stays as it was)
 */
export function applyPatch(document, operations) {
  if (!Array.isArray(operations)) throw new PatchError("a patch must be an array", -1, operations);
  const draft = new Draft(document);
  /** @type {string[]} */
  const changed = [];
  for (let i = 0; i < operations.length; i++) {
    const operation = operations[i];
    try {
      draft.apply(operation, changed);
    } catch (error) {
      if (error instanceof PatchError) throw error;
      if (error instanceof PointerError || error instanceof OperationError) {
        throw new PatchError(error.message, i, operation);
      }
      throw error;
    }
  }
  return { document: draft.root, changed };
}

/**
 * Deep equality in the JSON sense: objects compare by members regardless of key order,
 * arrays element by element, numbers by value (`1` equals `1.0`).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const left = /** @type {unknown[]} */ (a);
    const right = /** @type {unknown[]} */ (b);
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!deepEqual(left[i], right[i])) return false;
    return true;
  }
  const left = /** @type {Record<string, unknown>} */ (a);
  const right = /** @type {Record<string, unknown>} */ (b);
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!hasMember(right, key) || !deepEqual(left[key], right[key])) return false;
  }
  return true;
}

/**
 * A structural copy of a JSON value (what `copy` inserts).
 * @param {unknown} value
 * @returns {unknown}
 */
export function cloneJSON(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(cloneJSON);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of Object.keys(value)) setMember(out, key, cloneJSON(/** @type {any} */ (value)[key]));
  return out;
}

/** An operation-level failure, turned into a PatchError with its index. */
class OperationError extends Error {}

/**
 * Sets an own data member, also for the key `__proto__` (which plain assignment would
 * treat as the prototype).
 * @param {Record<string, unknown>} object
 * @param {string} key
 * @param {unknown} value
 */
function setMember(object, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

/**
 * The document being patched. Containers created during this patch are "owned" and
 * may be mutated in place; anything else is copied before its first change.
 */
class Draft {
  /** @param {unknown} root */
  constructor(root) {
    this.root = root;
    /** @type {WeakSet<object>} */
    this.owned = new WeakSet();
  }

  /**
   * @param {unknown} operation
   * @param {string[]} changed
   */
  apply(operation, changed) {
    if (operation === null || typeof operation !== "object" || Array.isArray(operation)) {
      throw new OperationError("an operation must be an object");
    }
    const op = /** @type {Record<string, unknown>} */ (operation);
    if (typeof op.path !== "string") throw new OperationError(`"path" must be a string`);
    const path = parsePointer(op.path);
    switch (op.op) {
      case "add":
        changed.push(this.add(path, requireValue(op), op.path));
        return;
      case "remove":
        changed.push(this.remove(path, op.path).pointer);
        return;
      case "replace":
        changed.push(this.replace(path, requireValue(op), op.path));
        return;
      case "move": {
        const fromText = requireFrom(op);
        const from = parsePointer(fromText);
        if (from.length < path.length && from.every((token, i) => token === path[i])) {
          throw new OperationError(`cannot move "${fromText}" into its own child "${op.path}"`);
        }
        if (from.length === path.length && from.every((token, i) => token === path[i])) {
          this.read(from, fromText);
          return;
        }
        const removed = this.remove(from, fromText);
        changed.push(removed.pointer);
        changed.push(this.add(path, removed.value, op.path));
        return;
      }
      case "copy": {
        const fromText = requireFrom(op);
        const value = this.read(parsePointer(fromText), fromText);
        changed.push(this.add(path, cloneJSON(value), op.path));
        return;
      }
      case "test": {
        const value = this.read(path, op.path);
        if (!deepEqual(value, requireValue(op))) throw new OperationError(`test failed at "${op.path}"`);
        return;
      }
      default:
        throw new OperationError(`unknown op ${JSON.stringify(op.op)}`);
    }
  }

  /**
   * @param {string[]} path
   * @param {string} text
   * @returns {unknown}
   */
  read(path, text) {
    let node = this.root;
    for (const token of path) {
      if (Array.isArray(node)) {
        const index = arrayIndex(token);
        if (index < 0 || index >= node.length) throw new OperationError(`no element at "${text}"`);
        node = node[index];
      } else if (node !== null && typeof node === "object") {
        if (!hasMember(node, token)) throw new OperationError(`no member at "${text}"`);
        node = /** @type {Record<string, unknown>} */ (node)[token];
      } else {
        throw new OperationError(`"${text}" goes through a scalar`);
      }
    }
    return node;
  }

  /**
   * Returns the (owned, mutable) container that holds the last token of `path`,
   * copying every container on the way that this patch does not own yet.
   * @param {string[]} path non-empty
   * @param {string} text
   * @returns {any}
   */
  parentFor(path, text) {
    if (!this.isOwned(this.root)) this.root = this.own(this.root, text);
    let node = /** @type {any} */ (this.root);
    for (let i = 0; i < path.length - 1; i++) {
      const token = path[i];
      let key;
      if (Array.isArray(node)) {
        key = arrayIndex(token);
        if (key < 0 || key >= node.length) throw new OperationError(`no element at "${formatPointer(path.slice(0, i + 1))}" (in "${text}")`);
      } else {
        if (!hasMember(node, token)) throw new OperationError(`no member at "${formatPointer(path.slice(0, i + 1))}" (in "${text}")`);
        key = token;
      }
      let child = node[key];
      if (!this.isOwned(child)) {
        child = this.own(child, text);
        if (typeof key === "number") node[key] = child;
        else setMember(node, key, child);
      }
      node = child;
    }
    return node;
  }

  /** @param {unknown} value */
  isOwned(value) {
    return value !== null && typeof value === "object" && this.owned.has(value);
  }

  /**
   * A shallow copy of a container that this patch may then mutate.
   * @param {unknown} value
   * @param {string} text
   * @returns {object}
   */
  own(value, text) {
    if (value === null || typeof value !== "object") throw new OperationError(`"${text}" goes through a scalar`);
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    this.owned.add(copy);
    return copy;
  }

  /**
   * @param {string[]} path
   * @param {unknown} value
   * @param {string} text
   * @returns {string} the changed pointer
   */
  add(path, value, text) {
    if (path.length === 0) {
      this.root = value;
      return "";
    }
    const parent = this.parentFor(path, text);
    const token = path[path.length - 1];
    if (Array.isArray(parent)) {
      const index = token === "-" ? parent.length : arrayIndex(token);
      if (index < 0 || index > parent.length) throw new OperationError(`index out of range at "${text}"`);
      if (index === parent.length) {
        parent.push(value);
        return formatPointer(path.slice(0, -1).concat(String(index)));
      }
      parent.splice(index, 0, value);
      return formatPointer(path.slice(0, -1));
    }
    setMember(parent, token, value);
    return text;
  }

  /**
   * @param {string[]} path
   * @param {string} text
   * @returns {{ value: unknown, pointer: string }}
   */
  remove(path, text) {
    if (path.length === 0) throw new OperationError("cannot remove the whole document");
    const parent = this.parentFor(path, text);
    const token = path[path.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(token);
      if (index < 0 || index >= parent.length) throw new OperationError(`no element at "${text}"`);
      const [value] = parent.splice(index, 1);
      return { value, pointer: formatPointer(path.slice(0, -1)) };
    }
    if (!hasMember(parent, token)) throw new OperationError(`no member at "${text}"`);
    const value = parent[token];
    delete parent[token];
    return { value, pointer: text };
  }

  /**
   * @param {string[]} path
   * @param {unknown} value
   * @param {string} text
   * @returns {string}
   */
  replace(path, value, text) {
    if (path.length === 0) {
      this.root = value;
      return "";
    }
    const parent = this.parentFor(path, text);
    const token = path[path.length - 1];
    if (Array.isArray(parent)) {
      const index = arrayIndex(token);
      if (index < 0 || index >= parent.length) throw new OperationError(`no element at "${text}"`);
      parent[index] = value;
    } else {
      if (!hasMember(parent, token)) throw new OperationError(`no member at "${text}"`);
      setMember(parent, token, value);
    }
    return text;
  }
}

/** @param {Record<string, unknown>} op */
function requireValue(op) {
  if (!hasMember(op, "value")) throw new OperationError(`"${op.op}" needs a "value"`);
  return op.value;
}

/** @param {Record<string, unknown>} op */
function requireFrom(op) {
  if (typeof op.from !== "string") throw new OperationError(`"${op.op}" needs a "from" string`);
  return op.from;
}
