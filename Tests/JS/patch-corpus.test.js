// Patches from an independent implementation (Python jsonpatch), in the server's style,
// and (when present) from the server's own diff engine: the runtime must reach the same
// documents, and its change report must cover every value that differs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { applyPatch, deepEqual } from "../../Runtime/statecast/patch.js";
import { formatPointer, lookup, touches } from "../../Runtime/statecast/pointer.js";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
/** Corpus files: ours, plus the diff engine's interop corpus when one was written. */
const corpora = readdirSync(fixtures)
  .filter((name) => name.endsWith("corpus.json"))
  .map((name) => fixtures + name);
const interop = process.env.STATECAST_INTEROP_CORPUS;
if (interop && existsSync(interop)) corpora.push(interop);

/**
 * Reads a corpus in either shape: `{name, before, patch, after}` (ours) or
 * `{name, old, new, patch}` (the Swift diff engine's interop corpus).
 */
function readCorpus(path) {
  return JSON.parse(readFileSync(path, "utf8")).map((entry) => ({
    name: entry.name,
    before: "before" in entry ? entry.before : entry.old,
    after: "after" in entry ? entry.after : entry.new,
    patch: entry.patch,
  }));
}

/** Every pointer in a document, the root included. */
function pointers(value, prefix = [], out = []) {
  out.push(formatPointer(prefix));
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) pointers(value[key], [...prefix, key], out);
  }
  return out;
}

test("at least one corpus is present", () => {
  assert.ok(corpora.length > 0);
});

for (const path of corpora) {
  const file = path.split("/").pop();
  const cases = readCorpus(path);

  test(`${file}: every patch gives the expected document (${cases.length} cases)`, () => {
    for (const { name, before, patch, after } of cases) {
      const { document } = applyPatch(before, patch);
      assert.deepEqual(document, after, name);
    }
  });

  test(`${file}: the change report covers every value that differs`, () => {
    for (const { name, before, patch } of cases) {
      const { document, changed } = applyPatch(before, patch);
      const all = new Set([...pointers(before), ...pointers(document)]);
      for (const pointer of all) {
        const split = pointer === "" ? [] : pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
        if (deepEqual(lookup(before, split), lookup(document, split))) continue;
        assert.ok(
          changed.some((c) => touches(pointer, c)),
          `${name}: ${pointer} changed but no reported pointer touches it (reported ${JSON.stringify(changed)})`,
        );
      }
    }
  });
}
