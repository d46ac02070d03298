// The binding expression language and action templates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExpressionError, displayText, evaluate, parseExpression, parsePairs, truthy } from "../../Runtime/statecast/expression.js";
import { fillTemplate, parseActionTemplate } from "../../Runtime/statecast/action-template.js";

const state = {
  count: 3,
  user: { name: "Ada", "first.name": "A" },
  todos: [{ id: "a", title: "Milk" }, { id: "b", title: "Eggs" }],
  filter: "active",
  phase: { loading: {} },
  empty: [],
  nothing: null,
};
const scope = { value: state, root: state };
const value = (source, s = scope) => evaluate(parseExpression(source), s);

test("paths: dotted, pointer, length, missing", () => {
  assert.equal(value("count"), 3);
  assert.equal(value("user.name"), "Ada");
  assert.equal(value("/user/first.name"), "A");
  assert.equal(value("todos.1.title"), "Eggs");
  assert.equal(value("todos.length"), 2);
  assert.equal(value("user.missing.deeper"), undefined);
  assert.equal(value("count.toFixed"), undefined);
  assert.equal(value("todos.constructor"), undefined);
  assert.deepEqual(value("."), state);
});

test("negation and comparisons", () => {
  assert.equal(value("!count"), false);
  assert.equal(value("!!count"), true);
  assert.equal(value("!missing"), true);
  assert.equal(value('filter == "active"'), true);
  assert.equal(value("filter == active"), true);
  assert.equal(value("filter == 'done'"), false);
  assert.equal(value("filter != done"), true);
  assert.equal(value("count == 3"), true);
  assert.equal(value('count == "3"'), false);
  assert.equal(value("count >= 3"), true);
  assert.equal(value("count > 3"), false);
  assert.equal(value("count < 10"), true);
  assert.equal(value("todos.length <= 1"), false);
  assert.equal(value("missing == null"), true);
  assert.equal(value("nothing == null"), true);
  assert.equal(value("!filter == active"), false);
  assert.equal(value("filter > 3"), false);
});

test("truthiness: {} is true, [] is false", () => {
  assert.equal(value("phase.loading") !== undefined && truthy(value("phase.loading")), true);
  assert.equal(truthy(value("phase.loaded")), false);
  assert.equal(truthy(value("empty")), false);
  for (const falsy of [undefined, null, false, 0, "", []]) assert.equal(truthy(falsy), false);
  for (const yes of [{}, [0], "0", 1, true]) assert.equal(truthy(yes), true);
});

test("row scope names: $item, $root, $index, $key", () => {
  const row = { value: state.todos[1], root: state, index: 1, key: "b" };
  assert.equal(value("title", row), "Eggs");
  assert.equal(value("$item.title", row), "Eggs");
  assert.deepEqual(value("$item", row), state.todos[1]);
  assert.equal(value("$root.user.name", row), "Ada");
  assert.equal(value("$root/count", row), 3);
  assert.equal(value("$index", row), 1);
  assert.equal(value("$key", row), "b");
  assert.equal(value("$index == 1", row), true);
});

test("dependencies are the watched pointers", () => {
  assert.equal(parseExpression("user.name").dependency, "/user/name");
  assert.equal(parseExpression("todos.length").dependency, "/todos");
  assert.equal(parseExpression("!$root.a/b").base, "root");
  assert.equal(parseExpression("$root/a~1b").dependency, "/a~1b");
  assert.equal(parseExpression("$index").dependency, "");
  assert.equal(parseExpression("filter == x").dependency, "/filter");
});

test("bad expressions are refused when parsed", () => {
  assert.throws(() => parseExpression("$nope"), ExpressionError);
  assert.throws(() => parseExpression("!"), ExpressionError);
  assert.throws(() => parsePairs("done"), ExpressionError);
});

test("pairs for classes and attributes", () => {
  const pairs = parsePairs("done: completed; is-active: !paused ;; aria-label: user.name");
  assert.deepEqual(pairs.map((p) => p.name), ["done", "is-active", "aria-label"]);
  assert.equal(pairs[1].expression.negations, 1);
});

test("display text", () => {
  assert.equal(displayText(undefined), "");
  assert.equal(displayText(null), "");
  assert.equal(displayText(0), "0");
  assert.equal(displayText(false), "false");
  assert.equal(displayText("<b>"), "<b>");
  assert.equal(displayText({ a: [1] }), '{"a":[1]}');
});

test("action templates: bare names, JSON, placeholder checks", () => {
  assert.deepEqual(parseActionTemplate(" increment "), { increment: {} });
  assert.deepEqual(parseActionTemplate('{"open":{"path":"$href"}}'), { open: { path: "$href" } });
  assert.throws(() => parseActionTemplate('{"open":{"path":"$hreff"}}'), ExpressionError);
  assert.throws(() => parseActionTemplate("{open}"), ExpressionError);
  assert.throws(() => parseActionTemplate('{"x":"$attr."}'), ExpressionError);
  assert.deepEqual(parseActionTemplate('{"price":"$$5"}'), { price: "$$5" });
});

test("placeholders are filled from the element, the row and the page, keeping JSON types", () => {
  const template = parseActionTemplate(
    JSON.stringify({
      edit: {
        id: "$key",
        at: "$index",
        title: "$value",
        done: "$checked",
        link: "$href",
        kind: "$attr.data-kind",
        item: "$item",
        itemTitle: "$item.title",
        user: "$root.user.name",
        fields: "$form",
        field: "$form.title",
        missingField: "$form.nope",
        path: "$location.pathname",
        song: "$query.song",
        key: "$event.key",
        literal: "$$value",
        plain: "text",
        list: ["$index", 1, null],
      },
    }),
  );
  const filled = fillTemplate(template, {
    value: () => "Bread",
    checked: () => true,
    attribute: (name) => ({ href: "/music/artist/42", "data-kind": "x" })[name] ?? null,
    form: () => ({ title: "Milk", count: 2 }),
    scope: { value: state.todos[0], root: state, index: 0, key: "a" },
    location: { pathname: "/music/artist/42", search: "?song=7" },
    event: { key: "Enter" },
  });
  assert.deepEqual(filled, {
    edit: {
      id: "a",
      at: 0,
      title: "Bread",
      done: true,
      link: "/music/artist/42",
      kind: "x",
      item: { id: "a", title: "Milk" },
      itemTitle: "Milk",
      user: "Ada",
      fields: { title: "Milk", count: 2 },
      field: "Milk",
      missingField: null,
      path: "/music/artist/42",
      song: "7",
      key: "Enter",
      literal: "$value",
      plain: "text",
      list: [0, 1, null],
    },
  });
});

test("placeholders without a source become null", () => {
  assert.deepEqual(fillTemplate({ a: "$value", b: "$item.x", c: "$query.q", d: "$attr.x" }, {}), { a: null, b: null, c: null, d: null });
});
