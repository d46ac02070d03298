/**
 * `data-sc-restore` on a topic's element: the action that puts the topic back to a
 * revision the debug panel shows ("Restore this revision"). Restoring is an action like
 * any other, declared by the page and decided by the server: the feature's reducer applies
 * it and the route's access rules may refuse it (a room whose members should not take
 * back each other's changes).
 *
 * The value is an action template (see `action-template.js`) whose `$root.PATH`
 * placeholders read the revision's state.
 *
 * @example
 * <div data-sc-topic="counter" data-sc-restore='{"restoreCount":{"count":"$root.count"}}'>…</div>
 * @module
 */

import { fillTemplate, parseActionTemplate } from "./action-template.js";
import { topicName } from "./topic-name.js";

/**
 * The action that restores topic `name` to `state`, if the page declares one.
 * @param {any} document
 * @param {any} window
 * @param {string} name the topic, e.g. `"counter"`
 * @param {unknown} state the revision's state
 * @returns {unknown} the action, or `undefined` when the page declares none
 */
export function restoreAction(document, window, name, state) {
  for (const element of document.querySelectorAll("[data-sc-topic][data-sc-restore]")) {
    if (topicName(element.getAttribute("data-sc-topic"), window) !== name) continue;
    const template = parseActionTemplate(element.getAttribute("data-sc-restore"));
    return fillTemplate(template, { scope: { value: state, root: state } });
  }
  return undefined;
}
