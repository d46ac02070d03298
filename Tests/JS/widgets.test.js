// Hooks, events pushed to them, windowed lists and feeds, on a fake DOM.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { FakeEvent, TestPage, settle } from "./support/page.js";

let errors;
beforeEach((t) => {
  errors = [];
  t.mock.method(console, "warn", () => {});
  t.mock.method(console, "error", (...args) => errors.push(args.map(String).join(" ")));
});

/** A hook definition that records what it was told, as "method value". */
function recorder(log, show = (value) => JSON.stringify(value)) {
  return {
    mounted() {
      log.push(`mounted ${show(this.value)}`);
    },
    updated() {
      log.push(`updated ${show(this.value)}`);
    },
    destroyed() {
      log.push(`destroyed ${show(this.value)}`);
    },
  };
}

test("a hook is mounted with its value, told of changes only, and destroyed with its row or view", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <canvas data-sc-hook="chart: samples"></canvas>
      <ul data-sc-each="marks"><template><li data-sc-hook="mark"></li></template></ul>
    </main>`);
  const log = [];
  page.binder.hook("chart", recorder(log));
  page.binder.hook("mark", recorder(log, (mark) => `mark ${mark.id}`));
  await page.start();
  await page.snapshot("t", { samples: [1], marks: [{ id: 1 }, { id: 2 }], other: 0 });
  assert.deepEqual(log, ["mounted [1]", "mounted mark 1", "mounted mark 2"]);
  log.length = 0;
  page.patch("t", [{ op: "add", path: "/samples/-", value: 2 }]);
  page.patch("t", [{ op: "replace", path: "/other", value: 1 }]);
  page.patch("t", [{ op: "remove", path: "/marks/0" }]);
  assert.deepEqual(log, ["updated [1,2]", "destroyed mark 1"]);
  log.length = 0;
  page.unbind();
  assert.deepEqual(log.sort(), ["destroyed [1,2]", "destroyed mark 2"]);
  assert.deepEqual(errors, []);
});

test("a hook registered late is mounted at once; hooks send actions and handle the topic's events", async () => {
  const page = new TestPage(`<main data-sc-topic="t"><div id="toasts" data-sc-hook="toasts"></div></main>`);
  await page.start();
  await page.snapshot("t", { n: 1 });
  const join = page.socket.sentOps("join").at(-1);
  assert.equal(join.events, true, "the runtime asks for events");
  const shown = [];
  let hook;
  page.binder.hook("toasts", {
    mounted() {
      hook = this;
      this.handleEvent("toast", (payload) => shown.push(payload.text));
    },
  });
  assert.equal(hook.el, page.$('[id="toasts"]'));
  page.socket.serverSend({ op: "event", topic: "t", event: "toast", payload: { text: "hi" } });
  page.socket.serverSend({ op: "event", topic: "t", event: "other", payload: { text: "no" } });
  page.socket.serverSend({ op: "event", topic: "elsewhere", event: "toast", payload: { text: "no" } });
  assert.deepEqual(shown, ["hi"]);
  const sent = hook.send({ ping: {} });
  const action = page.socket.sentOps("action").at(-1);
  assert.deepEqual(action.action, { ping: {} });
  page.socket.ok(action);
  assert.equal((await sent).status, "ok");
  page.unbind();
  page.socket.serverSend({ op: "event", topic: "t", event: "toast", payload: { text: "after" } });
  assert.deepEqual(shown, ["hi"], "a destroyed hook handles nothing");
});

test("a windowed list shows the server's window at its rows' places and asks for the range in view", async () => {
  const page = new TestPage(`
    <main data-sc-topic="rows">
      <div id="grid" data-sc-window="rows" data-sc-window-action="scrolled" data-sc-row-height="10" data-sc-overscan="5">
        <template><div class="row"><span data-sc-text="id"></span>:<span data-sc-text="$index"></span></div></template>
      </div>
    </main>`);
  await page.start();
  const rows = (start, count) => Array.from({ length: count }, (_, i) => ({ id: `r${start + i}` }));
  await page.snapshot("rows", { rows: { total: 1000, start: 0, rows: rows(0, 20) } });
  const grid = page.$('[id="grid"]');
  const sizer = grid.querySelector(".sc-window-sizer");
  assert.equal(sizer.style.height, "10000px");
  assert.equal(grid.querySelectorAll(".row").length, 20);
  const kept = grid.querySelectorAll(".row")[15];
  assert.equal(kept.style.top, "150px");
  assert.equal(kept.textContent, "r15:15");

  grid.scrollTop = 500;
  grid.clientHeight = 100;
  grid.dispatchEvent(new FakeEvent("scroll"));
  page.timers.advance(0);
  await settle();
  const ask = page.socket.sentOps("action").at(-1);
  assert.deepEqual(ask.action, { scrolled: { window: { start: 45, count: 21 } } });
  page.patch("rows", [{ op: "replace", path: "/rows", value: { total: 1000, start: 45, rows: rows(45, 22) } }]);
  assert.equal(grid.querySelectorAll(".row").length, 22);
  assert.equal(grid.querySelector(".row").style.top, "450px");
  const row50 = Array.from(grid.querySelectorAll(".row")).find((row) => row.textContent === "r50:50");
  page.patch("rows", [{ op: "replace", path: "/rows", value: { total: 1000, start: 40, rows: rows(40, 22) } }]);
  assert.ok(Array.from(grid.querySelectorAll(".row")).includes(row50), "a row kept across windows keeps its element");
  assert.ok(!Array.from(grid.querySelectorAll(".row")).includes(kept), "a row that left the window left the page");
  assert.equal(row50.style.top, "500px");
  assert.deepEqual(errors, []);
});

test("a feed appends rows it has not shown and keeps only the newest", async () => {
  const page = new TestPage(`
    <main data-sc-topic="t">
      <ol id="feed" data-sc-feed="latest" data-sc-feed-limit="3"><template><li data-sc-text="id"></li></template></ol>
    </main>`);
  await page.start();
  await page.snapshot("t", { latest: [{ id: 1 }, { id: 2 }] });
  page.patch("t", [{ op: "replace", path: "/latest", value: [{ id: 2 }, { id: 3 }] }]);
  page.patch("t", [{ op: "replace", path: "/latest", value: [{ id: 4 }, { id: 5 }] }]);
  assert.deepEqual(Array.from(page.$$("li")).map((li) => li.textContent), ["3", "4", "5"]);
});
