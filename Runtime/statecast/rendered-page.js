/**
 * The session a server-rendered page carries: the server rendered the page's topics
 * with their state and opened the tab's session for them, and the page holds what the
 * runtime needs to go on from there, in
 * `<script type="application/json" id="statecast-page">`:
 *
 *     {"session":"…","topics":{"counter":{"rev":4,"state":{…},"params":{…}}}}
 *
 * The runtime takes each topic's state and revision as its mirror and resumes the
 * session with `hello` on its socket, so the server sends only the patches after the
 * rendered revisions (a fresh snapshot only if the session expired meanwhile).
 * @module
 */

/**
 * @typedef {object} RenderedTopic
 * @property {number} rev the revision the page was rendered at
 * @property {unknown} state the topic's view state at that revision
 * @property {Record<string, unknown>} [params] the params the server joined it with
 */

/**
 * @typedef {object} RenderedPage
 * @property {string} session the session the page's request opened
 * @property {Map<string, RenderedTopic>} topics
 */

/** The id of the element holding the rendered session. */
export const RENDERED_PAGE_ID = "statecast-page";

/**
 * Reads the rendered session of a document, if it has one that can be used.
 * @param {any} document
 * @returns {RenderedPage | null}
 */
export function readRenderedPage(document) {
  const element = document?.getElementById?.(RENDERED_PAGE_ID);
  if (!element) return null;
  return parseRenderedPage(element.textContent ?? "");
}

/**
 * @param {string} text the element's JSON
 * @returns {RenderedPage | null}
 */
export function parseRenderedPage(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    console.warn("statecast: the page's rendered session is not JSON; joining afresh");
    return null;
  }
  if (!data || typeof data.session !== "string" || data.session === "" || !data.topics || typeof data.topics !== "object") return null;
  /** @type {Map<string, RenderedTopic>} */
  const topics = new Map();
  for (const [name, topic] of Object.entries(data.topics)) {
    if (!topic || typeof topic !== "object" || !Number.isSafeInteger(topic.rev)) continue;
    const params = topic.params && typeof topic.params === "object" && !Array.isArray(topic.params) ? topic.params : undefined;
    topics.set(name, { rev: topic.rev, state: topic.state, params });
  }
  return { session: data.session, topics };
}
