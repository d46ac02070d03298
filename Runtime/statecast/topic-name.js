/**
 * Topic names that take parts of the page's address, so that a page names its room
 * declaratively: `data-sc-topic="counter/{query.room}"` joins `counter/team` at
 * `?room=team`. `{query.NAME}` is a query parameter, `{path.N}` the Nth segment of the
 * path (from 1, percent-decoded), `{browser}` an id of this browser, made at random
 * once and kept in `localStorage` (a list of one's own that survives reloads), and
 * mirrored in the cookie `statecast_browser` so that the server can render such a page
 * on its `GET` (docs/FIRST_PAINT.md); `localStorage` stays the id's one source.
 * `{query.room|lobby}` falls back to `lobby`; without a fallback, a segment whose
 * placeholder has no value is left out with its slash, so the same page joins
 * `counter`, the tab's own, without the parameter. `early.js` resolves names the
 * same way for its early joins; a test runs both on the same cases.
 *
 * @example
 * topicName("board/{query.room}", { location: { pathname: "/board.html", search: "?room=team" } }) // "board/team"
 * topicName("board/{query.room}", { location: { pathname: "/board.html", search: "" } })           // "board"
 * topicName("music/{path.2}", { location: { pathname: "/music/42", search: "" } })                 // "music/42"
 * @module
 */

const PLACEHOLDER = /\{(?:(query|path)\.([^{}|]+)(?:\|([^{}]*))?|(browser))\}/g;

/** Where `{browser}` is kept. */
export const BROWSER_KEY = "statecast.browser";

/** The cookie that tells the server `{browser}` (`PageLocation.browserCookie` there). */
export const BROWSER_COOKIE = "statecast_browser";

/** How long the cookie lives: 400 days, the longest a browser keeps one. */
const BROWSER_COOKIE_AGE = 400 * 24 * 60 * 60;

/**
 * The topic a `data-sc-topic` value names in `window` (its `location`, and its
 * `localStorage` for `{browser}`, whose cookie it sets in its `document`).
 * @param {string} template
 * @param {BrowserWindow | undefined} window
 * @returns {string}
 */
export function topicName(template, window) {
  if (!template.includes("{")) return template;
  const location = window?.location;
  const query = new URLSearchParams(location?.search ?? "");
  const parts = (location?.pathname ?? "/").split("/").slice(1);
  /** @type {string[]} */
  const kept = [];
  for (const segment of template.split("/")) {
    let missing = false;
    const resolved = segment.replace(PLACEHOLDER, (_, source, key, fallback, browser) => {
      let value = browser ? browserID(window) : source === "query" ? query.get(key) : parts[Number(key) - 1];
      if ((value == null || value === "") && fallback) return fallback;
      if (value == null || value === "") {
        missing = true;
        return "";
      }
      if (source === "path") {
        try {
          value = decodeURIComponent(value);
        } catch {
          missing = true;
        }
      }
      return value;
    });
    if (!missing) kept.push(resolved);
  }
  return kept.join("/");
}

/**
 * What names read of the page's window.
 * @typedef {object} BrowserWindow
 * @property {{ pathname: string, search: string, protocol?: string }} [location]
 * @property {Storage} [localStorage]
 * @property {Crypto} [crypto]
 * @property {{ cookie: string }} [document]
 */

/**
 * This browser's id: 32 random hex digits, made once and kept in `localStorage`;
 * `null` without storage (a private mode that refuses it). The cookie only mirrors
 * it and is never read here: a cookie is shared with every port of the host, so
 * another site there could plant one, and then its list would be this browser's.
 * @param {BrowserWindow | undefined} window
 * @returns {string | null}
 */
function browserID(window) {
  try {
    const storage = window?.localStorage;
    if (!storage) return null;
    let id = storage.getItem(BROWSER_KEY);
    if (!id || !/^[0-9a-f]{32}$/.test(id)) {
      const bytes = new Uint8Array(16);
      if (!window?.crypto) return null;
      window.crypto.getRandomValues(bytes);
      id = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
      storage.setItem(BROWSER_KEY, id);
    }
    mirrorInCookie(window, id);
    return id;
  } catch {
    return null;
  }
}

/**
 * Sets the cookie that tells the server the browser's id, unless it holds it already.
 * @param {BrowserWindow | undefined} window
 * @param {string} id
 */
function mirrorInCookie(window, id) {
  const document = window?.document;
  if (!document || typeof document.cookie !== "string") return;
  if (document.cookie.split(/;\s*/).includes(`${BROWSER_COOKIE}=${id}`)) return;
  const secure = window?.location?.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${BROWSER_COOKIE}=${id}; Path=/; Max-Age=${BROWSER_COOKIE_AGE}; SameSite=Lax${secure}`;
}
