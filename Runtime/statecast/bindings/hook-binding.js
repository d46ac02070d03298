/**
 * `data-sc-hook="name"` or `data-sc-hook="name: path"`: the page's own code owns one
 * element for as long as it is on the page (a chart, a map, an editor, a canvas).
 *
 * A page registers the hook with `statecast.hook(name, { mounted, updated, destroyed })`.
 * Each method is called with `this` (and its first argument) set to the element's hook
 * instance: `el` (the element), `value` (the value at `path`; the whole scope value
 * without a path), `topic`, `send(action)` (sends one of the topic's client actions and
 * resolves with the reply) and `handleEvent(name, fn)` (calls `fn(payload)` for every
 * event the store pushes to the topic's hooks under that name, until the hook is
 * destroyed). `mounted` runs once the value is known, `updated` whenever a patch changed
 * the value, `destroyed` when the element leaves: its list row is removed, its topic's
 * element is unbound (a live navigation, a leave) or the page is unloaded.
 *
 * @example
 * <canvas data-sc-hook="chart: samples"></canvas>
 * statecast.hook("chart", {
 *   mounted() { this.handleEvent("spike", (payload) => flash(this.el, payload)); draw(this.el, this.value); },
 *   updated() { draw(this.el, this.value); },
 * });
 * @module
 */

import { evaluate, parseExpression } from "../expression.js";
import { dependenciesOf } from "./binding.js";

/** @typedef {import("./binding.js").Binding} Binding */

/**
 * What a page registers for a hook name; every method is optional.
 * @typedef {object} HookDefinition
 * @property {(this: HookInstance, hook: HookInstance) => void} [mounted]
 * @property {(this: HookInstance, hook: HookInstance) => void} [updated]
 * @property {(this: HookInstance, hook: HookInstance) => void} [destroyed]
 */

/**
 * One element's hook, as its definition's methods see it.
 * @typedef {object} HookInstance
 * @property {any} el
 * @property {unknown} value
 * @property {import("../topic.js").Topic} topic
 * @property {(action: unknown) => Promise<any>} send
 * @property {(name: string, handler: (payload: unknown) => void) => void} handleEvent
 */

/** @implements {Binding} */
export class HookBinding {
  /** @type {HookInstance | null} */
  #instance = null;
  /** @type {HookDefinition | null} */
  #definition = null;
  /** @type {Map<string, Set<(payload: unknown) => void>>} */
  #handlers = new Map();
  /** @type {(() => void) | null} */
  #stopEvents = null;
  #destroyed = false;

  /**
   * @param {any} element
   * @param {string} source `name` or `name: path`
   * @param {import("./scan.js").ViewContext} context
   * @param {import("./region.js").Region} region
   */
  constructor(element, source, context, region) {
    const colon = source.indexOf(":");
    this.name = (colon < 0 ? source : source.slice(0, colon)).trim();
    if (this.name === "") throw new Error(`data-sc-hook="${source}" names no hook`);
    this.element = element;
    this.expression = parseExpression(colon < 0 ? "." : source.slice(colon + 1));
    this.context = context;
    /** @type {import("../expression.js").Scope | null} */
    this.scope = null;
    const { dependencies, rootDependencies, usesIndex } = dependenciesOf([this.expression]);
    this.dependencies = dependencies;
    this.rootDependencies = rootDependencies;
    this.usesIndex = usesIndex;
    context.hookBindings.add(this);
    region.onDispose(() => this.destroy());
  }

  /**
   * Mounts the hook with the first value, then tells it of every changed value.
   * @param {import("../expression.js").Scope} scope
   */
  update(scope) {
    if (this.#destroyed) return;
    this.scope = scope;
    const value = evaluate(this.expression, scope);
    const instance = this.#instance;
    if (instance === null) {
      this.#mount(value);
      return;
    }
    if (instance.value === value) return;
    instance.value = value;
    this.#call("updated");
  }

  /** Mounts the hook if its definition was registered after the state came. */
  refresh() {
    if (this.#instance === null && this.scope && this.scope.root !== undefined) this.update(this.scope);
  }

  /** The element left: tells the hook, once, and stops its event handlers. */
  destroy() {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.context.hookBindings.delete(this);
    this.#stopEvents?.();
    this.#handlers.clear();
    if (this.#instance !== null) this.#call("destroyed");
  }

  /** @param {unknown} value */
  #mount(value) {
    const definition = this.context.hooks.get(this.name);
    if (!definition) return;
    this.#definition = definition;
    const topic = this.context.topic;
    /** @type {HookInstance} */
    const instance = {
      el: this.element,
      value,
      topic,
      send: (action) => topic.send(action),
      handleEvent: (name, handler) => this.#handleEvent(name, handler),
    };
    this.#instance = instance;
    this.#call("mounted");
  }

  /**
   * @param {string} name
   * @param {(payload: unknown) => void} handler
   */
  #handleEvent(name, handler) {
    if (this.#destroyed) return;
    let set = this.#handlers.get(name);
    if (!set) this.#handlers.set(name, (set = new Set()));
    set.add(handler);
    this.#stopEvents ??= this.context.topic.on("event", (/** @type {{ name: string, payload: unknown }} */ event) => {
      for (const fn of [...(this.#handlers.get(event.name) ?? [])]) {
        try {
          fn(event.payload);
        } catch (error) {
          console.error(`statecast: hook "${this.name}" failed to handle event "${event.name}"`, error);
        }
      }
    });
  }

  /** @param {"mounted" | "updated" | "destroyed"} method */
  #call(method) {
    const fn = this.#definition?.[method];
    const instance = this.#instance;
    if (typeof fn !== "function" || instance === null) return;
    try {
      fn.call(instance, instance);
    } catch (error) {
      console.error(`statecast: hook "${this.name}" threw in ${method}`, error);
    }
  }
}
