// A page the server rendered: the runtime starts from the rendered state, resumes the
// session the page's request opened with the rendered revisions (no join, no second
// snapshot), replaces the rendered list rows with its own, and falls back to joining
// when the session is gone.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { parseRenderedPage } from "../../Runtime/statecast/rendered-page.js";
import { TestPage, settle } from "./support/page.js";

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
});

const MARKUP = `
  <main data-sc-topic="todos" class="sc-ready">
    <b id="count" data-sc-text="todos.length">2</b>
    <ul data-sc-each="todos">
      <template><li data-sc-text="title"></li></template>
      <li data-sc-text="title" data-sc-rendered>Milk</li>
      <li data-sc-text="title" data-sc-rendered>Eggs</li>
    </ul>
  </main>`;

const RENDERED = JSON.stringify({
  session: "rendered-session",
  topics: { todos: { rev: 7, state: { todos: [{ id: 1, title: "Milk" }, { id: 2, title: "Eggs" }] } } },
});

/** A page bound over rendered markup, its socket open but not yet greeted. */
async function renderedPage() {
  const page = new TestPage(MARKUP);
  page.client.resumeRendered(/** @type {any} */ (parseRenderedPage(RENDERED)));
  page.unbind = page.binder.bind(page.document);
  page.client.leaveUnclaimed();
  page.client.start();
  page.socket.open();
  await settle();
  return page;
}

test("binding a rendered page leaves the text the server rendered as it is", async () => {
  const page = new TestPage(MARKUP);
  const count = page.$("b");
  const rendered = count.firstChild;
  page.client.resumeRendered(/** @type {any} */ (parseRenderedPage(RENDERED)));
  page.binder.bind(page.document);
  assert.equal(count.textContent, "2");
  assert.equal(count.firstChild, rendered, "the same text node: nothing for the browser to lay out again");
});

test("the first flight resumes the rendered session at the rendered revisions, and joins nothing", async () => {
  const page = await renderedPage();
  const socket = page.socket;
  assert.deepEqual(
    socket.sent.map(({ ref: _ref, ...message }) => message),
    [{ op: "hello", session: "rendered-session", resume: { todos: 7 } }],
  );
  assert.deepEqual(
    page.$$("li").map((li) => li.textContent),
    ["Milk", "Eggs"],
    "the rendered rows are replaced by the runtime's, not doubled",
  );
  socket.hello("fresh");
  socket.ok(socket.sentOps("hello")[0], { session: "rendered-session", resumed: true });
  await settle();
  assert.equal(page.client.session, "rendered-session");
  assert.equal(page.client.topics.get("todos").status, "joined");
  socket.serverSend({ op: "patch", topic: "todos", rev: 8, ops: [{ op: "add", path: "/todos/-", value: { id: 3, title: "Tea" } }] });
  await settle();
  assert.deepEqual(
    page.$$("li").map((li) => li.textContent),
    ["Milk", "Eggs", "Tea"],
  );
  assert.equal(page.$('[id="count"]').textContent, "3");
  assert.equal(socket.sentOps("join").length, 0);
});

test("a session that expired before the socket came is joined afresh", async () => {
  const page = await renderedPage();
  const socket = page.socket;
  socket.hello("fresh");
  socket.ok(socket.sentOps("hello")[0], { session: "fresh", resumed: false });
  await settle();
  const joins = socket.sentOps("join");
  assert.deepEqual(
    joins.map((join) => join.topic),
    ["todos"],
  );
  socket.serverSend({ op: "snapshot", topic: "todos", rev: 1, state: { todos: [] } });
  socket.ok(joins[0]);
  await settle();
  assert.equal(page.$$("li").length, 0);
  assert.equal(page.client.session, "fresh");
});

test("a rendered page's data that is not usable is ignored", () => {
  assert.equal(parseRenderedPage("{not json"), null);
  assert.equal(parseRenderedPage(JSON.stringify({ session: 3, topics: {} })), null);
  const page = parseRenderedPage(JSON.stringify({ session: "s", topics: { a: { rev: "x" }, b: { rev: 2, state: 1, params: [1] } } }));
  assert.deepEqual([...(page?.topics.keys() ?? [])], ["b"]);
  assert.equal(page?.topics.get("b")?.params, undefined);
});
