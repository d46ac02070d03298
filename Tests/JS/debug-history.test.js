// Time travel's record: each topic's revisions from the traced messages, each put down to
// the tab's action in flight or to the server, and the comparison of two states.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch } from "../../Runtime/statecast/patch.js";
import { MAX_REVISIONS, RevisionLog, compareStates } from "../../Runtime/statecast/debug-history.js";

const incoming = (message) => ({ direction: "in", message });
const outgoing = (message) => ({ direction: "out", message });
const count = (rev, value) => incoming({ op: "patch", topic: "counter", rev, ops: [{ op: "replace", path: "/count", value }] });

test("revisions carry their action, their patch and the state after them", () => {
  const log = new RevisionLog(applyPatch);
  log.record(incoming({ op: "snapshot", topic: "counter", rev: 3, state: { count: 0, label: "a" } }));
  log.record(outgoing({ op: "action", ref: 7, topic: "counter", action: { increment: {} } }));
  log.record(count(4, 1));
  log.record(incoming({ op: "reply", ref: 7, status: "ok" }));
  log.record(count(5, 2)); // no action in flight: from elsewhere
  log.record(count(7, 9)); // a gap: not recorded
  const revisions = log.revisions("counter");
  assert.deepEqual(
    revisions.map((r) => [r.rev, r.cause, r.action, r.state]),
    [
      [3, "snapshot", null, { count: 0, label: "a" }],
      [4, "action", { increment: {} }, { count: 1, label: "a" }],
      [5, "server", null, { count: 2, label: "a" }],
    ],
  );
  assert.deepEqual(revisions[1].ops, [{ op: "replace", path: "/count", value: 1 }]);
  assert.deepEqual(log.topics(), ["counter"]);
  assert.deepEqual(log.revisions("other"), []);
});

test("a topic keeps its last MAX_REVISIONS revisions", () => {
  const log = new RevisionLog(applyPatch);
  log.record(incoming({ op: "snapshot", topic: "counter", rev: 0, state: { count: 0 } }));
  for (let rev = 1; rev <= MAX_REVISIONS + 10; rev++) log.record(count(rev, rev));
  const revisions = log.revisions("counter");
  assert.equal(revisions.length, MAX_REVISIONS);
  assert.equal(revisions[0].rev, 11);
  assert.deepEqual(revisions.at(-1).state, { count: MAX_REVISIONS + 10 });
});

test("compareStates lists each changed leaf with its values before and after", () => {
  assert.deepEqual(compareStates({ a: 1, b: { c: [1, 2] }, d: "x" }, { a: 1, b: { c: [1, 3] }, e: null }), [
    { pointer: "/b/c/1", before: 2, after: 3 },
    { pointer: "/d", before: "x", after: undefined },
    { pointer: "/e", before: undefined, after: null },
  ]);
  assert.deepEqual(compareStates({ "a/b": 1 }, { "a/b": 2 }), [{ pointer: "/a~1b", before: 1, after: 2 }]);
  assert.deepEqual(compareStates([1], { 0: 1 }), [{ pointer: "", before: [1], after: { 0: 1 } }]);
  assert.deepEqual(compareStates({ a: [1] }, { a: [1] }), []);
});

test("the session records the first view and each accepted action with the view after it", () => {
  const log = new RevisionLog(applyPatch);
  log.record(incoming({ op: "snapshot", topic: "room/a", rev: 1, state: { count: 0, presence: [{ id: "v" }] } }));
  log.record(outgoing({ op: "action", ref: 1, topic: "room/a", action: { increment: {} } }));
  log.record(incoming({ op: "patch", topic: "room/a", rev: 2, ops: [{ op: "replace", path: "/count", value: 1 }] }));
  log.record(incoming({ op: "reply", ref: 1, status: "ok" }));
  log.record(outgoing({ op: "action", ref: 2, topic: "room/a", action: { nope: {} } }));
  log.record(incoming({ op: "reply", ref: 2, status: "error", error: { code: "bad_action" } }));
  log.record(outgoing({ op: "action", ref: 3, topic: "room/a", action: { noop: {} } }));
  log.record(incoming({ op: "reply", ref: 3, status: "ok" }));
  assert.deepEqual(log.recording("room/a"), {
    topic: "room/a",
    initialView: '{"count":0}',
    steps: [
      { action: '{"increment":{}}', view: '{"count":1}' },
      { action: '{"noop":{}}', view: '{"count":1}' },
    ],
  });
  assert.equal(log.recording("other"), undefined);
});

test("the Swift test the panel exports is the one StatecastTesting writes from the same recording", async () => {
  const { readFile } = await import("node:fs/promises");
  const { swiftTestingFile, rawLiteral } = await import("../../Runtime/statecast/debug-export.js");
  const fixtures = new URL("./fixtures/", import.meta.url);
  const recording = JSON.parse(await readFile(new URL("recorded-session.json", fixtures), "utf8"));
  const expected = await readFile(new URL("recorded-session.swift.txt", fixtures), "utf8");
  const target = { feature: "Counter", module: "StatecastExamples", initialState: "Counter.State(isLoadingFavorites: false)" };
  assert.equal(swiftTestingFile(recording, target), expected);
  const asViewer = await readFile(new URL("recorded-session-viewer.swift.txt", fixtures), "utf8");
  assert.equal(swiftTestingFile(recording, { ...target, viewer: 'Viewer(id: "ada", name: "Ada")' }), asViewer, "as a viewer: embed(_:from:), viewState(_:for:)");
  assert.equal(rawLiteral('a"#b'), '##"a"#b"##');
  assert.equal(rawLiteral("a\\#(b)"), '##"a\\#(b)"##');
});

test("a topic whose state came with the page starts from the mirror when its first patch comes", () => {
  const mirror = { counter: { rev: 7, state: { count: 3 } } };
  const log = new RevisionLog(applyPatch, (name) => mirror[name]);
  log.record(count(8, 4));
  log.record(incoming({ op: "patch", topic: "unknown", rev: 2, ops: [] }));
  assert.deepEqual(
    log.revisions("counter").map((r) => [r.rev, r.cause, r.state]),
    [
      [7, "first paint", { count: 3 }],
      [8, "server", { count: 4 }],
    ],
  );
  assert.deepEqual(log.topics(), ["counter"]);
  assert.equal(log.recording("counter").initialView, '{"count":4}', "no action yet: the latest view");
});

test("the session starts from the view the tab's first action met", () => {
  const log = new RevisionLog(applyPatch);
  log.record(incoming({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0, loading: true } }));
  log.record(incoming({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/loading", value: false }] }));
  log.record(outgoing({ op: "action", ref: 1, topic: "counter", action: { increment: {} } }));
  log.record(count(3, 1));
  log.record(incoming({ op: "reply", ref: 1, status: "ok" }));
  log.record(incoming({ op: "patch", topic: "counter", rev: 4, ops: [{ op: "replace", path: "/loading", value: true }] }));
  assert.deepEqual(log.recording("counter"), {
    topic: "counter",
    initialView: '{"count":0,"loading":false}',
    steps: [{ action: '{"increment":{}}', view: '{"count":1,"loading":false}' }],
  });
});
