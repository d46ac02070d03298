// Live navigation's topics on the client: a topic the next page joins as the current
// one did is kept without a frame; one the server joined again with the next page's
// params takes them, so the page's binding does not join it once more.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { Client } from "../../Runtime/statecast/client.js";
import { FakeNetwork } from "./support/fake-websocket.js";
import { ManualTimers, settle } from "./support/manual-timers.js";

let network;
let client;

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
  network = new FakeNetwork();
  const timers = new ManualTimers();
  client = new Client({ url: "ws://example.test/ws", WebSocket: network.WebSocket, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout });
});

/** Connects and joins `name` with `params`, answered with a snapshot at rev 4. */
async function joined(name, params) {
  client.start();
  network.socket.hello("s1");
  await settle();
  const topic = client.join(name, params);
  await settle();
  const join = network.socket.sentOps("join").findLast((m) => m.topic === name);
  network.socket.serverSend({ op: "snapshot", topic: name, rev: 4, state: { count: 2 } });
  network.socket.ok(join);
  await settle();
  return topic;
}

test("a topic both pages join with the same params is kept: no leave, no join", async () => {
  const old = await joined("counter");
  const sent = network.socket.sent.length;
  // The next page's data lists it at the revision the server rendered it at, with the
  // same params: the server kept it as it was, and the mirror is ahead of that already.
  network.socket.serverSend({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 3 }] });
  client.adoptNavigated(new Map([["counter", { rev: 4, state: { count: 2 } }]]));
  const next = client.join("counter");
  old.leave();
  await settle();
  assert.equal(next, old);
  assert.equal(next.status, "joined");
  assert.deepEqual(next.state, { count: 3 });
  assert.equal(next.rev, 5);
  assert.deepEqual(network.socket.sent.slice(sent), []);
  network.socket.serverSend({ op: "patch", topic: "counter", rev: 6, ops: [{ op: "replace", path: "/count", value: 4 }] });
  assert.deepEqual(next.state, { count: 4 });
});

test("a topic the server joined again with the next page's params is not joined once more", async () => {
  const old = await joined("music", { path: "/a" });
  const sent = network.socket.sent.length;
  // The navigate's join: its snapshot first, then the page listing the topic with its params.
  network.socket.serverSend({ op: "snapshot", topic: "music", rev: 5, state: { count: 7 } });
  client.adoptNavigated(new Map([["music", { rev: 5, state: { count: 7 }, params: { path: "/b" } }]]));
  const next = client.join("music", { path: "/b" });
  old.leave();
  await settle();
  assert.equal(next, old);
  assert.deepEqual(next.params, { path: "/b" });
  assert.deepEqual(next.state, { count: 7 });
  assert.deepEqual(network.socket.sent.slice(sent), []);
});
