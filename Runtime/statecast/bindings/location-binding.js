/**
 * `data-sc-location="path"`: the address bar follows a path in the state.
 *
 * Navigation decided on the server (a rule matched a deep link, a link was opened)
 * becomes a URL the user can share: when the value changes it is pushed onto the
 * history (the first value replaces the current entry). Only same-origin paths
 * (starting with a single `/`) are accepted. Pair it with
 * `data-sc-on-popstate='{"open":{"path":"$location.pathname"}}'` so Back and Forward
 * reach the server too.
 *
 * @example
 * <main data-sc-topic="music" data-sc-location="url" data-sc-on-popstate='{"open":{"path":"$location.pathname"}}'>
 * @module
 */

import { evaluate } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/** @implements {Binding} */
export class LocationBinding {
  /**
   * @param {import("../expression.js").Expression} expression
   * @param {import("./scan.js").ViewContext} context
   */
  constructor(expression, context) {
    this.expression = expression;
    this.context = context;
    this.initialised = false;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
  }

  /** @param {import("../expression.js").Scope} scope */
  update(scope) {
    const value = evaluate(this.expression, scope);
    const window = this.context.env.window;
    if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || !window?.history) return;
    const location = window.location;
    const current = location.pathname + location.search + location.hash;
    if (value !== current) {
      if (this.initialised) window.history.pushState(null, "", value);
      else window.history.replaceState(null, "", value);
    }
    this.initialised = true;
  }
}
