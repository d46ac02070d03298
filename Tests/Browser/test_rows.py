"""Demo 7 in a real browser: 100,000 rows of which the page holds only the window in
view, scrolled, sorted and filtered on the server."""

import re

from playwright.sync_api import expect

ROW_HEIGHT = 32
MAX_ROWS_IN_DOM = 1000

# Counts the grid's rows after every change of the DOM, keeping the largest count seen.
WATCH_ROWS = """() => {
  const grid = document.getElementById("grid");
  window.mostRows = grid.querySelectorAll(".rows-row").length;
  new MutationObserver(() => {
    window.mostRows = Math.max(window.mostRows, grid.querySelectorAll(".rows-row").length);
  }).observe(grid, { childList: true, subtree: true });
}"""

# Scrolls the grid to `top` and resolves with the milliseconds until the row `id` is on
# the page, checked on every frame.
SCROLL_UNTIL_ROW = """async ([top, id]) => {
  const grid = document.getElementById("grid");
  const started = performance.now();
  grid.scrollTop = top;
  while (!grid.querySelector(`.rows-row[data-id="${id}"]`)) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    if (performance.now() - started > 5000) return -1;
  }
  return performance.now() - started;
}"""

# The rows in view, top to bottom, as [index, name, city, amount].
VISIBLE_ROWS = """() => {
  const grid = document.getElementById("grid");
  const top = grid.scrollTop, bottom = top + grid.clientHeight;
  return [...grid.querySelectorAll(".rows-row")]
    .filter((row) => row.offsetTop >= top && row.offsetTop + row.offsetHeight <= bottom)
    .sort((a, b) => a.offsetTop - b.offsetTop)
    .map((row) => [...row.children].map((cell) => cell.textContent));
}"""


def rows_in_dom(page):
    return page.locator("#grid .rows-row").count()


def test_scrolling_holds_a_bounded_window_and_reaches_the_end_and_back(server, open_page, screenshot):
    page = open_page(f"{server.origin}/rows.html")
    expect(page.locator('#grid .rows-row[data-id="0"] .index')).to_have_text("0")
    expect(page.locator("#matches")).to_have_text("100000")
    # The scrollbar is the whole list's.
    assert page.eval_on_selector("#grid", "grid => grid.scrollHeight") == 100_000 * ROW_HEIGHT
    page.evaluate(WATCH_ROWS)

    # A row kept across windows is the same element, and does not move.
    kept = page.locator('#grid .rows-row[data-id="30"]')
    page.eval_on_selector('#grid .rows-row[data-id="30"]', "row => { row.kept = true; }")
    top_before = kept.evaluate("row => row.offsetTop")
    assert page.evaluate(SCROLL_UNTIL_ROW, [40 * ROW_HEIGHT, 70]) >= 0
    assert kept.evaluate("row => row.kept === true && row.offsetTop") == top_before

    # Step down the list: every window arrives, the DOM never holds more than the window.
    for step in range(1, 11):
        index = step * 9_000
        assert page.evaluate(SCROLL_UNTIL_ROW, [index * ROW_HEIGHT, index]) >= 0, f"row {index} never came"
        assert rows_in_dom(page) <= MAX_ROWS_IN_DOM

    # To the end: the last row shows well under a second after the scroll.
    page.evaluate(SCROLL_UNTIL_ROW, [0, 0])
    elapsed = page.evaluate(SCROLL_UNTIL_ROW, [100_000 * ROW_HEIGHT, 99_999])
    assert 0 <= elapsed < 1000, f"row 99999 took {elapsed:.0f} ms"
    print(f"scroll to the end: row 99999 on the page after {elapsed:.0f} ms")
    last = page.locator('#grid .rows-row[data-id="99999"]')
    expect(last.locator(".index")).to_have_text("99999")
    assert page.evaluate(VISIBLE_ROWS)[-1][0] == "99999"
    screenshot(page, "rows-end")

    # And back to the start.
    assert page.evaluate(SCROLL_UNTIL_ROW, [0, 0]) >= 0
    assert page.evaluate(VISIBLE_ROWS)[0][0] == "0"
    assert page.evaluate("window.mostRows") <= MAX_ROWS_IN_DOM
    assert rows_in_dom(page) <= MAX_ROWS_IN_DOM


def test_sorting_and_filtering_run_on_the_server_over_the_window(server, open_page):
    page = open_page(f"{server.origin}/rows.html")
    expect(page.locator('#grid .rows-row[data-id="0"]')).to_have_count(1)
    page.evaluate(WATCH_ROWS)

    page.click("#sort-name")
    expect(page.locator("#sort-name")).to_have_attribute("aria-sort", "ascending")
    expect(page.locator('#grid .rows-row[data-id="0"]')).to_have_count(0)
    names = [row[1] for row in page.evaluate(VISIBLE_ROWS)]
    assert names == sorted(names) and names[0].startswith("Ada ")

    page.click("#sort-name")
    expect(page.locator("#sort-name")).to_have_attribute("aria-sort", "descending")
    expect(page.locator("#sort-index")).to_have_attribute("aria-sort", "none")
    page.wait_for_function("() => document.querySelector('#grid .rows-row .name')?.textContent.startsWith('Vint')")

    # Sorted in the middle of the list too, once that window has come.
    page.eval_on_selector("#grid", f"grid => {{ grid.scrollTop = {50_000 * ROW_HEIGHT}; }}")
    page.wait_for_function(
        """() => { const grid = document.getElementById('grid');
          return [...grid.querySelectorAll('.rows-row')].some((row) => Math.abs(row.offsetTop - grid.scrollTop) < 32); }"""
    )
    names = [row[1] for row in page.evaluate(VISIBLE_ROWS)]
    assert len(names) > 5 and names == sorted(names, reverse=True)

    # Filter: only matching rows, counted by the server; the shorter list shows its end.
    page.fill("#filter", "lovelace")
    expect(page.locator("#matches")).not_to_have_text("100000")
    matches = int(page.locator("#matches").inner_text())
    assert 0 < matches < 10_000
    assert page.eval_on_selector("#grid", "grid => grid.scrollHeight") == matches * ROW_HEIGHT
    page.eval_on_selector("#grid", "grid => { grid.scrollTop = 0; }")
    page.click("#sort-amount")
    expect(page.locator("#sort-amount")).to_have_attribute("aria-sort", "ascending")
    page.wait_for_function(
        """() => { const rows = [...document.querySelectorAll('#grid .rows-row')].sort((a, b) => a.offsetTop - b.offsetTop);
          const amounts = rows.map((row) => Number(row.querySelector('.amount').textContent));
          return rows.length > 10 && rows[0].offsetTop === 0 && amounts.every((a, i) => i === 0 || amounts[i - 1] <= a); }"""
    )
    visible = page.evaluate(VISIBLE_ROWS)
    assert visible and all("lovelace" in (row[1] + " " + row[2]).lower() for row in visible)

    page.fill("#filter", "")
    expect(page.locator("#matches")).to_have_text("100000")
    assert page.evaluate("window.mostRows") <= MAX_ROWS_IN_DOM
    expect(page.locator("#grid")).to_have_attribute("data-sc-window", "rows")
    assert re.match(r"^\d+$", page.locator("#grid .rows-row .index").first.inner_text())
