/**
 * Connects plain HTML to topics: finds every `data-sc-topic` element under a root and
 * keeps a view of it, and holds the page's custom renderers.
 *
 * `statecast.js` binds the whole document when it loads; pages that add topic
 * elements later call `statecast.bind(element)` themselves.
 *
 * @example
 * const unbind = statecast.bind(document.querySelector("#late-widget"));
 * statecast.renderer("chart", (element, points) => draw(element, points));
 * statecast.hook("chart", { mounted() { draw(this.el, this.value); }, updated() { draw(this.el, this.value); } });
 * @module
 */

import { TopicView } from "./topic-view.js";

export class Binder {
  /**
   * @param {import("../client.js").Client} client
   * @param {import("./scan.js").Environment} env
   */
  constructor(client, env) {
    this.client = client;
    this.env = env;
    /** @type {Map<string, import("./render-binding.js").Renderer>} */
    this.renderers = new Map();
    /** @type {Set<import("./render-binding.js").RenderBinding>} */
    this.renderBindings = new Set();
    /** @type {Map<string, import("./hook-binding.js").HookDefinition>} */
    this.hooks = new Map();
    /** @type {Set<import("./hook-binding.js").HookBinding>} */
    this.hookBindings = new Set();
  }

  /**
   * Binds every topic root at or under `root` (nested roots get their own views).
   * @param {any} root an element or a document
   * @returns {() => void} unbinds them all and leaves their topics
   */
  bind(root) {
    /** @type {TopicView[]} */
    const views = [];
    /** @param {any} element */
    const start = (element) => {
      try {
        views.push(
          new TopicView(element, this.client, {
            env: this.env,
            renderers: this.renderers,
            renderBindings: this.renderBindings,
            hooks: this.hooks,
            hookBindings: this.hookBindings,
            nestedTopic: start,
          }),
        );
      } catch (error) {
        console.error("statecast: cannot bind", element, error);
      }
    };
    /** @param {any} element */
    const find = (element) => {
      if (element.hasAttribute?.("data-sc-topic")) {
        start(element);
        return;
      }
      for (const child of Array.from(/** @type {ArrayLike<any>} */ (element.children ?? []))) find(child);
    };
    find(root.documentElement ?? root);
    return () => {
      for (const view of views.splice(0)) view.stop();
    };
  }

  /**
   * Registers (or replaces) a renderer for `data-sc-render="name"` elements and renders
   * the ones already bound.
   * @param {string} name
   * @param {import("./render-binding.js").Renderer} renderer
   */
  renderer(name, renderer) {
    this.renderers.set(name, renderer);
    for (const binding of [...this.renderBindings]) if (binding.name === name) binding.refresh();
  }

  /**
   * Registers the hook of `data-sc-hook="name"` elements (see `hook-binding.js`) and
   * mounts the ones already bound whose state has come. A name is registered once:
   * mounted hooks keep the definition they were mounted with.
   * @param {string} name
   * @param {import("./hook-binding.js").HookDefinition} definition
   */
  hook(name, definition) {
    if (definition === null || typeof definition !== "object") throw new TypeError("statecast.hook needs an object of methods");
    this.hooks.set(name, definition);
    for (const binding of [...this.hookBindings]) if (binding.name === name) binding.refresh();
  }

  /** The page is going away for good: every mounted hook is destroyed. */
  destroyHooks() {
    for (const binding of [...this.hookBindings]) binding.destroy();
  }
}
