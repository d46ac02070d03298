/**
 * Per-element bookkeeping shared by the bindings of one element.
 *
 * A two-way input has a model binding (state → value) and an event binding
 * (value → action). They must agree on whether the user is editing: while an edit has
 * not been sent and answered, patches must not overwrite what the user is typing.
 * @module
 */

/**
 * @typedef {object} ElementState
 * @property {boolean} editing the user changed the value and the change is not settled
 * @property {number} version counts user edits, to tell whether a reply is for the latest one
 * @property {number} inFlight actions sent from this element and not yet answered
 * @property {any} timer a pending debounce timer, or null
 * @property {any} busyTimer the timer that shows the busy state of a slow action, or null
 * @property {{ refresh(): void } | null} model the element's model binding, if any
 * @property {unknown} lastEvent the last input event counted (two listeners see the same event)
 */

/** @type {WeakMap<object, ElementState>} */
const states = new WeakMap();

/**
 * @param {object} element
 * @returns {ElementState}
 */
export function elementState(element) {
  let state = states.get(element);
  if (!state) {
    state = { editing: false, version: 0, inFlight: 0, timer: null, busyTimer: null, model: null, lastEvent: null };
    states.set(element, state);
  }
  return state;
}

/**
 * Records a user edit (once per event, however many bindings see it).
 * @param {object} element
 * @param {unknown} event
 */
export function markEdited(element, event) {
  const state = elementState(element);
  if (state.lastEvent === event) return;
  state.lastEvent = event;
  state.editing = true;
  state.version++;
}

/**
 * Ends the edit if nothing is pending for it any more, and shows the state's value.
 * @param {object} element
 * @param {number} [version] the edit a reply answered; omitted on blur
 */
export function settleEdit(element, version) {
  const state = elementState(element);
  if (version !== undefined && version !== state.version) return;
  if (state.timer !== null || state.inFlight > 0) return;
  if (!state.editing) return;
  state.editing = false;
  state.model?.refresh();
}
