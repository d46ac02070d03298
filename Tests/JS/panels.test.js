// The connection indicator (classes on <html>, the banner) and the debug panel.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { installConnectionIndicator } from "../../Runtime/statecast/connection-indicator.js";
import { formatBytes, installDebugPanel, summarize } from "../../Runtime/statecast/debug.js";
import { FakeEvent, TestPage, settle } from "./support/page.js";

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
});

const htmlStates = (page) => ["sc-connected", "sc-connecting", "sc-disconnected"].filter((name) => page.document.documentElement.classList.contains(name));

test("the indicator puts exactly one state class on <html> and shows the banner while not connected", async () => {
  const page = new TestPage(`<main></main>`);
  installConnectionIndicator(page.client, page.document);
  const banner = page.$(".sc-banner");
  assert.deepEqual(htmlStates(page), ["sc-disconnected"]);
  page.client.start();
  assert.deepEqual(htmlStates(page), ["sc-connecting"]);
  assert.equal(banner.hidden, false);
  assert.equal(banner.textContent.startsWith("Connecting…"), true);
  assert.equal(banner.getAttribute("role"), "status");
  page.socket.hello("s1");
  await settle();
  assert.deepEqual(htmlStates(page), ["sc-connected"]);
  assert.equal(banner.hidden, true);
  page.socket.serverClose(1006);
  assert.deepEqual(htmlStates(page), ["sc-disconnected"]);
  assert.equal(banner.hidden, false);
  assert.equal(banner.querySelector("span").textContent, "Reconnecting…");
  const retry = banner.querySelector("button");
  assert.equal(retry.hidden, false);
  retry.dispatchEvent(new FakeEvent("click"));
  assert.equal(page.network.sockets.length, 2, "Retry now opens a socket at once");
  assert.deepEqual(htmlStates(page), ["sc-connecting"]);
  assert.equal(retry.hidden, true);
});

test("a page bound while connected gets its banner only once the connection drops", async () => {
  const page = new TestPage(`<main></main>`);
  page.client.start();
  page.socket.hello("s1");
  await settle();
  installConnectionIndicator(page.client, page.document);
  assert.deepEqual(htmlStates(page), ["sc-connected"]);
  assert.equal(page.$(".sc-banner"), null, "nothing added to the page while connected");
  page.socket.serverClose(1006);
  assert.deepEqual(htmlStates(page), ["sc-disconnected"]);
  const banner = page.$(".sc-banner");
  assert.equal(banner.hidden, false);
  assert.equal(banner.querySelector("span").textContent, "Reconnecting…");
});

test("the page is marked stale only once it has been without its connection for 0.4 s", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const page = new TestPage(`<main></main>`);
  page.client.start();
  installConnectionIndicator(page.client, page.document);
  const stale = () => page.document.documentElement.classList.contains("sc-stale");
  assert.deepEqual(htmlStates(page), ["sc-connecting"]);
  t.mock.timers.tick(399);
  assert.equal(stale(), false, "a socket still opening is not stale yet");
  page.socket.hello("s1");
  await settle();
  t.mock.timers.tick(400);
  assert.equal(stale(), false, "connected in time: never stale");
  page.socket.serverClose(1006);
  t.mock.timers.tick(400);
  assert.equal(stale(), true);
  assert.deepEqual(htmlStates(page), ["sc-disconnected"]);
});

test("the debug panel logs messages with revisions and sizes and shows the state as a tree", async () => {
  const page = new TestPage(`<main data-sc-topic="counter"><b data-sc-text="count"></b></main>`);
  const frames = [];
  const panel = installDebugPanel(page.client, page.document, { requestFrame: (fn) => frames.push(fn) });
  const socket = await page.start();
  await page.snapshot("counter", { count: 1, favourites: [2, 3], nth: { prime: 7 } });
  page.patch("counter", [{ op: "replace", path: "/count", value: 2 }]);
  page.client.topics.get("counter").send({ increment: {} }).catch(() => {});
  await settle();
  socket.fail(socket.last, "rate_limited", "slow down");
  await settle();
  const lines = panel.element.querySelectorAll("li").filter((li) => li.classList.contains("sc-debug-entry"));
  const text = lines.map((li) => li.querySelector(".sc-debug-line").children.map((part) => part.textContent).join(" "));
  assert.ok(text.some((line) => /→ action counter · #\d+ · \{"increment":\{\}\}/.test(line)), text.join("\n"));
  assert.ok(text.some((line) => /← patch counter · rev 2 · 1 ops \d+ B/.test(line)), text.join("\n"));
  assert.ok(text.some((line) => /← snapshot counter · rev 1/.test(line)));
  assert.ok(text.some((line) => /← reply #\d+ · rate_limited: slow down/.test(line)));
  assert.ok(lines[0].classList.contains("sc-debug-failed"), "newest first, failures marked");
  const detail = lines[0].querySelector("pre");
  assert.equal(detail.hidden, true);
  lines[0].querySelector(".sc-debug-line").dispatchEvent(new FakeEvent("click"));
  assert.equal(detail.hidden, false);
  assert.match(detail.textContent, /"code": "rate_limited"/);

  for (const frame of frames.splice(0)) frame();
  const states = panel.element.querySelector(".sc-debug-states");
  assert.match(states.querySelector("summary").textContent, /counter · joined · rev 2/);
  assert.match(states.innerText, /count: 2/);
  assert.match(states.innerText, /favourites: \[2\]/);
  assert.doesNotMatch(states.innerText, /prime/, "closed nodes are not rendered");
  const nth = states.querySelectorAll("details").find((node) => node.querySelector("summary").textContent === "nth: {1}");
  nth.setAttribute("open", "");
  nth.dispatchEvent(new FakeEvent("toggle"));
  assert.match(states.innerText, /prime: 7/);
  page.patch("counter", [{ op: "replace", path: "/nth/prime", value: 11 }]);
  for (const frame of frames.splice(0)) frame();
  assert.match(panel.element.querySelector(".sc-debug-states").innerText, /prime: 11/, "opened nodes stay open across updates");

  panel.close();
  assert.equal(page.client.tracing, false);
  assert.equal(page.document.body.querySelector(".sc-debug"), null);
});

test("the debug panel shows messages traced before it loaded", () => {
  const page = new TestPage(`<main></main>`);
  const backlog = [{ direction: "in", message: { op: "hello", session: "s1" }, bytes: 30 }];
  const panel = installDebugPanel(page.client, page.document, { backlog, requestFrame: () => {} });
  const entries = panel.element.querySelectorAll("li").filter((li) => li.classList.contains("sc-debug-entry"));
  assert.equal(entries.length, 1);
  assert.equal(entries[0].querySelector(".sc-debug-op").textContent, "hello");
});

test("message summaries and sizes", () => {
  assert.equal(summarize({ op: "hello", ref: 1, session: "s", resume: { counter: 3 } }), '#1 · resume {"counter":3}');
  assert.equal(summarize({ op: "reply", ref: 4, status: "ok", resumed: false }), "#4 · ok · not resumed");
  assert.equal(summarize({ op: "closed", topic: "room", reason: "gone" }), "room · gone");
  assert.equal(summarize({ op: "action", ref: 2, topic: "t", action: { a: "x".repeat(200) } }).length < 100, true);
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(2048), "2.0 KB");
});
