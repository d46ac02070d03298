// Runtime/statecast.js is the runtime as one file, generated from the modules under
// Runtime/statecast/. It must match them, and it must behave as their entry does; the
// server carries it (with the stylesheet, the debug panel and the early snippet) in
// a generated Swift source that must match too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { OUTPUT, PUBLIC, SERVED, SWIFT_OUTPUT, bundle, modulesInOrder, swiftFiles } from "./support/bundle.js";

/** A throwaway Public/ folder holding `files` (URL path → source). */
function publicDir(files) {
  const root = mkdtempSync(path.join(tmpdir(), "statecast-bundle-"));
  for (const [url, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, url)), { recursive: true });
    writeFileSync(path.join(root, url), source);
  }
  return root;
}

test("Runtime/statecast.js is up to date with the modules (node Tests/JS/support/bundle.js --write)", () => {
  const committed = readFileSync(path.join(PUBLIC, OUTPUT), "utf8");
  assert.ok(committed === bundle(), "Runtime/statecast.js is stale: run node Tests/JS/support/bundle.js --write");
});

test("modules come in evaluation order: depth first, in import order, each once, the entry last", () => {
  const root = publicDir({
    "/statecast/index.js": 'import { b } from "./lib/b.js";\nimport { a } from "./a.js";\nexport const entry = a + b;\n',
    "/statecast/a.js": 'import { b } from "./lib/b.js";\nexport const a = b + 1;\n',
    "/statecast/lib/b.js": 'import { c } from "./c.js";\nexport const b = c;\n',
    "/statecast/lib/c.js": "export const c = 1;\n",
  });
  assert.deepEqual(
    modulesInOrder(root).map((module) => module.url),
    ["/statecast/lib/c.js", "/statecast/lib/b.js", "/statecast/a.js", "/statecast/index.js"],
  );
});

test("the bundle drops imports, inner exports and comments, keeps the entry's exports and relocates import()", async () => {
  const root = publicDir({
    "/statecast/index.js": [
      'import { double } from "./lib/math.js";',
      'export { Thing } from "./lib/thing.js";',
      "/** @type {import(\"./lib/thing.js\").Thing | undefined} */",
      "export const four = double(2);",
      'export const lazy = () => import("./debug.js");',
      "export default four;",
      "",
    ].join("\n"),
    "/statecast/lib/math.js": "export function double(x) {\n  return 2 * x;\n}\n",
    "/statecast/lib/thing.js": 'import { double } from "./math.js";\nexport class Thing {\n  size = double(3);\n}\n',
    "/statecast/debug.js": "export const debug = true;\n",
  });
  const text = bundle(root);
  assert.doesNotMatch(text, /^import /m);
  assert.doesNotMatch(text, /^export (function|class) /m, "inner modules export nothing");
  assert.doesNotMatch(text, /@type/, "comments (and the type references in them) are left out");
  assert.match(text, /import\("\.\/statecast\/debug\.js"\)/);
  const file = path.join(root, "statecast.js");
  writeFileSync(file, text);
  const module = await import(pathToFileURL(file).href);
  assert.deepEqual(Object.keys(module).sort(), ["Thing", "default", "four", "lazy"]);
  assert.equal(module.four, 4);
  assert.equal(module.default, 4);
  assert.equal(new module.Thing().size, 6);
  assert.equal((await module.lazy()).debug, true);
});

test("the bundle refuses what one shared scope cannot hold: a name declared twice, a cycle, an import it cannot read", () => {
  const twice = publicDir({
    "/statecast/index.js": 'import { a } from "./a.js";\nfunction helper() {}\nexport const x = a;\n',
    "/statecast/a.js": "function helper() {}\nexport const a = 1;\n",
  });
  assert.throws(() => bundle(twice), /both declare "helper"/);
  const cycle = publicDir({
    "/statecast/index.js": 'import { a } from "./a.js";\nexport const x = a;\n',
    "/statecast/a.js": 'import { x } from "./index.js";\nexport const a = 1;\n',
  });
  assert.throws(() => bundle(cycle), /import cycle/);
  const renamed = publicDir({
    "/statecast/index.js": 'import { a as b } from "./a.js";\nexport const x = b;\n',
    "/statecast/a.js": "export const a = 1;\n",
  });
  assert.throws(() => bundle(renamed), /"as"/);
  const star = publicDir({ "/statecast/index.js": 'import * as a from "./a.js";\n', "/statecast/a.js": "export const a = 1;\n" });
  assert.throws(() => bundle(star), /cannot take/);
});

test("the bundle exports what the entry module exports", async () => {
  const single = await import("../../Runtime/statecast.js");
  const entry = await import("../../Runtime/statecast/index.js");
  assert.deepEqual(Object.keys(single).sort(), Object.keys(entry).sort());
  assert.equal(single.socketURL({ protocol: "https:", host: "example.test:8443" }), "wss://example.test:8443/ws");
  assert.equal(typeof single.statecast.join, "function");
  assert.equal(single.default, single.statecast);
});

/** The demo's own folder of pages (not the runtime's). */
const DEMO_PUBLIC = fileURLToPath(new URL("../../Public/", import.meta.url));

test("the demo's pages load the runtime with the one line the server answers, and carry no copy of it", () => {
  const names = readdirSync(DEMO_PUBLIC);
  for (const copy of ["statecast.js", "statecast.css", "statecast"]) {
    assert.ok(!names.includes(copy), `Public/${copy}: the server serves the runtime itself`);
  }
  const pages = names.filter((name) => name.endsWith(".html"));
  const runtimePages = pages.filter((name) => readFileSync(path.join(DEMO_PUBLIC, name), "utf8").includes("data-sc-"));
  assert.ok(runtimePages.length >= 6, `the demo pages use the runtime (found ${runtimePages.join(", ")})`);
  for (const name of runtimePages) {
    const html = readFileSync(path.join(DEMO_PUBLIC, name), "utf8");
    const head = html.slice(0, html.indexOf('<script src="/statecast/early.js"></script>'));
    assert.ok(head.length > 0, `${name} does not load /statecast/early.js`);
    assert.doesNotMatch(head, /rel="stylesheet"|<script/, `${name}: /statecast/early.js must come first in <head>`);
    assert.doesNotMatch(html, /\(function\(\)\{try\{var e=/, `${name} inlines an old copy of the early snippet`);
    assert.doesNotMatch(html, /rel="modulepreload"[^>]*href="\/statecast\//, `${name} preloads a module of the runtime`);
  }
});

test("the server's copy of the runtime is generated from Runtime/ (node Tests/JS/support/bundle.js --write)", () => {
  const committed = readFileSync(SWIFT_OUTPUT, "utf8");
  assert.ok(committed === swiftFiles(), "BrowserRuntime+Files.swift is stale: run node Tests/JS/support/bundle.js --write");
  for (const [url] of SERVED) assert.ok(committed.includes(`path: "${url}"`), `${url} is not served`);
});
