// Optimistic updates: a topic shows an action's predicted change at once and gives it up
// when the server has spoken (a patch touching it, the reply, an error, a snapshot).
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { Topic } from "../../Runtime/statecast/topic.js";
import { fillPrediction, parsePrediction, Predictions } from "../../Runtime/statecast/prediction.js";

let replies;
let topic;
let seen;

beforeEach(() => {
  replies = [];
  const port = {
    live: () => true,
    send: () => new Promise((resolve, reject) => replies.push({ resolve, reject })),
    report: () => {},
    rejoin: () => Promise.resolve(),
    resync: () => {},
    release: () => {},
  };
  topic = new Topic("counter", undefined, port);
  topic.markJoined();
  seen = [];
  topic.subscribe((state, changed) => seen.push([state.count, changed]));
  topic.receive({ op: "snapshot", topic: "counter", rev: 1, state: { count: 5, label: "five" } });
});

const settled = () => new Promise((resolve) => setImmediate(resolve));

test("parsePrediction reads steps and refuses what it cannot mean", () => {
  assert.deepEqual(parsePrediction("/count += 1; /label = \"x\"; /n -= 2.5"), [
    { pointer: "/count", op: "+=", value: 1 },
    { pointer: "/label", op: "=", value: "x" },
    { pointer: "/n", op: "-=", value: 2.5 },
  ]);
  assert.throws(() => parsePrediction("/count ++"), /is not POINTER/);
  assert.throws(() => parsePrediction("/count += \"a\""), /takes a number/);
  assert.throws(() => parsePrediction("count = 1"), /is not POINTER/);
  assert.throws(() => parsePrediction("/a = {oops"), SyntaxError);
});

test("the prediction shows at once; the server's patch replaces it; the reply changes nothing more", async () => {
  const sent = topic.send({ increment: {} }, parsePrediction("/count += 1"));
  assert.deepEqual(seen.at(-1), [6, ["/count"]], "shown before any answer");
  assert.equal(topic.state.count, 5, "the mirror is still the server's");
  topic.receive({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 6 }] });
  assert.deepEqual(seen.at(-1), [6, ["/count", "/count"]]);
  const count = seen.length;
  replies[0].resolve({ status: "ok" });
  await sent;
  await settled();
  assert.equal(seen.length, count, "already reconciled: no further render");
});

test("a server that disagrees wins", async () => {
  topic.send({ increment: {} }, parsePrediction("/count += 1"));
  topic.receive({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/count", value: 50 }] });
  assert.equal(seen.at(-1)[0], 50);
  replies[0].resolve({ status: "ok" });
  await settled();
  assert.equal(seen.at(-1)[0], 50);
});

test("an error reply rolls the prediction back", async () => {
  const sent = topic.send({ increment: {} }, parsePrediction("/count += 1"));
  assert.equal(seen.at(-1)[0], 6);
  replies[0].resolve({ status: "error", error: { code: "forbidden", message: "no" } });
  await assert.rejects(sent, /no/);
  await settled();
  assert.deepEqual(seen.at(-1), [5, ["/count"]]);
});

test("an ok reply with no patch (the server changed nothing) ends the prediction too", async () => {
  topic.send({ increment: {} }, parsePrediction("/count += 1"));
  replies[0].resolve({ status: "ok" });
  await settled();
  assert.deepEqual(seen.at(-1), [5, ["/count"]]);
});

test("an unrelated patch keeps the prediction on top; a snapshot ends it", () => {
  topic.send({ increment: {} }, parsePrediction("/count += 1"));
  topic.receive({ op: "patch", topic: "counter", rev: 2, ops: [{ op: "replace", path: "/label", value: "cinq" }] });
  assert.equal(seen.at(-1)[0], 6);
  topic.receive({ op: "snapshot", topic: "counter", rev: 3, state: { count: 7, label: "seven" } });
  assert.equal(seen.at(-1)[0], 7);
});

test("two predictions stack; one that cannot apply is left out", () => {
  const predictions = new Predictions();
  predictions.add(parsePrediction("/count += 1"));
  predictions.add(parsePrediction("/count += 1"));
  const bad = predictions.add(parsePrediction("/label += 1"));
  assert.deepEqual(predictions.view({ count: 1, label: "x" }), { count: 3, label: "x" });
  assert.deepEqual(predictions.remove(bad), ["/label"]);
  assert.deepEqual(predictions.reconcile(["/count"]), ["/count", "/count"]);
  const state = { count: 1 };
  assert.equal(predictions.view(state), state, "nothing pending: the state itself");
});

test("= sets a member the state leaves out (a Swift view omits a nil optional), and a refusal takes it away again", async () => {
  const seenSelected = [];
  topic.subscribe((state) => seenSelected.push(state.selected));
  const sent = topic.send({ select: { option: "Sushi" } }, parsePrediction('/selected = "Sushi"'));
  assert.equal(seenSelected.at(-1), "Sushi", "shown before any answer");
  assert.equal(Object.hasOwn(topic.state, "selected"), false, "the mirror is still the server's");
  replies[0].reject(Object.assign(new Error("refused"), { code: "bad_action" }));
  await sent.catch(() => {});
  await settled();
  assert.equal(seenSelected.at(-1), undefined, "rolled back to the server's state");
  const predictions = new Predictions();
  predictions.add(parsePrediction('/items/0 = "z"; /items/5 = "no"'));
  assert.deepEqual(predictions.view({ items: ["a"] }), { items: ["a"] }, "an array element must exist: left out");
  predictions.add(parsePrediction('/items/0 = "z"'));
  assert.deepEqual(predictions.view({ items: ["a"] }), { items: ["z"] }, "an element is replaced, never inserted");
});

test("placeholders: checked when parsed, filled per event; a pointer token without a value drops the prediction", () => {
  assert.throws(() => parsePrediction("/results/$idx/votes += 1"), /unknown placeholder/);
  assert.throws(() => parsePrediction('/mine = "$itme.option"'), /unknown placeholder/);
  const steps = parsePrediction('/results/$index/votes += 1; /myVote = "$item.option"; /note = "$$5"');
  const filled = fillPrediction(steps, { scope: rowScope({ option: "a/b" }, 1) });
  assert.deepEqual(filled, [
    { pointer: "/results/1/votes", op: "+=", value: 1 },
    { pointer: "/myVote", op: "=", value: "a/b" },
    { pointer: "/note", op: "=", value: "$5" },
  ]);
  assert.deepEqual(fillPrediction(parsePrediction('/by/$item.option = 1'), { scope: rowScope({ option: "a/b" }, 0) }), [
    { pointer: "/by/a~1b", op: "=", value: 1 },
  ], "a filled token is escaped into the pointer");
  assert.throws(() => fillPrediction(parsePrediction("/results/$item.missing/votes += 1"), { scope: rowScope({}, 0) }), /has no value/);
});

/** The scope of a list row: its item and position. */
const rowScope = (item, index) => ({ value: item, root: {}, index });
