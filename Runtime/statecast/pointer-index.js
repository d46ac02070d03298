/**
 * Finds the watchers that a set of changed pointers concerns.
 *
 * Each binding on a page watches a few pointers of its topic's state. When a patch
 * arrives, only the bindings whose pointers it touched must be re-evaluated: those
 * watching a changed value, something inside it, or one of its ancestors. The index is
 * a trie of reference tokens, so a lookup costs the depth of the changed pointers plus
 * the watchers found, not the number of bindings on the page.
 *
 * @example
 * const index = new PointerIndex();
 * index.add("/todos", listBinding);
 * index.add("/user/name", nameBinding);
 * index.collect(["/todos/3/done"]); // Set { listBinding }
 * index.collect([""]);              // Set { listBinding, nameBinding }
 * @module
 */

import { parsePointer } from "./pointer.js";

/** @template T */
class Node {
  constructor() {
    /** @type {Map<string, Node<T>>} */
    this.children = new Map();
    /** @type {Set<T>} */
    this.watchers = new Set();
  }
}

/** @template T */
export class PointerIndex {
  constructor() {
    /** @type {Node<T>} */
    this.root = new Node();
    this.size = 0;
  }

  /**
   * Registers `watcher` for changes at, inside or above `pointer`.
   * @param {string | string[]} pointer a pointer string or its tokens
   * @param {T} watcher
   */
  add(pointer, watcher) {
    const tokens = typeof pointer === "string" ? parsePointer(pointer) : pointer;
    let node = this.root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (!child) {
        child = new Node();
        node.children.set(token, child);
      }
      node = child;
    }
    if (!node.watchers.has(watcher)) {
      node.watchers.add(watcher);
      this.size++;
    }
  }

  /**
   * Removes `watcher` from `pointer` (pruning empty branches).
   * @param {string | string[]} pointer
   * @param {T} watcher
   */
  delete(pointer, watcher) {
    const tokens = typeof pointer === "string" ? parsePointer(pointer) : pointer;
    /** @type {Node<T>[]} */
    const trail = [this.root];
    for (const token of tokens) {
      const child = trail[trail.length - 1].children.get(token);
      if (!child) return;
      trail.push(child);
    }
    const node = trail[trail.length - 1];
    if (!node.watchers.delete(watcher)) return;
    this.size--;
    for (let i = trail.length - 1; i > 0; i--) {
      const current = trail[i];
      if (current.watchers.size > 0 || current.children.size > 0) break;
      trail[i - 1].children.delete(tokens[i - 1]);
    }
  }

  /**
   * The watchers that the changed pointers concern.
   * @param {Iterable<string>} changed pointer strings
   * @param {Set<T>} [into] a set to add to
   * @returns {Set<T>}
   */
  collect(changed, into = new Set()) {
    for (const pointer of changed) {
      let node = this.root;
      let found = true;
      for (const token of parsePointer(pointer)) {
        for (const watcher of node.watchers) into.add(watcher);
        const child = node.children.get(token);
        if (!child) {
          found = false;
          break;
        }
        node = child;
      }
      if (found) addSubtree(node, into);
    }
    return into;
  }
}

/**
 * @template T
 * @param {Node<T>} node
 * @param {Set<T>} into
 */
function addSubtree(node, into) {
  for (const watcher of node.watchers) into.add(watcher);
  for (const child of node.children.values()) addSubtree(child, into);
}
