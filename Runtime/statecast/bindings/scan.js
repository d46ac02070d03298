/**
 * Reads the `data-sc-*` attributes of an element tree and creates its bindings.
 *
 * Each element's model binding comes first (so its edit tracking sees input events
 * before the element's actions do), then value bindings, then event bindings. A list
 * container's children belong to the list; a nested `data-sc-topic` element belongs
 * to its own view. A binding that cannot be parsed is reported on the console with its
 * element and skipped; the rest of the page still works.
 * @module
 */

import { parseActionTemplate } from "../action-template.js";
import { parseExpression } from "../expression.js";
import { AttributeBinding } from "./attribute-binding.js";
import { ClassBinding } from "./class-binding.js";
import { EventBinding } from "./event-binding.js";
import { FeedBinding } from "./feed-binding.js";
import { HookBinding } from "./hook-binding.js";
import { ListBinding } from "./list-binding.js";
import { LocationBinding } from "./location-binding.js";
import { ModelBinding } from "./model-binding.js";
import { RenderBinding } from "./render-binding.js";
import { TextBinding } from "./text-binding.js";
import { VisibilityBinding } from "./visibility-binding.js";
import { WindowBinding } from "./window-binding.js";

/**
 * What the page's host provides to bindings (the browser, or a test's stand-ins).
 * @typedef {object} Environment
 * @property {any} document
 * @property {any} window location, history and window-level events
 * @property {(fn: () => void, ms: number) => any} setTimeout
 * @property {(id: any) => void} clearTimeout
 * @property {(element: any, type: string, detail: object) => void} dispatch fires a bubbling DOM event
 */

/**
 * @typedef {object} ViewContext
 * @property {import("../topic.js").Topic} topic
 * @property {Environment} env
 * @property {Map<string, import("./render-binding.js").Renderer>} renderers
 * @property {Set<RenderBinding>} renderBindings
 * @property {Map<string, import("./hook-binding.js").HookDefinition>} hooks
 * @property {Set<HookBinding>} hookBindings
 * @property {(element: any) => void} nestedTopic starts the view of a nested topic root
 */

/** Attributes the scanner reads; others with the prefix are reported as typos. */
const KNOWN = new Set([
  "data-sc-topic",
  "data-sc-params",
  "data-sc-text",
  "data-sc-attr",
  "data-sc-class",
  "data-sc-show",
  "data-sc-hide",
  "data-sc-each",
  "data-sc-key",
  "data-sc-model",
  "data-sc-render",
  "data-sc-location",
  "data-sc-debounce",
  "data-sc-predict",
  "data-sc-restore",
  "data-sc-reset",
  "data-sc-cloak",
  "data-sc-error",
  "data-sc-rendered",
  "data-sc-navigate",
  "data-sc-hook",
  "data-sc-window",
  "data-sc-window-action",
  "data-sc-row-height",
  "data-sc-overscan",
  "data-sc-feed",
  "data-sc-feed-limit",
  // Read by the form and upload modules (`forms.js`, `upload-binding.js`), not here.
  "data-sc-form",
  "data-sc-error-for",
  "data-sc-upload",
  "data-sc-upload-drop",
  "data-sc-upload-list",
]);

/** @type {Set<string>} */
const reportedUnknown = new Set();

/**
 * Binds `element` and its descendants into `region`.
 * @param {any} element
 * @param {import("./region.js").Region} region
 * @param {ViewContext} context
 * @param {boolean} [isViewRoot] the element is the view's own `data-sc-topic` root
 */
export function scanElement(element, region, context, isViewRoot = false) {
  if (!isViewRoot && element.hasAttribute("data-sc-topic")) {
    context.nestedTopic(element);
    return;
  }
  let ownsChildren = false;
  // The names first: reading `element.attributes` makes the browser create an object for
  // every attribute of every element, most of them not the runtime's.
  const attributes = /** @type {string[]} */ (element.getAttributeNames())
    .filter((name) => name.startsWith("data-sc-"))
    .map((name) => ({ name, value: /** @type {string} */ (element.getAttribute(name)) }));
  if (attributes.length > 0) {
    const model = attributes.find((attribute) => attribute.name === "data-sc-model");
    if (model) attempt(element, model, () => region.add(new ModelBinding(element, parseExpression(model.value), region)));
    for (const attribute of attributes) {
      const { name, value } = attribute;
      switch (name) {
        case "data-sc-text":
          attempt(element, attribute, () => region.add(new TextBinding(element, parseExpression(value))));
          break;
        case "data-sc-attr":
          attempt(element, attribute, () => region.add(new AttributeBinding(element, value)));
          break;
        case "data-sc-class":
          attempt(element, attribute, () => region.add(new ClassBinding(element, value)));
          break;
        case "data-sc-show":
        case "data-sc-hide":
          attempt(element, attribute, () => region.add(new VisibilityBinding(element, parseExpression(value), name === "data-sc-show")));
          break;
        case "data-sc-render":
          attempt(element, attribute, () => region.add(new RenderBinding(element, value, context, region)));
          break;
        case "data-sc-location":
          attempt(element, attribute, () => region.add(new LocationBinding(parseExpression(value), context)));
          break;
        case "data-sc-hook":
          attempt(element, attribute, () => region.add(new HookBinding(element, value, context, region)));
          break;
        case "data-sc-each":
        case "data-sc-window":
        case "data-sc-feed":
          ownsChildren = true;
          attempt(element, attribute, () => {
            const template = Array.from(/** @type {ArrayLike<any>} */ (element.children)).find((child) => child.localName === "template");
            if (!template) throw new Error(`a ${name} element needs a <template> child`);
            const expression = parseExpression(value);
            if (name === "data-sc-window") region.add(new WindowBinding(element, expression, template, context, scanElement, region));
            else if (name === "data-sc-feed") region.add(new FeedBinding(element, expression, template, context, scanElement));
            else region.add(new ListBinding(element, expression, template, context, scanElement));
          });
          break;
        default:
          if (name.startsWith("data-sc-on-")) {
            attempt(element, attribute, () => {
              const [eventName, keyFilter = null] = name.slice("data-sc-on-".length).split(".");
              if (!eventName) throw new Error("no event name");
              new EventBinding(element, eventName, keyFilter?.toLowerCase() ?? null, parseActionTemplate(value), region, context);
            });
          } else if (!KNOWN.has(name) && !reportedUnknown.has(name)) {
            reportedUnknown.add(name);
            console.warn(`statecast: unknown attribute ${name} (see docs/RUNTIME.md)`);
          }
      }
    }
  }
  if (ownsChildren) return;
  for (const child of Array.from(/** @type {ArrayLike<any>} */ (element.children))) {
    if (child.localName !== "template") scanElement(child, region, context);
  }
}

/**
 * Runs one binding's setup, reporting a failure with the element instead of throwing.
 * @param {any} element
 * @param {{ name: string, value: string }} attribute
 * @param {() => void} setup
 */
function attempt(element, attribute, setup) {
  try {
    setup();
  } catch (error) {
    console.error(`statecast: ${attribute.name}="${attribute.value}": ${/** @type {Error} */ (error).message}`, element);
  }
}
