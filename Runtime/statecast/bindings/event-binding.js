/**
 * `data-sc-on-EVENT="action"`: an event sends an action to the topic.
 *
 * The action is JSON with placeholders (see `action-template.js`), or a bare case name.
 * `data-sc-on-keydown.enter` fires only for that key. `data-sc-debounce="ms"` sends
 * once the events pause. While an action has been in flight for longer than
 * `BUSY_DELAY` ms the element has the class `sc-loading` and `aria-busy="true"`: an
 * action answered sooner (the usual case) never changes them, so the page neither
 * flickers nor pays for a restyle between the click and the changed DOM; a refused
 * action adds `sc-error` and a
 * `data-sc-error` attribute with the message, and dispatches a bubbling
 * `statecast:error` event (`statecast:reply` on success). Forms never submit the page;
 * links are followed by the runtime only for plain left clicks (a middle or
 * modifier click still opens a new tab). `popstate` and `hashchange` listen on the window.
 * `data-sc-predict` shows the action's expected change at once (see `prediction.js`).
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
import { fillPrediction, parsePrediction } from "../prediction.js";

const WINDOW_EVENTS = new Set(["popstate", "hashchange"]);

/** ms an action may be in flight before its element shows it is busy (`sc-loading`). */
export const BUSY_DELAY = 100;
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
    this.prediction = readPrediction(element);
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
      if (state.busyTimer !== null) {
        context.env.clearTimeout(state.busyTimer);
        state.busyTimer = null;
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
    /** @type {import("../action-template.js").PlaceholderSource} */
    const source = {
      value: () => elementValue(element),
      checked: () => Boolean(element.checked),
      attribute: (name) => element.getAttribute(name),
      form: () => formValues(element.localName === "form" ? element : (element.form ?? element)),
      scope: this.region.scope,
      location: env.window?.location,
      event,
    };
    /** @type {unknown} */
    let action;
    try {
      action = fillTemplate(this.template, source);
    } catch (error) {
      console.error("statecast: cannot build the action", error);
      return;
    }
    let prediction;
    try {
      prediction = this.prediction && fillPrediction(this.prediction, source);
    } catch (error) {
      console.error(`statecast: data-sc-predict: ${/** @type {Error} */ (error).message}`, element);
    }
    const state = elementState(element);
    const version = state.version;
    this.setLoading(state, 1);
    topic.send(action, prediction).then(
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
    const env = this.context.env;
    if (state.inFlight > 0) {
      // Shown only if the action is slow: a class change right after the click would
      // make the browser restyle the page before it can handle the server's patch.
      if (state.busyTimer === null && !this.element.classList.contains("sc-loading")) {
        state.busyTimer = env.setTimeout(() => {
          state.busyTimer = null;
          if (state.inFlight > 0) this.showBusy(true);
        }, BUSY_DELAY);
      }
      return;
    }
    if (state.busyTimer !== null) {
      env.clearTimeout(state.busyTimer);
      state.busyTimer = null;
    }
    this.showBusy(false);
  }

  /**
   * Shows or clears the busy state: the class `sc-loading` and `aria-busy`.
   * @param {boolean} busy
   */
  showBusy(busy) {
    if (this.element.classList.contains("sc-loading") === busy) return;
    this.element.classList.toggle("sc-loading", busy);
    if (busy) this.element.setAttribute("aria-busy", "true");
    else this.element.removeAttribute("aria-busy");
  }
}

/**
 * The element's `data-sc-predict`, if it has a valid one (a bad one is reported and
 * ignored: the action is still sent).
 * @param {any} element
 * @returns {import("../prediction.js").PredictionStep[] | undefined}
 */
function readPrediction(element) {
  const source = element.getAttribute?.("data-sc-predict");
  if (source === null || source === undefined) return undefined;
  try {
    return parsePrediction(source);
  } catch (error) {
    console.error(`statecast: data-sc-predict="${source}": ${/** @type {Error} */ (error).message}`, element);
    return undefined;
  }
}
