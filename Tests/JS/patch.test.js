// RFC 6902 application: the appendix examples, atomicity, sharing and change reports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PatchError, applyPatch, deepEqual } from "../../Runtime/statecast/patch.js";

/** Freezes a value deeply, so any mutation of the input throws in strict mode. */
function deepFreeze(value) {
  if (value !== null && typeof value === "object") {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/** Applies to a frozen copy of `doc`, proving the input is never written to. */
function apply(doc, ops) {
  return applyPatch(deepFreeze(structuredClone(doc)), ops).document;
}

// RFC 6902, Appendix A (A.13, a patch with duplicate members, is a JSON parsing
// matter and cannot be expressed once parsed).
const appendix = [
  ["A.1 adding an object member", { foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }], { baz: "qux", foo: "bar" }],
  ["A.2 adding an array element", { foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }], { foo: ["bar", "qux", "baz"] }],
  ["A.3 removing an object member", { baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }], { foo: "bar" }],
  ["A.4 removing an array element", { foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }], { foo: ["bar", "baz"] }],
  ["A.5 replacing a value", { baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }], { baz: "boo", foo: "bar" }],
  [
    "A.6 moving a value",
    { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } },
    [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } },
  ],
  [
    "A.7 moving an array element",
    { foo: ["all", "grass", "cows", "eat"] },
    [{ op: "move", from: "/foo/1", path: "/foo/3" }],
    { foo: ["all", "cows", "eat", "grass"] },
  ],
  [
    "A.8 testing a value: success",
    { baz: "qux", foo: ["a", 2, "c"] },
    [
      { op: "test", path: "/baz", value: "qux" },
      { op: "test", path: "/foo/1", value: 2 },
    ],
    { baz: "qux", foo: ["a", 2, "c"] },
  ],
  [
    "A.10 adding a nested member object",
    { foo: "bar" },
    [{ op: "add", path: "/child", value: { grandchild: {} } }],
    { foo: "bar", child: { grandchild: {} } },
  ],
  ["A.11 ignoring unrecognized elements", { foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }], { foo: "bar", baz: "qux" }],
  ["A.14 ~ escape ordering", { "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }], { "/": 9, "~1": 10 }],
  ["A.16 adding an array value", { foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }], { foo: ["bar", ["abc", "def"]] }],
];

for (const [name, doc, ops, expected] of appendix) {
  test(`RFC 6902 ${name}`, () => {
    assert.deepEqual(apply(doc, ops), expected);
  });
}

const appendixErrors = [
  ["A.9 testing a value: error", { baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]],
  ["A.12 adding to a nonexistent target", { foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }]],
  ["A.15 comparing strings and numbers", { "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }]],
];

for (const [name, doc, ops] of appendixErrors) {
  test(`RFC 6902 ${name}`, () => {
    assert.throws(() => apply(doc, ops), PatchError);
  });
}

test("a failing operation leaves the input untouched and names its index", () => {
  const doc = deepFreeze({ todos: [{ id: 1, title: "Milk" }], count: 1 });
  const ops = [
    { op: "replace", path: "/count", value: 2 },
    { op: "add", path: "/todos/-", value: { id: 2, title: "Eggs" } },
    { op: "remove", path: "/missing" },
  ];
  let thrown;
  try {
    applyPatch(doc, ops);
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof PatchError);
  assert.equal(thrown.index, 2);
  assert.deepEqual(thrown.operation, ops[2]);
  assert.deepEqual(doc, { todos: [{ id: 1, title: "Milk" }], count: 1 });
});

test("unchanged parts are shared with the previous document", () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: i, title: `row ${i}`, done: false }));
  const doc = deepFreeze({ rows, footer: { total: 5 } });
  const { document } = applyPatch(doc, [{ op: "replace", path: "/rows/3/done", value: true }]);
  assert.notEqual(document, doc);
  assert.notEqual(document.rows, doc.rows);
  assert.notEqual(document.rows[3], doc.rows[3]);
  for (const i of [0, 1, 2, 4]) assert.equal(document.rows[i], doc.rows[i]);
  assert.equal(document.footer, doc.footer);
  assert.equal(document.rows[3].done, true);
});

test("a container is copied once per patch, however many operations touch it", () => {
  const doc = deepFreeze({ rows: [{ n: 0 }, { n: 1 }] });
  const { document } = applyPatch(doc, [
    { op: "replace", path: "/rows/0/n", value: 10 },
    { op: "replace", path: "/rows/1/n", value: 11 },
    { op: "add", path: "/rows/0/extra", value: true },
  ]);
  assert.deepEqual(document, { rows: [{ n: 10, extra: true }, { n: 11 }] });
});

test("the change report names each changed value, and the array for insertions and removals", () => {
  const doc = { a: { b: 1 }, list: ["x", "y"], gone: 1 };
  const { changed } = applyPatch(doc, [
    { op: "replace", path: "/a/b", value: 2 },
    { op: "add", path: "/list/-", value: "z" },
    { op: "add", path: "/list/0", value: "w" },
    { op: "remove", path: "/gone" },
    { op: "test", path: "/a/b", value: 2 },
    { op: "replace", path: "/list/1", value: "X" },
    { op: "move", from: "/a/b", path: "/c" },
  ]);
  assert.deepEqual(changed, ["/a/b", "/list/2", "/list", "/gone", "/list/1", "/a/b", "/c"]);
});

test("add and replace at the root replace the whole document", () => {
  assert.deepEqual(apply({ a: 1 }, [{ op: "replace", path: "", value: [1, 2] }]), [1, 2]);
  assert.deepEqual(apply({ a: 1 }, [{ op: "add", path: "", value: { b: 2 } }]), { b: 2 });
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: 3 }]).changed, [""]);
});

test("copy inserts an independent value", () => {
  const result = apply({ a: { list: [1] } }, [
    { op: "copy", from: "/a", path: "/b" },
    { op: "add", path: "/b/list/-", value: 2 },
  ]);
  assert.deepEqual(result, { a: { list: [1] }, b: { list: [1, 2] } });
});

test("values inserted by a patch are copied before later operations change them", () => {
  const value = { tags: ["a"] };
  const ops = [
    { op: "add", path: "/item", value },
    { op: "add", path: "/item/tags/-", value: "b" },
  ];
  const result = applyPatch({}, ops).document;
  assert.deepEqual(result, { item: { tags: ["a", "b"] } });
  assert.deepEqual(value, { tags: ["a"] }, "the patch itself is not modified");
});

test("move to the same place is a no-op but still needs the value to exist", () => {
  assert.deepEqual(apply({ a: 1 }, [{ op: "move", from: "/a", path: "/a" }]), { a: 1 });
  assert.throws(() => apply({ a: 1 }, [{ op: "move", from: "/b", path: "/b" }]), PatchError);
});

test("move into one's own child fails", () => {
  assert.throws(() => apply({ a: { b: {} } }, [{ op: "move", from: "/a", path: "/a/b/c" }]), /own child/);
});

test("test compares deeply, ignoring key order and number spelling", () => {
  const doc = { v: { x: [1, { y: null }], z: 1.0 } };
  assert.deepEqual(apply(doc, [{ op: "test", path: "/v", value: { z: 1, x: [1, { y: null }] } }]), doc);
  assert.throws(() => apply(doc, [{ op: "test", path: "/v", value: { z: 1, x: [1, {}] } }]), PatchError);
  assert.throws(() => apply(doc, [{ op: "test", path: "/v/x", value: { 0: 1, 1: { y: null } } }]), PatchError);
  assert.throws(() => apply(doc, [{ op: "test", path: "/nope", value: null }]), PatchError);
});

test("array index tokens must be canonical and in range", () => {
  const doc = { list: [1, 2, 3] };
  for (const path of ["/list/01", "/list/-1", "/list/1.0", "/list/ 1", "/list/3", "/list/-", "/list/x"]) {
    assert.throws(() => apply(doc, [{ op: "replace", path, value: 0 }]), PatchError, path);
  }
  assert.throws(() => apply(doc, [{ op: "add", path: "/list/4", value: 0 }]), PatchError);
  assert.deepEqual(apply(doc, [{ op: "add", path: "/list/3", value: 4 }]), { list: [1, 2, 3, 4] });
  assert.throws(() => apply(doc, [{ op: "remove", path: "/list/-" }]), PatchError);
});

test("malformed operations fail with a PatchError", () => {
  const doc = { a: 1 };
  const bad = [
    { op: "add", path: "/b" },
    { op: "replace", path: "/a" },
    { op: "test", path: "/a" },
    { op: "move", path: "/b" },
    { op: "copy", from: 3, path: "/b" },
    { op: "frobnicate", path: "/a" },
    { path: "/a", value: 1 },
    { op: "add", path: "a", value: 1 },
    { op: "add", path: "/a~2", value: 1 },
    { op: "remove", path: "" },
    { op: "add", path: "/a/b", value: 1 },
    "add",
    null,
  ];
  for (const op of bad) assert.throws(() => apply(doc, [op]), PatchError, JSON.stringify(op));
  assert.throws(() => applyPatch(doc, { op: "add" }), PatchError);
});

test("null is a value like any other", () => {
  assert.deepEqual(apply({ a: 1 }, [{ op: "replace", path: "/a", value: null }]), { a: null });
  assert.deepEqual(apply({ a: null }, [{ op: "test", path: "/a", value: null }]), { a: null });
  assert.deepEqual(apply({ a: null }, [{ op: "remove", path: "/a" }]), {});
});

test("keys that name Object.prototype members are plain members", () => {
  const doc = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}');
  const result = apply(doc, [
    { op: "replace", path: "/__proto__/x", value: 5 },
    { op: "add", path: "/toString", value: "s" },
    { op: "remove", path: "/constructor" },
  ]);
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(Object.keys(result), ["__proto__", "toString"]);
  assert.equal(result.toString, "s");
  assert.throws(() => apply({}, [{ op: "remove", path: "/hasOwnProperty" }]), PatchError);
  assert.throws(() => apply({}, [{ op: "replace", path: "/constructor", value: 1 }]), PatchError);
  const added = apply({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
  assert.equal(Object.getPrototypeOf(added), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.deepEqual(Object.keys(added), ["__proto__"]);
});

test("escaped tokens reach the right members", () => {
  const doc = { "a/b": { "m~n": 1 }, "": { "": 2 } };
  assert.deepEqual(apply(doc, [{ op: "replace", path: "/a~1b/m~0n", value: 3 }])["a/b"], { "m~n": 3 });
  assert.deepEqual(apply(doc, [{ op: "replace", path: "//", value: 4 }])[""], { "": 4 });
});

test("deepEqual follows JSON semantics", () => {
  assert.ok(deepEqual({ a: [1, "x"], b: null }, { b: null, a: [1, "x"] }));
  assert.ok(!deepEqual({ a: 1 }, { a: 1, b: undefined }));
  assert.ok(!deepEqual([], {}));
  assert.ok(!deepEqual(null, {}));
  assert.ok(!deepEqual("1", 1));
  assert.ok(deepEqual(1, 1.0));
});
