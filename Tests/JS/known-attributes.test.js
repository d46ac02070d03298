// Every attribute docs/RUNTIME.md documents is known to the scanner: a page written
// from the documentation gets no "unknown attribute" warning on its console.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TestPage } from "./support/page.js";

const runtimeDoc = readFileSync(new URL("../../docs/RUNTIME.md", import.meta.url), "utf8");

/** The attribute names the document writes (`data-sc-…`), without anchors and the event prefix. */
function documentedAttributes() {
  const names = new Set();
  for (const [name] of runtimeDoc.matchAll(/(?<![#\w-])data-sc-[a-z]+(?:-[a-z]+)*/g)) names.add(name);
  return [...names].filter((name) => name !== "data-sc-topic" && !name.startsWith("data-sc-on"));
}

test("no attribute the runtime's document names is reported as unknown", async (t) => {
  const warnings = [];
  t.mock.method(console, "warn", (...args) => warnings.push(args.map(String).join(" ")));
  t.mock.method(console, "error", () => {});
  const names = documentedAttributes();
  for (const name of ["data-sc-form", "data-sc-error-for", "data-sc-upload", "data-sc-upload-drop", "data-sc-upload-list"]) {
    assert.ok(names.includes(name), `${name} is read from the document`);
  }
  const elements = names.map((name) => `<div ${name}="x"></div>`).join("\n");
  const page = new TestPage(`<main data-sc-topic="t"><form data-sc-form>${elements}</form></main>`);
  await page.start();
  await page.snapshot("t", { x: 1 });
  assert.deepEqual(warnings.filter((warning) => warning.includes("unknown attribute")), []);
});

test("a misspelt attribute is still reported", async (t) => {
  const warnings = [];
  t.mock.method(console, "warn", (...args) => warnings.push(args.map(String).join(" ")));
  const page = new TestPage(`<main data-sc-topic="t"><p data-sc-error-four="name"></p></main>`);
  await page.start();
  assert.deepEqual(warnings, ["statecast: unknown attribute data-sc-error-four (see docs/RUNTIME.md)"]);
});
