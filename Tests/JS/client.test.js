// The protocol client against a scripted server: joins, actions and replies, revision
// checking and resync, reconnect with back-off, resume.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { Client } from "../../Runtime/statecast/client.js";
import { StatecastError } from "../../Runtime/statecast/error.js";
import { FakeNetwork } from "./support/fake-websocket.js";
import { ManualTimers, settle } from "./support/manual-timers.js";

let network;
let timers;
let client;
let states;

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
  t.mock.method(console, "error", () => {});
  network = new FakeNetwork();
  timers = new ManualTimers();
  client = new Client({
    url: "ws://example.test/ws",
    WebSocket: network.WebSocket,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    random: () => 0.5,
  });
  states = [];
  client.on("connectionstatechange", ({ state }) => states.push(state));
});

/** Starts the client and completes a fresh handshake. */
async function connect(session = "s1") {
  client.start();
  network.socket.hello(session);
  await settle();
  return network.socket;
}

/** Joins `name` and answers with a snapshot and ok. */
async function joined(name = "counter", state = { count: 0 }, rev = 1) {
  const topic = client.join(name);
  await settle();
  const socket = network.socket;
  const join = socket.sentOps("join").findLast((m) => m.topic === name);
  socket.serverSend({ op: "snapshot", topic: name, rev, state });
  socket.ok(join);
  await settle();
  return topic;
}

test("opens /ws with the statecast.v1 subprotocol and becomes connected after hello", async () => {
  client.start();
  assert.equal(network.sockets.length, 1);
  assert.equal(network.socket.url, "ws://example.test/ws");
  assert.equal(network.socket.protocols, "statecast.v1");
  assert.equal(client.connectionState, "connecting");
  network.socket.hello("s1");
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "s1");
  assert.deepEqual(states, ["connecting", "connected"]);
  assert.deepEqual(network.socket.sent, [], "a fresh session sends nothing until a topic is joined");
});

test("join sends join, the snapshot sets the state, the reply settles ready", async () => {
  const counter = client.join("counter", { start: 5 });
  const seen = [];
  counter.subscribe((state, changed) => seen.push([state, changed]));
  const socket = await connect();
  const [join] = socket.sentOps("join");
  assert.deepEqual(join, { op: "join", ref: join.ref, topic: "counter", events: true, params: { start: 5 } });
  assert.ok(Number.isInteger(join.ref) && join.ref >= 0);
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 10, state: { count: 5 } });
  assert.deepEqual(counter.state, { count: 5 });
  assert.equal(counter.rev, 10);
  assert.equal(counter.status, "joining");
  socket.ok(join);
  assert.equal(await counter.ready, counter);
  assert.equal(counter.status, "joined");
  assert.deepEqual(seen, [[{ count: 5 }, [""]]]);
});

test("subscribe calls at once when a state is present, and unsubscribes", async () => {
  await connect();
  const counter = await joined("counter", { count: 2 });
  const seen = [];
  const stop = counter.subscribe((state) => seen.push(state.count));
  assert.deepEqual(seen, [2]);
  network.socket.serverSend({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 3 }] });
  stop();
  network.socket.serverSend({ op: "patch", topic: "counter", rev: 3, ops: [{ op: "replace", path: "/count", value: 4 }] });
  assert.deepEqual(seen, [2, 3]);
  assert.equal(counter.state.count, 4);
});

test("send resolves with the reply after the action's patch is applied", async () => {
  const socket = await connect();
  const counter = await joined();
  const sending = counter.send({ increment: {} });
  await settle();
  const action = socket.last;
  assert.match(action.key, /^[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(action, { op: "action", ref: action.ref, topic: "counter", action: { increment: {} }, key: action.key });
  socket.serverSend({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 1 }] });
  socket.ok(action);
  const reply = await sending;
  assert.equal(reply.status, "ok");
  assert.equal(counter.state.count, 1);
});

test("an error reply rejects with the server's code and is reported", async () => {
  const socket = await connect();
  const counter = await joined();
  const errors = [];
  client.on("error", (detail) => errors.push(detail));
  const sending = counter.send({ nope: {} });
  await settle();
  socket.fail(socket.last, "bad_action", "unknown case nope");
  await assert.rejects(sending, (error) => {
    assert.ok(error instanceof StatecastError);
    assert.equal(error.code, "bad_action");
    assert.equal(error.message, "unknown case nope");
    assert.equal(error.topic, "counter");
    assert.deepEqual(error.action, { nope: {} });
    return true;
  });
  assert.equal(errors.length, 1);
  assert.equal(errors[0].error.code, "bad_action");
});

test("refs are distinct and replies are matched by ref, in any order", async () => {
  const socket = await connect();
  const counter = await joined();
  const first = counter.send({ a: {} });
  const second = counter.send({ b: {} });
  await settle();
  const [a, b] = socket.sentOps("action");
  assert.notEqual(a.ref, b.ref);
  socket.ok(b, { which: "b" });
  socket.ok(a, { which: "a" });
  assert.equal((await first).which, "a");
  assert.equal((await second).which, "b");
});

test("patches advance one revision at a time; old ones are ignored", async () => {
  const socket = await connect();
  const counter = await joined("counter", { count: 0, log: [] }, 5);
  const changes = [];
  counter.subscribe((_, changed) => changes.push(changed));
  socket.serverSend({ op: "patch", topic: "counter", rev: 6, ops: [{ op: "add", path: "/log/-", value: "a" }] });
  socket.serverSend({ op: "patch", topic: "counter", rev: 6, ops: [{ op: "add", path: "/log/-", value: "dup" }] });
  socket.serverSend({ op: "patch", topic: "counter", rev: 4, ops: [{ op: "replace", path: "/count", value: 99 }] });
  assert.deepEqual(counter.state, { count: 0, log: ["a"] });
  assert.equal(counter.rev, 6);
  assert.deepEqual(changes, [[""], ["/log/0"]]);
});

test("a revision gap resyncs by re-joining; patches wait for the fresh snapshot", async () => {
  const socket = await connect();
  const counter = await joined("counter", { count: 0 }, 1);
  const resyncs = [];
  client.on("resync", (detail) => resyncs.push(detail.topic));
  socket.serverSend({ op: "patch", topic: "counter", rev: 3, ops: [{ op: "replace", path: "/count", value: 3 }] });
  assert.equal(counter.state.count, 0);
  const rejoin = socket.last;
  assert.equal(rejoin.op, "join");
  assert.equal(rejoin.topic, "counter");
  assert.deepEqual(resyncs, ["counter"]);
  socket.serverSend({ op: "patch", topic: "counter", rev: 4, ops: [{ op: "replace", path: "/count", value: 4 }] });
  assert.equal(counter.state.count, 0, "ignored while resyncing");
  assert.equal(socket.sentOps("join").length, 2, "one resync at a time");
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 4, state: { count: 4 } });
  socket.ok(rejoin);
  socket.serverSend({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 5 }] });
  assert.deepEqual(counter.state, { count: 5 });
});

test("a patch that does not apply resyncs and leaves the state as it was", async () => {
  const socket = await connect();
  const counter = await joined("counter", { count: 0 }, 1);
  socket.serverSend({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 1 }, { op: "remove", path: "/missing" }] });
  assert.deepEqual(counter.state, { count: 0 });
  assert.equal(counter.rev, 1);
  assert.equal(socket.last.op, "join");
});

test("an action whose socket dropped before its reply is sent again with the same key, in its place", async () => {
  const socket = await connect("s1");
  const counter = await joined("counter", { count: 0 }, 1);
  const first = counter.send({ increment: {} });
  const second = counter.send({ add: { amount: 2 } });
  await settle();
  const [sentFirst, sentSecond] = socket.sentOps("action");
  assert.notEqual(sentFirst.key, sentSecond.key);
  socket.serverClose(1006);
  const third = counter.send({ add: { amount: 3 } });
  assert.equal(client.connectionState, "disconnected");
  timers.runNext();
  const next = network.socket;
  assert.notEqual(next, socket);
  next.hello("s1");
  await settle();
  next.ok(next.sent[0], { session: "s1", resumed: true });
  await settle();
  const again = next.sentOps("action");
  assert.deepEqual(
    again.map((action) => [action.action, action.key]),
    [
      [{ increment: {} }, sentFirst.key],
      [{ add: { amount: 2 } }, sentSecond.key],
      [{ add: { amount: 3 } }, again[2].key],
    ],
  );
  for (const action of again) next.ok(action);
  assert.deepEqual((await Promise.all([first, second, third])).map((reply) => reply.status), ["ok", "ok", "ok"]);
});

test("an action answered unavailable is sent again with its key after a wait, then given up", async () => {
  const socket = await connect();
  const counter = await joined();
  const errors = [];
  client.on("error", (detail) => errors.push(detail));
  const sending = counter.send({ increment: {} }).then(
    () => assert.fail("should be given up"),
    (error) => error,
  );
  await settle();
  const keys = [];
  for (let attempt = 1; attempt <= 4; attempt++) {
    const action = socket.last;
    assert.equal(action.op, "action");
    keys.push(action.key);
    socket.fail(action, "unavailable", "the change could not be stored");
    await settle();
    if (attempt < 4) {
      assert.equal(socket.last, action, "waits before sending again");
      timers.runNext();
      await settle();
    }
  }
  assert.equal(new Set(keys).size, 1);
  assert.equal((await sending).code, "unavailable");
  assert.equal(errors.length, 1, "reported once, when given up");
});

test("actions sent while disconnected wait and go out once the topic is joined again", async () => {
  const socket = await connect("s1");
  const counter = await joined("counter", { count: 0 }, 1);
  socket.serverClose(1006);
  const sending = counter.send({ increment: {} });
  timers.runNext();
  const next = network.socket;
  next.hello("s2");
  await settle();
  const hello = next.sent[0];
  assert.equal(hello.op, "hello");
  next.ok(hello, { session: "s2", resumed: false });
  await settle();
  assert.equal(next.sentOps("action").length, 0, "not before the re-join is acknowledged");
  const join = next.sentOps("join")[0];
  next.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  next.ok(join);
  await settle();
  const [action] = next.sentOps("action");
  assert.deepEqual(action.action, { increment: {} });
  next.ok(action);
  await sending;
});

/** A client given a socket the page opened early, as `early.js` records it. */
function clientWithEarlySocket(early) {
  return new Client({
    url: "ws://example.test/ws",
    WebSocket: network.WebSocket,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    random: () => 0.5,
    early,
  });
}

test("an early socket that already opened and got the hello is taken over, not opened again", async () => {
  const socket = new network.WebSocket("ws://example.test/ws", "statecast.v1");
  const early = { socket, messages: [], opened: false, closed: false };
  socket.onopen = () => (early.opened = true);
  socket.onmessage = (event) => early.messages.push(event.data);
  socket.hello("s9");
  const client = clientWithEarlySocket(early);
  const topic = client.join("counter");
  client.start();
  await settle();
  assert.equal(network.sockets.length, 1, "no second socket");
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "s9");
  const join = socket.sentOps("join")[0];
  assert.equal(join?.topic, "counter", "the join goes out on the early socket");
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 4 } });
  socket.ok(join);
  await settle();
  assert.deepEqual(topic.state, { count: 4 });
});

test("an early socket still connecting is taken over and greeted later", async () => {
  const socket = new network.WebSocket("ws://example.test/ws", "statecast.v1");
  const client = clientWithEarlySocket({ socket, messages: [], opened: false, closed: false });
  client.start();
  assert.equal(client.connectionState, "connecting");
  socket.hello("s2");
  await settle();
  assert.equal(network.sockets.length, 1);
  assert.equal(client.connectionState, "connected");
});

test("an early socket that closed before the runtime loaded is replaced by a new one", async () => {
  const socket = new network.WebSocket("ws://example.test/ws", "statecast.v1");
  const client = clientWithEarlySocket({ socket, messages: [], opened: true, closed: true });
  client.start();
  assert.equal(network.sockets.length, 2, "a fresh socket");
  network.socket.hello("s3");
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "s3");
});

/**
 * An early socket as `early.js` leaves it once open: it sent a join for each of `names`
 * (refs from 1) and kept what the server sent back.
 */
function earlySocketThatJoined(names) {
  const socket = new network.WebSocket("ws://example.test/ws", "statecast.v1");
  const early = { socket, messages: [], joins: [], opened: false, closed: false };
  socket.onopen = () => (early.opened = true);
  socket.onmessage = (event) => early.messages.push(event.data);
  socket.open();
  for (const name of names) {
    early.joins.push({ ref: early.joins.length + 1, topic: name });
    socket.send(JSON.stringify({ op: "join", ref: early.joins.length, topic: name }));
  }
  return early;
}

test("joins the early socket sent are adopted: the page gets their state at once and nothing is joined twice", async () => {
  const early = earlySocketThatJoined(["counter"]);
  early.socket.hello("s5");
  early.socket.serverSend({ op: "snapshot", topic: "counter", rev: 3, state: { count: 7 } });
  early.socket.ok({ ref: 1 });
  const client = clientWithEarlySocket(early);
  client.start();
  const topic = client.join("counter");
  assert.deepEqual(topic.state, { count: 7 }, "the snapshot that came before the runtime is the topic's state");
  await settle();
  assert.equal(topic.status, "joined");
  assert.equal(early.socket.sentOps("join").length, 1, "the early join is not sent again");
  const sending = topic.send({ increment: {} });
  await settle();
  const [action] = early.socket.sentOps("action");
  assert.equal(action.ref, 2, "refs continue after the early joins");
  early.socket.ok(action);
  await sending;
});

test("an early join answered after the runtime took the socket over settles its topic", async () => {
  const early = earlySocketThatJoined(["counter", "todos"]);
  const client = clientWithEarlySocket(early);
  client.start();
  const todos = client.join("todos");
  const counter = client.join("counter");
  early.socket.hello("s6");
  early.socket.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 1 } });
  early.socket.ok({ ref: 1 });
  early.socket.fail({ ref: 2 }, "unknown_topic");
  await settle();
  assert.deepEqual(counter.state, { count: 1 });
  assert.equal(counter.status, "joined");
  assert.equal(todos.status, "failed");
  assert.equal(early.socket.sentOps("join").length, 2);
});

test("an early join refused before the page claims it fails the page's topic, reported once", async () => {
  const early = earlySocketThatJoined(["board/secret"]);
  early.socket.hello("s9");
  early.socket.fail({ ref: 1 }, "forbidden");
  const client = clientWithEarlySocket(early);
  const errors = [];
  client.on("error", ({ error }) => errors.push(error.code));
  client.start();
  await settle();
  assert.deepEqual(errors, [], "not reported while nothing on the page asked for it");
  const topic = client.join("board/secret");
  assert.equal(topic.status, "failed");
  assert.deepEqual(errors, ["forbidden"]);
  await assert.rejects(topic.ready, { code: "forbidden" });
  assert.equal(client.join("board/secret"), topic, "a second holder (a page's module, then its binding) shares it");
  client.leaveUnclaimed();
  await settle();
  assert.deepEqual(errors, ["forbidden"], "reported once");
  assert.equal(early.socket.sentOps("join").length, 1, "not joined again");
  assert.equal(client.topics.has("board/secret"), false, "forgotten once the page is bound");
});

test("a page that joined before the runtime started keeps its join; the early join's ref stays taken", async () => {
  const early = earlySocketThatJoined(["counter", "account"]);
  early.socket.hello("s10");
  const client = clientWithEarlySocket(early);
  const account = client.join("account");
  client.start();
  await settle();
  const joins = early.socket.sentOps("join");
  assert.deepEqual(joins.map((m) => [m.topic, m.ref]), [["counter", 1], ["account", 2], ["account", 3]]);
  early.socket.ok({ ref: 2 });
  early.socket.serverSend({ op: "snapshot", topic: "account", rev: 1, state: { name: "Ada" } });
  early.socket.ok({ ref: 3 });
  await settle();
  assert.equal(account.status, "joined");
  assert.deepEqual(account.state, { name: "Ada" });
});

test("a topic claimed with params while the socket is down is left before it is joined again on the next one", async () => {
  const early = earlySocketThatJoined(["report"]);
  early.socket.hello("s11");
  early.socket.ok({ ref: 1 });
  const client = clientWithEarlySocket(early);
  client.start();
  await settle();
  early.socket.serverClose(1006);
  const report = client.join("report", { year: 2026 });
  timers.runNext();
  network.socket.open();
  await settle();
  const flight = network.socket.sent.map((m) => [m.op, m.topic, m.params]);
  assert.deepEqual(flight.slice(-2), [["leave", "report", undefined], ["join", "report", { year: 2026 }]]);
  assert.equal(report.status, "joining");
});

test("early joins nothing claims are left; one claimed with params is joined again with them", async () => {
  const early = earlySocketThatJoined(["counter", "stale", "report"]);
  early.socket.hello("s7");
  const client = clientWithEarlySocket(early);
  client.start();
  const counter = client.join("counter");
  const report = client.join("report", { year: 2026 });
  client.leaveUnclaimed();
  await settle();
  for (const ref of [1, 2, 3]) early.socket.ok({ ref });
  await settle();
  // "report" is left and joined again with its params: a second join would keep the
  // store the early join opened without them.
  const sent = early.socket.sent.slice(3);
  assert.deepEqual(
    sent.filter((m) => m.op === "leave" || m.op === "join").map((m) => [m.op, m.topic, m.params]),
    [["leave", "report", undefined], ["join", "report", { year: 2026 }], ["leave", "stale", undefined]],
  );
  assert.equal(counter.status, "joined");
  assert.deepEqual([...client.topics.keys()].sort(), ["counter", "report"]);
  assert.equal(report.params.year, 2026);
});

test("an early socket that closed after joining is replaced, and its topics are joined on the new one", async () => {
  const early = earlySocketThatJoined(["counter"]);
  early.closed = true;
  const client = clientWithEarlySocket(early);
  client.start();
  const topic = client.join("counter");
  network.socket.hello("s8");
  await settle();
  assert.equal(network.sockets.length, 2);
  assert.equal(network.socket.sentOps("join")[0]?.topic, "counter");
  assert.equal(network.socket.sentOps("join")[0]?.ref, 1);
  assert.equal(topic.status, "joining");
});

test("reconnects with growing, capped back-off and resets it after a greeting", async () => {
  client.start();
  const delays = [];
  for (let i = 0; i < 8; i++) {
    network.socket.serverClose(1006);
    delays.push(...timers.pendingDelays);
    timers.runNext();
  }
  assert.deepEqual(delays, [187.5, 375, 750, 1500, 3000, 3750, 3750, 3750]);
  assert.equal(network.sockets.length, 9);
  network.socket.hello("s1");
  await settle();
  network.socket.serverClose(1006);
  assert.deepEqual(timers.pendingDelays, [187.5]);
  assert.deepEqual(states.slice(0, 3), ["connecting", "disconnected", "connecting"]);
});

test("retryNow skips the back-off wait", async () => {
  client.start();
  network.socket.serverClose(1006);
  assert.equal(network.sockets.length, 1);
  client.retryNow();
  assert.equal(network.sockets.length, 2);
  assert.deepEqual(timers.pendingDelays, [8000], "only the new socket's handshake timer is left");
});

test("a socket that never says hello is dropped and retried", async () => {
  client.start();
  const first = network.socket;
  timers.advance(8000);
  assert.deepEqual(first.closedByClient?.code, 4001);
  assert.equal(client.connectionState, "disconnected");
  timers.runNext();
  assert.equal(network.sockets.length, 2);
});

test("resume: hello with the old session and revisions; resumed topics are not re-joined", async () => {
  const socket = await connect("old");
  const counter = await joined("counter", { count: 1 }, 7);
  const todos = await joined("todos/42", { items: [] }, 3);
  const pending = client.join("late");
  await settle();
  socket.serverClose(1006);
  timers.runNext();
  const next = network.socket;
  next.hello("fresh");
  await settle();
  const [hello] = next.sent;
  assert.deepEqual(hello, { op: "hello", ref: hello.ref, session: "old", resume: { counter: 7, "todos/42": 3 } });
  assert.equal(client.connectionState, "connecting", "not connected until the resume is answered");
  next.serverSend({ op: "patch", topic: "counter", rev: 8, ops: [{ op: "replace", path: "/count", value: 2 }] });
  next.serverSend({ op: "snapshot", topic: "todos/42", rev: 9, state: { items: ["x"] } });
  next.ok(hello, { session: "old", resumed: true });
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "old");
  assert.deepEqual(counter.state, { count: 2 });
  assert.deepEqual(todos.state, { items: ["x"] });
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["late"], "only the never-joined topic is joined");
  const sending = counter.send({ increment: {} });
  await settle();
  assert.equal(next.last.op, "action", "resumed topics accept actions at once");
  next.ok(next.last);
  await sending;
  assert.equal(pending.status, "joining");
});

test("resume refused: keeps the fresh session and re-joins every topic", async () => {
  const socket = await connect("old");
  await joined("counter", { count: 1 }, 7);
  await joined("todos/42", { items: [] }, 3);
  socket.serverClose(1006);
  timers.runNext();
  const next = network.socket;
  next.hello("fresh");
  await settle();
  next.ok(next.sent[0], { session: "fresh", resumed: false });
  await settle();
  assert.equal(client.session, "fresh");
  assert.deepEqual(next.sentOps("join").map((m) => m.topic).sort(), ["counter", "todos/42"]);
});

test("a resume answered with an error falls back to re-joining", async () => {
  const socket = await connect("old");
  await joined("counter", { count: 1 }, 7);
  socket.serverClose(1006);
  timers.runNext();
  const next = network.socket;
  next.hello("fresh");
  await settle();
  next.fail(next.sent[0], "bad_message");
  await settle();
  assert.equal(client.session, "fresh");
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["counter"]);
});

test("pipelined: every join goes out when the socket opens, before the server's hello", async () => {
  const counter = client.join("counter", { start: 5 });
  const todos = client.join("todos/42");
  client.start();
  const socket = network.socket;
  assert.deepEqual(socket.sent, [], "nothing is sent before the socket is open");
  socket.open();
  assert.deepEqual(
    socket.sent.map(({ op, topic, params }) => ({ op, topic, params })),
    [
      { op: "join", topic: "counter", params: { start: 5 } },
      { op: "join", topic: "todos/42", params: undefined },
    ],
    "both joins in one flight, without waiting for the hello or for each other's reply",
  );
  assert.equal(client.connectionState, "connecting", "connected only once greeted");
  const [joinCounter, joinTodos] = socket.sentOps("join");
  socket.hello("s1");
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 5 } });
  socket.ok(joinCounter);
  socket.serverSend({ op: "snapshot", topic: "todos/42", rev: 4, state: { items: [] } });
  socket.ok(joinTodos);
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "s1");
  assert.equal(counter.status, "joined");
  assert.equal(todos.status, "joined");
  assert.deepEqual(counter.state, { count: 5 });
  assert.equal(socket.sentOps("join").length, 2, "no join is sent twice");
});

test("pipelined: a topic joined after the socket opened goes out at once, before the hello", async () => {
  client.start();
  const socket = network.socket;
  socket.open();
  const counter = client.join("counter");
  assert.equal(socket.last.op, "join");
  assert.equal(socket.last.topic, "counter");
  const sending = counter.send({ increment: {} });
  await settle();
  assert.equal(socket.sentOps("action").length, 0, "an action waits for its topic's join to be answered");
  socket.hello("s1");
  await settle();
  assert.equal(socket.sentOps("action").length, 0, "the hello alone does not make the topic joined");
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  socket.ok(socket.sentOps("join")[0]);
  await settle();
  const [action] = socket.sentOps("action");
  assert.deepEqual(action.action, { increment: {} });
  socket.ok(action);
  assert.equal((await sending).status, "ok");
});

test("pipelined: the resume and the joins of new topics leave in one flight when the socket opens", async () => {
  const socket = await connect("old");
  const counter = await joined("counter", { count: 1 }, 7);
  socket.serverClose(1006);
  const late = client.join("late", { page: 2 });
  timers.runNext();
  const next = network.socket;
  next.open();
  assert.deepEqual(
    next.sent.map(({ op, topic, session, resume }) => ({ op, topic, session, resume })),
    [
      { op: "hello", topic: undefined, session: "old", resume: { counter: 7 } },
      { op: "join", topic: "late", session: undefined, resume: undefined },
    ],
    "hello first (the protocol wants it as the first message), then the new topic's join",
  );
  next.hello("fresh");
  await settle();
  assert.equal(client.connectionState, "connecting", "not connected until the resume is answered");
  assert.equal(client.session, "old", "the fresh session is not taken while the resume is open");
  next.serverSend({ op: "patch", topic: "counter", rev: 8, ops: [{ op: "replace", path: "/count", value: 2 }] });
  next.ok(next.sent[0], { session: "old", resumed: true });
  next.serverSend({ op: "snapshot", topic: "late", rev: 1, state: { page: 2 } });
  next.ok(next.sent[1]);
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "old");
  assert.deepEqual(counter.state, { count: 2 });
  assert.equal(late.status, "joined");
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["late"], "the resumed topic is not re-joined");
});

test("pipelined: a refused resume re-joins only the topics it listed, each once", async () => {
  const socket = await connect("old");
  await joined("counter", { count: 1 }, 7);
  socket.serverClose(1006);
  client.join("late");
  timers.runNext();
  const next = network.socket;
  next.open();
  next.hello("fresh");
  next.ok(next.sent[0], { session: "fresh", resumed: false });
  await settle();
  assert.equal(client.session, "fresh");
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["late", "counter"]);
});

test("pipelined: a topic left while its join is in flight is left on the server once the join is answered", async () => {
  client.start();
  const socket = network.socket;
  const counter = client.join("counter");
  socket.open();
  counter.leave();
  assert.equal(socket.sentOps("leave").length, 0, "the server has not joined it yet");
  socket.hello("s1");
  socket.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  socket.ok(socket.sentOps("join")[0]);
  await settle();
  assert.deepEqual(socket.sentOps("leave").map((m) => m.topic), ["counter"]);
  assert.equal(counter.state, undefined, "a left topic takes no state");
});

test("pipelined: a socket that drops before its hello rejects nothing twice and starts over", async () => {
  const counter = client.join("counter");
  client.start();
  network.socket.open();
  network.socket.serverClose(1006);
  assert.equal(client.connectionState, "disconnected");
  timers.runNext();
  const next = network.socket;
  next.open();
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["counter"], "joined again on the next socket");
  next.hello("s2");
  next.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 3 } });
  next.ok(next.sentOps("join")[0]);
  await settle();
  assert.equal(counter.status, "joined");
  assert.equal(client.session, "s2");
});

test("messages from a replaced socket are ignored", async () => {
  const socket = await connect("old");
  const counter = await joined("counter", { count: 1 }, 7);
  socket.serverClose(1006);
  timers.runNext();
  const next = network.socket;
  socket.serverSend({ op: "patch", topic: "counter", rev: 8, ops: [{ op: "replace", path: "/count", value: 100 }] });
  socket.serverClose(4000, "session resumed elsewhere");
  assert.equal(counter.state.count, 1);
  assert.equal(client.connectionState, "connecting");
  assert.equal(network.sockets.length, 2);
  assert.equal(next.closedByClient, null);
});

test("leave sends leave, rejects waiting actions and ignores later messages", async () => {
  const socket = await connect();
  const counter = await joined();
  counter.leave();
  assert.equal(counter.status, "left");
  assert.equal(socket.last.op, "leave");
  assert.equal(socket.last.topic, "counter");
  await assert.rejects(counter.send({ increment: {} }), { code: "not_joined" });
  socket.serverSend({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 1 }] });
  assert.equal(counter.state.count, 0);
});

test("a topic left and joined again before the socket drops stays joined on the next socket", async () => {
  const socket = await connect("old");
  const first = await joined("counter", { count: 1 }, 7);
  first.leave();
  const again = client.join("counter");
  assert.deepEqual(socket.sent.slice(-2).map((m) => [m.op, m.topic]), [["leave", "counter"], ["join", "counter"]]);
  socket.serverClose(1006);
  await settle();
  timers.runNext();
  const next = network.socket;
  next.open();
  next.hello("fresh");
  await settle();
  const join = next.sentOps("join").find((m) => m.topic === "counter");
  assert.ok(join, "joined again on the next socket");
  if (next.sentOps("hello").length > 0) next.ok(next.sentOps("hello")[0], { session: "old", resumed: true });
  next.serverSend({ op: "snapshot", topic: "counter", rev: 1, state: { count: 0 } });
  next.ok(join);
  await settle();
  assert.deepEqual(next.sentOps("leave"), [], "the earlier leave is not sent after the new join");
  assert.equal(again.status, "joined");
});

test("joins of one name share a handle; the last leave leaves", async () => {
  const socket = await connect();
  const a = await joined();
  const b = client.join("counter");
  assert.equal(a, b);
  a.leave();
  assert.equal(socket.sentOps("leave").length, 0);
  b.leave();
  assert.equal(socket.sentOps("leave").length, 1);
  const c = client.join("counter");
  assert.notEqual(c, a, "a join after leaving starts afresh");
});

test("joining again with different params re-joins with them", async () => {
  const socket = await connect();
  client.join("music", { path: "/music/artist/42" });
  await settle();
  socket.ok(socket.last);
  await settle();
  client.join("music", { path: "/music/artist/42" });
  assert.equal(socket.sentOps("join").length, 1);
  client.join("music", { path: "/music/album/9" });
  await settle();
  assert.deepEqual(socket.last.params, { path: "/music/album/9" });
});

test("a refused join fails the topic, rejects ready and waiting actions, and is reported", async () => {
  const socket = await connect();
  const errors = [];
  client.on("error", (detail) => errors.push(detail.error.code));
  const nope = client.join("nope");
  const waiting = nope.send({ x: {} });
  await settle();
  socket.fail(socket.last, "unknown_topic", "no route matches nope");
  await assert.rejects(nope.ready, { code: "unknown_topic" });
  await assert.rejects(waiting, { code: "unknown_topic" });
  assert.equal(nope.status, "failed");
  assert.deepEqual(errors, ["unknown_topic"]);
  await assert.rejects(nope.send({ x: {} }), { code: "not_joined" });
  assert.notEqual(client.join("nope"), nope);
});

test("closed ends the topic with the server's reason", async () => {
  const socket = await connect();
  const room = await joined("room/1", { members: [] });
  const statuses = [];
  room.on("status", ({ status }) => statuses.push(status));
  socket.serverSend({ op: "closed", topic: "room/1", reason: "room deleted" });
  assert.equal(room.status, "closed");
  assert.equal(room.closedReason, "room deleted");
  assert.deepEqual(statuses, ["closed"]);
  await assert.rejects(room.send({ say: {} }), { code: "not_joined" });
});

test("server errors without a ref and malformed frames never throw", async () => {
  const socket = await connect();
  const errors = [];
  client.on("error", ({ error }) => errors.push(error.code));
  socket.serverSend({ op: "reply", ref: null, status: "error", error: { code: "bad_json", message: "not JSON" } });
  socket.serverSend("not json at all");
  socket.serverSend("[1,2]");
  socket.serverSend({ op: "from-the-future", x: 1 });
  socket.serverSend({ op: "patch", topic: "never-joined", rev: 1, ops: [] });
  socket.onmessage({ data: new Uint8Array([1, 2]) });
  assert.deepEqual(errors, ["bad_json"]);
});

test("tracing reports every message with its size", async () => {
  const entries = [];
  client.on("trace", (entry) => entries.push(entry));
  client.tracing = true;
  const socket = await connect();
  client.join("café");
  await settle();
  assert.deepEqual(entries.map((e) => [e.direction, e.message.op]), [["in", "hello"], ["out", "join"]]);
  assert.equal(entries[1].bytes, JSON.stringify(socket.last).length + 1, "é is two bytes in UTF-8");
  client.tracing = false;
  socket.ok(socket.last);
  assert.equal(entries.length, 2);
});

test("stop closes the socket, rejects waiting requests and stays down", async () => {
  const socket = await connect();
  const counter = await joined();
  const sending = counter.send({ increment: {} });
  await settle();
  client.stop();
  await assert.rejects(sending, { code: "stopped" });
  assert.equal(socket.closedByClient.code, 1000);
  assert.equal(client.connectionState, "disconnected");
  assert.deepEqual(timers.pendingDelays, []);
});

test("a socket closed because its session was resumed elsewhere starts afresh instead of resuming", async () => {
  const socket = await connect("old");
  await joined("counter", { count: 1 }, 7);
  socket.serverClose(4000, "session resumed elsewhere");
  timers.runNext();
  const next = network.socket;
  next.hello("fresh");
  await settle();
  assert.equal(next.sentOps("hello").length, 0);
  assert.equal(client.session, "fresh");
  assert.deepEqual(next.sentOps("join").map((m) => m.topic), ["counter"]);
});

test("a server restarting (1012) is retried soon, without showing the page disconnected, and the session resumes", async () => {
  const socket = await connect("old");
  const counter = await joined("counter", { count: 1 }, 7);
  const sending = counter.send({ increment: {} });
  await settle();
  const [lost] = socket.sentOps("action");
  socket.serverClose(1012, "service restart");
  await settle();
  assert.deepEqual(timers.pendingDelays, [550], "100 ms + random × 900 ms, not the back-off schedule");
  assert.equal(client.connectionState, "connecting");
  assert.ok(!states.includes("disconnected"), `states: ${states}`);
  timers.advance(549);
  assert.equal(network.sockets.length, 1);
  timers.advance(1);
  const next = network.socket;
  assert.notEqual(next, socket);
  next.hello("fresh");
  await settle();
  const [hello] = next.sent;
  assert.deepEqual(hello, { op: "hello", ref: hello.ref, session: "old", resume: { counter: 7 } });
  next.serverSend({ op: "patch", topic: "counter", rev: 8, ops: [{ op: "replace", path: "/count", value: 2 }] });
  next.ok(hello, { session: "old", resumed: true });
  await settle();
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "old");
  assert.deepEqual(counter.state, { count: 2 });
  assert.deepEqual(next.sentOps("join"), [], "the resumed topic is not re-joined");
  const [again] = next.sentOps("action");
  assert.equal(again.key, lost.key, "the unanswered action is sent again with its key");
  next.ok(again);
  assert.equal((await sending).status, "ok");
  assert.deepEqual(states, ["connecting", "connected", "connecting", "connected"]);
});

test("after a 1012, a server still away gets the normal back-off and the page shows it disconnected", async () => {
  await connect("old");
  await joined("counter", { count: 1 }, 7);
  network.socket.serverClose(1012, "service restart");
  timers.runNext();
  network.socket.serverClose(1006);
  assert.equal(client.connectionState, "disconnected");
  assert.deepEqual(timers.pendingDelays, [375], "the second step of the back-off");
  timers.runNext();
  network.socket.serverClose(1012, "service restart");
  assert.deepEqual(timers.pendingDelays, [750], "a 1012 before any greeting gets no shortcut: a draining server is not hammered");
  assert.equal(client.connectionState, "disconnected");
});

test("1001 (the server going away for good) keeps the normal back-off", async () => {
  const socket = await connect("old");
  await joined("counter", { count: 1 }, 7);
  socket.serverClose(1001, "going away");
  assert.equal(client.connectionState, "disconnected");
  assert.deepEqual(timers.pendingDelays, [187.5]);
  timers.runNext();
  network.socket.hello("fresh");
  await settle();
  assert.deepEqual(network.socket.sent[0].resume, { counter: 7 }, "and resumes as after any drop");
});

test("presence is throttled to one message per 100 ms per topic, the latest meta winning", async () => {
  const socket = await connect();
  await joined("board/team", { items: [] });
  client.presence("board/team", { editing: "a" });
  client.presence("board/team", { editing: "b" });
  client.presence("board/team", { editing: "c" });
  await settle();
  assert.deepEqual(socket.sentOps("presence").map((m) => m.meta), [{ editing: "a" }]);
  timers.advance(100);
  await settle();
  assert.deepEqual(socket.sentOps("presence").map((m) => m.meta), [{ editing: "a" }, { editing: "c" }]);
  timers.advance(100);
  await settle();
  assert.equal(socket.sentOps("presence").length, 2);
});

test("presence published before the join goes out once the topic is joined", async () => {
  const socket = await connect();
  client.presence("board/team", { editing: "x" });
  await settle();
  assert.equal(socket.sentOps("presence").length, 0);
  await joined("board/team", { items: [] });
  assert.deepEqual(socket.sentOps("presence").map((m) => m.meta), [{ editing: "x" }]);
});

test("on a rendered page, the resume the early socket sent is adopted as the first flight's", async () => {
  const socket = new network.WebSocket("ws://example.test/ws", "statecast.v1");
  const early = { socket, messages: [], opened: false, closed: false, hello: { ref: 1 } };
  socket.onopen = () => (early.opened = true);
  socket.onmessage = (event) => early.messages.push(event.data);
  socket.open();
  socket.send(JSON.stringify({ op: "hello", ref: 1, session: "rendered", resume: { counter: 4 } }));
  socket.hello("fresh");
  socket.serverSend({ op: "patch", topic: "counter", rev: 5, ops: [{ op: "replace", path: "/count", value: 2 }] });
  socket.ok({ ref: 1 }, { session: "rendered", resumed: true });
  const client = clientWithEarlySocket(early);
  client.resumeRendered({ session: "rendered", topics: new Map([["counter", { rev: 4, state: { count: 1 } }]]) });
  client.start();
  const topic = client.join("counter");
  await settle();
  assert.equal(socket.sentOps("hello").length, 1, "the resume is not sent again");
  assert.equal(socket.sentOps("join").length, 0);
  assert.equal(client.connectionState, "connected");
  assert.equal(client.session, "rendered");
  assert.equal(topic.status, "joined");
  assert.deepEqual(topic.state, { count: 2 });
  const sending = topic.send({ increment: {} });
  await settle();
  const [action] = socket.sentOps("action");
  assert.equal(action.ref, 2, "refs continue after the early hello");
  socket.ok(action);
  await sending;
});
