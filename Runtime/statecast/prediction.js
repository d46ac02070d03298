/**
 * Optimistic updates: the change an action is expected to make, shown at once and
 * given up as soon as the server has spoken.
 *
 * An element with an action declares its prediction in `data-sc-predict`, as steps on
 * the topic's state separated by `;`: `POINTER += NUMBER`, `POINTER -= NUMBER` or
 * `POINTER = JSON`, with an absolute JSON Pointer (RFC 6901). Placeholders, as in
 * actions, are filled when the event fires (`fillPrediction`): a list row predicts its
 * own item with `/results/$index/votes += 1`.
 *
 * While the action is in flight its topic's subscribers see the server's state with the
 * pending predictions applied on top (rebased on every patch from the server). A
 * prediction ends, and the page shows the server's own state there again, when
 * - a patch from the server changes anything at or under (or above) a predicted pointer:
 *   that is the server's answer for that value, agreeing or not;
 * - the action's reply arrives (`ok` or an error: an error rolls the prediction back);
 * - a snapshot replaces the state, or the socket drops (the action's promise settles).
 * So the page never rests on a state the server did not send: once nothing is in
 * flight, what it shows is the server's mirror.
 *
 * @example
 * <button data-sc-on-click="increment" data-sc-predict="/count += 1">+</button>
 * <button data-sc-on-click="reset" data-sc-predict='/count = 0; /label = "zero"'>Reset</button>
 * @module
 */

import { checkPlaceholders, fillTemplate } from "./action-template.js";
import { PatchError, applyPatch } from "./patch.js";
import { formatPointer, lookup, parsePointer, touches } from "./pointer.js";

/**
 * @typedef {{ pointer: string, op: "+=" | "-=" | "=", value: unknown }} PredictionStep
 */

const STEP = /^\s*(\/\S*|)\s*(\+=|-=|=)\s*(.+?)\s*$/s;

/**
 * Reads a `data-sc-predict` value; throws an `Error` saying what is wrong.
 * @param {string} source e.g. `/count += 1`
 * @returns {PredictionStep[]}
 */
export function parsePrediction(source) {
  return source
    .split(";")
    .filter((part) => part.trim() !== "")
    .map((part) => {
      const match = STEP.exec(part);
      if (!match) throw new Error(`"${part.trim()}" is not POINTER += NUMBER, POINTER -= NUMBER or POINTER = JSON`);
      const [, pointer, op, text] = match;
      checkPlaceholders(parsePointer(pointer));
      const value = JSON.parse(text);
      checkPlaceholders(value);
      if (op !== "=" && typeof value !== "number") throw new Error(`"${part.trim()}": ${op} takes a number`);
      return { pointer, op: /** @type {PredictionStep["op"]} */ (op), value };
    });
}

/**
 * The steps with their placeholders filled when the event fires, as an action's are
 * (`$index`, `$key`, `$item.PATH`, `$value`, ...; `$$` for a literal `$`): in a pointer's
 * tokens and in `=` values. So a list row predicts its own item:
 * `/results/$index/votes += 1; /myVote = "$item.option"`. Throws when a pointer token
 * is not filled with a string or a number (a missing `$item.PATH`), so the action goes
 * without a prediction rather than with one about some other value.
 * @param {PredictionStep[]} steps
 * @param {import("./action-template.js").PlaceholderSource} source
 * @returns {PredictionStep[]}
 */
export function fillPrediction(steps, source) {
  return steps.map((step) => {
    const tokens = parsePointer(step.pointer).map((token) => {
      const filled = fillTemplate(token, source);
      if (typeof filled !== "string" && typeof filled !== "number") throw new Error(`${step.pointer}: ${token} has no value here`);
      return String(filled);
    });
    return { pointer: formatPointer(tokens), op: step.op, value: step.op === "=" ? fillTemplate(step.value, source) : step.value };
  });
}

/** The predictions of one topic's actions in flight, oldest first. */
export class Predictions {
  /** @type {Map<number, PredictionStep[]>} */
  #pending = new Map();
  #next = 0;

  /** How many are pending. */
  get size() {
    return this.#pending.size;
  }

  /**
   * Starts a prediction; returns its id.
   * @param {PredictionStep[]} steps
   */
  add(steps) {
    const id = ++this.#next;
    this.#pending.set(id, steps);
    return id;
  }

  /**
   * Ends one prediction (its action was answered); returns the pointers it covered, or
   * none when it had ended already.
   * @param {number} id
   * @returns {string[]}
   */
  remove(id) {
    const steps = this.#pending.get(id);
    this.#pending.delete(id);
    return steps ? steps.map((step) => step.pointer) : [];
  }

  /**
   * The server changed the values at `changed`: predictions about any of them end.
   * Returns the pointers they covered.
   * @param {string[]} changed
   * @returns {string[]}
   */
  reconcile(changed) {
    /** @type {string[]} */
    const ended = [];
    for (const [id, steps] of this.#pending) {
      if (steps.some((step) => changed.some((pointer) => touches(step.pointer, pointer)))) ended.push(...this.remove(id));
    }
    return ended;
  }

  /**
   * Ends every prediction; returns the pointers they covered.
   * @returns {string[]}
   */
  clear() {
    const ended = [...this.#pending.keys()].flatMap((id) => this.remove(id));
    return ended;
  }

  /**
   * The state to show: `state` with every pending prediction applied in order (a step
   * that cannot apply, such as `+=` on a value that is not a number, leaves its
   * prediction out). `state` itself when nothing is pending.
   * @param {unknown} state
   * @returns {unknown}
   */
  view(state) {
    let shown = state;
    for (const steps of this.#pending.values()) {
      try {
        const operations = steps.map((step) => ({ op: operation(shown, step), path: step.pointer, value: predicted(shown, step) }));
        shown = applyPatch(shown, operations).document;
      } catch (error) {
        if (!(error instanceof PatchError) && !(error instanceof TypeError)) throw error;
      }
    }
    return shown;
  }
}

/**
 * The patch operation that sets a step's value. `=` on a member of an object is `add`,
 * which sets the member whether or not the state has it: a Swift view leaves a `nil`
 * optional out, and `/selected = "x"` must show while `selected` is still absent.
 * Everything else (an array element, a number to move) must already be there.
 * @param {unknown} state
 * @param {PredictionStep} step
 * @returns {"add" | "replace"}
 */
function operation(state, step) {
  if (step.op !== "=") return "replace";
  const parent = lookup(state, parsePointer(step.pointer).slice(0, -1));
  return parent !== null && typeof parent === "object" && !Array.isArray(parent) ? "add" : "replace";
}

/**
 * @param {unknown} state
 * @param {PredictionStep} step
 */
function predicted(state, step) {
  if (step.op === "=") return step.value;
  const current = lookup(state, parsePointer(step.pointer));
  if (typeof current !== "number") throw new TypeError(`${step.pointer} is not a number`);
  return step.op === "+=" ? current + Number(step.value) : current - Number(step.value);
}
