// A topic's own mirror, driven through `receive` with a stub port in place of the
// client: revision checks, patches, the decision to resync, and what it asks of the port.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { Topic } from "../../Runtime/statecast/topic.js";

let calls;
let live;
let topic;

beforeEach((t) => {
  t.mock.method(console, "error", () => {});
  calls = [];
  live = true;
  /** @type {import("../../Runtime/statecast/topic.js").TopicPort} */
  const port = {
    live: () => live,
    send: (message) => {
      calls.push(["send", message]);
      return new Promise(() => {});
    },
    report: (error) => calls.push(["report", error.code]),
    rejoin: () => {
      calls.push(["rejoin"]);
      return Promise.resolve();
    },
    resync: (reason) => calls.push(["resync", reason]),
    release: (joinedHere) => calls.push(["release", joinedHere, topic.status]),
  };
  topic = new Topic("counter", undefined, port);
});

test("a snapshot replaces the mirror; patches advance it one revision at a time", () => {
  const seen = [];
  topic.subscribe((state, changed) => seen.push([state.count, changed]));
  topic.receive({ op: "snapshot", topic: "counter", rev: 4, state: { count: 0 } });
  topic.receive({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 1 }] });
  topic.receive({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 9 }] });
  assert.equal(topic.rev, 5);
  assert.deepEqual(seen, [[0, [""]], [1, ["/count"]]]);
  assert.deepEqual(calls, [], "nothing asked of the port");
});

test("a gap asks the port for one resync; patches wait for the fresh snapshot", () => {
  topic.receive({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  topic.receive({ op: "patch", topic: "counter", rev: 3, ops: [{ op: "replace", path: "/count", value: 3 }] });
  topic.receive({ op: "patch", topic: "counter", rev: 4, ops: [{ op: "replace", path: "/count", value: 4 }] });
  assert.deepEqual(calls, [["resync", "expected revision 2, got 3"]]);
  assert.equal(topic.state.count, 0);
  topic.receive({ op: "snapshot", topic: "counter", rev: 4, state: { count: 4 } });
  topic.receive({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 5 }] });
  assert.equal(topic.state.count, 5);
});

test("a patch that does not apply leaves the mirror as it was and resyncs", () => {
  topic.receive({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  topic.receive({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 1 }, { op: "remove", path: "/missing" }] });
  assert.deepEqual(topic.state, { count: 0 });
  assert.equal(topic.rev, 1);
  assert.equal(calls.length, 1);
  assert.match(calls[0][1], /^patch 2 does not apply: /);
});

test("closed ends the topic; nothing is received after it", () => {
  topic.receive({ op: "closed", topic: "counter", reason: "room deleted" });
  assert.equal(topic.status, "closed");
  assert.equal(topic.closedReason, "room deleted");
  topic.receive({ op: "snapshot", topic: "counter", rev: 1, state: { count: 1 } });
  assert.equal(topic.state, undefined);
});

test("actions wait until the topic is joined on a live socket, then go out through the port", () => {
  topic.send({ increment: {} });
  assert.deepEqual(calls, []);
  live = false;
  topic.markJoined();
  topic.flush();
  assert.deepEqual(calls, [], "not while the port is not live");
  live = true;
  topic.flush();
  const key = calls[0][1].key;
  assert.match(key, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(calls, [["send", { op: "action", topic: "counter", action: { increment: {} }, key }]]);
});

test("the last leave releases the topic through the port, once it is left", () => {
  topic.retain();
  topic.leave();
  assert.deepEqual(calls, []);
  topic.markJoined();
  topic.leave();
  assert.deepEqual(calls, [["release", true, "left"]]);
});
