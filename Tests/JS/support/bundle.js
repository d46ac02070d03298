/**
 * The runtime as one file: `Runtime/statecast.js`, made from the modules under
 * `Runtime/statecast/` (entry `Runtime/statecast/index.js`); and the files the server
 * serves from its own binary (`Sources/StatecastServer/Runtime/BrowserRuntime+Files.swift`).
 *
 * A browser fetches the modules of a graph separately, and at most six at a time from
 * one HTTP/1.1 host: the runtime's thirty-odd modules cost a page far more than their
 * bytes. Pages therefore load the single file, and app authors still build nothing: the
 * file is generated here, committed, and `Tests/JS/bundle.test.js` fails when it no
 * longer matches the modules.
 *
 * The server does not read these files at run time: `--write` also puts the bundle, the
 * stylesheet, the debug panel and the early snippet into a Swift source of
 * `StatecastServer`, so a server always serves the runtime of its own version, at fixed
 * paths, whatever the app's public directory holds.
 *
 * The modules are concatenated in the order a browser evaluates them (depth first, in
 * import order), their `import` lines dropped and their `export` keywords removed: they
 * share one module scope, so the generator refuses two modules that declare the same
 * top-level name, and import cycles. The entry keeps its exports. Specifiers of
 * `import("…")` (the debug panel, loaded on demand, and JSDoc type references) are
 * rewritten to stay correct from the file's new place. Comments, blank lines and
 * indentation are left out (`compact.js`): the file is for browsers, the modules are for
 * people, and a page is live sooner with half the bytes to fetch and compile.
 *
 *     node Tests/JS/support/bundle.js --write    # after changing a module
 *     node Tests/JS/support/bundle.js            # prints the modules, in order
 */

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compact } from "./compact.js";

/** `Runtime/`, the browser runtime's sources, laid out as the server serves them at `/`. */
export const PUBLIC = fileURLToPath(new URL("../../../Runtime/", import.meta.url));

/** The Swift source that carries the served files into `StatecastServer`. */
export const SWIFT_OUTPUT = fileURLToPath(
  new URL("../../../Sources/StatecastServer/Runtime/BrowserRuntime+Files.swift", import.meta.url),
);

/** What the server serves of the runtime: URL path, file under `Runtime/`, content type. */
export const SERVED = [
  ["/statecast.js", "statecast.js", "text/javascript"],
  ["/statecast.css", "statecast.css", "text/css"],
  ["/statecast/early.js", "statecast/early.js", "text/javascript"],
  ["/statecast/debug.js", "statecast/debug.js", "text/javascript"],
  ["/statecast/debug-history.js", "statecast/debug-history.js", "text/javascript"],
  ["/statecast/debug-export.js", "statecast/debug-export.js", "text/javascript"],
];

/** The runtime's entry module, as a URL path. */
export const ENTRY = "/statecast/index.js";

/** The generated file, as pages load it. */
export const OUTPUT = "/statecast.js";

const IMPORT_LINE = /^import\s+\{([^}]*)\}\s+from\s+"([^"]+)";[ \t]*$/;
const REEXPORT_LINE = /^export\s+\{([^}]*)\}\s+from\s+"([^"]+)";[ \t]*$/;
const DECLARATION = /^(?:export\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * One module, read for bundling.
 * @typedef {object} ModuleSource
 * @property {string} url e.g. `/statecast/client.js`
 * @property {string} source
 * @property {string[]} imports the URLs it imports, in order
 */

/**
 * @param {string} specifier
 * @param {string} from the importing module's URL path
 */
function resolve(specifier, from) {
  if (!specifier.startsWith(".") && !specifier.startsWith("/")) throw new Error(`${from} imports "${specifier}", which a browser cannot resolve`);
  return new URL(specifier, `https://page.test${from}`).pathname;
}

/**
 * Reads a module and its static imports. Only the forms the runtime uses are accepted:
 * `import { a, b } from "./x.js";` and `export { a } from "./x.js";` on one line.
 * @param {string} publicDir
 * @param {string} url
 * @returns {ModuleSource}
 */
function readModule(publicDir, url) {
  const source = readFileSync(path.join(publicDir, url), "utf8");
  const imports = [];
  for (const line of source.split("\n")) {
    if (!/^(import|export)\b/.test(line)) continue;
    const match = IMPORT_LINE.exec(line) ?? REEXPORT_LINE.exec(line);
    if (match) {
      if (/\bas\b/.test(match[1])) throw new Error(`${url}: renaming imports ("as") is not supported: ${line}`);
      imports.push(resolve(match[2], url));
    } else if (/^import\b/.test(line) || /^export\s*(\*|\{)/.test(line) || /\bfrom\s+["']/.test(line)) {
      throw new Error(`${url}: an import the bundle cannot take: ${line}`);
    }
  }
  return { url, source, imports };
}

/**
 * The modules of the runtime in evaluation order (each after everything it imports),
 * the entry last.
 * @param {string} [publicDir]
 * @param {string} [entry]
 * @returns {ModuleSource[]}
 */
export function modulesInOrder(publicDir = PUBLIC, entry = ENTRY) {
  /** @type {Map<string, ModuleSource>} */
  const done = new Map();
  /** @type {string[]} */
  const stack = [];
  /** @param {string} url */
  const visit = (url) => {
    if (done.has(url)) return;
    if (stack.includes(url)) throw new Error(`import cycle: ${[...stack, url].join(" → ")}`);
    stack.push(url);
    const module = readModule(publicDir, url);
    for (const target of module.imports) visit(target);
    stack.pop();
    done.set(url, module);
  };
  visit(entry);
  return [...done.values()];
}

/**
 * `import("…")` specifiers (dynamic imports and JSDoc type references) made relative to
 * the output's place instead of the module's.
 * @param {string} source
 * @param {string} from the module's URL path
 * @param {string} to the output's URL path
 */
function relocateDynamicImports(source, from, to) {
  return source.replace(/\bimport\("(\.{1,2}\/[^"]+)"\)/g, (_, specifier) => {
    const target = resolve(specifier, from);
    let relative = path.posix.relative(path.posix.dirname(to), target);
    if (!relative.startsWith(".")) relative = `./${relative}`;
    return `import("${relative}")`;
  });
}

/**
 * The single-file runtime.
 * @param {string} [publicDir]
 * @returns {string}
 */
export function bundle(publicDir = PUBLIC) {
  const modules = modulesInOrder(publicDir);
  /** @type {Map<string, string>} */
  const declaredBy = new Map();
  for (const { url, source } of modules) {
    for (const match of source.matchAll(DECLARATION)) {
      const other = declaredBy.get(match[1]);
      if (other !== undefined) throw new Error(`${url} and ${other} both declare "${match[1]}" at the top level`);
      declaredBy.set(match[1], url);
    }
  }
  const parts = [
    // V8's compile hint: compile every function with the script, while it streams in on a
    // background thread, instead of each one on the page's main thread at its first call.
    // Nearly all of the runtime runs as it binds the page; in Chromium this took the
    // binding from 11-14 ms of the main thread to 6-8 (docs/PERFORMANCE.md).
    "//# allFunctionsCalledOnLoad",
    "// GENERATED by `node Tests/JS/support/bundle.js --write` from the modules under",
    "// Runtime/statecast/ (entry: statecast/index.js). Do not edit: edit the modules.",
    "// One file, so that a page fetches the runtime in one request; see docs/RUNTIME.md.",
  ];
  for (const { url, source } of modules) {
    const isEntry = url === modules[modules.length - 1].url;
    const body = source
      .split("\n")
      .filter((line) => !IMPORT_LINE.test(line))
      .map((line) => {
        const reexport = REEXPORT_LINE.exec(line);
        if (reexport) return isEntry ? `export {${reexport[1]}};` : null;
        return isEntry ? line : line.replace(/^export\s+(?=(?:async\s+)?(?:function|class|const|let|var)\b)/, "");
      })
      .filter((line) => line !== null)
      .join("\n");
    parts.push("", `// ---- ${url.slice(1)} ----`, "", compact(relocateDynamicImports(body, url, OUTPUT)).trim());
  }
  return `${parts.join("\n")}\n`;
}

/**
 * A Swift raw string literal holding `text` exactly: as many `#` as needed for no
 * quote or backslash in the text to end it or start an escape.
 * @param {string} text
 */
function swiftRawString(text) {
  let hashes = "#";
  while (text.includes(`"${hashes}`) || text.includes(`\\${hashes}`)) hashes += "#";
  return `${hashes}"""\n${text}\n"""${hashes}`;
}

/**
 * The Swift source of the served files, the bundle taken as `bundle()` makes it.
 * @param {string} [publicDir]
 * @returns {string}
 */
export function swiftFiles(publicDir = PUBLIC) {
  const entries = SERVED.map(([url, file, type]) => {
    const text = file === OUTPUT.slice(1) ? bundle(publicDir) : readFileSync(path.join(publicDir, file), "utf8");
    return `    (\n      path: "${url}", contentType: "${type}",\n      text: ${swiftRawString(text)}\n    ),`;
  });
  return [
    "// swift-format-ignore-file",
    "// (The files' text is kept exactly as it is served.)",
    "// GENERATED by `node Tests/JS/support/bundle.js --write` from Runtime/. Do not edit:",
    "// edit the modules, then run it.",
    "",
    "extension BrowserRuntime {",
    "  /// The runtime's served files, as `Runtime/` holds them (the bundle as generated).",
    "  static let sources: [(path: String, contentType: String, text: String)] = [",
    ...entries,
    "  ]",
    "}",
    "",
  ].join("\n");
}

/**
 * Writes `text` to `file` unless it already holds it.
 * @param {string} file
 * @param {string} text
 */
function update(file, text) {
  let before = "";
  try {
    before = readFileSync(file, "utf8");
  } catch {
    // Not generated yet.
  }
  if (text !== before) {
    writeFileSync(file, text);
    console.log(`updated ${path.relative(process.cwd(), file)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--write")) {
    update(path.join(PUBLIC, OUTPUT), bundle());
    update(SWIFT_OUTPUT, swiftFiles());
  } else {
    console.log(modulesInOrder().map((module) => module.url).join("\n"));
  }
}
