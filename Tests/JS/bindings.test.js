// Declarative bindings on a fake DOM: values, lists, inputs, forms, events, params,
// location, custom renderers and robustness.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { FakeEvent, TestPage, settle } from "./support/page.js";
import { BUSY_DELAY } from "../../Runtime/statecast/bindings/event-binding.js";
import { elementState } from "../../Runtime/statecast/internal/element-state.js";

let errors;
beforeEach((t) => {
  errors = [];
  t.mock.method(console, "warn", () => {});
  t.mock.method(console, "error", (...args) => errors.push(args.map(String).join(" ")));
});

test("text shows values as text, never as markup; missing paths show nothing", async () => {
  const page = new TestPage(`
    <main data-sc-topic="counter">
      <span id="count" data-sc-text="count"></span>
      <span id="name" data-sc-text="user.name"></span>
      <span id="missing" data-sc-text="user.nothing.here">placeholder</span>
      <span id="object" data-sc-text="user"></span>
    </main>`);
  await page.start();
  await page.snapshot("counter", { count: 0, user: { name: "<img src=x onerror=alert(1)>" } });
  assert.equal(page.$('[id="count"]').textContent, "0");
  assert.equal(page.$('[id="name"]').textContent, "<img src=x onerror=alert(1)>");
  assert.equal(page.$('[id="name"]').children.length, 0);
  assert.equal(page.$('[id="missing"]').textContent, "");
  assert.equal(page.$('[id="object"]').textContent, '{"name":"<img src=x onerror=alert(1)>"}');
  page.patch("counter", [{ op: "replace", path: "/count", value: 41 }]);
  assert.equal(page.$('[id="count"]').textContent, "41");
});

test("only bindings whose paths a patch touched are re-evaluated", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <div data-sc-render="probe: a"></div>
      <div data-sc-render="probe: b.c"></div>
      <div data-sc-render="probe: b"></div>
      <div data-sc-render="probe: list.length"></div>
    </main>`);
  const calls = [];
  page.binder.renderer("probe", (element, value) => calls.push([element.getAttribute("data-sc-render"), value]));
  await page.start();
  await page.snapshot("t", { a: 1, b: { c: 2, d: 3 }, list: [] });
  assert.equal(calls.length, 4, "a snapshot renders everything");
  calls.length = 0;
  page.patch("t", [{ op: "replace", path: "/a", value: 10 }]);
  assert.deepEqual(calls, [["probe: a", 10]]);
  calls.length = 0;
  page.patch("t", [{ op: "replace", path: "/b/d", value: 30 }]);
  assert.deepEqual(calls.map(([name]) => name), ["probe: b"], "a sibling of b.c does not touch it");
  calls.length = 0;
  page.patch("t", [{ op: "replace", path: "/b", value: { c: 5 } }]);
  assert.deepEqual(calls.map(([name]) => name).sort(), ["probe: b", "probe: b.c"]);
  calls.length = 0;
  page.patch("t", [{ op: "add", path: "/list/-", value: "x" }]);
  assert.deepEqual(calls, [["probe: list.length", 1]]);
});

test("attributes: text, booleans, properties; script URLs and handlers are refused", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <a id="link" data-sc-attr="href: url; title: label; data-count: n"></a>
      <button id="clear" data-sc-attr="disabled: !canClear; aria-pressed: pressed">Clear</button>
      <input id="field" data-sc-attr="value: text">
      <div id="bad" data-sc-attr="onclick: label"></div>
      <span id="ok" data-sc-text="label"></span>
    </main>`);
  await page.start();
  await page.snapshot("t", { url: "/music/artist/42", label: "Artist", n: 3, canClear: false, pressed: true, text: "hi" });
  const link = page.$('[id="link"]');
  assert.equal(link.getAttribute("href"), "/music/artist/42");
  assert.equal(link.getAttribute("title"), "Artist");
  assert.equal(link.getAttribute("data-count"), "3");
  assert.equal(page.$('[id="clear"]').getAttribute("disabled"), "");
  assert.equal(page.$('[id="clear"]').getAttribute("aria-pressed"), "");
  assert.equal(page.$('[id="field"]').value, "hi");
  assert.equal(page.$('[id="bad"]').hasAttribute("onclick"), false);
  assert.ok(errors.some((line) => line.includes("onclick")), "the refused binding is reported");
  assert.equal(page.$('[id="ok"]').textContent, "Artist", "other bindings still work");
  page.patch("t", [
    { op: "replace", path: "/canClear", value: true },
    { op: "replace", path: "/url", value: " JaVa\tScRiPt:alert(1)" },
    { op: "remove", path: "/label" },
  ]);
  assert.equal(page.$('[id="clear"]').hasAttribute("disabled"), false);
  assert.equal(link.hasAttribute("href"), false);
  assert.equal(link.hasAttribute("title"), false);
});

test("classes and show/hide follow enum-shaped state", async () => {
  const page = new TestPage(`
    <main data-sc-topic="jobs">
      <p id="idle" data-sc-show="phase.idle">Idle</p>
      <p id="loading" data-sc-show="phase.loading">Loading…</p>
      <ul id="list" data-sc-hide="!phase.loaded" data-sc-class="empty: phase.loaded._0.length == 0; busy: phase.loading"></ul>
      <p id="filter" data-sc-class="on: filter == active"></p>
    </main>`);
  await page.start();
  await page.snapshot("jobs", { phase: { idle: {} }, filter: "all" });
  assert.equal(page.$('[id="idle"]').hidden, false);
  assert.equal(page.$('[id="loading"]').hidden, true);
  assert.equal(page.$('[id="list"]').hidden, true);
  page.patch("jobs", [
    { op: "replace", path: "/phase", value: { loaded: { _0: [] } } },
    { op: "replace", path: "/filter", value: "active" },
  ]);
  assert.equal(page.$('[id="idle"]').hidden, true);
  assert.equal(page.$('[id="list"]').hidden, false);
  assert.ok(page.$('[id="list"]').classList.contains("empty"));
  assert.ok(page.$('[id="filter"]').classList.contains("on"));
  page.patch("jobs", [{ op: "replace", path: "/phase", value: { loading: {} } }]);
  assert.ok(page.$('[id="list"]').classList.contains("busy"));
  assert.ok(!page.$('[id="list"]').classList.contains("empty"));
});

const listMarkup = `
  <main data-sc-topic="todos">
    <h1 data-sc-text="title"></h1>
    <ul id="list" data-sc-each="todos">
      <template>
        <li data-sc-class="done: done; first: $index == 0">
          <input class="note">
          <span class="title" data-sc-text="title"></span>
          <span class="owner" data-sc-text="$root.owner"></span>
          <button class="toggle" data-sc-on-click='{"toggle":{"id":"$key","at":"$index"}}'>Toggle</button>
        </li>
      </template>
    </ul>
  </main>`;

const rows = (n) => Array.from({ length: n }, (_, i) => ({ id: `t${i}`, title: `Task ${i}`, done: false }));

test("lists render one row per item, in order, relative to the item", async () => {
  const page = new TestPage(listMarkup);
  await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(3) });
  const items = page.$$("li");
  assert.deepEqual(items.map((li) => li.querySelector(".title").textContent), ["Task 0", "Task 1", "Task 2"]);
  assert.deepEqual(items.map((li) => li.querySelector(".owner").textContent), ["Ada", "Ada", "Ada"]);
  assert.ok(items[0].classList.contains("first"));
  assert.equal(page.$('[id="list"]').children[0].localName, "template", "rows follow the template");
});

test("a changed row is re-rendered; the others are untouched and keep focus and typed text", async () => {
  const page = new TestPage(listMarkup);
  await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(4) });
  const before = page.$$("li");
  const titles = before.map((li) => li.querySelector(".title"));
  const writes = titles.map((span) => span.textWrites);
  const note = before[1].querySelector(".note");
  note.focus();
  note.value = "typed, not sent";
  page.patch("todos", [{ op: "replace", path: "/todos/2/done", value: true }, { op: "replace", path: "/todos/2/title", value: "Changed" }]);
  const after = page.$$("li");
  assert.deepEqual(after, before, "the same elements");
  assert.deepEqual(titles.map((span) => span.textWrites), [writes[0], writes[1], writes[2] + 1, writes[3]]);
  assert.ok(after[2].classList.contains("done"));
  assert.equal(page.document.activeElement, note);
  assert.equal(note.value, "typed, not sent");
});

test("inserting at the top and removing keep the existing rows' elements and focus", async () => {
  const page = new TestPage(listMarkup);
  await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(3) });
  const [row0, row1, row2] = page.$$("li");
  const note = row1.querySelector(".note");
  note.focus();
  page.patch("todos", [{ op: "add", path: "/todos/0", value: { id: "new", title: "New", done: false } }]);
  let items = page.$$("li");
  assert.equal(items.length, 4);
  assert.equal(items[0].querySelector(".title").textContent, "New");
  assert.deepEqual(items.slice(1), [row0, row1, row2]);
  assert.ok(items[0].classList.contains("first") && !row0.classList.contains("first"), "$index rows follow their position");
  page.patch("todos", [{ op: "remove", path: "/todos/1" }]);
  items = page.$$("li");
  assert.deepEqual(items.map((li) => li.querySelector(".title").textContent), ["New", "Task 1", "Task 2"]);
  assert.equal(items[1], row1);
  assert.equal(page.document.activeElement, note);
});

test("reordering moves as few rows as possible", async () => {
  const page = new TestPage(listMarkup);
  await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(5) });
  const original = page.$$("li");
  const note = original[2].querySelector(".note");
  note.focus();
  page.patch("todos", [{ op: "move", from: "/todos/0", path: "/todos/4" }]);
  const items = page.$$("li");
  assert.deepEqual(items, [original[1], original[2], original[3], original[4], original[0]]);
  assert.equal(page.document.activeElement, note, "only the moved row left the DOM");
  page.patch("todos", [{ op: "replace", path: "/todos", value: [...page.client.topics.get("todos").state.todos].reverse() }]);
  assert.deepEqual(page.$$("li").map((li) => li.querySelector(".title").textContent), ["Task 0", "Task 4", "Task 3", "Task 2", "Task 1"]);
});

test("rows reading $root update when that part of the state changes", async () => {
  const page = new TestPage(listMarkup);
  await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(2) });
  page.patch("todos", [{ op: "replace", path: "/owner", value: "Grace" }]);
  assert.deepEqual(page.$$(".owner").map((span) => span.textContent), ["Grace", "Grace"]);
});

test("row events send actions with the row's key and current index", async () => {
  const page = new TestPage(listMarkup);
  const socket = await page.start();
  await page.snapshot("todos", { title: "Mine", owner: "Ada", todos: rows(3) });
  const button = page.$$("li")[2].querySelector(".toggle");
  page.patch("todos", [{ op: "remove", path: "/todos/0" }]);
  const click = new FakeEvent("click");
  button.dispatchEvent(click);
  assert.ok(click.defaultPrevented, "a button's click does not submit a form");
  await settle();
  assert.deepEqual(socket.last.action, { toggle: { id: "t2", at: 1 } });
});

test("data-sc-key picks the row identity; lists of scalars use $item", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <ol id="people" data-sc-each="people" data-sc-key="email"><template><li data-sc-text="name"></li></template></ol>
      <ul id="tags" data-sc-each="tags"><template><li data-sc-text="$item"></li></template></ul>
      <p id="none" data-sc-each="missing"><template><b>x</b></template></p>
    </main>`);
  await page.start();
  await page.snapshot("t", { people: [{ email: "a@x", name: "Ada" }, { email: "g@x", name: "Grace" }], tags: ["red", "blue"] });
  const [ada, grace] = page.$('[id="people"]').querySelectorAll("li");
  page.patch("t", [{ op: "move", from: "/people/1", path: "/people/0" }]);
  assert.deepEqual(page.$('[id="people"]').querySelectorAll("li"), [grace, ada]);
  assert.deepEqual(page.$('[id="tags"]').querySelectorAll("li").map((li) => li.textContent), ["red", "blue"]);
  assert.equal(page.$('[id="none"]').querySelectorAll("b").length, 0);
});

test("nested lists keep the inner rows of unchanged items", async () => {
  const page = new TestPage(`
    <main data-sc-topic="filters">
      <section data-sc-each="groups">
        <template>
          <fieldset>
            <legend data-sc-text="name"></legend>
            <div data-sc-each="filters"><template><label data-sc-class="on: on" data-sc-text="label"></label></template></div>
          </fieldset>
        </template>
      </section>
    </main>`);
  await page.start();
  await page.snapshot("filters", {
    groups: [
      { id: "status", name: "Status", filters: [{ id: "open", label: "Open", on: false }, { id: "closed", label: "Closed", on: false }] },
      { id: "author", name: "Author", filters: [{ id: "me", label: "Me", on: false }] },
    ],
  });
  const labels = page.$$("label");
  assert.deepEqual(labels.map((label) => label.textContent), ["Open", "Closed", "Me"]);
  page.patch("filters", [{ op: "replace", path: "/groups/0/filters/1/on", value: true }]);
  const after = page.$$("label");
  assert.deepEqual(after, labels);
  assert.deepEqual(after.map((label) => label.classList.contains("on")), [false, true, false]);
});

test("a two-way input sends after the debounce and is not overwritten while editing", async () => {
  const page = new TestPage(`
    <main data-sc-topic="search">
      <input id="q" data-sc-model="query" data-sc-on-input='{"queryChanged":{"text":"$value"}}' data-sc-debounce="200">
    </main>`);
  const socket = await page.start();
  await page.snapshot("search", { query: "" });
  const input = page.$('[id="q"]');
  input.type_("m");
  input.type_("mi");
  input.type_("mil");
  assert.equal(socket.sentOps("action").length, 0, "nothing before the pause");
  page.timers.advance(200);
  await settle();
  const [action] = socket.sentOps("action");
  assert.deepEqual(action.action, { queryChanged: { text: "mil" } });
  page.timers.advance(BUSY_DELAY);
  assert.ok(input.classList.contains("sc-loading"), "busy once the action is slow");
  input.value = "milk";
  input.dispatchEvent(new FakeEvent("input"));
  page.patch("search", [{ op: "replace", path: "/query", value: "mil" }]);
  assert.equal(input.value, "milk", "a patch does not overwrite an unsent edit");
  socket.ok(action);
  await settle();
  assert.equal(input.value, "milk", "still editing: the newer edit is pending");
  page.timers.advance(200);
  await settle();
  const second = socket.sentOps("action")[1];
  assert.deepEqual(second.action, { queryChanged: { text: "milk" } });
  page.patch("search", [{ op: "replace", path: "/query", value: "MILK" }]);
  socket.ok(second);
  await settle();
  assert.equal(input.value, "MILK", "once settled the input shows the server's value");
  assert.ok(!input.classList.contains("sc-loading"));
});

test("an action answered before BUSY_DELAY never marks its element busy", async () => {
  const page = new TestPage(`
    <main data-sc-topic="counter">
      <button id="plus" data-sc-on-click="increment">+</button>
      <output id="count" data-sc-text="count"></output>
    </main>`);
  const socket = await page.start();
  await page.snapshot("counter", { count: 0 });
  const button = page.$('[id="plus"]');
  const classes = [];
  const record = button.classList.toggle.bind(button.classList);
  button.classList.toggle = (name, force) => {
    classes.push(name);
    return record(name, force);
  };
  button.dispatchEvent(new FakeEvent("click"));
  await settle();
  assert.equal(socket.last.op, "action");
  page.timers.advance(BUSY_DELAY - 1);
  page.patch("counter", [{ op: "replace", path: "/count", value: 1 }]);
  socket.ok(socket.last);
  await settle();
  assert.equal(page.$('[id="count"]').textContent, "1");
  page.timers.advance(BUSY_DELAY * 2);
  assert.deepEqual(classes, [], "no class was toggled on the button");
  assert.equal(button.hasAttribute("aria-busy"), false);
  assert.equal(elementState(button).busyTimer, null, "the busy timer was cleared");
});

test("a refused edit is undone and marked; the error event bubbles", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <input id="name" data-sc-model="name" data-sc-on-change='{"rename":{"to":"$value"}}'>
    </main>`);
  const socket = await page.start();
  await page.snapshot("t", { name: "Ada" });
  const input = page.$('[id="name"]');
  const seen = [];
  page.$("main").addEventListener("statecast:error", (event) => seen.push(event.detail.error.code));
  input.type_("");
  input.dispatchEvent(new FakeEvent("change"));
  await settle();
  socket.fail(socket.last, "bad_action", "a name cannot be empty");
  await settle();
  assert.equal(input.value, "Ada");
  assert.ok(input.classList.contains("sc-error"));
  assert.equal(input.getAttribute("data-sc-error"), "a name cannot be empty");
  assert.deepEqual(seen, ["bad_action"]);
});

test("checkboxes and radios follow the state; $checked sends the new value", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <input id="done" type="checkbox" data-sc-model="done" data-sc-on-change='{"setDone":{"done":"$checked"}}'>
      <input id="all" type="radio" name="f" value="all" data-sc-model="filter">
      <input id="active" type="radio" name="f" value="active" data-sc-model="filter">
    </main>`);
  const socket = await page.start();
  await page.snapshot("t", { done: false, filter: "active" });
  const box = page.$('[id="done"]');
  assert.equal(box.checked, false);
  assert.deepEqual([page.$('[id="all"]').checked, page.$('[id="active"]').checked], [false, true]);
  box.click();
  await settle();
  assert.deepEqual(socket.last.action, { setDone: { done: true } });
  page.patch("t", [{ op: "replace", path: "/done", value: true }]);
  socket.ok(socket.last);
  await settle();
  assert.equal(box.checked, true);
  page.patch("t", [{ op: "replace", path: "/filter", value: "all" }]);
  assert.deepEqual([page.$('[id="all"]').checked, page.$('[id="active"]').checked], [true, false]);
});

test("a form submit sends its fields as JSON, shows loading, and resets on success", async () => {
  const page = new TestPage(`
    <main data-sc-topic="todos">
      <form id="add" data-sc-on-submit='{"add":"$form"}' data-sc-reset>
        <input name="title" value="">
        <input name="estimate" type="number" value="">
        <input name="urgent" type="checkbox">
        <input name="tags" type="checkbox" value="home" checked>
        <input name="tags" type="checkbox" value="work">
        <input name="place.city" value="Paris">
        <input name="ignored" disabled value="x">
        <button type="submit">Add</button>
      </form>
    </main>`);
  const socket = await page.start();
  await page.snapshot("todos", { todos: [] });
  const form = page.$('[id="add"]');
  form.querySelector("input").value = "Milk";
  form.querySelectorAll("input")[1].value = "2.5";
  const allowed = form.submit_();
  assert.equal(allowed, false, "the page is not submitted");
  await settle();
  assert.deepEqual(socket.last.action, { add: { title: "Milk", estimate: 2.5, urgent: false, tags: ["home"], place: { city: "Paris" } } });
  assert.ok(!form.classList.contains("sc-loading"), "not busy while the action may still be answered at once");
  page.timers.advance(BUSY_DELAY - 1);
  assert.ok(!form.classList.contains("sc-loading"));
  page.timers.advance(1);
  assert.ok(form.classList.contains("sc-loading"), "busy once the action is slow");
  assert.equal(form.getAttribute("aria-busy"), "true");
  socket.ok(socket.last);
  await settle();
  assert.ok(!form.classList.contains("sc-loading"));
  assert.equal(form.hasAttribute("aria-busy"), false);
  assert.equal(form.querySelector("input").value, "", "reset after success");
  assert.equal(page.dispatched.filter(([type]) => type === "statecast:reply").length, 1);
});

test("links send actions on plain clicks only; key filters pick one key", async () => {
  const page = new TestPage(`
    <main data-sc-topic="music">
      <a id="artist" href="/music/artist/42" data-sc-on-click='{"open":{"path":"$href"}}'>Artist</a>
      <input id="box" data-sc-on-keydown.enter='{"submit":{"text":"$value","key":"$event.key"}}' data-sc-on-keydown.esc="cancel">
    </main>`);
  const socket = await page.start();
  await page.snapshot("music", {});
  const link = page.$('[id="artist"]');
  const plain = new FakeEvent("click");
  link.dispatchEvent(plain);
  assert.ok(plain.defaultPrevented);
  const newTab = new FakeEvent("click", { metaKey: true });
  link.dispatchEvent(newTab);
  assert.ok(!newTab.defaultPrevented);
  link.dispatchEvent(new FakeEvent("click", { button: 1 }));
  await settle();
  assert.deepEqual(socket.sentOps("action").map((m) => m.action), [{ open: { path: "/music/artist/42" } }]);
  const box = page.$('[id="box"]');
  box.value = "hi";
  box.dispatchEvent(new FakeEvent("keydown", { key: "a" }));
  box.dispatchEvent(new FakeEvent("keydown", { key: "Enter" }));
  box.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  await settle();
  assert.deepEqual(socket.sentOps("action").slice(1).map((m) => m.action), [{ submit: { text: "hi", key: "Enter" } }, { cancel: {} }]);
});

test("params from the page's location, the address bar following the state, Back sending an action", async () => {
  const page = new TestPage(
    `<main data-sc-topic="music" data-sc-params='{"path":"$location.pathname","song":"$query.song"}'
           data-sc-location="url" data-sc-on-popstate='{"open":{"path":"$location.pathname"}}'></main>`,
    { href: "http://example.test/music/artist/42?song=7" },
  );
  const socket = await page.start();
  assert.deepEqual(socket.sentOps("join")[0].params, { path: "/music/artist/42", song: "7" });
  await page.snapshot("music", { url: "/music/artist/42?song=7" });
  assert.deepEqual([page.window.pushed, page.window.replaced], [[], []], "already there");
  page.patch("music", [{ op: "replace", path: "/url", value: "/music/album/9" }]);
  assert.deepEqual(page.window.pushed, ["/music/album/9"]);
  page.window.back("/music/artist/42?song=7");
  await settle();
  assert.deepEqual(socket.last.action, { open: { path: "/music/artist/42" } });
  page.patch("music", [{ op: "replace", path: "/url", value: "//evil.example/" }]);
  assert.deepEqual(page.window.pushed, ["/music/album/9"], "other origins are never pushed");
});

test("a first location that differs replaces the entry instead of pushing", async () => {
  const page = new TestPage(`<main data-sc-topic="music" data-sc-location="url"></main>`, { href: "http://example.test/music/nope" });
  await page.start();
  await page.snapshot("music", { url: "/music/not-found" });
  assert.deepEqual([page.window.pushed, page.window.replaced], [[], ["/music/not-found"]]);
});

test("a renderer registered after the state arrives renders at once; its errors are contained", async () => {
  const page = new TestPage(`<main data-sc-topic="t"><canvas data-sc-render="chart: points"></canvas><b data-sc-text="n"></b></main>`);
  await page.start();
  await page.snapshot("t", { points: [1, 2], n: 1 });
  const seen = [];
  page.binder.renderer("chart", (element, points, context) => seen.push([element.localName, points, context.changed, context.topic.name]));
  assert.deepEqual(seen, [["canvas", [1, 2], [""], "t"]]);
  page.binder.renderer("chart", () => {
    throw new Error("boom");
  });
  page.patch("t", [{ op: "add", path: "/points/-", value: 3 }, { op: "replace", path: "/n", value: 2 }]);
  assert.ok(errors.some((line) => line.includes("boom")));
  assert.equal(page.$("b").textContent, "2");
});

test("root classes tell joining, ready and failure; a refused join never breaks the page", async () => {
  const page = new TestPage(`
    <div>
      <section id="ok" data-sc-topic="counter"><span data-sc-text="count"></span></section>
      <section id="nope" data-sc-topic="nope"><span data-sc-text="x"></span></section>
    </div>`);
  const socket = await page.start();
  const ok = page.$('[id="ok"]');
  const nope = page.$('[id="nope"]');
  assert.ok(ok.classList.contains("sc-joining") && !ok.classList.contains("sc-ready"));
  socket.fail(socket.sentOps("join").find((m) => m.topic === "nope"), "unknown_topic");
  await page.snapshot("counter", { count: 3 });
  assert.ok(ok.classList.contains("sc-ready") && !ok.classList.contains("sc-joining"));
  assert.ok(nope.classList.contains("sc-failed") && !nope.classList.contains("sc-joining"));
  assert.equal(ok.querySelector("span").textContent, "3");
});

test("nested topic roots bind to their own topic", async () => {
  const page = new TestPage(`
    <main data-sc-topic="outer"><b data-sc-text="name"></b>
      <aside data-sc-topic="inner"><i data-sc-text="name"></i></aside>
    </main>`);
  await page.start();
  await page.snapshot("outer", { name: "Outer" });
  await page.snapshot("inner", { name: "Inner" });
  assert.equal(page.$("b").textContent, "Outer");
  assert.equal(page.$("i").textContent, "Inner");
});

test("unbinding leaves the topics and stops listening", async () => {
  const page = new TestPage(`<main data-sc-topic="counter"><button data-sc-on-click="increment">+</button></main>`);
  const socket = await page.start();
  await page.snapshot("counter", { count: 0 });
  page.unbind();
  assert.equal(socket.last.op, "leave");
  page.$("button").dispatchEvent(new FakeEvent("click"));
  await settle();
  assert.equal(socket.sentOps("action").length, 0);
});

test("a typo in a binding is reported and the rest of the page works", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <b data-sc-text="$nope"></b>
      <button id="bad" data-sc-on-click='{"go":"$hreff"}'>x</button>
      <ul data-sc-each="list"></ul>
      <i data-sc-text="ok"></i>
    </main>`);
  await page.start();
  await page.snapshot("t", { ok: "fine", list: [1] });
  assert.equal(page.$("i").textContent, "fine");
  assert.ok(errors.some((line) => line.includes("$nope")));
  assert.ok(errors.some((line) => line.includes("$hreff")));
  assert.ok(errors.some((line) => line.includes("<template>")));
});

test("actions from the page wait for the join and go out in order", async () => {
  const page = new TestPage(`<main data-sc-topic="counter"><button data-sc-on-click="increment">+</button><button id="dec" data-sc-on-click="decrement">-</button></main>`);
  const socket = await page.start();
  page.$("button").dispatchEvent(new FakeEvent("click"));
  page.$('[id="dec"]').dispatchEvent(new FakeEvent("click"));
  await settle();
  assert.equal(socket.sentOps("action").length, 0);
  await page.snapshot("counter", { count: 0 });
  assert.deepEqual(socket.sentOps("action").map((m) => m.action), [{ increment: {} }, { decrement: {} }]);
});

test("a patch inside one row re-evaluates that row's bindings only", async () => {
  const page = new TestPage(`
    <main data-sc-topic="todos">
      <ul data-sc-each="todos"><template><li data-sc-render="probe: title"></li></template></ul>
    </main>`);
  const calls = [];
  page.binder.renderer("probe", (_element, title) => calls.push(title));
  await page.start();
  await page.snapshot("todos", { todos: rows(4) });
  assert.deepEqual(calls, ["Task 0", "Task 1", "Task 2", "Task 3"]);
  calls.length = 0;
  page.patch("todos", [{ op: "replace", path: "/todos/2/title", value: "Two" }]);
  assert.deepEqual(calls, ["Two"]);
  calls.length = 0;
  page.patch("todos", [{ op: "add", path: "/todos/0", value: { id: "n", title: "New" } }]);
  assert.deepEqual(calls, ["New"], "rows that only shifted are not re-evaluated");
});

test("a select whose options come from a list keeps the state's value", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <select id="pick" data-sc-model="chosen" data-sc-each="options" data-sc-key="value">
        <template><option data-sc-attr="value: value" data-sc-text="label"></option></template>
      </select>
    </main>`);
  const select = page.$('[id="pick"]');
  // A select's value is the value of an option it has; the fake select forgets a value
  // it does not offer, as browsers do.
  Object.defineProperty(select, "value", {
    get() {
      return this.chosen ?? "";
    },
    set(value) {
      this.chosen = this.querySelectorAll("option").some((option) => option.getAttribute("value") === value) ? value : "";
    },
  });
  await page.start();
  await page.snapshot("t", { chosen: "b", options: [{ value: "a", label: "A" }, { value: "b", label: "B" }] });
  assert.equal(select.value, "b");
  page.patch("t", [{ op: "add", path: "/options/-", value: { value: "c", label: "C" } }, { op: "replace", path: "/chosen", value: "c" }]);
  assert.equal(select.value, "c");
});

test("a list row's data-sc-predict fills its placeholders when the event fires, as the action does", async () => {
  const page = new TestPage(`
    <main data-sc-topic="poll">
      <ul data-sc-each="results" data-sc-key="option">
        <template>
          <li><button data-sc-on-click='{"vote":{"option":"$item.option"}}'
                      data-sc-predict='/results/$index/votes += 1; /myVote = "$item.option"' data-sc-text="option"></button>
              <output data-sc-text="votes"></output></li>
        </template>
      </ul>
      <span id="mine" data-sc-text="myVote"></span>
      <button id="typo" data-sc-on-click="vote" data-sc-predict='/myVote = "$itme.option"'>typo</button>
    </main>`);
  const socket = await page.start();
  await page.snapshot("poll", { results: [{ option: "Pizza", votes: 0 }, { option: "Sushi", votes: 2 }] });
  assert.ok(errors.some((line) => line.includes("$itme.option")), "an unknown placeholder is reported when bound");
  page.$$("li")[1].querySelector("button").dispatchEvent(new FakeEvent("click"));
  await settle();
  assert.deepEqual(socket.last.action, { vote: { option: "Sushi" } });
  assert.equal(page.$$("li")[1].querySelector("output").textContent, "3", "the clicked row's count, at once");
  assert.equal(page.$$("li")[0].querySelector("output").textContent, "0", "the other row's is untouched");
  assert.equal(page.$('[id="mine"]').textContent, "Sushi", "a member the view leaves out is set");
  page.patch("poll", [{ op: "replace", path: "/results/1/votes", value: 3 }, { op: "add", path: "/myVote", value: "Sushi" }]);
  socket.ok(socket.last);
  await settle();
  assert.equal(page.$$("li")[1].querySelector("output").textContent, "3");
  assert.equal(page.$('[id="mine"]').textContent, "Sushi");
});
