// Keyed lists under random edits: the rows always show the items in order, rows whose
// key survives keep their element, and duplicate or missing keys never break the list.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { TestPage } from "./support/page.js";

beforeEach((t) => {
  t.mock.method(console, "warn", () => {});
});

/** A small seeded generator (mulberry32), so failures can be replayed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One random edit of the item list, as patch operations. */
function edit(items, next, rand) {
  const pick = () => Math.floor(rand() * items.length);
  const choice = Math.floor(rand() * 7);
  if (choice === 0 || items.length === 0) {
    const at = Math.floor(rand() * (items.length + 1));
    return [{ op: "add", path: `/items/${at}`, value: { id: `k${next()}`, title: `new ${next()}` } }];
  }
  if (choice === 1) return [{ op: "remove", path: `/items/${pick()}` }];
  if (choice === 2) return [{ op: "move", from: `/items/${pick()}`, path: `/items/${pick()}` }];
  if (choice === 3) return [{ op: "replace", path: `/items/${pick()}/title`, value: `edited ${next()}` }];
  if (choice === 4) {
    const shuffled = [...items];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    return [{ op: "replace", path: "/items", value: shuffled }];
  }
  if (choice === 5) return [{ op: "replace", path: "/label", value: `label ${next()}` }];
  return [{ op: "add", path: `/items/${pick()}`, value: { ...items[pick()], title: `twin ${next()}` } }];
}

for (const keyed of [true, false]) {
  test(`random edits keep the rows in step with the items (${keyed ? "keyed by id" : "keyed by position"})`, async () => {
    const page = new TestPage(`
      <main data-sc-topic="t">
        <ul data-sc-each="items"><template><li><b data-sc-text="title"></b><i data-sc-text="$root.label"></i><s data-sc-text="$index"></s></li></template><p>after</p></ul>
      </main>`);
    await page.start();
    const rand = random(keyed ? 42 : 7);
    let counter = 0;
    const next = () => ++counter;
    const make = (i) => (keyed ? { id: `k${i}`, title: `item ${i}` } : { title: `item ${i}` });
    await page.snapshot("t", { label: "L", items: Array.from({ length: 8 }, (_, i) => make(i)) });
    const topic = page.client.topics.get("t");
    for (let step = 0; step < 400; step++) {
      const before = new Map(page.$$("li").map((li, i) => [topic.state.items[i], li]));
      let ops = edit(topic.state.items, next, rand);
      if (!keyed) ops = JSON.parse(JSON.stringify(ops).replace(/"id":"k\d+",/g, ""));
      page.patch("t", ops);
      const { items, label } = topic.state;
      const rows = page.$$("li");
      assert.equal(rows.length, items.length, `step ${step}`);
      assert.deepEqual(
        rows.map((li) => [li.querySelector("b").textContent, li.querySelector("i").textContent, li.querySelector("s").textContent]),
        items.map((item, i) => [item.title, label, String(i)]),
        `step ${step}: ${JSON.stringify(ops)}`,
      );
      const list = page.$("ul");
      assert.equal(list.children[0].localName, "template");
      assert.equal(list.children[list.children.length - 1].localName, "p", "static content stays after the rows");
      if (keyed) {
        const unique = new Set(items.map((item) => item.id));
        for (const [i, item] of items.entries()) {
          const old = before.get(item);
          if (old && unique.size === items.length) assert.equal(rows[i], old, `step ${step}: an untouched item keeps its row`);
        }
      }
    }
  });
}
