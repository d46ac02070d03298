#!/usr/bin/env python3
"""Statecast in a real browser: how soon a demo page is live, and how long a click takes.

Drives Debian's Chromium (headless, through Playwright) against the release demo
server, which the script starts itself with `--echo`. Every figure is a median over
several fresh browser contexts (each its own cache, storage and sockets):

- page load, per demo page, cold (a fresh context) and warm (the same context, a
  second load): HTTP requests that reached the server, DOMContentLoaded, and *live*:
  the moment every `data-sc-topic` element shows its first state (`sc-ready`). Next to
  them, three floor pages served by the same server: `bench/bare.html` (a button and a
  number, nothing connected), `bench/echo.html` (the same with a WebSocket to `/echo`:
  live when its first echo is on the page), and, for each demo page, its own markup and
  stylesheets with that echo socket in place of the runtime (generated into a copy of
  `Public/` at start: what the page's content costs a browser, without Statecast;
  `× markup` is the demo page's live over its copy's). *Shown*: live, or the first
  contentful paint when that comes later, as a person would see it.
- first paint: each demo page also from a second server started with
  `--no-render-pages` (rows "…, not rendered": the page before the server rendered its
  first state), and *interactive*: the moment the page's socket is greeted and its
  session resumed (`sc-connected`), next to its markup's echo floor.
- live navigation: from the index, a click on each demo's card until that page shows its
  first state in the same document, next to a cold load of the page.
- click → DOM change: a real mouse click on the counter's "+" until the count's text
  has changed (p50, p99), next to the same on the echo page, and their ratio. The "+"
  predicts its change (`data-sc-predict`), which shows at once: the row times it twice,
  as the page has it (the prediction) and with the prediction taken out before the
  runtime binds (the server's patch, the round trip this row is about).
- scroll → rows shown: on `/rows.html` (a windowed list of 100,000 rows), the time from
  setting the grid's scroll position to a far row until that row is on the page (the
  runtime asks for the window, the server sends it as a patch), for jumps to seeded
  random rows and to the last one, next to the echo page's click as the floor.

The server runs at real-time priority (`chrt -f 10`) where this user may: on a machine
with few cores it would otherwise now and then wait for a core behind Chromium's
processes, which a server of its own never does (`--server-priority normal` to compare).

Times are measured inside the page (`performance.now()`, navigation start = 0): a
capturing `click` listener on the window marks the click, a MutationObserver marks the
changed DOM. Not part of the test suites; run it on a quiet machine:

    swift build -c release --product statecast-demo
    python3 bench/browser_bench.py                  # 7 contexts, 300 clicks each page
    python3 bench/browser_bench.py --runs 11 --clicks 500 --json /tmp/browser.json

`--public DIR` serves another copy of `Public/` (to compare runtime versions in one
run; the copy needs `bench/bare.html` and `bench/echo.html`).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("STATECAST_CHROMIUM", "/usr/bin/chromium")
DEMO_PAGES = ["counter", "fasting-timer", "recruitment", "annotation-filters", "music"]

# Runs in every document before its own scripts: records when the page is live.
# A statecast page is live when every topic element shows its first state; the echo
# page when its first echo is shown (it sets the class "live" on <html>); the bare page
# when the document is parsed.
LIVE_PROBE = """
(() => {
  const isLive = () => {
    const html = document.documentElement;
    if (!html) return false;
    if (html.classList.contains("live")) return true;
    if (document.readyState === "loading") return false;
    const topics = document.querySelectorAll("[data-sc-topic]");
    if (topics.length === 0) return location.pathname.endsWith("/bare.html");
    for (const topic of topics) if (!topic.classList.contains("sc-ready")) return false;
    return true;
  };
  // Interactive: a statecast page's socket is greeted and its session resumed (actions
  // flow); a page without the runtime is interactive when it is live.
  const isInteractive = () => {
    const html = document.documentElement;
    return html.classList.contains("live") || html.classList.contains("sc-connected") || location.pathname.endsWith("/bare.html");
  };
  const check = () => {
    if (window.__benchLive === undefined && isLive()) {
      window.__benchLive = performance.now();
      console.debug("statecast-bench: live");
    }
    if (window.__benchLive !== undefined && window.__benchInteractive === undefined && isInteractive()) {
      window.__benchInteractive = performance.now();
      console.debug("statecast-bench: interactive");
    }
    return window.__benchInteractive !== undefined;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });
  document.addEventListener("readystatechange", () => { if (check()) observer.disconnect(); });
})();
"""

# Installed once the page is live: marks each click and the DOM change that follows.
CLICK_PROBE = """
(selector) => {
  const target = document.querySelector(selector);
  const probe = { clickAt: null, changedAt: null };
  window.__benchClick = probe;
  window.addEventListener("click", () => {
    probe.clickAt = performance.now();
    probe.changedAt = null;
  }, { capture: true });
  new MutationObserver(() => {
    if (probe.clickAt !== null && probe.changedAt === null) probe.changedAt = performance.now();
  }).observe(target, { subtree: true, childList: true, characterData: true });
}
"""


# An init script: takes `data-sc-predict` off every element as the document is parsed,
# before the runtime binds it, so that a click waits for the server's patch.
WITHOUT_PREDICTIONS = """
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType !== 1) continue;
      for (const element of [node, ...node.querySelectorAll("[data-sc-predict]")]) {
        element.removeAttribute?.("data-sc-predict");
      }
    }
  }
}).observe(document, { subtree: true, childList: true });
"""


# Replaces the runtime in a copy of a demo page: the page is live when the echo of its
# first message has come back, as on bench/echo.html.
ECHO_SCRIPT = """<script>
  const benchSocket = new WebSocket(`${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/echo`);
  benchSocket.onopen = () => benchSocket.send("0");
  benchSocket.onmessage = () => document.documentElement.classList.add("live");
</script>
</body>"""


def with_markup_floors(public: pathlib.Path, pages: list[str]) -> pathlib.Path:
    """A copy of `public` with bench/NAME-echo.html for each demo page: the page without
    the early snippet, the runtime and its own module scripts (the runtime's stylesheet
    kept), with an echo socket."""
    copy = pathlib.Path(tempfile.mkdtemp(prefix="statecast-bench-public-")) / "Public"
    shutil.copytree(public, copy)
    for name in pages:
        html = (public / f"{name}.html").read_text()
        html = re.sub(r"<script>(?:(?!</script>).)*statecastEarlySocket(?:(?!</script>).)*</script>\s*", "", html, flags=re.S)
        html = re.sub(r'<script type="module"[^>]*>.*?</script>\s*', "", html, flags=re.S)
        # The early snippet loads the runtime: in its place, only the runtime's stylesheet,
        # which the page's look builds on.
        html = html.replace('<script src="/statecast/early.js"></script>', '<link rel="stylesheet" href="/statecast.css">')
        assert "statecast.js" not in html and "statecast/early.js" not in html and "statecastEarlySocket" not in html, (
            f"{name}.html: update with_markup_floors"
        )
        (copy / "bench" / f"{name}-echo.html").write_text(html.replace("</body>", ECHO_SCRIPT))
    return copy


def realtime_prefix() -> list[str]:
    """`chrt -f 10` where this user may use it (root, or CAP_SYS_NICE), else nothing."""
    chrt = shutil.which("chrt")
    if chrt and subprocess.run([chrt, "-f", "10", "true"], capture_output=True).returncode == 0:
        return [chrt, "-f", "10"]
    return []


def start_server(
    binary: pathlib.Path, public: pathlib.Path, prefix: list[str], *flags: str
) -> tuple[subprocess.Popen, str, str]:
    data = tempfile.mkdtemp(prefix="statecast-bench-data-")
    process = subprocess.Popen(
        [*prefix, str(binary), "--port", "0", "--public", str(public), "--data", data, "--echo", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"listening on (http://\S+)", line)
        if match:
            return process, match.group(1).rstrip("/"), data
    process.kill()
    raise SystemExit(f"{binary} exited before listening")


def shown(sample: dict) -> float:
    """When the first state is on screen: live, or the first contentful paint if that
    comes later (a page rendered by the server is live in its DOM once parsed, but a person
    sees it only when the browser has painted it)."""
    return max(sample["live"], sample.get("paint") or 0.0)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def load(context, url: str) -> dict:
    """Loads `url` in a new tab of `context`; returns requests, DOMContentLoaded and live."""
    page = context.new_page()
    try:
        # Nothing of Playwright's runs in the page until it is live: waiting for a function
        # or a selector would inject Playwright's script (tens of milliseconds of compiling
        # on the page's main thread) while the page is still loading. The probe's console
        # message arrives through the DevTools protocol instead.
        with page.expect_console_message(lambda message: message.text == "statecast-bench: interactive", timeout=15_000):
            page.goto(url, wait_until="commit")
        page.wait_for_load_state("load")
        # The first contentful paint's entry is added once the compositor reports the
        # frame presented, which can be after the page is live and loaded: wait for it
        # (a page live before its paint was otherwise counted as shown when live).
        page.evaluate(
            """() => new Promise((resolve) => {
              if (performance.getEntriesByName("first-contentful-paint").length) return resolve();
              new PerformanceObserver((list, observer) => {
                if (list.getEntriesByName("first-contentful-paint").length) {
                  observer.disconnect();
                  resolve();
                }
              }).observe({ type: "paint", buffered: true });
              setTimeout(resolve, 5000);
            })"""
        )
        return page.evaluate(
            """() => {
              const navigation = performance.getEntriesByType("navigation")[0];
              const resources = performance.getEntriesByType("resource");
              // transferSize 0: served from the cache without asking the server.
              const fetched = resources.filter((entry) => entry.transferSize > 0).length;
              return {
                requests: (navigation.transferSize > 0 ? 1 : 0) + fetched,
                resources: resources.length + 1,
                dcl: navigation.domContentLoadedEventEnd,
                live: window.__benchLive,
                interactive: window.__benchInteractive,
                paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
              };
            }"""
        )
    finally:
        page.close()


def measure_loads(browser, base: str, pages: list[str], runs: int) -> dict:
    """Each run loads every page once, in turn: a change in the machine's load over the
    bench touches every row alike."""
    results = {name: {"cold": [], "warm": []} for name, _ in pages}
    for _ in range(runs):
        for name, path in pages:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_init_script(LIVE_PROBE)
            try:
                results[name]["cold"].append(load(context, base + path))
                results[name]["warm"].append(load(context, base + path))
            finally:
                context.close()
    return results


def measure_clicks(
    browser, base: str, path: str, button: str, target: str, clicks: int, statecast: bool, predicts: bool = True
) -> list[float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(LIVE_PROBE)
    if not predicts:
        context.add_init_script(WITHOUT_PREDICTIONS)
    page = context.new_page()
    try:
        page.goto(base + path)
        page.wait_for_function("() => window.__benchLive !== undefined", timeout=15_000)
        page.evaluate(CLICK_PROBE, target)
        settled = (
            "() => window.__benchClick.changedAt !== null && !document.querySelector(%s).classList.contains('sc-loading')"
            % json.dumps(button)
            if statecast
            else "() => window.__benchClick.changedAt !== null"
        )
        samples = []
        for i in range(clicks + 20):
            page.click(button)
            page.wait_for_function(settled, polling=1, timeout=10_000)
            probe = page.evaluate("window.__benchClick")
            if i >= 20:  # the first clicks warm up the JIT and the server's store
                samples.append(probe["changedAt"] - probe["clickAt"])
        return samples
    finally:
        context.close()


# Jumps the rows grid to `index` and resolves with the milliseconds until that row is
# on the page (checked every frame).
ROWS_JUMP = """async (index) => {
  const grid = document.getElementById("grid");
  const started = performance.now();
  grid.scrollTop = index * 32;
  while (!grid.querySelector(`.rows-row[data-id="${index}"]`)) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return performance.now() - started;
}"""


def measure_row_jumps(browser, base: str, jumps: int) -> list[float]:
    """Scroll → rows shown on /rows.html: `jumps` jumps to seeded random rows, then the end."""
    import random

    generator = random.Random(26)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{base}/rows.html")
        page.wait_for_selector('#grid .rows-row[data-id="0"]')
        samples = []
        for _ in range(jumps):
            samples.append(page.evaluate(ROWS_JUMP, generator.randrange(0, 99_000)))
        samples.append(page.evaluate(ROWS_JUMP, 99_999))
        return samples
    finally:
        context.close()
# Installed on the index once its socket is up: marks a click and the moment the page it
# leads to shows its first state (its topic element ready), in the same document.
NAVIGATION_PROBE = """
() => {
  const probe = { clickAt: null, shownAt: null };
  window.__benchNavigation = probe;
  window.addEventListener("click", () => { probe.clickAt = performance.now(); }, { capture: true });
  new MutationObserver(() => {
    if (probe.clickAt === null || probe.shownAt !== null) return;
    const topic = document.querySelector("[data-sc-topic]");
    if (topic && topic.classList.contains("sc-ready")) probe.shownAt = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
}
"""


def measure_navigation(browser, base: str, pages: list[str], runs: int) -> dict:
    """Live navigation from the index to each demo page: click → the page's first state,
    over the index's socket (the same document), in a fresh context each time."""
    results = {name: [] for name in pages}
    for _ in range(runs):
        for name in pages:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            try:
                page.goto(base + "/")
                page.wait_for_function("() => document.documentElement.classList.contains('sc-connected')", timeout=15_000)
                # The target's own assets (its stylesheet is the index's) are what a cold
                # load would fetch too; the comparison is the page itself.
                page.evaluate(NAVIGATION_PROBE)
                page.click(f'a.demo-card[href="/{name}.html"]')
                page.wait_for_function("() => window.__benchNavigation.shownAt !== null", timeout=15_000)
                probe = page.evaluate("window.__benchNavigation")
                assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
                results[name].append(probe["shownAt"] - probe["clickAt"])
            finally:
                context.close()
    return results


def fmt(ms: float) -> str:
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms"


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=pathlib.Path, default=ROOT / ".build" / "release" / "statecast-demo")
    parser.add_argument("--public", type=pathlib.Path, default=ROOT / "Public")
    parser.add_argument("--runs", type=int, default=7, help="fresh browser contexts per page (≥ 5)")
    parser.add_argument("--clicks", type=int, default=300, help="timed clicks per page (≥ 200)")
    parser.add_argument("--pages", default=",".join(DEMO_PAGES), help="comma-separated demo pages")
    parser.add_argument("--jumps", type=int, default=200, help="timed jumps in the 100,000-row list")
    parser.add_argument("--json", type=pathlib.Path, help="also write the raw samples here")
    parser.add_argument(
        "--server-priority", choices=["realtime", "normal"], default="realtime",
        help="realtime (default, where permitted): the server never waits for a core behind the browser's processes",
    )
    args = parser.parse_args()
    if not args.bin.exists():
        raise SystemExit(f"{args.bin} not found: swift build -c release --product statecast-demo")

    pages = [name for name in args.pages.split(",") if name]
    public = with_markup_floors(args.public, pages)
    prefix = realtime_prefix() if args.server_priority == "realtime" else []
    process, base, data = start_server(args.bin, public, prefix)
    # The same binary without the first paint: each demo page as it was before it.
    unrendered, unrendered_base, unrendered_data = start_server(args.bin, public, prefix, "--no-render-pages")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                floors = [("bare page", "/bench/bare.html"), ("echo page", "/bench/echo.html")]
                demos = [(name, f"/{name}.html") for name in pages]
                markups = [(f"{name} markup + echo", f"/bench/{name}-echo.html") for name in pages]
                loads = measure_loads(browser, base, floors + demos + markups, args.runs)
                before = measure_loads(browser, unrendered_base, demos, args.runs)
                for name, runs in before.items():
                    loads[f"{name}, not rendered"] = runs
                navigation = measure_navigation(browser, base, [n for n in pages if n != "music"], args.runs)
                counter = measure_clicks(browser, base, "/counter.html", "#increment", "#count", args.clicks, True)
                unpredicted = measure_clicks(
                    browser, base, "/counter.html", "#increment", "#count", args.clicks, True, predicts=False)
                echo = measure_clicks(browser, base, "/bench/echo.html", "#increment", "#count", args.clicks, False)
                jumps = measure_row_jumps(browser, base, args.jumps)
                version = browser.version
            finally:
                browser.close()
    finally:
        for server in (process, unrendered):
            server.terminate()
            server.wait()
        shutil.rmtree(unrendered_data, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(public.parent, ignore_errors=True)

    floor = median([s["live"] for s in loads["echo page"]["cold"]])
    floor_shown = median([shown(s) for s in loads["echo page"]["cold"]])
    floor_warm = median([s["live"] for s in loads["echo page"]["warm"]])
    rows = []
    for name, runs in loads.items():
        cold, warm = runs["cold"], runs["warm"]
        cold_live, warm_live = median([s["live"] for s in cold]), median([s["live"] for s in warm])
        markup = loads.get(f"{name.removesuffix(', not rendered')} markup + echo")
        cold_interactive = median([s["interactive"] for s in cold])
        rows.append([
            name,
            f"{median([s['requests'] for s in cold]):.0f}",
            fmt(median([s["dcl"] for s in cold])),
            fmt(cold_live),
            f"{cold_live / floor:.2f}",
            f"{cold_live / median([s['live'] for s in markup['cold']]):.2f}" if markup else "",
            fmt(median([shown(s) for s in cold])),
            f"{median([shown(s) for s in cold]) / floor_shown:.2f}",
            fmt(cold_interactive),
            f"{cold_interactive / median([s['interactive'] for s in markup['cold']]):.2f}" if markup else "",
            f"{median([s['requests'] for s in warm]):.0f}",
            fmt(median([s["dcl"] for s in warm])),
            fmt(warm_live),
            f"{warm_live / floor_warm:.2f}",
        ])
    print(f"Chromium {version}, {args.runs} fresh contexts per page, medians; times from navigation start")
    print(f"server scheduling: {'real-time (' + ' '.join(prefix[1:]) + ')' if prefix else 'normal'}")
    print()
    print(table(
        ["page", "cold req", "cold DCL", "cold live", "× echo", "× markup", "cold shown", "× echo", "cold interactive", "× markup", "warm req", "warm DCL", "warm live", "× echo"],
        rows,
    ))
    print()
    nav_rows = []
    for name, samples in navigation.items():
        cold_load = median([s["live"] for s in loads[name]["cold"]])
        nav_rows.append([name, str(len(samples)), fmt(median(samples)), fmt(cold_load), f"{median(samples) / cold_load:.2f}"])
    print(table(["live navigation from the index", "runs", "click → first state", "cold load live", "× cold load"], nav_rows))
    print()
    c50, c99, e50, e99 = percentile(counter, 50), percentile(counter, 99), percentile(echo, 50), percentile(echo, 99)
    u50, u99 = percentile(unpredicted, 50), percentile(unpredicted, 99)
    print(table(
        ["click → DOM change", "clicks", "p50", "p99", "p50 × echo"],
        [
            ["echo page (floor)", str(len(echo)), fmt(e50), fmt(e99), "1.00"],
            ["counter, predicted", str(len(counter)), fmt(c50), fmt(c99), f"{c50 / e50:.2f}"],
            ["counter, the server's patch", str(len(unpredicted)), fmt(u50), fmt(u99), f"{u50 / e50:.2f}"],
        ],
    ))
    print()
    j50, j99 = percentile(jumps, 50), percentile(jumps, 99)
    print(table(
        ["scroll → rows shown", "jumps", "p50", "p99", "p50 × echo click"],
        [["rows.html, 100,000 rows", str(len(jumps)), fmt(j50), fmt(j99), f"{j50 / e50:.2f}"]],
    ))
    if args.json:
        args.json.write_text(json.dumps({"chromium": version, "loads": loads, "navigation": navigation, "clicks": {"counter": counter, "echo": echo}, "jumps": jumps}, indent=1))


if __name__ == "__main__":
    main()
