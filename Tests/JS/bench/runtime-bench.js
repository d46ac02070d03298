// Rough speed of the runtime's hot paths in Node (not a test; run by hand):
//   node Tests/JS/bench/runtime-bench.js
// Prints medians for applying patches to large states and for updating a keyed list
// of the same size on the fake DOM after one row changed.
import { applyPatch } from "../../../Runtime/statecast/patch.js";
import { PointerIndex } from "../../../Runtime/statecast/pointer-index.js";
import { TestPage, settle } from "../support/page.js";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const time = (fn, runs = 50) => {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  return median(samples);
};
const format = (us) => (us < 1000 ? `${us.toFixed(1)} µs` : `${(us / 1000).toFixed(2)} ms`);
const rows = (n) => Array.from({ length: n }, (_, i) => ({ id: i, title: `Row ${i}`, done: false, owner: "ada", tags: ["a"], estimate: i % 7 }));

console.log("rows      one-field patch   insert at top   100-op patch   list update (fake DOM)");
for (const n of [100, 1000, 10000, 100000]) {
  const state = { title: "Todos", rows: rows(n) };
  const oneField = time((i) => applyPatch(state, [{ op: "replace", path: `/rows/${i % n}/done`, value: true }]));
  const insert = time(() => applyPatch(state, [{ op: "add", path: "/rows/0", value: { id: -1, title: "New", done: false } }]));
  const hundred = Array.from({ length: 100 }, (_, i) => ({ op: "replace", path: `/rows/${(i * 37) % n}/title`, value: `t${i}` }));
  const many = time(() => applyPatch(state, hundred), 20);
  let list = "-";
  if (n <= 10000) {
    const page = new TestPage(`<main data-sc-topic="t"><ul data-sc-each="rows"><template><li data-sc-class="done: done"><span data-sc-text="title"></span></li></template></ul></main>`);
    console.error = () => {};
    await page.start();
    await page.snapshot("t", state);
    let rev = page.client.topics.get("t").rev;
    list = format(
      time((i) => {
        rev += 1;
        page.socket.serverSend({ op: "patch", topic: "t", rev, ops: [{ op: "replace", path: `/rows/${i % n}/done`, value: i % 2 === 0 }] });
      }, 20),
    );
    await settle();
  }
  console.log(`${String(n).padEnd(9)} ${format(oneField).padEnd(17)} ${format(insert).padEnd(15)} ${format(many).padEnd(14)} ${list}`);
}

const index = new PointerIndex();
for (let i = 0; i < 5000; i++) index.add(`/section${i % 50}/field${i}`, i);
console.log(`pointer index, 5,000 bindings, one change: ${format(time(() => index.collect(["/section7/field107"]), 200))}`);
