/**
 * `data-sc-render="name"` or `data-sc-render="name: path"`: a page's own function
 * renders one element.
 *
 * For what attributes cannot express (a chart, a canvas, a third-party widget), a page
 * registers a renderer with `statecast.renderer(name, fn)`; it is called with the
 * element and the value at `path` (the whole scope value without a path) whenever a
 * patch touched that path, and once when registered late.
 *
 * @example
 * <canvas data-sc-render="sparkline: history"></canvas>
 * statecast.renderer("sparkline", (canvas, history, { changed }) => draw(canvas, history));
 * @module
 */

import { evaluate, parseExpression } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/**
 * @callback Renderer
 * @param {any} element
 * @param {unknown} value the value at the binding's path
 * @param {{ topic: import("../topic.js").Topic, state: unknown, scope: import("../expression.js").Scope, changed: string[] }} context
 * @returns {void}
 */

/** @implements {Binding} */
export class RenderBinding {
  /**
   * @param {any} element
   * @param {string} source `name` or `name: path`
   * @param {import("./scan.js").ViewContext} context
   * @param {import("./region.js").Region} region
   */
  constructor(element, source, context, region) {
    const colon = source.indexOf(":");
    this.name = (colon < 0 ? source : source.slice(0, colon)).trim();
    if (this.name === "") throw new Error(`data-sc-render="${source}" names no renderer`);
    this.element = element;
    this.expression = parseExpression(colon < 0 ? "." : source.slice(colon + 1));
    this.context = context;
    /** @type {import("../expression.js").Scope | null} */
    this.scope = null;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([this.expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
    context.renderBindings.add(this);
    region.onDispose(() => context.renderBindings.delete(this));
  }

  /**
   * @param {import("../expression.js").Scope} scope
   * @param {string[]} changed
   */
  update(scope, changed) {
    this.scope = scope;
    const renderer = this.context.renderers.get(this.name);
    if (!renderer) return;
    try {
      renderer(this.element, evaluate(this.expression, scope), { topic: this.context.topic, state: scope.root, scope, changed });
    } catch (error) {
      console.error(`statecast: renderer "${this.name}" threw`, error);
    }
  }

  /** Renders again with the last scope (a renderer was registered after the state came). */
  refresh() {
    if (this.scope && this.scope.root !== undefined) this.update(this.scope, [""]);
  }
}
