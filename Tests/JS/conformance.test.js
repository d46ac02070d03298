// The binding conformance cases (Tests/Conformance/bindings.json) against the browser
// runtime: each case's markup is bound on the fake DOM, its topics' states arrive as
// snapshots, and the DOM must be the expected one. BindingConformanceTests.swift runs
// the same cases against the server's renderer.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Document, html } from "./support/dom.js";
import { normalizeNodes } from "./support/normalize-dom.js";
import { TestPage } from "./support/page.js";

const { cases } = JSON.parse(readFileSync(new URL("../Conformance/bindings.json", import.meta.url), "utf8"));

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
  t.mock.method(console, "error", () => {});
});

for (const conformance of cases) {
  test(`conformance: ${conformance.name}`, async () => {
    const page = new TestPage(conformance.markup, conformance.href ? { href: conformance.href } : {});
    await page.start();
    for (const [topic, state] of Object.entries(conformance.topics)) await page.snapshot(topic, state);
    const expected = new Document();
    html(conformance.expected, expected);
    assert.equal(normalizeNodes(page.document.body.childNodes), normalizeNodes(expected.body.childNodes));
  });
}

test("the conformance cases are there", () => {
  assert.ok(cases.length >= 20);
});
