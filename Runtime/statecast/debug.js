/**
 * The debug panel, opened by adding `?debug` to a page's URL.
 *
 * It shows what the runtime and the server say to each other (actions sent, replies,
 * snapshots and patches with their revisions and sizes) and each topic's current state
 * as a collapsible tree, which is what one needs to see why a page shows what it shows.
 * Loaded on demand, so pages without `?debug` never download it. Everything is written
 * with `textContent`. Given the runtime's `applyPatch`, it also keeps each topic's
 * revisions for time travel (`debug-history.js`).
 * @module
 */

import { RevisionLog, revisionView } from "./debug-history.js";

const MAX_ENTRIES = 300;
const MAX_CHILDREN = 200;

/**
 * @param {import("./client.js").Client} client
 * @param {any} document
 * @param {{ requestFrame?: (fn: () => void) => void, backlog?: { direction: "in" | "out", message: any, bytes: number }[], applyPatch?: (document: unknown, ops: any[]) => { document: unknown }, restoreAction?: (topic: string, state: unknown) => unknown }} [options]
 *   `requestFrame` schedules a state-tree refresh; `backlog` holds messages traced before the panel loaded;
 *   `applyPatch` (the runtime's) turns on the revisions section; `restoreAction` gives the
 *   action the page declares to restore a topic to a revision's state (`restore-action.js`)
 * @returns {{ element: any, close: () => void }}
 */
export function installDebugPanel(client, document, options = {}) {
  const requestFrame = options.requestFrame ?? ((fn) => setTimeout(fn, 50));
  const make = (/** @type {string} */ tag, /** @type {string} */ className, /** @type {string} */ text = "") => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text) element.textContent = text;
    return element;
  };

  const panel = make("aside", "sc-debug");
  panel.setAttribute("aria-label", "Statecast debug panel");
  const header = make("header", "sc-debug-header");
  const title = make("strong", "", "statecast");
  const status = make("span", "sc-debug-status");
  const clear = make("button", "sc-debug-button", "Clear");
  clear.setAttribute("type", "button");
  const toggle = make("button", "sc-debug-button", "Hide");
  toggle.setAttribute("type", "button");
  header.append(title, status, clear, toggle);
  const body = make("div", "sc-debug-body");
  const logHeading = make("h2", "sc-debug-heading", "Messages");
  const log = make("ol", "sc-debug-log");
  const stateHeading = make("h2", "sc-debug-heading", "State");
  const states = make("div", "sc-debug-states");
  body.append(logHeading, log, stateHeading, states);
  const history = options.applyPatch
    ? new RevisionLog(options.applyPatch, (name) => {
        const topic = client.topics.get(name);
        return topic && { rev: topic.rev, state: topic.state };
      })
    : null;
  panel.append(header, body);
  document.body.appendChild(panel);

  /** Tree nodes the user opened, as topic name + pointer. */
  const opened = new Set();
  /** Topics whose state the user collapsed. */
  const collapsedTopics = new Set();
  let refreshQueued = false;

  const showStatus = () => {
    status.textContent = `${client.connectionState}${client.session ? ` · session ${client.session.slice(0, 8)}…` : ""}`;
  };

  /** @param {{ direction: "in" | "out", message: any, bytes: number }} entry */
  const addEntry = (entry) => {
    const { direction, message, bytes } = entry;
    history?.record(entry);
    const item = make("li", `sc-debug-entry sc-debug-${direction}`);
    if (message.op === "reply" && message.status === "error") item.classList.add("sc-debug-failed");
    const line = make("div", "sc-debug-line");
    line.append(
      make("time", "sc-debug-time", clock()),
      make("span", "sc-debug-arrow", direction === "out" ? "→" : "←"),
      make("span", "sc-debug-op", message.op ?? "?"),
      make("span", "sc-debug-summary", summarize(message)),
      make("span", "sc-debug-size", formatBytes(bytes)),
    );
    const detail = make("pre", "sc-debug-json");
    detail.hidden = true;
    line.addEventListener("click", () => {
      if (detail.hidden && detail.textContent === "") detail.textContent = JSON.stringify(message, null, 2);
      detail.hidden = !detail.hidden;
    });
    item.append(line, detail);
    log.insertBefore(item, log.firstChild);
    while (log.children.length > MAX_ENTRIES) log.removeChild(log.lastChild);
    if (direction === "in" && (message.op === "snapshot" || message.op === "patch" || message.op === "hello" || message.op === "reply")) queueRefresh();
  };

  const queueRefresh = () => {
    if (refreshQueued) return;
    refreshQueued = true;
    requestFrame(() => {
      refreshQueued = false;
      renderStates();
      revisions?.refresh();
    });
  };

  const renderStates = () => {
    showStatus();
    states.textContent = "";
    if (client.topics.size === 0) {
      states.appendChild(make("p", "sc-debug-empty", "No topic joined."));
      return;
    }
    for (const topic of client.topics.values()) {
      const key = topic.name;
      const section = make("details", "sc-debug-topic");
      if (!collapsedTopics.has(key)) section.setAttribute("open", "");
      const summary = make("summary", "", `${topic.name} · ${topic.status}${topic.rev === undefined ? "" : ` · rev ${topic.rev}`}`);
      section.append(summary, tree(topic.state, key, ""));
      section.addEventListener("toggle", () => {
        if (section.hasAttribute("open")) collapsedTopics.delete(key);
        else collapsedTopics.add(key);
      });
      states.appendChild(section);
    }
  };

  /**
   * @param {unknown} value
   * @param {string} topic
   * @param {string} pointer
   * @returns {any}
   */
  const tree = (value, topic, pointer) => {
    if (value === null || typeof value !== "object") return make("code", `sc-debug-value sc-debug-${kindOf(value)}`, value === undefined ? "(no state yet)" : JSON.stringify(value));
    const list = make("ul", "sc-debug-tree");
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    for (const key of keys.slice(0, MAX_CHILDREN)) {
      const child = /** @type {any} */ (value)[key];
      const childPointer = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const item = make("li", "");
      if (child !== null && typeof child === "object") {
        const node = make("details", "");
        const size = Array.isArray(child) ? `[${child.length}]` : `{${Object.keys(child).length}}`;
        node.append(make("summary", "", `${key}: ${size}`));
        const id = `${topic}${childPointer}`;
        if (opened.has(id)) {
          node.setAttribute("open", "");
          node.appendChild(tree(child, topic, childPointer));
        }
        node.addEventListener("toggle", () => {
          if (node.hasAttribute("open")) {
            opened.add(id);
            if (node.children.length === 1) node.appendChild(tree(child, topic, childPointer));
          } else {
            opened.delete(id);
          }
        });
        item.appendChild(node);
      } else {
        item.append(make("span", "sc-debug-key", `${key}: `), make("code", `sc-debug-value sc-debug-${kindOf(child)}`, JSON.stringify(child)));
      }
      list.appendChild(item);
    }
    if (keys.length > MAX_CHILDREN) list.appendChild(make("li", "sc-debug-more", `… ${keys.length - MAX_CHILDREN} more`));
    return list;
  };

  clear.addEventListener("click", () => {
    log.textContent = "";
  });
  toggle.addEventListener("click", () => {
    const collapsed = panel.classList.toggle("sc-debug-collapsed");
    toggle.textContent = collapsed ? "Show" : "Hide";
  });

  /** Sends the page's restore action for a revision; resolves with what happened, in words. */
  const restore = async (/** @type {string} */ name, /** @type {unknown} */ state) => {
    const action = options.restoreAction?.(name, state);
    const topic = client.topics.get(name);
    if (action === undefined || !topic) return "this page declares no way to restore it (data-sc-restore)";
    try {
      await topic.send(action);
      return "restored";
    } catch (/** @type {any} */ error) {
      return `refused: ${error?.message ?? error}`;
    }
  };
  const revisions = history ? revisionView(document, history, tree, restore) : null;
  if (revisions) body.append(make("h2", "sc-debug-heading", "Revisions"), revisions.element);

  for (const entry of options.backlog ?? []) addEntry(entry);
  client.tracing = true;
  const stopTrace = client.on("trace", addEntry);
  const stopState = client.on("connectionstatechange", showStatus);
  renderStates();

  return {
    element: panel,
    close() {
      stopTrace();
      stopState();
      client.tracing = false;
      panel.remove();
    },
  };
}

/**
 * One line about a message: its topic, revision, ref, status or action.
 * @param {any} message
 * @returns {string}
 */
export function summarize(message) {
  const parts = [];
  if (message.topic !== undefined) parts.push(String(message.topic));
  if (message.rev !== undefined) parts.push(`rev ${message.rev}`);
  if (message.ref !== undefined && message.ref !== null) parts.push(`#${message.ref}`);
  switch (message.op) {
    case "action":
      parts.push(truncate(JSON.stringify(message.action)));
      break;
    case "patch":
      parts.push(`${Array.isArray(message.ops) ? message.ops.length : 0} ops`);
      break;
    case "reply":
      parts.push(message.status === "error" ? `${message.error?.code}: ${message.error?.message}` : String(message.status));
      if (message.resumed !== undefined) parts.push(message.resumed ? "resumed" : "not resumed");
      break;
    case "closed":
      parts.push(String(message.reason));
      break;
    case "hello":
      if (message.resume) parts.push(`resume ${truncate(JSON.stringify(message.resume))}`);
      break;
  }
  return parts.join(" · ");
}

/** @param {string} text */
function truncate(text) {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** @param {number} bytes */
export function formatBytes(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** @param {unknown} value */
function kindOf(value) {
  return value === null ? "null" : typeof value;
}

function clock() {
  const now = new Date();
  const pad = (/** @type {number} */ n, width = 2) => String(n).padStart(width, "0");
  return `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${pad(now.getMilliseconds(), 3)}`;
}
