/**
 * Time travel in the debug panel (`?debug`): every revision of each topic this tab
 * received, with the action that caused it and its change (the patch), the state at
 * any of them, and what differs between two.
 *
 * The revisions are the view's, as the server sent them to this tab, from the page's
 * first message on (the runtime keeps a backlog until the panel has loaded). A patch is
 * put down to this tab's oldest action on the topic still awaiting its reply: the server
 * sends the patch an action caused before the action's reply. A patch that arrives with
 * no action of this tab in flight came from elsewhere (another member, an effect, a
 * timer) and says so. Loaded with the panel only; at most {@link MAX_REVISIONS} per
 * topic are kept, the oldest dropped first.
 *
 * The same record holds the topic's session (the view its first action met, then each
 * accepted action of this tab with the view after it; what reached the topic from
 * elsewhere between two actions is in the next view, not replayed), exported as a recording or a Swift Testing file that
 * replays it (`debug-export.js`).
 * @module
 */

import { swiftTestingFile } from "./debug-export.js";

/** The most revisions kept per topic. */
export const MAX_REVISIONS = 500;

/**
 * @typedef {object} Revision
 * @property {number} rev
 * @property {"snapshot" | "first paint" | "action" | "server"} cause what produced it ("first
 *   paint": the state the page had when the log first heard of the topic, as the server
 *   rendered it into the page, whose socket then sent patches only)
 * @property {unknown} action the tab's action it is put down to (`cause` "action")
 * @property {any[] | null} ops the patch from the revision before (null for a snapshot)
 * @property {unknown} state the view at this revision
 */

/** Each topic's revisions, built from the messages the client traces. */
export class RevisionLog {
  /** @type {Map<string, Revision[]>} */
  #topics = new Map();
  /** @type {Map<unknown, { topic: string, action: unknown }>} actions awaiting their reply, by ref */
  #inFlight = new Map();
  /** @type {Map<string, import("./debug-export.js").Recording>} each topic's session, for export */
  #sessions = new Map();
  /** @type {Set<string>} topics this tab has sent an action to: their session has begun */
  #acted = new Set();
  /** @type {(document: unknown, ops: any[]) => { document: unknown }} */
  #applyPatch;
  /** @type {((topic: string) => { rev: number | undefined, state: unknown } | undefined) | undefined} */
  #baseline;

  /**
   * @param {(document: unknown, ops: any[]) => { document: unknown }} applyPatch the runtime's RFC 6902 patch
   * @param {(topic: string) => { rev: number | undefined, state: unknown } | undefined} [baseline] the
   *   topic's mirror as it is now, for a topic whose state came with the page (no snapshot)
   */
  constructor(applyPatch, baseline) {
    this.#applyPatch = applyPatch;
    this.#baseline = baseline;
  }

  /**
   * One message the client sent or received, as its `trace` event gives it.
   * @param {{ direction: "in" | "out", message: any }} entry
   */
  record({ direction, message }) {
    if (message === null || typeof message !== "object") return;
    if (direction === "out") {
      if (message.op === "action") {
        this.#inFlight.set(message.ref, { topic: message.topic, action: message.action });
        this.#acted.add(message.topic);
      }
      return;
    }
    if (message.op === "reply") {
      const sent = this.#inFlight.get(message.ref);
      this.#inFlight.delete(message.ref);
      const session = sent && this.#sessions.get(sent.topic);
      const last = sent && this.#topics.get(sent.topic)?.at(-1);
      if (session && last && message.status === "ok") {
        session.steps.push({ action: JSON.stringify(sent.action), view: viewText(last.state) });
        if (session.steps.length > MAX_REVISIONS) session.steps.splice(0, session.steps.length - MAX_REVISIONS);
      }
    } else if (message.op === "snapshot" && typeof message.rev === "number") {
      this.#push(message.topic, { rev: message.rev, cause: "snapshot", action: null, ops: null, state: message.state });
      if (!this.#sessions.has(message.topic)) {
        this.#sessions.set(message.topic, { topic: message.topic, initialView: viewText(message.state), steps: [] });
      }
    } else if (message.op === "patch" && Array.isArray(message.ops)) {
      if (!this.#topics.has(message.topic)) this.#seed(message.topic);
      const last = this.#topics.get(message.topic)?.at(-1);
      if (!last || message.rev !== last.rev + 1) return;
      let state;
      try {
        state = this.#applyPatch(last.state, message.ops).document;
      } catch {
        return;
      }
      const pending = [...this.#inFlight.values()].find((entry) => entry.topic === message.topic);
      const cause = pending ? "action" : "server";
      this.#push(message.topic, { rev: message.rev, cause, action: pending?.action ?? null, ops: message.ops, state });
    }
  }

  /** @returns {string[]} the topics with revisions, in the order they first had one */
  topics() {
    return [...this.#topics.keys()];
  }

  /**
   * @param {string} topic
   * @returns {Revision[]} oldest first
   */
  revisions(topic) {
    return this.#topics.get(topic) ?? [];
  }

  /**
   * The topic's session since its first snapshot: the view it began with, and each
   * action of this tab the server accepted with the view once it was applied (the
   * newest revision when its reply came).
   * @param {string} topic
   * @returns {import("./debug-export.js").Recording | undefined}
   */
  recording(topic) {
    const session = this.#sessions.get(topic);
    return session && { ...session, steps: [...session.steps] };
  }

  /**
   * A patch for a topic with no revision yet: its state came with the page. The mirror
   * as it is now is where its history starts (messages are traced before they are
   * applied, so a live patch follows it; the backlog's patches are already in it).
   * @param {string} topic
   */
  #seed(topic) {
    const base = this.#baseline?.(topic);
    if (!base || typeof base.rev !== "number" || base.state === undefined) return;
    this.#push(topic, { rev: base.rev, cause: "first paint", action: null, ops: null, state: base.state });
    this.#sessions.set(topic, { topic, initialView: viewText(base.state), steps: [] });
  }

  /**
   * @param {string} topic
   * @param {Revision} revision
   */
  #push(topic, revision) {
    const list = this.#topics.get(topic) ?? [];
    list.push(revision);
    if (list.length > MAX_REVISIONS) list.splice(0, list.length - MAX_REVISIONS);
    this.#topics.set(topic, list);
    // Until the tab's first action, what the server changed (an effect, another member)
    // is where the session starts: a replay begins from the state that action met.
    const session = this.#sessions.get(topic);
    if (session && !this.#acted.has(topic)) session.initialView = viewText(revision.state);
  }
}

/**
 * A view as the recording keeps it: JSON text, without the `presence` a server adds to
 * a shared topic (the feature's view does not have it).
 * @param {unknown} state
 */
function viewText(state) {
  if (state === null || typeof state !== "object" || Array.isArray(state) || !Object.hasOwn(state, "presence")) return JSON.stringify(state);
  const { presence: _presence, ...view } = /** @type {Record<string, unknown>} */ (state);
  return JSON.stringify(view);
}

/**
 * What differs between two states: one entry per changed leaf (or per value that is
 * only on one side), as a JSON Pointer with the value before and after (`undefined`
 * when absent).
 * @param {unknown} before
 * @param {unknown} after
 * @param {string} [pointer]
 * @returns {{ pointer: string, before: unknown, after: unknown }[]}
 */
export function compareStates(before, after, pointer = "") {
  if (before === after) return [];
  const bothObjects =
    before !== null && after !== null && typeof before === "object" && typeof after === "object" && Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ pointer, before, after }];
  const a = /** @type {Record<string, unknown>} */ (before);
  const b = /** @type {Record<string, unknown>} */ (after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.flatMap((key) => {
    const child = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!Object.hasOwn(a, key)) return [{ pointer: child, before: undefined, after: b[key] }];
    if (!Object.hasOwn(b, key)) return [{ pointer: child, before: a[key], after: undefined }];
    return compareStates(a[key], b[key], child);
  });
}

/**
 * The panel's "Revisions" section for one log: a topic picker, a scrubber with step
 * buttons, the selected revision's action, patch and state, and its differences from a
 * second revision picked to compare with.
 * @param {any} document
 * @param {RevisionLog} log
 * @param {(value: unknown, topic: string, pointer: string) => any} tree draws a state as the panel's tree
 * @param {(topic: string, state: unknown) => Promise<string>} [restore] sends the page's action
 *   that restores the topic to a revision's state; resolves with the outcome, in words
 * @returns {{ element: any, refresh: () => void }}
 */
export function revisionView(document, log, tree, restore) {
  const make = (/** @type {string} */ tag, /** @type {string} */ className, /** @type {string} */ text = "") => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text) element.textContent = text;
    return element;
  };
  const labelled = (/** @type {any} */ element, /** @type {string} */ label) => {
    element.setAttribute("aria-label", label);
    return element;
  };
  const section = make("section", "sc-debug-revisions");
  const topicPicker = labelled(make("select", "sc-debug-topic-picker"), "Topic");
  const back = labelled(make("button", "sc-debug-button", "◀"), "Previous revision");
  const scrubber = labelled(make("input", "sc-debug-scrubber"), "Revision");
  scrubber.setAttribute("type", "range");
  scrubber.setAttribute("min", "0");
  const forward = labelled(make("button", "sc-debug-button", "▶"), "Next revision");
  const compareWith = labelled(make("select", "sc-debug-compare"), "Compare with revision");
  for (const button of [back, forward]) button.setAttribute("type", "button");
  const controls = make("div", "sc-debug-controls");
  controls.append(topicPicker, back, scrubber, forward);
  const caption = make("p", "sc-debug-revision");
  const change = make("pre", "sc-debug-json sc-debug-change");
  const state = make("div", "sc-debug-revision-state");
  const restoreButton = make("button", "sc-debug-button", "Restore this revision");
  restoreButton.setAttribute("type", "button");
  const restoreOutcome = make("span", "sc-debug-restore-outcome");
  restoreOutcome.setAttribute("role", "status");
  const restoreLine = make("div", "sc-debug-controls");
  restoreLine.append(restoreButton, restoreOutcome);
  restoreLine.hidden = !restore;
  const compareLine = make("div", "sc-debug-controls");
  compareLine.append(make("span", "", "Compare with "), compareWith);
  const differences = make("ul", "sc-debug-differences");
  const exporter = exportControls(document, make, labelled, () => log.recording(topic()));
  section.append(controls, caption, change, state, restoreLine, compareLine, differences, exporter);

  /** Where the scrubber is: `null` follows the newest revision. */
  let selected = /** @type {number | null} */ (null);
  let compared = /** @type {number | null} */ (null);

  const topic = () => topicPicker.value || log.topics()[0] || "";

  const render = () => {
    const names = log.topics();
    if ([...topicPicker.children].map((o) => o.value).join("\n") !== names.join("\n")) {
      const current = topic();
      topicPicker.textContent = "";
      for (const name of names) topicPicker.appendChild(Object.assign(make("option", "", name), { value: name }));
      topicPicker.value = current;
    }
    const revisions = log.revisions(topic());
    const last = revisions.length - 1;
    const index = selected === null ? last : Math.min(selected, last);
    scrubber.setAttribute("max", String(Math.max(last, 0)));
    scrubber.value = String(Math.max(index, 0));
    back.disabled = index <= 0;
    forward.disabled = index >= last;
    const revision = revisions[index];
    if (!revision) {
      caption.textContent = "No revision yet.";
      change.textContent = "";
      state.textContent = "";
      return;
    }
    const cause =
      revision.cause === "snapshot" || revision.cause === "first paint"
        ? revision.cause
        : revision.cause === "action"
          ? `action ${JSON.stringify(revision.action)}`
          : "from the server (another member, an effect)";
    caption.textContent = `rev ${revision.rev} (${index + 1} of ${revisions.length}) · ${cause}`;
    change.textContent = revision.ops ? JSON.stringify(revision.ops, null, 1) : "(whole state)";
    state.textContent = "";
    state.appendChild(tree(revision.state, `${topic()}@${revision.rev}`, ""));

    const options = revisions.map((r) => String(r.rev)).join("\n");
    if ([...compareWith.children].map((o) => o.value).join("\n") !== options) {
      compareWith.textContent = "";
      for (const r of revisions) compareWith.appendChild(Object.assign(make("option", "", `rev ${r.rev}`), { value: String(r.rev) }));
    }
    const other = revisions.find((r) => r.rev === compared) ?? revisions[0];
    compareWith.value = String(other.rev);
    differences.textContent = "";
    const changes = compareStates(other.state, revision.state);
    if (changes.length === 0) differences.appendChild(make("li", "sc-debug-empty", `same as rev ${other.rev}`));
    for (const { pointer, before, after } of changes) {
      const show = (/** @type {unknown} */ value) => (value === undefined ? "(absent)" : JSON.stringify(value));
      differences.appendChild(make("li", "", `${pointer || "/"}: ${show(before)} → ${show(after)}`));
    }
  };

  const select = (/** @type {number} */ index) => {
    const last = log.revisions(topic()).length - 1;
    selected = index >= last ? null : Math.max(index, 0);
    render();
  };
  restoreButton.addEventListener("click", () => {
    const revision = log.revisions(topic())[Number(scrubber.value)];
    if (!revision || !restore) return;
    restoreOutcome.textContent = "…";
    restore(topic(), revision.state).then((outcome) => {
      restoreOutcome.textContent = `rev ${revision.rev}: ${outcome}`;
    });
  });
  back.addEventListener("click", () => select(Number(scrubber.value) - 1));
  forward.addEventListener("click", () => select(Number(scrubber.value) + 1));
  scrubber.addEventListener("input", () => select(Number(scrubber.value)));
  topicPicker.addEventListener("change", () => {
    selected = null;
    compared = null;
    render();
  });
  compareWith.addEventListener("change", () => {
    compared = Number(compareWith.value);
    render();
  });
  render();
  return { element: section, refresh: render };
}

/**
 * "Export session" (the recording, as JSON) and "Export as Swift test", with the Swift
 * names the test needs (the feature's type and module, the store's initial state and
 * reducer, the viewer it acts as), each a download.
 * @param {any} document
 * @param {(tag: string, className: string, text?: string) => any} make
 * @param {(element: any, label: string) => any} labelled
 * @param {() => import("./debug-export.js").Recording | undefined} recording
 */
function exportControls(document, make, labelled, recording) {
  const box = make("fieldset", "sc-debug-export");
  box.append(make("legend", "", "Replay as a test"));
  /** @type {Record<string, any>} */
  const fields = {};
  for (const [name, label, placeholder] of [
    ["feature", "Feature", "Counter"],
    ["module", "Module", "App"],
    ["initialState", "Initial state", "FEATURE.initialState"],
    ["reducer", "Reducer", "FEATURE.reducer(dependencies: FEATURE.Dependencies())"],
    ["viewer", "Viewer", 'Viewer(id: "ada", name: "Ada") (none: the same view for all)'],
  ]) {
    const input = labelled(make("input", "sc-debug-field"), label);
    input.setAttribute("placeholder", placeholder);
    fields[name] = input;
    const row = make("label", "sc-debug-controls");
    row.append(make("span", "", label), input);
    box.append(row);
  }
  const exportJSON = make("button", "sc-debug-button", "Export session");
  const exportSwift = make("button", "sc-debug-button", "Export as Swift test");
  for (const button of [exportJSON, exportSwift]) button.setAttribute("type", "button");
  box.append(exportJSON, exportSwift);

  const download = (/** @type {string} */ name, /** @type {string} */ text, /** @type {string} */ type) => {
    const link = make("a", "");
    const url = URL.createObjectURL(new Blob([text], { type }));
    link.setAttribute("href", url);
    link.setAttribute("download", name);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const current = () => {
    const session = recording();
    if (!session) throw new Error("no session recorded for this topic yet");
    return session;
  };
  const baseName = () => (recording()?.topic ?? "session").replace(/[^A-Za-z0-9]+/g, "-");
  exportJSON.addEventListener("click", () => download(`${baseName()}.session.json`, JSON.stringify(current(), null, 2), "application/json"));
  exportSwift.addEventListener("click", () => {
    const target = {
      feature: fields.feature.value.trim() || "Counter",
      module: fields.module.value.trim() || "App",
      initialState: fields.initialState.value.trim() || undefined,
      reducer: fields.reducer.value.trim() || undefined,
      viewer: fields.viewer.value.trim() || undefined,
    };
    download(`${baseName()}.replay.swift`, swiftTestingFile(current(), target), "text/x-swift");
  });
  return box;
}
