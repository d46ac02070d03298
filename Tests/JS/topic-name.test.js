// Topic names from the page's address: the runtime's topic-name.js, and the early
// snippet (Runtime/statecast/early.js), which must resolve every name the same way.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { webcrypto } from "node:crypto";
import vm from "node:vm";
import { BROWSER_KEY, topicName } from "../../Runtime/statecast/topic-name.js";

/** A `localStorage` in memory. */
function memoryStorage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return /** @type {Storage} */ (
    /** @type {unknown} */ ({ getItem: (key) => map.get(key) ?? null, setItem: (key, value) => map.set(key, String(value)) })
  );
}

const CASES = [
  ["counter", "/counter.html", "", "counter"],
  ["counter/{query.room}", "/counter.html", "?room=team", "counter/team"],
  ["counter/{query.room}", "/counter.html", "", "counter"],
  ["counter/{query.room}", "/counter.html", "?room=", "counter"],
  ["board/{query.room}/live", "/board.html", "?room=a%20b", "board/a b/live"],
  ["music/{path.2}", "/music/42", "", "music/42"],
  ["music/{path.2}", "/music", "", "music"],
  ["music/{path.1}-{path.2}", "/x/y%2Fz", "", "music/x-y/z"],
  ["room/{query.a}{query.b}", "/", "?a=1", "room"],
  ["todos/{browser}", "/", "", "todos/00112233445566778899aabbccddeeff"],
  ["board/{query.room|lobby}", "/board.html", "", "board/lobby"],
  ["board/{query.room|lobby}", "/board.html", "?room=team", "board/team"],
];

test("names take query parameters and path segments; a segment without its value is left out", () => {
  for (const [template, pathname, search, expected] of CASES) {
    const window = { location: { pathname, search }, localStorage: memoryStorage({ [BROWSER_KEY]: "00112233445566778899aabbccddeeff" }) };
    assert.equal(topicName(template, window), expected, `${template} at ${pathname}${search}`);
  }
});

test("{browser} is made once per browser and kept", () => {
  const storage = memoryStorage();
  const window = { location: { pathname: "/", search: "" }, localStorage: storage, crypto: /** @type {Crypto} */ (webcrypto) };
  const first = topicName("todos/{browser}", window);
  assert.match(first, /^todos\/[0-9a-f]{32}$/);
  assert.equal(topicName("todos/{browser}", window), first);
  assert.equal(topicName("todos/{browser}", { location: window.location }), "todos", "no storage, no id");
});

test("{browser} is mirrored in a cookie for the server, never taken from one", () => {
  const written = [];
  const document = {
    jar: "other=1; statecast_browser=ffffffffffffffffffffffffffffffff",
    get cookie() {
      return this.jar;
    },
    set cookie(value) {
      written.push(value);
      this.jar = `other=1; ${value.split(";")[0]}`;
    },
  };
  const storage = memoryStorage();
  const window = { location: { pathname: "/", search: "", protocol: "http:" }, localStorage: storage, crypto: /** @type {Crypto} */ (webcrypto), document };
  const name = topicName("todos/{browser}", window);
  // A cookie planted by another site of the host (cookies ignore ports) is not adopted.
  assert.notEqual(name, "todos/ffffffffffffffffffffffffffffffff");
  const id = name.slice("todos/".length);
  assert.equal(storage.getItem(BROWSER_KEY), id);
  assert.deepEqual(written, [`statecast_browser=${id}; Path=/; Max-Age=34560000; SameSite=Lax`]);
  topicName("todos/{browser}", window);
  assert.equal(written.length, 1, "a cookie holding the id is not written again");
  window.location.protocol = "https:";
  document.jar = "";
  topicName("todos/{browser}", window);
  assert.equal(written[1], `statecast_browser=${id}; Path=/; Max-Age=34560000; SameSite=Lax; Secure`);
});

test("the early snippet joins the names the runtime resolves", () => {
  const source = readFileSync(new URL("../../Runtime/statecast/early.js", import.meta.url), "utf8");
  for (const [template, pathname, search, expected] of CASES) {
    const sent = [];
    const socket = { send: (text) => sent.push(JSON.parse(text)) };
    const context = {
      location: { protocol: "http:", host: "example.test", pathname, search },
      localStorage: memoryStorage({ [BROWSER_KEY]: "00112233445566778899aabbccddeeff" }),
      crypto: webcrypto,
      URLSearchParams,
      WebSocket: function () {
        return socket;
      },
      document: {
        readyState: "complete",
        currentScript: null,
        addEventListener() {},
        querySelectorAll: (/** @type {string} */ selector) => (selector.startsWith("script") ? [] : [{ getAttribute: () => template }]),
      },
    };
    context.window = context;
    vm.runInNewContext(source, context);
    socket.onopen();
    assert.deepEqual(sent, [{ op: "join", ref: 1, topic: expected, events: true }], `${template} at ${pathname}${search}`);
  }
});

test("the early snippet loads the stylesheet and the runtime right after itself", () => {
  const source = readFileSync(new URL("../../Runtime/statecast/early.js", import.meta.url), "utf8");
  const inserted = [];
  const here = { parentNode: { insertBefore: (node, before) => inserted.unshift({ node, before }) }, nextSibling: "next" };
  const context = {
    location: { protocol: "https:", host: "example.test", pathname: "/", search: "" },
    WebSocket: function () {
      return {};
    },
    document: {
      readyState: "loading",
      currentScript: here,
      addEventListener() {},
      createElement: (tag) => ({ tag, setAttribute(name, value) { this[name] = value; } }),
    },
  };
  context.window = context;
  vm.runInNewContext(source, context);
  assert.deepEqual(
    inserted.map(({ node }) => [node.tag, node.href ?? node.src, node.type ?? node.rel]),
    [["link", "/statecast.css", "stylesheet"], ["script", "/statecast.js", "module"]],
  );
  assert.equal(inserted[0].node.blocking, "render");
});

test("the early snippet joins nothing on a page the server rendered (the runtime resumes its session)", () => {
  const source = readFileSync(new URL("../../Runtime/statecast/early.js", import.meta.url), "utf8");
  const sent = [];
  const socket = { send: (text) => sent.push(JSON.parse(text)) };
  const context = {
    location: { protocol: "http:", host: "example.test", pathname: "/counter.html", search: "" },
    URLSearchParams,
    WebSocket: function () {
      return socket;
    },
    document: {
      readyState: "complete",
      currentScript: null,
      addEventListener() {},
      querySelectorAll: (/** @type {string} */ selector) => (selector === "script#statecast-page" ? [{}] : [{ getAttribute: () => "counter" }]),
    },
  };
  context.window = context;
  vm.runInNewContext(source, context);
  socket.onopen();
  assert.deepEqual(sent, []);
});
