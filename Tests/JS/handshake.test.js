// One socket's handshake as a value: what its first flight resumes, and the session
// that the server's hello and its answer to the resume settle, in either order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Handshake } from "../../Runtime/statecast/handshake.js";

/** A topic as the handshake reads it. */
const topic = (name, rev, active = true) => ({ name, rev, active });

test("a first socket resumes nothing and is settled by the server's hello alone", () => {
  const handshake = new Handshake(null, [topic("counter", 3)], false);
  assert.equal(handshake.hello, null);
  assert.equal(handshake.resuming.size, 0);
  assert.deepEqual(handshake.greeted({ op: "hello", session: "s1" }), { session: "s1", resumed: false });
});

test("the resume lists the active topics with a revision; both answers are needed, in either order", () => {
  const counter = topic("counter", 7);
  const todos = topic("todos/42", 3);
  const joining = topic("late", undefined);
  const left = topic("gone", 9, false);
  const handshake = new Handshake("old", [counter, todos, joining, left], false);
  assert.deepEqual(handshake.hello, { op: "hello", session: "old", resume: { counter: 7, "todos/42": 3 } });
  assert.deepEqual([...handshake.resuming], [counter, todos]);
  assert.equal(handshake.answered({ op: "reply", status: "ok", session: "old", resumed: true }), undefined, "not before the greeting");
  assert.deepEqual(handshake.greeted({ op: "hello", session: "fresh" }), { session: "old", resumed: true });

  const other = new Handshake("old", [counter], false);
  assert.equal(other.greeted({ op: "hello", session: "fresh" }), undefined, "not before the resume is answered");
  assert.deepEqual(other.answered({ op: "reply", status: "ok", resumed: true }), { session: "old", resumed: true });
});

test("a refused or failed resume keeps the session the server names, else the fresh one", () => {
  const refused = new Handshake("old", [topic("counter", 1)], false);
  refused.greeted({ op: "hello", session: "fresh" });
  assert.deepEqual(refused.answered({ op: "reply", status: "ok", session: "other", resumed: false }), { session: "other", resumed: false });
  const failed = new Handshake("old", [topic("counter", 1)], false);
  failed.greeted({ op: "hello", session: "fresh" });
  assert.deepEqual(failed.answered({ op: "reply", status: "error", error: { code: "bad_message" } }), { session: "fresh", resumed: false });
});

test("a previous session with nothing to resume is resumed only for the leaves it owes", () => {
  assert.equal(new Handshake("old", [topic("late", undefined)], false).hello, null);
  assert.deepEqual(new Handshake("old", [], true).hello, { op: "hello", session: "old", resume: {} });
});
