/**
 * `data-sc-on-EVENT="action"`: an event sends an action to the topic.
 *
 * The action is JSON with placeholders (see `action-template.js`), or a bare case name.
 * `data-sc-on-keydown.enter` fires only for that key. `data-sc-debounce="ms"` sends
 * once the events pause. While the action is in flight the element has the class
 * `sc-loading` and `aria-busy="true"`; a refused action adds `sc-error` and a
 * `data-sc-error` attribute with the message, and dispatches a bubbling
 * `statecast:error` event (`statecast:reply` on success). Forms never submit the page;
 * links are followed by the runtime only for plain left clicks (a middle or
 * modifier click still opens a new tab). `popstate` and `hashchange` listen on the window.
 *
 * @example
 * <button data-sc-on-click="increment">+</button>
 * <a href="/music/artist/42" data-sc-on-click='{"open":{"path":"$href"}}'>Artist</a>
 * <form data-sc-on-submit='{"add":{"title":"$form.title"}}' data-sc-reset>...</form>
 * @module
 */

import { fillTemplate } from "../action-template.js";
import { elementState, markEdited, settleEdit } from "../internal/element-state.js";
import { elementValue, formValues } from "../internal/form-values.js";

const WINDOW_EVENTS = new Set(["popstate", "hashchange"]);
const KEY_NAMES = /** @type {Record<string, string>} */ ({ esc: "escape", space: " ", spacebar: " ", return: "enter" });

export class EventBinding {
  /**
   * @param {any} element
   * @param {string} eventName e.g. `click`, `submit`, `keydown`
   * @param {string | null} keyFilter e.g. `enter`, or null for any key
   * @param {unknown} template the parsed action template
   * @param {import("./region.js").Region} region
   * @param {import("./scan.js").ViewContext} context
   */
  constructor(element, eventName, keyFilter, template, region, context) {
    this.element = element;
    this.eventName = eventName;
    this.keyFilter = keyFilter === null ? null : (KEY_NAMES[keyFilter] ?? keyFilter);
    this.template = template;
    this.region = region;
    this.context = context;
    const debounce = Number(element.getAttribute("data-sc-debounce"));
    this.debounce = Number.isFinite(debounce) && debounce > 0 ? debounce : 0;
    const target = WINDOW_EVENTS.has(eventName) ? context.env.window : element;
    /** @param {any} event */
    const listener = (event) => this.handle(event);
    target.addEventListener(eventName, listener);
    region.onDispose(() => {
      target.removeEventListener(eventName, listener);
      const state = elementState(element);
      if (state.timer !== null) {
        context.env.clearTimeout(state.timer);
        state.timer = null;
      }
    });
  }

  /** @param {any} event */
  handle(event) {
    const element = this.element;
    if (this.keyFilter !== null && String(event.key ?? "").toLowerCase() !== this.keyFilter) return;
    if (this.eventName === "click" && element.localName === "a") {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
    } else if (this.eventName === "submit" || (this.eventName === "click" && element.localName === "button") || this.keyFilter !== null) {
      event.preventDefault();
    }
    if (this.eventName === "input") markEdited(element, event);
    if (this.debounce === 0) {
      this.send(event);
      return;
    }
    const state = elementState(element);
    const env = this.context.env;
    if (state.timer !== null) env.clearTimeout(state.timer);
    state.timer = env.setTimeout(() => {
      state.timer = null;
      this.send(event);
    }, this.debounce);
  }

  /** @param {any} event */
  send(event) {
    const element = this.element;
    const { topic, env } = this.context;
    /** @type {unknown} */
    let action;
    try {
      action = fillTemplate(this.template, {
        value: () => elementValue(element),
        checked: () => Boolean(element.checked),
        attribute: (name) => element.getAttribute(name),
        form: () => formValues(element.localName === "form" ? element : (element.form ?? element)),
        scope: this.region.scope,
        location: env.window?.location,
        event,
      });
    } catch (error) {
      console.error("statecast: cannot build the action", error);
      return;
    }
    const state = elementState(element);
    const version = state.version;
    this.setLoading(state, 1);
    topic.send(action).then(
      (reply) => {
        this.setLoading(state, -1);
        if (element.classList.contains("sc-error")) element.classList.remove("sc-error");
        if (element.hasAttribute("data-sc-error")) element.removeAttribute("data-sc-error");
        if (this.eventName === "submit" && element.hasAttribute("data-sc-reset") && typeof element.reset === "function") element.reset();
        env.dispatch(element, "statecast:reply", { reply, action, topic: topic.name });
        settleEdit(element, version);
      },
      (/** @type {any} */ error) => {
        this.setLoading(state, -1);
        element.classList.add("sc-error");
        element.setAttribute("data-sc-error", String(error?.message ?? error));
        if (error?.code === "connection_lost" || error?.code === "not_joined") console.warn(`statecast: ${error.message}`);
        env.dispatch(element, "statecast:error", { error, action, topic: topic.name });
        settleEdit(element, version);
      },
    );
  }

  /**
   * @param {import("../internal/element-state.js").ElementState} state
   * @param {number} delta
   */
  setLoading(state, delta) {
    state.inFlight += delta;
    const loading = state.inFlight > 0;
    if (this.element.classList.contains("sc-loading") === loading) return;
    this.element.classList.toggle("sc-loading", loading);
    if (loading) this.element.setAttribute("aria-busy", "true");
    else this.element.removeAttribute("aria-busy");
  }
}
