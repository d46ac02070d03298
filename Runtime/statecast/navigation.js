/**
 * Live navigation: links between the app's pages swap the page over the open socket
 * instead of loading a new document.
 *
 * Opt in per link or per region with `data-sc-navigate` (`data-sc-navigate="false"`
 * opts a link back out). A plain left click on such a link to a page of the same
 * origin sends `navigate` on the socket; the server renders the page in this tab's
 * session and joins its topics on this socket; the runtime swaps the document's body,
 * title and page styles, binds the new page (its topics start at the rendered state)
 * and unbinds the old one (leaving the topics only it held); the new page's scripts
 * run, and the old page's hear `statecast:leave` on the window first, to stop what
 * they started. The address is pushed
 * onto the history; Back and Forward swap the pages again, and each entry's scroll
 * position and focused link are restored. Whenever a page cannot be swapped (no
 * socket, an error, a link that leaves the app, a download, a modifier key) the browser
 * navigates as it always does.
 *
 * @example
 * <nav data-sc-navigate><a href="/counter.html">Counter</a> <a href="/board.html?room=team">Board</a></nav>
 * @module
 */

import { readRenderedPage } from "./rendered-page.js";

/**
 * What navigation needs of the page.
 * @typedef {object} NavigationHost
 * @property {import("./client.js").Client} client
 * @property {any} document
 * @property {any} window
 * @property {(root: any) => () => void} bind binds a document (or element); returns the unbind
 * @property {() => void} bound the page was bound: topics no binding claimed are left
 */

/** How long a swap may wait for its page before the browser loads it instead. */
export const NAVIGATE_TIMEOUT = 8000;

export class LiveNavigation {
  /** @type {NavigationHost} */
  #host;
  /** @type {() => void} unbinds the page shown now */
  #unbind;
  /** the path and query of the page shown now */
  #shown;
  /** counts swaps, so that only the latest one lands */
  #generation = 0;

  /**
   * @param {NavigationHost} host
   * @param {() => void} unbind unbinds the page as it was first bound
   */
  constructor(host, unbind) {
    this.#host = host;
    this.#unbind = unbind;
    const { location, history } = host.window;
    this.#shown = location.pathname + location.search;
    // The first entry becomes the app's (Back to it swaps it in live) when the first live
    // navigation leaves it (#remember): marking it here cost a history update (2-3 ms in a
    // fresh renderer) in the task that makes a rendered page interactive.
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    host.document.addEventListener("click", (/** @type {any} */ event) => this.#clicked(event));
    host.window.addEventListener("popstate", (/** @type {any} */ event) => this.#popped(event));
  }

  /**
   * Shows the page at `href` live (or, failing that, loads it).
   * @param {string} href
   * @param {{ push?: boolean, scroll?: [number, number], focus?: FocusMark | null }} [options]
   * @returns {Promise<void>}
   */
  async navigate(href, options = {}) {
    const { client, document, window } = this.#host;
    const url = new URL(href, window.location.href);
    const generation = ++this.#generation;
    // The request goes out first; the page's scroll position and focus are recorded
    // while the server renders the next page.
    const page = withTimeout(client.navigate(url.pathname + url.search), NAVIGATE_TIMEOUT);
    if (options.push !== false) this.#remember();
    let html;
    try {
      html = await page;
    } catch {
      if (generation === this.#generation) window.location.assign(url.href);
      return;
    }
    if (generation !== this.#generation) return;
    const next = new window.DOMParser().parseFromString(html, "text/html");
    const rendered = readRenderedPage(next);
    if (rendered) client.adoptNavigated(rendered.topics);
    // The old page's own scripts stop what they started (window listeners, timers).
    window.dispatchEvent(new window.Event("statecast:leave"));
    swapDocument(document, next);
    if (options.push !== false) window.history.pushState({ statecast: entryState(null) }, "", url.href);
    this.#shown = url.pathname + url.search;
    const [x, y] = options.scroll ?? [0, 0];
    window.scrollTo(x, y);
    if (options.focus) restoreFocus(document, options.focus);
    else if (url.hash && document.getElementById(url.hash.slice(1))) document.getElementById(url.hash.slice(1)).scrollIntoView();
    // The server rendered the page with its state: it is painted first and bound after,
    // so that binding it (and unbinding the old one) does not hold its first frame.
    await nextPaint(window);
    if (generation !== this.#generation) return;
    const unbindOld = this.#unbind;
    this.#unbind = this.#host.bind(document);
    unbindOld();
    this.#host.bound();
    runScripts(document);
  }

  /** Records the page's scroll position and focused link in its history entry. */
  #remember() {
    const { window, document } = this.#host;
    const state = window.history.state ?? {};
    window.history.replaceState(
      { ...state, statecast: { scroll: [window.scrollX, window.scrollY], focus: focusMark(document) } },
      "",
      window.location.href,
    );
  }

  /** @param {any} event */
  #clicked(event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target?.closest?.("a[href]");
    if (!link || !opted(link)) return;
    if ((link.getAttribute("target") ?? "_self") !== "_self" || link.hasAttribute("download")) return;
    const { window } = this.#host;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash !== "") return;
    event.preventDefault();
    this.navigate(url.href).catch(() => window.location.assign(url.href));
  }

  /** @param {any} event */
  #popped(event) {
    const entry = event.state?.statecast;
    const { location } = this.#host.window;
    if (!entry || location.pathname + location.search === this.#shown) return;
    this.navigate(location.href, { push: false, scroll: entry.scroll, focus: entry.focus }).catch(() => location.reload());
  }
}

/**
 * Whether a link is opted in: it or an ancestor has `data-sc-navigate`, the nearest
 * one not `"false"`.
 * @param {any} link
 */
function opted(link) {
  const region = link.closest("[data-sc-navigate]");
  return region !== null && region.getAttribute("data-sc-navigate") !== "false";
}

/**
 * @typedef {object} FocusMark a focused element, found again on a page rendered anew
 * @property {string | null} id
 * @property {string | null} href
 * @property {number} index its position among the elements with the same href
 */

/**
 * @param {any} document
 * @returns {FocusMark | null}
 */
function focusMark(document) {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const href = element.getAttribute?.("href") ?? null;
  const index = href === null ? 0 : Array.from(document.querySelectorAll("a[href]")).filter((/** @type {any} */ a) => a.getAttribute("href") === href).indexOf(element);
  return { id: element.id || null, href, index: Math.max(index, 0) };
}

/**
 * @param {any} document
 * @param {FocusMark} mark
 */
function restoreFocus(document, mark) {
  let element = mark.id ? document.getElementById(mark.id) : null;
  if (!element && mark.href !== null) {
    element = Array.from(document.querySelectorAll("a[href]")).filter((/** @type {any} */ a) => a.getAttribute("href") === mark.href)[mark.index];
  }
  element?.focus?.({ preventScroll: true });
}

/** @param {any} state */
function entryState(state) {
  return state?.statecast ?? { scroll: [0, 0], focus: null };
}

/**
 * Puts the new page in place of the old: its title, its own styles (stylesheets and
 * `<style>` elements of the head; the runtime's own and shared ones stay), its body.
 * @param {any} document
 * @param {any} next the new page, parsed
 */
function swapDocument(document, next) {
  document.title = next.title;
  const head = document.head;
  const links = new Set(Array.from(head.querySelectorAll("link[rel=stylesheet]"), (/** @type {any} */ link) => link.getAttribute("href")));
  for (const style of Array.from(head.querySelectorAll("style"))) /** @type {any} */ (style).remove();
  for (const element of Array.from(next.head.querySelectorAll("style, link[rel=stylesheet]"))) {
    const node = /** @type {any} */ (element);
    if (node.localName === "link" && links.has(node.getAttribute("href"))) continue;
    head.appendChild(document.importNode(node, true));
  }
  // Adopted, not copied: the parsed page is not used again.
  const body = document.adoptNode(next.body);
  // The new page's inline scripts in its head run too, after its body's.
  for (const script of Array.from(next.head.querySelectorAll("script:not([src])"))) body.appendChild(document.importNode(/** @type {any} */ (script), true));
  document.body.replaceWith(body);
}

/**
 * Runs the new page's scripts: elements parsed from markup never run, so each is
 * replaced by a fresh copy, which the browser runs (data blocks stay as they are).
 * @param {any} document
 */
function runScripts(document) {
  for (const old of Array.from(document.body.querySelectorAll("script"))) {
    const script = /** @type {any} */ (old);
    const type = script.getAttribute("type");
    if (type !== null && type !== "module" && type !== "text/javascript") continue;
    const fresh = document.createElement("script");
    for (const { name, value } of Array.from(/** @type {ArrayLike<{ name: string, value: string }>} */ (script.attributes))) fresh.setAttribute(name, value);
    fresh.textContent = script.textContent;
    script.replaceWith(fresh);
  }
}

/**
 * Resolves once the browser has painted what the page shows now: after its next animation
 * frame, or after 100 ms in a tab that paints no frames (hidden).
 * @param {any} window
 * @returns {Promise<void>}
 */
function nextPaint(window) {
  return new Promise((resolve) => {
    if (typeof window.requestAnimationFrame !== "function") {
      window.setTimeout(resolve, 0);
      return;
    }
    const fallback = window.setTimeout(resolve, 100);
    window.requestAnimationFrame(() =>
      window.setTimeout(() => {
        window.clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("navigation timed out")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
