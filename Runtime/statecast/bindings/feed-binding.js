/**
 * `data-sc-feed="path"` with a `<template>` child: an append-only list (a log, a chat, a
 * ticker) whose server keeps only the latest rows it sent.
 *
 * The value at `path` is the store's latest batch of rows (Swift's `FeedBatch`): each
 * row whose key (`data-sc-key`, else the item's `id`) the page has not shown yet is
 * appended, and rows that leave the batch stay on the page; so the server forgets what
 * it sent, as LiveView streams do. The page keeps the newest `data-sc-feed-limit` rows
 * (default 500) and drops the oldest beyond. Rows are not updated once shown.
 *
 * @example
 * <ol data-sc-feed="readings" data-sc-feed-limit="200">
 *   <template><li><span data-sc-text="at"></span> <span data-sc-text="value"></span></li></template>
 * </ol>
 * @module
 */

import { displayText, evaluate, parseExpression } from "../expression.js";
import { dependenciesOf } from "./binding.js";
import { Region } from "./region.js";

export class FeedBinding {
  /** @type {Map<string, { node: any, region: Region }>} the rows on the page, oldest first */
  #shown = new Map();

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
    const limit = Number(container.getAttribute("data-sc-feed-limit"));
    this.limit = Number.isInteger(limit) && limit > 0 ? limit : 500;
    const key = container.getAttribute("data-sc-key");
    this.keyExpression = key ? parseExpression(key) : null;
    const own = dependenciesOf([expression]);
    this.dependencies = own.dependencies;
    this.rootDependencies = own.rootDependencies;
    this.usesIndex = own.usesIndex;
  }

  /**
   * Appends the batch's rows not shown yet.
   * @param {import("../expression.js").Scope} scope
   */
  update(scope) {
    const value = evaluate(this.expression, scope);
    const items = Array.isArray(value) ? value : [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      const key = this.#keyOf(item, index, scope.root);
      if (this.#shown.has(key)) continue;
      const fragment = this.template.content.cloneNode(true);
      const nodes = Array.from(/** @type {ArrayLike<any>} */ (fragment.children));
      const region = new Region({ value: item, index, key, root: scope.root });
      for (const node of nodes) this.scan(node, region, this.context);
      region.updateAll([""]);
      for (const node of nodes) this.container.appendChild(node);
      this.#shown.set(key, { node: nodes, region });
    }
    while (this.#shown.size > this.limit) {
      const [oldest, row] = this.#shown.entries().next().value ?? [];
      if (oldest === undefined || !row) break;
      for (const node of row.node) node.remove();
      row.region.dispose();
      this.#shown.delete(oldest);
    }
  }

  dispose() {
    for (const row of this.#shown.values()) row.region.dispose();
    this.#shown.clear();
  }

  /**
   * @param {unknown} item
   * @param {number} index
   * @param {unknown} root
   * @returns {string}
   */
  #keyOf(item, index, root) {
    if (this.keyExpression) return displayText(evaluate(this.keyExpression, { value: item, root, index }));
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const id = /** @type {Record<string, unknown>} */ (item).id;
      if (typeof id === "string" || typeof id === "number") return String(id);
    }
    return JSON.stringify(item);
  }
}
