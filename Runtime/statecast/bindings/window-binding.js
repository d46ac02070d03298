/**
 * `data-sc-window="path"` with a `<template>` child: a list as long as the data, of which
 * the page holds only the rows in view.
 *
 * The value at `path` is a window of a list the server keeps: `{ total, start, rows }`
 * (Swift's `WindowedList`). The element is the scroll viewport (give it a height and
 * `overflow: auto`); the binding puts a sizer of `total` rows' height in it, so its
 * scrollbar is the full list's, and places each row at its index with absolute
 * positioning, so rows already shown never move while others load: the row under the
 * pointer stays where it is. As the person scrolls, the binding sends the store the
 * range in view with `data-sc-overscan` rows (default 20) on each side, as the client
 * action named by `data-sc-window-action` (`{"NAME":{"window":{"start":S,"count":C}}}`); the
 * server answers with that window as patches. One request is in flight at a time, the
 * latest range winning. Rows are keyed like `data-sc-each` (`data-sc-key`, else the
 * item's `id`), so a row kept across windows keeps its element. Every row has the same
 * height, `data-sc-row-height` pixels (default 32).
 *
 * @example
 * <div class="grid" data-sc-window="rows" data-sc-window-action="scrolled" data-sc-row-height="28">
 *   <template><div class="row"><span data-sc-text="id"></span> <span data-sc-text="name"></span></div></template>
 * </div>
 * @module
 */

import { displayText, evaluate, parseExpression } from "../expression.js";
import { dependenciesOf } from "./binding.js";
import { templateRootDependencies } from "./list-binding.js";
import { Region } from "./region.js";

/**
 * @typedef {object} WindowRow
 * @property {string} key
 * @property {unknown} item
 * @property {number} index the row's index in the whole list
 * @property {any} node the row's element
 * @property {Region} region
 */

export class WindowBinding {
  /** @type {Map<string, WindowRow>} */
  #rows = new Map();
  #total = 0;
  /** @type {{ start: number, count: number } | null} the window last asked for */
  #asked = null;
  /** Whether the server has answered the last request. */
  #answered = false;
  /** The window the page holds. */
  #have = { start: 0, count: 0 };
  #inFlight = false;
  #frameScheduled = false;
  #hasState = false;

  /**
   * @param {any} container the scroll viewport
   * @param {import("../expression.js").Expression} expression
   * @param {any} template the `<template>` element
   * @param {import("./scan.js").ViewContext} context
   * @param {(element: any, region: Region, context: import("./scan.js").ViewContext) => void} scan
   * @param {import("./region.js").Region} region the region the container belongs to
   */
  constructor(container, expression, template, context, scan, region) {
    this.container = container;
    this.expression = expression;
    this.template = template;
    this.context = context;
    this.scan = scan;
    this.action = container.getAttribute("data-sc-window-action") ?? "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(this.action)) throw new Error("a data-sc-window element needs data-sc-window-action=\"caseName\"");
    this.rowHeight = positive(container.getAttribute("data-sc-row-height"), 32);
    this.overscan = Math.max(0, Math.floor(positive(container.getAttribute("data-sc-overscan"), 20)));
    const key = container.getAttribute("data-sc-key");
    this.keyExpression = key ? parseExpression(key) : null;
    /** @type {unknown} */
    this.root = undefined;
    const own = dependenciesOf([expression]);
    this.dependencies = own.dependencies;
    this.usesIndex = own.usesIndex;
    this.rootDependencies = [...own.rootDependencies, ...templateRootDependencies(template.content)];
    const document = container.ownerDocument;
    this.sizer = document.createElement("div");
    this.sizer.className = "sc-window-sizer";
    this.sizer.style.position = "relative";
    this.sizer.style.height = "0px";
    container.appendChild(this.sizer);
    const onScroll = () => this.#schedule();
    container.addEventListener("scroll", onScroll, { passive: true });
    region.onDispose(() => container.removeEventListener("scroll", onScroll));
  }

  /**
   * Shows the window the server sent, keeping every row that stays in it.
   * @param {import("../expression.js").Scope} scope
   * @param {string[]} changed
   */
  update(scope, changed) {
    const value = /** @type {any} */ (evaluate(this.expression, scope));
    const total = Number.isInteger(value?.total) && value.total > 0 ? value.total : 0;
    const start = Number.isInteger(value?.start) && value.start > 0 ? value.start : 0;
    const items = Array.isArray(value?.rows) ? value.rows : [];
    this.root = scope.root;
    if (total !== this.#total) {
      this.#total = total;
      this.sizer.style.height = `${total * this.rowHeight}px`;
    }
    /** @type {Map<string, WindowRow>} */
    const next = new Map();
    for (let offset = 0; offset < items.length; offset++) {
      const item = items[offset];
      const index = start + offset;
      let key = this.#keyOf(item, index);
      if (next.has(key)) key = `${key}#${index}`;
      const row = this.#rows.get(key);
      if (row) {
        this.#rows.delete(key);
        const moved = row.index !== index;
        const stale = row.item !== item || (moved && row.region.usesIndex) || row.region.rootDependencies.length > 0;
        if (moved) this.#place(row.node, index);
        row.item = item;
        row.index = index;
        row.region.rescope(this.#rowScope(item, index, key));
        if (stale) row.region.updateAll(changed);
        next.set(key, row);
      } else {
        next.set(key, this.#createRow(item, index, key));
      }
    }
    for (const row of this.#rows.values()) {
      row.node.remove();
      row.region.dispose();
    }
    this.#rows = next;
    this.#have = { start, count: items.length };
    this.#hasState = true;
    this.#schedule();
  }

  dispose() {
    for (const row of this.#rows.values()) row.region.dispose();
    this.#rows.clear();
  }

  /** Asks for the range in view on the next frame (once per frame however many scrolls). */
  #schedule() {
    if (this.#frameScheduled) return;
    this.#frameScheduled = true;
    const window = this.context.env.window;
    const run = () => {
      this.#frameScheduled = false;
      this.#request();
    };
    if (window?.requestAnimationFrame) window.requestAnimationFrame(run);
    else this.context.env.setTimeout(run, 0);
  }

  /**
   * Sends the range in view, with overscan, unless the rows the page has cover it, or
   * the server has already answered for that very range (a list shorter than the view).
   */
  #request() {
    if (!this.#hasState || this.#inFlight) return;
    const height = this.rowHeight;
    const total = this.#total;
    const first = Math.min(Math.floor((Number(this.container.scrollTop) || 0) / height), Math.max(0, total - 1));
    const visible = Math.ceil((Number(this.container.clientHeight) || height * 20) / height) + 1;
    const margin = Math.floor(this.overscan / 2);
    const have = this.#have;
    if (have.start <= Math.max(0, first - margin) && have.start + have.count >= Math.min(total, first + visible + margin)) return;
    const start = Math.max(0, first - this.overscan);
    const count = visible + 2 * this.overscan;
    const asked = this.#asked;
    if (asked !== null && asked.start === start && asked.count === count && this.#answered) return;
    this.#asked = { start, count };
    this.#answered = false;
    this.#inFlight = true;
    this.context.topic
      .send({ [this.action]: { window: { start, count } } })
      .then(
        () => {
          this.#answered = true;
        },
        () => {
          // The topic reports refusals; the next scroll asks again.
          this.#asked = null;
        },
      )
      .finally(() => {
        this.#inFlight = false;
        this.#schedule();
      });
  }

  /**
   * @param {unknown} item
   * @param {number} index
   * @param {string} key
   * @returns {WindowRow}
   */
  #createRow(item, index, key) {
    const fragment = this.template.content.cloneNode(true);
    const node = fragment.firstElementChild;
    if (!node) throw new Error("a data-sc-window template needs one element per row");
    node.style.position = "absolute";
    node.style.left = "0";
    node.style.right = "0";
    node.style.height = `${this.rowHeight}px`;
    this.#place(node, index);
    const region = new Region(this.#rowScope(item, index, key));
    this.scan(node, region, this.context);
    region.updateAll([""]);
    this.sizer.appendChild(node);
    return { key, item, index, node, region };
  }

  /**
   * @param {any} node
   * @param {number} index
   */
  #place(node, index) {
    node.style.top = `${index * this.rowHeight}px`;
    node.setAttribute("aria-rowindex", String(index + 1));
  }

  /**
   * @param {unknown} value
   * @param {number} index
   * @param {string} key
   */
  #rowScope(value, index, key) {
    const binding = this;
    return {
      value,
      index,
      key,
      get root() {
        return binding.root;
      },
    };
  }

  /**
   * @param {unknown} item
   * @param {number} index
   * @returns {string}
   */
  #keyOf(item, index) {
    if (this.keyExpression) return displayText(evaluate(this.keyExpression, { value: item, root: this.root, index }));
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      const id = /** @type {Record<string, unknown>} */ (item).id;
      if (typeof id === "string" || typeof id === "number") return String(id);
    }
    return String(index);
  }
}

/**
 * @param {string | null} text
 * @param {number} fallback
 */
function positive(text, fallback) {
  const number = Number(text);
  return text !== null && Number.isFinite(number) && number > 0 ? number : fallback;
}
