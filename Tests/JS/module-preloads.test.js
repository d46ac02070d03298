// Every page that runs the runtime lists all of its modules as <link rel="modulepreload">,
// so the browser fetches them at once instead of one import level at a time. The
// modules are the source of truth: the lists are read back from their imports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BEGIN,
  END,
  PUBLIC,
  loadsRuntime,
  moduleGraph,
  pages,
  preloadBlock,
  staticImports,
  withPreloads,
} from "./support/module-preloads.js";

test("static imports are read from statements, not from comments or import()", () => {
  const source = [
    "/**",
    " * @example",
    ' * import { statecast } from "/statecast.js";',
    " * @param {import(\"./types.js\").Thing} thing",
    " */",
    'import { a } from "./a.js";',
    "import {",
    "  b,",
    "  c,",
    '} from "../b.js";',
    "import * as d from './d.js';",
    'import "./side-effect.js";',
    'export { e } from "./e.js";',
    'export * from "./f.js";',
    "export const x = 1;",
    'const later = () => import("./on-demand.js");',
    'const text = `import { nope } from "./not-a-module.js"`;',
  ].join("\n");
  assert.deepEqual(staticImports(source), ["./a.js", "../b.js", "./d.js", "./side-effect.js", "./e.js", "./f.js"]);
});

test("the graph follows imports through relative paths, once per module", () => {
  const root = mkdtempSync(path.join(tmpdir(), "statecast-graph-"));
  mkdirSync(path.join(root, "lib", "deep"), { recursive: true });
  writeFileSync(path.join(root, "entry.js"), 'import "./lib/b.js";\nimport { a } from "./lib/a.js";\n');
  writeFileSync(path.join(root, "lib", "a.js"), 'import { b } from "./b.js";\nexport const a = () => import("./lazy.js");\n');
  writeFileSync(path.join(root, "lib", "b.js"), 'export { c } from "./deep/c.js";\n');
  writeFileSync(path.join(root, "lib", "deep", "c.js"), 'import "../a.js";\nexport const c = 1;\n');
  writeFileSync(path.join(root, "lib", "lazy.js"), "export {};\n");
  assert.deepEqual(moduleGraph(root, "/entry.js"), ["/entry.js", "/lib/a.js", "/lib/b.js", "/lib/deep/c.js"]);
});

test("the runtime's graph holds every module except the debug panel, which loads on demand", () => {
  const graph = moduleGraph();
  assert.equal(graph[0], "/statecast.js");
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith(".js")) files.push(`/${path.relative(PUBLIC, file).split(path.sep).join("/")}`);
    }
  };
  walk(path.join(PUBLIC, "statecast"));
  const unreached = files.filter((file) => !graph.includes(file));
  assert.deepEqual(unreached, ["/statecast/debug.js"]);
  assert.equal(graph.length, files.length, "one entry per module, no duplicates");
});

test("every page that runs the runtime preloads exactly its modules", () => {
  const modules = moduleGraph();
  const checked = [];
  for (const name of pages()) {
    const html = readFileSync(path.join(PUBLIC, name), "utf8");
    if (!loadsRuntime(html)) {
      assert.ok(!html.includes(BEGIN), `${name} does not run the runtime but preloads it`);
      continue;
    }
    checked.push(name);
    const start = html.indexOf(BEGIN);
    assert.ok(start >= 0, `${name} has no module preloads; run: node Tests/JS/support/module-preloads.js --write`);
    const end = html.indexOf(END, start);
    assert.ok(end > start, `${name}: the preload list is not closed by ${END}`);
    assert.ok(end < html.indexOf("</head>"), `${name}: the preloads belong in <head>, where the browser sees them first`);
    const indent = html.slice(html.lastIndexOf("\n", start) + 1, start);
    const listed = html.slice(start - indent.length, end + END.length);
    assert.equal(listed, preloadBlock(modules, indent), `${name}: the preload list is stale; run: node Tests/JS/support/module-preloads.js --write`);
  }
  assert.ok(checked.includes("counter.html"), `pages checked: ${checked}`);
});

test("writing the preloads replaces a stale list and leaves the rest of the page alone", () => {
  const page = [
    "<head>",
    '  <link rel="stylesheet" href="/statecast.css">',
    "  <title>t</title>",
    "</head>",
    '<script type="module" src="/statecast.js"></script>',
  ].join("\n");
  const first = withPreloads(page, ["/statecast.js", "/statecast/old.js"]);
  assert.ok(first.includes('  <link rel="modulepreload" href="/statecast/old.js">\n'));
  const second = withPreloads(first, ["/statecast.js", "/statecast/new.js"]);
  assert.ok(!second.includes("old.js"));
  assert.equal(second, withPreloads(page, ["/statecast.js", "/statecast/new.js"]));
  assert.equal(withPreloads(second, ["/statecast.js", "/statecast/new.js"]), second, "writing twice changes nothing");
});
