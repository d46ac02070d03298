/**
 * The bindings under one `data-sc-topic` element, kept in step with its topic.
 *
 * The view joins the topic (its name may take parts of the page's address, see
 * `topic-name.js`; with `data-sc-params`, whose placeholders may read the page's
 * location), binds the element's subtree, and on every change re-evaluates
 * only the bindings whose pointers the change touched. The root element's classes
 * tell its life: `sc-joining` until the first state, then `sc-ready`; `sc-failed` or
 * `sc-closed` when the topic ends.
 *
 * @example
 * <section data-sc-topic="music" data-sc-params='{"path":"$location.pathname","query":"$location.search"}'>
 * @module
 */

import { fillTemplate } from "../action-template.js";
import { PointerIndex } from "../pointer-index.js";
import { safeUpdate } from "./binding.js";
import { Region } from "./region.js";
import { scanElement } from "./scan.js";
import { topicName } from "../topic-name.js";

export class TopicView {
  /**
   * @param {any} root the element with `data-sc-topic`
   * @param {import("../client.js").Client} client
   * @param {Omit<import("./scan.js").ViewContext, "topic">} shared
   */
  constructor(root, client, shared) {
    this.root = root;
    const name = topicName(root.getAttribute("data-sc-topic"), shared.env.window);
    const params = readParams(root, shared.env);
    /** @type {import("../topic.js").Topic} */
    this.topic = client.join(name, params);
    /** @type {import("./scan.js").ViewContext} */
    this.context = { ...shared, topic: this.topic };
    this.region = new Region({ value: undefined, root: undefined });
    /** @type {PointerIndex<import("./binding.js").Binding>} */
    this.index = new PointerIndex();
    this.hasState = false;
    setClass(root, "sc-joining", true);
    scanElement(root, this.region, this.context, true);
    for (const binding of this.region.bindings) {
      for (const pointer of binding.dependencies) this.index.add(pointer, binding);
      for (const pointer of binding.rootDependencies) this.index.add(pointer, binding);
    }
    this.stopStatus = this.topic.on("status", ({ status }) => this.statusChanged(status));
    this.statusChanged(this.topic.status);
    this.unsubscribe = this.topic.subscribe((state, changed) => this.render(state, changed));
  }

  /**
   * @param {unknown} state
   * @param {string[]} changed
   */
  render(state, changed) {
    const scope = { value: state, root: state };
    this.region.rescope(scope);
    if (!this.hasState) {
      this.hasState = true;
      setClass(this.root, "sc-joining", false);
      setClass(this.root, "sc-ready", true);
    }
    const targets = changed.includes("") ? this.region.bindings : this.index.collect(changed);
    for (const binding of targets) safeUpdate(binding, scope, changed);
  }

  /** @param {string} status */
  statusChanged(status) {
    setClass(this.root, "sc-failed", status === "failed");
    setClass(this.root, "sc-closed", status === "closed");
    if (status === "failed" || status === "closed") setClass(this.root, "sc-joining", false);
  }

  /** Unbinds the subtree and releases the topic. */
  stop() {
    this.unsubscribe();
    this.stopStatus();
    this.region.dispose();
    this.topic.leave();
  }
}

/**
 * @param {any} root
 * @param {import("./scan.js").Environment} env
 * @returns {Record<string, unknown> | undefined}
 */
function readParams(root, env) {
  const source = root.getAttribute("data-sc-params");
  if (source === null || source.trim() === "") return undefined;
  try {
    const template = JSON.parse(source);
    const params = fillTemplate(template, { location: env.window?.location });
    if (params === null || typeof params !== "object" || Array.isArray(params)) throw new Error("params must be a JSON object");
    return /** @type {Record<string, unknown>} */ (params);
  } catch (error) {
    console.error(`statecast: data-sc-params="${source}": ${/** @type {Error} */ (error).message}`, root);
    return undefined;
  }
}

/**
 * @param {any} element
 * @param {string} name
 * @param {boolean} on
 */
function setClass(element, name, on) {
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}
