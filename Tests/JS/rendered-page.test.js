// A page the server rendered: the runtime starts from the rendered state, resumes the
// session the page's request opened with the rendered revisions (no join, no second
// snapshot), binds the rendered list rows where they are, and falls back to joining
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

test("a list binds the rows the server rendered where they are, one per item, and replaces them otherwise", async () => {
  const page = new TestPage(MARKUP);
  const rows = page.$$("li");
  page.client.resumeRendered(/** @type {any} */ (parseRenderedPage(RENDERED)));
  page.binder.bind(page.document);
  assert.deepEqual(page.$$("li"), rows, "the very same elements, in place");
  assert.ok(rows.every((li) => !li.hasAttribute("data-sc-rendered")));
  assert.ok(rows.every((li, index) => li.firstChild.data === ["Milk", "Eggs"][index]));

  const stale = new TestPage(MARKUP);
  const staleRows = stale.$$("li");
  const three = JSON.parse(RENDERED);
  three.topics.todos.state.todos.push({ id: 3, title: "Tea" });
  stale.client.resumeRendered(/** @type {any} */ (parseRenderedPage(JSON.stringify(three))));
  stale.binder.bind(stale.document);
  assert.deepEqual(stale.$$("li").map((li) => li.textContent), ["Milk", "Eggs", "Tea"]);
  assert.ok(stale.$$("li").every((li) => !staleRows.includes(li)), "rows that do not match the state are replaced");
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
