// RFC 6901 pointers, pointer matching and the pointer index.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PointerError, arrayIndex, formatPointer, lookup, parsePointer, touches } from "../../Runtime/statecast/pointer.js";
import { PointerIndex } from "../../Runtime/statecast/pointer-index.js";

// RFC 6901, section 5.
const rfcDocument = {
  foo: ["bar", "baz"],
  "": 0,
  "a/b": 1,
  "c%d": 2,
  "e^f": 3,
  "g|h": 4,
  "i\\j": 5,
  'k"l': 6,
  " ": 7,
  "m~n": 8,
};

test("RFC 6901 section 5 examples resolve", () => {
  const expectations = [
    ["", rfcDocument],
    ["/foo", ["bar", "baz"]],
    ["/foo/0", "bar"],
    ["/", 0],
    ["/a~1b", 1],
    ["/c%d", 2],
    ["/e^f", 3],
    ["/g|h", 4],
    ["/i\\j", 5],
    ['/k"l', 6],
    ["/ ", 7],
    ["/m~0n", 8],
  ];
  for (const [pointer, value] of expectations) assert.deepEqual(lookup(rfcDocument, parsePointer(pointer)), value, pointer);
});

test("escapes round-trip, ~01 is ~1 and not /", () => {
  assert.deepEqual(parsePointer("/~01"), ["~1"]);
  assert.equal(formatPointer(["~1"]), "/~01");
  assert.equal(formatPointer(["a/b", "m~n", 3]), "/a~1b/m~0n/3");
  for (const tokens of [[], [""], ["", ""], ["~/~/"], ["x", "0"]]) assert.deepEqual(parsePointer(formatPointer(tokens)), tokens);
});

test("invalid pointers are refused", () => {
  for (const bad of ["a", "/~2", "/x~", "#/a"]) assert.throws(() => parsePointer(bad), PointerError, bad);
  assert.throws(() => parsePointer(/** @type {any} */ (3)), PointerError);
});

test("lookup of anything missing is undefined, never an inherited member", () => {
  const doc = { list: [1], o: {} };
  for (const tokens of [["nope"], ["list", "1"], ["list", "01"], ["list", "length"], ["o", "constructor"], ["o", "toString"], ["list", "0", "x"]]) {
    assert.equal(lookup(doc, tokens), undefined, tokens.join("/"));
  }
  assert.equal(lookup(null, ["a"]), undefined);
});

test("array indexes are canonical decimal", () => {
  assert.equal(arrayIndex("0"), 0);
  assert.equal(arrayIndex("12"), 12);
  for (const bad of ["", "-", "01", "-1", "1e2", " 1", "1.0", "99999999999999999999"]) assert.equal(arrayIndex(bad), -1, bad);
});

test("touches: a change at, inside or above a watched pointer", () => {
  assert.ok(touches("/a/b", "/a/b"));
  assert.ok(touches("/a/b", "/a/b/c"));
  assert.ok(touches("/a/b", "/a"));
  assert.ok(touches("/a/b", ""));
  assert.ok(touches("", "/z"));
  assert.ok(!touches("/a/b", "/a/bc"));
  assert.ok(!touches("/a/bc", "/a/b"));
  assert.ok(!touches("/a/b", "/a/c"));
});

test("the pointer index finds watchers at, below and above each change", () => {
  const index = new PointerIndex();
  index.add("/todos", "list");
  index.add("/todos/0/title", "firstTitle");
  index.add("/user/name", "name");
  index.add("", "everything");
  index.add(["a/b"], "escaped");
  const found = (changed) => [...index.collect(changed)].sort();
  assert.deepEqual(found(["/todos/3/done"]), ["everything", "list"]);
  assert.deepEqual(found(["/todos/0"]), ["everything", "firstTitle", "list"]);
  assert.deepEqual(found(["/todos"]), ["everything", "firstTitle", "list"]);
  assert.deepEqual(found(["/user"]), ["everything", "name"]);
  assert.deepEqual(found(["/other"]), ["everything"]);
  assert.deepEqual(found(["/a~1b"]), ["escaped", "everything"]);
  assert.deepEqual(found([""]), ["escaped", "everything", "firstTitle", "list", "name"]);
  assert.deepEqual(found([]), []);
});

test("the pointer index forgets removed watchers", () => {
  const index = new PointerIndex();
  index.add("/a/b", "x");
  index.add("/a/b", "x");
  index.add("/a", "y");
  assert.equal(index.size, 2);
  index.delete("/a/b", "x");
  index.delete("/a/b", "x");
  index.delete("/nope", "x");
  assert.equal(index.size, 1);
  assert.deepEqual([...index.collect(["/a/b"])], ["y"]);
  assert.equal(index.root.children.get("a").children.size, 0, "empty branches are pruned");
});
