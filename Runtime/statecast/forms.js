/**
 * Forms that show the server's validation as people expect it: an error appears for a
 * field only once the person has left it or submitted the form, never while they type
 * a first value.
 *
 * The store decides what is valid and shows each field's first error in its view (see
 * `FieldErrors` in docs/GUIDE.md); the page binds each message to an element naming
 * its field. The runtime keeps which fields were touched (left once) and whether the
 * form was submitted: that is the person's gesture, not state the server needs.
 *
 * - A message element `[data-sc-error-for="name"]` is shown (not `hidden`) when it has
 *   text and its field was left or the form submitted; its field then has
 *   `aria-invalid="true"` and names it in `aria-describedby` (an id is made if needed).
 * - Submitting marks every field touched; its submit buttons are disabled and
 *   `aria-busy` until the server answers; then focus moves to the first invalid field.
 *
 * @example
 * <form data-sc-form data-sc-on-submit="submit">
 *   <input name="email" data-sc-model="email" data-sc-on-input='{"emailChanged":{"text":"$value"}}'>
 *   <p data-sc-error-for="email" data-sc-text="errors.email"></p>
 *   <button>Sign up</button>
 * </form>
 * @module
 */

/**
 * @typedef {object} FormState
 * @property {Set<string>} touched names of the fields the person has left
 * @property {boolean} submitted
 * @property {boolean} submitting a submit is waiting for the server's answer
 */

/** @type {WeakMap<any, FormState>} */
const formStates = new WeakMap();
let nextErrorId = 1;

/**
 * @param {any} form
 * @returns {FormState}
 */
function stateOf(form) {
  let state = formStates.get(form);
  if (!state) {
    state = { touched: new Set(), submitted: false, submitting: false };
    formStates.set(form, state);
  }
  return state;
}

/**
 * The control named `name` in `form` (the first, for a group of radio buttons).
 * @param {any} form
 * @param {string} name
 * @returns {any}
 */
function fieldNamed(form, name) {
  const item = form.elements?.namedItem?.(name);
  if (!item) return null;
  return typeof item.length === "number" && !("value" in item && item.localName) ? item[0] : item;
}

/**
 * Shows or hides each message of `form` and marks its fields.
 * @param {any} form
 */
export function refreshForm(form) {
  const state = stateOf(form);
  for (const box of form.querySelectorAll("[data-sc-error-for]")) {
    const name = box.getAttribute("data-sc-error-for");
    const field = fieldNamed(form, name);
    const message = (box.textContent ?? "").trim();
    const shown = message !== "" && (state.submitted || state.touched.has(name));
    if (box.hidden === shown) box.hidden = !shown;
    if (!field) continue;
    if (!box.id) box.id = `sc-error-${nextErrorId++}`;
    const described = (field.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    if (!described.includes(box.id)) field.setAttribute("aria-describedby", [...described, box.id].join(" "));
    const invalid = shown ? "true" : "false";
    if (field.getAttribute("aria-invalid") !== invalid) field.setAttribute("aria-invalid", invalid);
  }
}

/**
 * Focuses the first field of `form` (in document order) whose error is shown.
 * @param {any} form
 * @returns {boolean} whether a field was focused
 */
export function focusFirstInvalid(form) {
  const invalid = form.querySelector('[aria-invalid="true"]');
  if (!invalid) return false;
  invalid.focus();
  return true;
}

/**
 * @param {any} form
 * @param {boolean} busy
 */
function setSubmitting(form, busy) {
  stateOf(form).submitting = busy;
  for (const button of form.querySelectorAll('button:not([type]), button[type="submit"], input[type="submit"]')) {
    button.disabled = busy;
    if (busy) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
  }
}

/**
 * Makes every `form[data-sc-form]` of `document`, now and later, show its errors as
 * described above.
 * @param {any} document
 * @param {(callback: () => void) => void} [schedule] how a refresh after DOM changes is deferred
 * @returns {() => void} stops
 */
export function installForms(document, schedule = (callback) => queueMicrotask(callback)) {
  /** @param {any} target */
  const formOf = (target) => target?.closest?.("form[data-sc-form]") ?? null;
  /** @param {any} event */
  const left = (event) => {
    const form = formOf(event.target);
    const name = event.target?.name;
    if (!form || typeof name !== "string" || name === "") return;
    stateOf(form).touched.add(name);
    refreshForm(form);
  };
  /** @param {any} event */
  const submitted = (event) => {
    const form = formOf(event.target);
    if (!form || event.target !== form) return;
    stateOf(form).submitted = true;
    setSubmitting(form, true);
    refreshForm(form);
  };
  /** @param {any} event */
  const answered = (event) => {
    const form = formOf(event.target);
    if (!form || event.target !== form || !stateOf(form).submitting) return;
    setSubmitting(form, false);
    refreshForm(form);
    focusFirstInvalid(form);
  };
  let pending = false;
  const changed = () => {
    if (pending) return;
    pending = true;
    schedule(() => {
      pending = false;
      for (const form of document.querySelectorAll("form[data-sc-form]")) refreshForm(form);
    });
  };
  document.addEventListener("focusout", left, true);
  document.addEventListener("submit", submitted, true);
  document.addEventListener("statecast:reply", answered);
  document.addEventListener("statecast:error", answered);
  const Observer = document.defaultView?.MutationObserver;
  const observer = Observer ? new Observer(changed) : null;
  observer?.observe(document, { childList: true, characterData: true, subtree: true });
  changed();
  return () => {
    document.removeEventListener("focusout", left, true);
    document.removeEventListener("submit", submitted, true);
    document.removeEventListener("statecast:reply", answered);
    document.removeEventListener("statecast:error", answered);
    observer?.disconnect();
  };
}
