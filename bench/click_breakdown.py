#!/usr/bin/env python3
"""Where a click's time goes: Chromium's own trace of the click → DOM change window.

Starts the release demo server (`--echo`) like `browser_bench.py`, clicks a page's
button under Chromium tracing, and for each click takes the renderer main thread's
work between the click event and the changed DOM (marked with `performance.mark`).
Prints, as medians over the clicks, the window, the time the main thread was busy
in it by kind of work (input and event dispatch, script, style, layout, paint, the
WebSocket message), and the idle rest: waiting for the network and the server.

    python3 bench/click_breakdown.py                     # counter and echo page, 60 clicks
    python3 bench/click_breakdown.py --clicks 100 --public /tmp/other/Public
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import shutil
import statistics
import sys

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_bench import CHROMIUM, LIVE_PROBE, ROOT, start_server  # noqa: E402

MARKS = """
(selector) => {
  const target = document.querySelector(selector);
  let clicked = false;
  window.__benchDone = 0;
  window.addEventListener("click", () => { clicked = true; performance.mark("bench-click"); }, { capture: true });
  new MutationObserver(() => {
    if (!clicked) return;
    clicked = false;
    performance.mark("bench-changed");
    window.__benchDone++;
  }).observe(target, { subtree: true, childList: true, characterData: true });
}
"""

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink.user_timing",
    "toplevel",
    "v8.execute",
]


def breakdown(trace: dict) -> list[dict]:
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    marks = sorted(
        (e["ts"], e["name"]) for e in events if e.get("name") in ("bench-click", "bench-changed") and (e["pid"], e["tid"]) in main
    )
    # A mark is recorded as a begin/end pair or an instant; keep the first of each name in a row.
    windows, start = [], None
    for ts, name in marks:
        if name == "bench-click" and start is None:
            start = ts
        elif name == "bench-changed" and start is not None:
            windows.append((start, ts))
            start = None
    tasks = [e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in main and "dur" in e]
    tasks.sort(key=lambda e: e["ts"])
    # The outermost tasks only (a task's trace may nest another RunTask inside it).
    top, reach = [], -1
    for e in tasks:
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask") and e["ts"] >= reach:
            top.append(e)
            reach = e["ts"] + e["dur"]
    kinds = {
        "EventDispatch": "click dispatch + handler",
        "HandlePostMessage": "message",
        "FunctionCall": "script (callbacks)",
        "v8.callFunction": None,
        "RunMicrotasks": "microtasks",
        "UpdateLayoutTree": "style",
        "Layout": "layout",
        "PrePaint": "paint",
        "Paint": "paint",
        "Layerize": "paint",
        "Commit": "paint",
        "UpdateLayer": "paint",
        "HitTest": "input (hit test)",
        "WebSocketReceiveHandshakeResponse": None,
    }
    rows = []
    for begin, end in windows:
        row = collections.Counter()
        row["window"] = (end - begin) / 1000
        busy = 0.0
        for task in top:
            t0, t1 = task["ts"], task["ts"] + task["dur"]
            if t1 <= begin or t0 >= end:
                continue
            overlap = min(t1, end) - max(t0, begin)
            busy += overlap
            # Attribute the task to its most telling child.
            children = [c for c in tasks if c["ts"] >= t0 and c["ts"] + c["dur"] <= t1 and c is not task]
            label = "other main-thread work"
            names = {c["name"] for c in children}
            if "EventDispatch" in names:
                label = "click task (dispatch, handler, send)"
            elif any(n in names for n in ("UpdateLayoutTree", "Layout", "Paint", "PrePaint", "Commit", "Layerize")):
                label = "rendering (style, layout, paint)"
            elif "FunctionCall" in names or "v8.callFunction" in names:
                label = "script task (socket message, timers)"
            row[label] += overlap / 1000
        row["idle (network, server)"] = (end - begin - busy) / 1000
        rows.append(row)
    return rows


def run(browser, base: str, path: str, button: str, target: str, clicks: int, ready: str) -> list[dict]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(LIVE_PROBE)
    page = context.new_page()
    try:
        page.goto(base + path)
        page.wait_for_function("() => window.__benchLive !== undefined", timeout=15_000)
        page.evaluate(MARKS, target)
        for _ in range(20):  # warm up outside the trace
            done = page.evaluate("window.__benchDone")
            page.click(button)
            page.wait_for_function(f"() => window.__benchDone > {done} && {ready}", polling=1)
        browser.start_tracing(page=page, categories=CATEGORIES)
        for _ in range(clicks):
            done = page.evaluate("window.__benchDone")
            page.click(button)
            page.wait_for_function(f"() => window.__benchDone > {done} && {ready}", polling=1)
        trace = json.loads(browser.stop_tracing())
        return breakdown(trace)
    finally:
        context.close()


def report(name: str, rows: list[dict]) -> None:
    keys = ["window"] + sorted({k for r in rows for k in r if k != "window"})
    print(f"{name}: {len(rows)} clicks, median ms (mean in brackets)")
    for key in keys:
        values = [r.get(key, 0.0) for r in rows]
        print(f"  {key:40s} {statistics.median(values):6.3f}  ({statistics.mean(values):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=pathlib.Path, default=ROOT / ".build" / "release" / "statecast-demo")
    parser.add_argument("--public", type=pathlib.Path, default=ROOT / "Public")
    parser.add_argument("--clicks", type=int, default=60)
    args = parser.parse_args()
    process, base, data = start_server(args.bin, args.public)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                counter = run(browser, base, "/counter.html", "#increment", "#count", args.clicks,
                              "!document.querySelector('#increment').classList.contains('sc-loading')")
                echo = run(browser, base, "/bench/echo.html", "#increment", "#count", args.clicks, "true")
            finally:
                browser.close()
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(data, ignore_errors=True)
    report("echo page", echo)
    report("counter", counter)


if __name__ == "__main__":
    main()
