/**
 * What every declarative binding has in common.
 *
 * A binding ties one element to values of its scope (the topic's state, or a list
 * row's item). It declares which pointers it reads, so that a patch re-evaluates only
 * the bindings it touched, and an `update` that applies the current values. Updates
 * never throw: a failing binding is logged and the page carries on.
 * @module
 */

/**
 * @typedef {object} Binding
 * @property {string[]} dependencies pointers read, relative to the scope's value
 * @property {string[]} rootDependencies pointers read from the topic's whole state (`$root`)
 * @property {boolean} usesIndex whether the binding reads `$index`
 * @property {(scope: import("../expression.js").Scope, changed: string[]) => void} update
 * @property {() => void} [dispose]
 */

/**
 * Collects the dependencies of a binding's expressions.
 * @param {ReadonlyArray<import("../expression.js").Expression>} expressions
 * @returns {Pick<Binding, "dependencies" | "rootDependencies" | "usesIndex">}
 */
export function dependenciesOf(expressions) {
  /** @type {string[]} */
  const dependencies = [];
  /** @type {string[]} */
  const rootDependencies = [];
  let usesIndex = false;
  for (const expression of expressions) {
    if (expression.base === "scope") dependencies.push(expression.dependency);
    else if (expression.base === "root") rootDependencies.push(expression.dependency);
    else if (expression.base === "index") usesIndex = true;
  }
  return { dependencies, rootDependencies, usesIndex };
}

/**
 * Runs a binding's update, logging instead of throwing.
 * @param {Binding} binding
 * @param {import("../expression.js").Scope} scope
 * @param {string[]} changed
 */
export function safeUpdate(binding, scope, changed) {
  try {
    binding.update(scope, changed);
  } catch (error) {
    console.error("statecast: a binding failed to update", error);
  }
}
