/**
 * Topic names that take parts of the page's address, so that a page names its room
 * declaratively: `data-sc-topic="counter/{query.room}"` joins `counter/team` at
 * `?room=team`. `{query.NAME}` is a query parameter, `{path.N}` the Nth segment of the
 * path (from 1, percent-decoded), `{browser}` an id of this browser, made at random
 * once and kept in `localStorage` (a list of one's own that survives reloads).
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

/**
 * The topic a `data-sc-topic` value names in `window` (its `location`, and its
 * `localStorage` for `{browser}`).
 * @param {string} template
 * @param {{ location?: { pathname: string, search: string }, localStorage?: Storage, crypto?: Crypto } | undefined} window
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
 * This browser's id: 32 random hex digits, made once and kept in `localStorage`;
 * `null` without storage (a private mode that refuses it).
 * @param {{ localStorage?: Storage, crypto?: Crypto } | undefined} window
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
    return id;
  } catch {
    return null;
  }
}
