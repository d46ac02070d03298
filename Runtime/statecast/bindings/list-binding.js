/**
 * `data-sc-each="path"` with a `<template>` child: one copy of the template per item.
 *
 * Rows are keyed (`data-sc-key="path"` relative to the item; by default the item's
 * `id`, else its position). On every change the list re-evaluates only rows whose item
 * changed (patches replace only the objects along a changed path, so an untouched item
 * is the very same object) or whose `$index` or `$root` reads changed. Rows that keep
 * their relative order are never moved, so untouched rows keep focus, selection and
 * what is typed in them. Inside a row, paths are relative to the item.
 *
 * @example
 * <ul data-sc-each="todos" data-sc-key="id">
 *   <template>
 *     <li data-sc-class="done: done"><span data-sc-text="title"></span></li>
 *   </template>
 * </ul>
 * @module
 */

import { displayText, evaluate, parseExpression } from "../expression.js";
import { elementState } from "../internal/element-state.js";
import { longestIncreasing } from "../internal/longest-increasing.js";
import { touches } from "../pointer.js";
import { dependenciesOf } from "./binding.js";
import { Region } from "./region.js";

/**
 * @typedef {object} Row
 * @property {string} key
 * @property {unknown} item
 * @property {number} index
 * @property {any[]} nodes the row's top-level elements, in order
 * @property {Region} region
 * @property {number} position the row's position before this update (-1 when new)
 */

const BINDING_ATTRIBUTES = ["data-sc-text", "data-sc-show", "data-sc-hide", "data-sc-model", "data-sc-each", "data-sc-key", "data-sc-location"];
const PAIR_ATTRIBUTES = ["data-sc-attr", "data-sc-class"];

export class ListBinding {
  /**
   * @param {any} container
   * @param {import("../expression.js").Expression} expression
   * @param {any} template the `<template>` element
   * @param {import("./scan.js").ViewContext} context
   * @param {(element: any, region: Region, context: import("./scan.js").ViewContext) => void} scan
   */
  constructor(container, expression, template, context, scan) {
    this.container = container;
    this.expression = expression;
    this.template = template;
    this.context = context;
    this.scan = scan;
    const key = container.getAttribute("data-sc-key");
    this.keyExpression = key ? parseExpression(key) : null;
    /** @type {Row[]} */
    this.rows = [];
    /** @type {Map<string, Row>} the current rows by key */
    this.byKey = new Map();
    /** @type {unknown} the topic's state at the last update, read by every row's scope */
    this.root = undefined;
    const own = dependenciesOf([expression]);
    this.dependencies = own.dependencies;
    this.usesIndex = own.usesIndex;
    this.rootDependencies = [...own.rootDependencies, ...templateRootDependencies(template.content)];
    /** @type {any[]} the elements of the rows the server rendered the page with, until the first update */
    this.rendered = Array.from(/** @type {ArrayLike<any>} */ (container.children)).filter((child) => child.hasAttribute("data-sc-rendered"));
  }

  /**
   * The rows the server rendered, taken as the list's own on its first update when they
   * are one per item (the server renders a row per item, each the template's elements):
   * bound where they are instead of being replaced, so that the browser has nothing to
   * lay out and paint again while it paints the page's first frames. Otherwise they are
   * removed and the list renders its own, in the same task, so nothing flickers.
   * @param {unknown[]} items
   * @param {unknown} root
   * @returns {Row[] | null}
   */
  adoptRendered(items, root) {
    const rendered = this.rendered;
    this.rendered = [];
    const size = this.template.content.children.length;
    if (size > 0 && rendered.length === items.length * size) {
      const rows = [];
      for (let index = 0; index < items.length; index++) {
        const key = this.keyOf(items[index], index, root);
        if (this.byKey.has(key)) break;
        const nodes = rendered.slice(index * size, (index + 1) * size);
        for (const node of nodes) node.removeAttribute("data-sc-rendered");
        const scope = this.rowScope(items[index], index, key);
        const region = new Region(scope);
        for (const node of nodes) this.scan(node, region, this.context);
        region.updateAll([""]);
        const row = { key, item: items[index], index, nodes, region, position: index };
        this.byKey.set(key, row);
        rows.push(row);
      }
      if (rows.length === items.length) return rows;
      for (const row of rows) row.region.dispose();
      this.byKey.clear();
    }
    for (const node of rendered) node.parentNode?.removeChild(node);
    return null;
  }

  /**
   * @param {import("../expression.js").Scope} scope
   * @param {string[]} changed
   */
  update(scope, changed) {
    const value = evaluate(this.expression, scope);
    const items = Array.isArray(value) ? value : [];
    const old = this.rows;
    const root = scope.root;
    this.root = root;
    if (this.rendered.length > 0) {
      const adopted = this.adoptRendered(items, root);
      if (adopted !== null) {
        this.rows = adopted;
        this.reselect();
        return;
      }
    }
    const rootTouched = this.rootDependencies.some((watched) => changed.some((pointer) => touches(watched, pointer)));

    // Most patches change a few rows: rows whose item is the very same object at both
    // ends of the list are kept as they are, without allocating anything.
    let start = 0;
    while (start < old.length && start < items.length && old[start].item === items[start]) {
      if (rootTouched) this.keep(old[start], start, rootTouched, changed);
      start++;
    }
    let oldEnd = old.length - 1;
    let newEnd = items.length - 1;
    while (oldEnd >= start && newEnd >= start && old[oldEnd].item === items[newEnd] && this.keepsKey(old[oldEnd], newEnd, root)) {
      this.keep(old[oldEnd], newEnd, rootTouched, changed);
      oldEnd--;
      newEnd--;
    }
    if (start > oldEnd && start > newEnd) return;

    /** @type {Set<Row>} rows of the old middle, still to be matched */
    const unmatched = new Set();
    for (let position = start; position <= oldEnd; position++) {
      old[position].position = position;
      unmatched.add(old[position]);
    }
    /** @type {Set<string>} */
    const seen = new Set();
    /** @type {Row[]} */
    const middle = [];
    for (let index = start; index <= newEnd; index++) {
      const item = items[index];
      let key = this.keyOf(item, index, root);
      let owner = this.byKey.get(key);
      if (seen.has(key) || (owner !== undefined && !unmatched.has(owner))) {
        key = `${key}#${index}`;
        owner = this.byKey.get(key);
      }
      seen.add(key);
      let row;
      if (owner !== undefined && unmatched.has(owner)) {
        row = owner;
        unmatched.delete(row);
        const stale = row.item !== item || (row.index !== index && row.region.usesIndex) || (rootTouched && row.region.rootDependencies.length > 0);
        row.region.rescope(this.rowScope(item, index, key));
        row.item = item;
        row.index = index;
        if (stale) row.region.updateAll(changed);
      } else {
        row = this.createRow(this.rowScope(item, index, key), key);
        this.byKey.set(key, row);
      }
      middle.push(row);
    }
    for (const row of unmatched) {
      for (const node of row.nodes) node.parentNode?.removeChild(node);
      row.region.dispose();
      if (this.byKey.get(row.key) === row) this.byKey.delete(row.key);
    }
    const suffix = old.slice(oldEnd + 1);
    const after = suffix.find((row) => row.nodes.length > 0);
    const before = lastWithNodes(old.slice(0, start));
    this.place(middle, after ? after.nodes[0] : undefined, before);
    this.rows = old.slice(0, start).concat(middle, suffix);
    this.reselect();
  }

  /**
   * A `<select>` whose options are this list loses its value when the options change
   * (or had none when its value was first set): let its model binding set it again.
   */
  reselect() {
    const container = this.container;
    const select = container.localName === "select" ? container : container.localName === "optgroup" ? container.parentNode : null;
    if (!select) return;
    const state = elementState(select);
    if (!state.editing) state.model?.refresh();
  }

  /**
   * A row's scope. Its `root` reads the list's latest root, so rows whose item did not
   * change need no update when the rest of the state does.
   * @param {unknown} value
   * @param {number} index
   * @param {string} key
   * @returns {import("../expression.js").Scope & { key: string, index: number }}
   */
  rowScope(value, index, key) {
    const list = this;
    return {
      value,
      index,
      key,
      get root() {
        return list.root;
      },
    };
  }

  /**
   * Brings a row whose item did not change up to date with its position and `$root`.
   * @param {Row} row
   * @param {number} index
   * @param {boolean} rootTouched
   * @param {string[]} changed
   */
  keep(row, index, rootTouched, changed) {
    const scope = row.region.scope;
    const moved = row.index !== index;
    if (moved) {
      row.index = index;
      scope.index = index;
    }
    if ((moved && row.region.usesIndex) || (rootTouched && row.region.rootDependencies.length > 0)) row.region.updateAll(changed);
  }

  /**
   * Whether a row keeps its key at a new index (its item being the same object).
   * @param {Row} row
   * @param {number} index
   * @param {unknown} root
   */
  keepsKey(row, index, root) {
    if (row.index === index) return true;
    const item = row.item;
    if (this.keyExpression) {
      if (this.keyExpression.base === "scope") return true;
    } else if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const id = /** @type {Record<string, unknown>} */ (item).id;
      if (typeof id === "string" || typeof id === "number") return true;
    }
    return this.keyOf(item, index, root) === row.key;
  }

  /**
   * @param {unknown} item
   * @param {number} index
   * @param {unknown} root
   * @returns {string}
   */
  keyOf(item, index, root) {
    if (this.keyExpression) return displayText(evaluate(this.keyExpression, { value: item, root, index }));
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const id = /** @type {Record<string, unknown>} */ (item).id;
      if (typeof id === "string" || typeof id === "number") return String(id);
    }
    return String(index);
  }

  /**
   * @param {import("../expression.js").Scope & { key: string, index: number }} scope
   * @param {string} key
   * @returns {Row}
   */
  createRow(scope, key) {
    const fragment = this.template.content.cloneNode(true);
    const nodes = Array.from(/** @type {ArrayLike<any>} */ (fragment.children));
    const region = new Region(scope);
    for (const node of nodes) this.scan(node, region, this.context);
    region.updateAll([""]);
    return { key, item: scope.value, index: scope.index, nodes, region, position: -1 };
  }

  /**
   * Puts the changed middle of the list in order, moving only rows outside the longest
   * run that kept its relative order, and inserting new ones.
   * @param {Row[]} rows the middle rows, in their new order
   * @param {any} [end] the first node after the middle (the first kept row at the end)
   * @param {Row} [before] the last kept row at the start
   */
  place(rows, end, before) {
    const container = this.container;
    if (end === undefined) {
      /** @type {Row | null} the row that was last before this update, if it stays */
      let lastKept = null;
      for (const row of rows) {
        if (row.position >= 0 && row.nodes.length > 0 && (lastKept === null || row.position > lastKept.position)) lastKept = row;
      }
      const anchor = lastKept ?? before;
      end = anchor ? anchor.nodes[anchor.nodes.length - 1].nextSibling : this.template.nextSibling;
    }
    const stable = longestIncreasing(rows.map((row) => row.position));
    let next = end;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (row.nodes.length === 0) continue;
      if (!stable.has(i)) for (const node of row.nodes) container.insertBefore(node, next);
      next = row.nodes[0];
    }
  }

  dispose() {
    for (const row of this.rows) row.region.dispose();
    this.rows = [];
    this.byKey.clear();
  }
}

/**
 * The `$root` pointers read anywhere in a row template (nested lists included), so the
 * list knows which changes outside the items concern its rows.
 * @param {any} content a template's DocumentFragment
 * @returns {string[]}
 */
export function templateRootDependencies(content) {
  /** @type {string[]} */
  const found = [];
  /** @param {any} element */
  const visit = (element) => {
    for (const name of BINDING_ATTRIBUTES) {
      const source = element.getAttribute(name);
      if (source === null) continue;
      try {
        const expression = parseExpression(source);
        if (expression.base === "root") found.push(expression.dependency);
      } catch {
        // Reported when the row is bound.
      }
    }
    for (const name of PAIR_ATTRIBUTES) {
      const source = element.getAttribute(name);
      if (source === null) continue;
      for (const part of source.split(";")) {
        const colon = part.indexOf(":");
        if (colon <= 0) continue;
        try {
          const expression = parseExpression(part.slice(colon + 1));
          if (expression.base === "root") found.push(expression.dependency);
        } catch {
          // Reported when the row is bound.
        }
      }
    }
    const render = element.getAttribute("data-sc-render");
    if (render !== null && render.includes(":")) {
      try {
        const expression = parseExpression(render.slice(render.indexOf(":") + 1));
        if (expression.base === "root") found.push(expression.dependency);
      } catch {
        // Reported when the row is bound.
      }
    }
    if (element.content) Array.from(/** @type {ArrayLike<any>} */ (element.content.children)).forEach(visit);
    Array.from(/** @type {ArrayLike<any>} */ (element.children)).forEach(visit);
  };
  Array.from(/** @type {ArrayLike<any>} */ (content.children)).forEach(visit);
  return found;
}

/**
 * The last row that has elements on the page (the one new rows go after).
 * @param {Row[]} rows
 * @returns {Row | undefined}
 */
function lastWithNodes(rows) {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i].nodes.length > 0) return rows[i];
  return undefined;
}
