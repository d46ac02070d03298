/**
 * Statecast's browser runtime: the page's mirror of server-side stores.
 *
 * Importing this module connects the page to `/ws` on its own host (`wss:` on https),
 * binds every `data-sc-topic` element of the document once it is parsed, shows the
 * connection state on `<html>` and in a small banner, and opens the debug panel when
 * the URL has `?debug`. Most pages need nothing more than
 * `<script type="module" src="/statecast.js"></script>` and `data-sc-*` attributes;
 * pages that render on their own use the API below. See docs/RUNTIME.md.
 *
 * @example
 * import { statecast } from "/statecast.js";
 * const counter = statecast.join("counter");
 * counter.subscribe((state) => { label.textContent = state.count; });
 * plus.onclick = () => counter.send({ increment: {} }).catch((error) => alert(error.code));
 * @module
 */

import { Binder } from "./bindings/binder.js";
import { Client } from "./client.js";
import { installConnectionIndicator } from "./connection-indicator.js";
import { LiveNavigation } from "./navigation.js";
import { readRenderedPage } from "./rendered-page.js";
import { installForms } from "./forms.js";
import { installUploadBindings } from "./upload-binding.js";
import { Uploads } from "./uploads.js";
import { applyPatch } from "./patch.js";
import { restoreAction } from "./restore-action.js";

export { Client } from "./client.js";
export { StatecastError } from "./error.js";
export { applyPatch, PatchError } from "./patch.js";
export { topicName } from "./topic-name.js";

/**
 * The WebSocket URL for a page location: `/ws` on the same host and port.
 * @param {{ protocol: string, host: string }} location
 * @returns {string}
 */
export function socketURL(location) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

const inBrowser = typeof window !== "undefined" && typeof document !== "undefined";

/**
 * The socket the page's early snippet opened (`window.statecastEarlySocket`), handed to
 * the runtime once: see docs/RUNTIME.md, "Live sooner".
 * @param {any} window
 * @returns {import("./connection.js").EarlySocket | undefined}
 */
function takeEarlySocket(window) {
  const early = window.statecastEarlySocket;
  delete window.statecastEarlySocket;
  return early && typeof early === "object" && early.socket ? early : undefined;
}

/**
 * Whether the document's DOMContentLoaded has been dispatched (every deferred and module
 * script of the page has run).
 * @param {any} window
 */
function contentLoaded(window) {
  const entry = window.performance?.getEntriesByType?.("navigation")?.[0];
  return typeof entry?.domContentLoadedEventEnd === "number" && entry.domContentLoadedEventEnd > 0;
}

const client = new Client({
  url: inBrowser ? socketURL(window.location) : "ws://localhost/ws",
  early: inBrowser ? takeEarlySocket(window) : undefined,
});

/** @type {import("./bindings/scan.js").Environment} */
const environment = {
  document: inBrowser ? document : undefined,
  window: inBrowser ? window : undefined,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  dispatch(element, type, detail) {
    element.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  },
};

const binder = new Binder(client, environment);
const uploads = new Uploads(client);

/**
 * The page's runtime.
 */
export const statecast = {
  /**
   * Joins a topic (or returns the handle already joined under that name).
   * @param {string} name e.g. `"counter"` or `"todos/team-42"`
   * @param {Record<string, unknown>} [params] the join params; different params re-join
   * @returns {import("./topic.js").Topic}
   */
  join(name, params) {
    return client.join(name, params);
  },

  /**
   * Publishes what this tab wants the other members of a shared topic to see about it
   * under `/presence` (throttled to one message per 100 ms per topic).
   * @param {string} name the topic's name, e.g. `"board/team"`
   * @param {Record<string, unknown>} meta e.g. `{ editing: "item-3" }`, at most 1,024 bytes as JSON
   */
  presence(name, meta) {
    client.presence(name, meta);
  },

  /** `"connecting"`, `"connected"` or `"disconnected"`. */
  get connectionState() {
    return client.connectionState;
  },

  /** The server session this tab is attached to, once greeted. */
  get session() {
    return client.session;
  },

  /**
   * Listens to `connectionstatechange`, `error`, `resync` or `trace`; returns the
   * function that stops listening.
   * @param {string} type
   * @param {(detail: any) => void} listener
   * @returns {() => void}
   */
  on(type, listener) {
    return client.on(type, listener);
  },

  /**
   * Binds the `data-sc-topic` elements at or under `root` (for content added after load).
   * @param {any} root
   * @returns {() => void} unbinds and leaves their topics
   */
  bind(root) {
    return binder.bind(root);
  },

  /**
   * Registers the renderer of `data-sc-render="name"` elements.
   * @param {string} name
   * @param {import("./bindings/render-binding.js").Renderer} renderer
   */
  renderer(name, renderer) {
    binder.renderer(name, renderer);
  },

  /**
   * Registers the hook of `data-sc-hook="name"` elements: `mounted`, `updated` and
   * `destroyed`, called with the element's hook (`el`, `value`, `topic`, `send`,
   * `handleEvent`) as `this`. See docs/RUNTIME.md, "Hooks".
   * @param {string} name
   * @param {import("./bindings/hook-binding.js").HookDefinition} definition
   */
  hook(name, definition) {
    binder.hook(name, definition);
  },

  /** Reconnects at once instead of waiting out the back-off. */
  retryNow() {
    client.retryNow();
  },

  /**
   * Uploads `file` (a `File` or `Blob` with a name) to `topic`, with progress and
   * resume after a dropped connection; `events` hears `progress`, `done`, `failed`.
   * @param {string} topic
   * @param {Blob & { name: string, type: string }} file
   * @param {import("./uploads.js").UploadEvents} [events]
   * @returns {import("./uploads.js").Upload}
   */
  upload(topic, file, events) {
    return uploads.upload(topic, file, events);
  },

  /** The underlying protocol client (topics, session, tracing). */
  client,

  /**
   * Live navigation between the app's pages, once the document is bound:
   * `statecast.navigation.navigate(href)` shows a page over the socket.
   * @type {LiveNavigation | null}
   */
  navigation: /** @type {LiveNavigation | null} */ (null),
};

if (inBrowser) {
  const rendered = readRenderedPage(document);
  if (rendered) client.resumeRendered(rendered);
  client.start();
  window.addEventListener("online", () => client.retryNow());
  // A page leaving for good lets its hooks let go (a page kept in the back-forward
  // cache keeps them).
  window.addEventListener("pagehide", (/** @type {PageTransitionEvent} */ event) => {
    if (!event.persisted) binder.destroyHooks();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") client.retryNow();
  });
  const debug = new URLSearchParams(window.location.search).has("debug");
  /** @type {any[]} messages exchanged before the debug panel has loaded */
  const backlog = [];
  const stopBacklog = debug ? client.on("trace", (entry) => backlog.push(entry)) : () => {};
  if (debug) client.tracing = true;
  let started = false;
  const bindDocument = () => {
    if (started) return;
    started = true;
    installConnectionIndicator(client, document);
    const unbind = binder.bind(document);
    installForms(document);
    installUploadBindings(uploads, document);
    client.leaveUnclaimed();
    statecast.navigation = new LiveNavigation(
      { client, document, window, bind: (root) => binder.bind(root), bound: () => client.leaveUnclaimed() },
      unbind,
    );
    if (debug) {
      import("./debug.js")
        .then(({ installDebugPanel }) => {
          stopBacklog();
          installDebugPanel(client, document, {
            backlog,
            applyPatch,
            restoreAction: (name, state) => restoreAction(document, window, name, state),
            requestFrame: (fn) => requestAnimationFrame(fn),
          });
        })
        .catch((error) => console.error("statecast: cannot load the debug panel", error));
    }
  };
  // Module scripts run before DOMContentLoaded, so a page's own module can join a topic
  // with params (or register renderers) before the document is bound. Loaded by the
  // early snippet, this module usually runs after it: the page's own modules have run
  // then, and waiting for `load` (the page's images, its async scripts) would only keep
  // a page the server rendered from being interactive.
  if (document.readyState === "complete" || contentLoaded(window)) queueMicrotask(bindDocument);
  else {
    document.addEventListener("DOMContentLoaded", bindDocument);
    window.addEventListener("load", bindDocument);
  }
}

export default statecast;
