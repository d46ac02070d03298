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
    const own = dependenciesOf([expression]);
    this.dependencies = own.dependencies;
    this.usesIndex = own.usesIndex;
    this.rootDependencies = [...own.rootDependencies, ...templateRootDependencies(template.content)];
  }

  /**
   * @param {import("../expression.js").Scope} scope
   * @param {string[]} changed
   */
  update(scope, changed) {
    const value = evaluate(this.expression, scope);
    const items = Array.isArray(value) ? value : [];
    /** @type {Map<string, Row>} */
    const previous = new Map();
    this.rows.forEach((row, position) => {
      row.position = position;
      previous.set(row.key, row);
    });
    /** @type {Set<string>} */
    const seen = new Set();
    /** @type {Row[]} */
    const next = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      let key = this.keyOf(item, index, scope.root);
      if (seen.has(key)) key = `${key}#${index}`;
      seen.add(key);
      const rowScope = { value: item, root: scope.root, index, key };
      let row = previous.get(key);
      if (row) {
        previous.delete(key);
        const stale =
          row.item !== item ||
          (row.index !== index && row.region.usesIndex) ||
          row.region.rootDependencies.some((watched) => changed.some((pointer) => touches(watched, pointer)));
        row.region.scope = rowScope;
        row.item = item;
        row.index = index;
        if (stale) row.region.updateAll(changed);
      } else {
        row = this.createRow(rowScope, key);
      }
      next.push(row);
    }
    for (const row of previous.values()) {
      for (const node of row.nodes) node.parentNode?.removeChild(node);
      row.region.dispose();
    }
    this.place(next);
    this.rows = next;
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
   * Puts the rows in order after the template, moving only rows outside the longest
   * run that kept its relative order, and inserting new ones.
   * @param {Row[]} rows
   */
  place(rows) {
    const container = this.container;
    let last = -1;
    let end = null;
    for (const row of rows) {
      if (row.position > last && row.nodes.length > 0) {
        last = row.position;
        end = row.nodes[row.nodes.length - 1].nextSibling;
      }
    }
    if (last < 0) end = this.template.nextSibling;
    const stable = longestIncreasing(rows.map((row) => row.position));
    let before = end;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (row.nodes.length === 0) continue;
      if (!stable.has(i)) for (const node of row.nodes) container.insertBefore(node, before);
      before = row.nodes[0];
    }
  }

  dispose() {
    for (const row of this.rows) row.region.dispose();
    this.rows = [];
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
