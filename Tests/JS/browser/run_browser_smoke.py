"""Drives the browser runtime in Debian's Chromium against the reference server.

A check of what a fake DOM cannot prove: real event order, focus, form submission,
CSS, reconnect and resume over a real WebSocket. Prints each step; exits non-zero on
the first failure. Screenshots go to the folder given as the first argument
(default /tmp/statecast-runtime-smoke).

    python3 Tests/JS/browser/run_browser_smoke.py [screenshot-folder]
"""

import asyncio
import pathlib
import socket
import sys
import threading

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import reference_server  # noqa: E402


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port):
    ready = threading.Event()
    box = []
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: loop.run_until_complete(reference_server.run(port, ready, box)), daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the reference server did not start")
    return box[0], loop


def step(text):
    print(f"· {text}", flush=True)


def main():
    shots = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/statecast-runtime-smoke")
    shots.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server, loop = start_server(port)
    base = f"http://127.0.0.1:{port}"
    problems = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 900, "height": 900})
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: message.type == "error"
            and "503" not in message.text  # refused upgrades while the server is paused
            and problems.append(f"console error: {message.text}"),
        )

        step("loads, connects and renders both topics")
        page.goto(f"{base}/smoke.html")
        expect(page.locator("html")).to_have_class("sc-connected")
        expect(page.locator("#count")).to_have_text("0")
        expect(page.locator("#list li")).to_have_count(2)
        expect(page.locator("#list li .title").nth(1)).to_have_text("Write <b>docs</b>")
        assert page.locator("#list li .title b").count() == 0, "bound text must not become markup"
        expect(page.locator(".sc-banner")).to_be_hidden()

        step("clicks send actions; the reply comes after the patch")
        page.click("#inc")
        page.click("#inc")
        page.click("#dec")
        page.click("#inc")
        expect(page.locator("#count")).to_have_text("2")
        value = page.evaluate("""async () => {
            const { statecast } = await import('/statecast.js');
            const counter = statecast.join('counter');
            await counter.send({ increment: {} });
            const seen = counter.state.count;
            counter.leave();
            return seen;
        }""")
        assert value == 3, f"state after await send should include the action, got {value}"

        step("a refused action marks its element and does not break the page")
        page.click("#bad")
        expect(page.locator("#bad")).to_have_class("sc-error")
        expect(page.locator("#bad")).to_have_attribute("data-sc-error", "unknown action ['explode']")
        page.click("#inc")
        expect(page.locator("#count")).to_have_text("4")
        expect(page.locator("#bad")).to_have_class("sc-error")

        step("a form adds a row at the top; untouched rows keep focus and typed text")
        note = page.locator("#list li").nth(1).locator(".note")
        note.fill("my local note")
        page.fill("#add input[name=title]", "Bread")
        page.press("#add input[name=title]", "Enter")
        expect(page.locator("#list li")).to_have_count(3)
        expect(page.locator("#list li .title").first).to_have_text("Bread")
        expect(page.locator("#add input[name=title]")).to_have_value("")
        expect(page.locator("#list li").nth(2).locator(".note")).to_have_value("my local note")
        page.locator("#list li").nth(2).locator(".note").focus()
        page.evaluate("document.querySelectorAll('#list li .toggle')[0].click()")
        expect(page.locator("#list li").first).to_have_class("done")
        assert page.evaluate("document.activeElement.value") == "my local note", "focus must stay in the untouched row"
        expect(page.locator("h2 small")).to_have_text("2")
        page.locator("#list li").nth(1).locator(".remove").click()
        expect(page.locator("#list li")).to_have_count(2)
        expect(page.locator("#list li").nth(1).locator(".note")).to_have_value("my local note")

        step("a select whose options are a list shows the state's value and sends changes")
        expect(page.locator("#filter")).to_have_value("all")
        expect(page.locator("#filter option")).to_have_count(3)
        page.select_option("#filter", "done")
        expect(page.locator("#filter-shown")).to_have_text("done")
        expect(page.locator("#filter")).to_have_value("done")

        step("a two-way input sends after the debounce and then shows the server's value")
        page.locator("#draft").press_sequentially("milk", delay=30)
        expect(page.locator("#draft")).to_have_value("MILK")

        page.screenshot(path=str(shots / "runtime-connected.png"))

        step("a dropped socket shows the banner, then resumes the same session")
        session = page.evaluate("async () => (await import('/statecast.js')).statecast.session")
        server.paused = True
        asyncio.run_coroutine_threadsafe(server.drop_all(), loop).result(5)
        expect(page.locator(".sc-banner")).to_be_visible()
        expect(page.locator(".sc-banner")).to_contain_text("Reconnecting")
        page.wait_for_function("() => getComputedStyle(document.querySelector('.sc-banner')).opacity === '1'")
        page.wait_for_function("() => document.documentElement.classList.contains('sc-disconnected')")
        page.wait_for_timeout(300)  # let the stale-state fade finish, for the screenshot only
        page.screenshot(path=str(shots / "runtime-reconnecting.png"))
        server.paused = False
        expect(page.locator("html")).to_have_class("sc-connected", timeout=10000)
        expect(page.locator(".sc-banner")).to_be_hidden()
        assert page.evaluate("async () => (await import('/statecast.js')).statecast.session") == session
        expect(page.locator("#count")).to_have_text("4")
        page.click("#inc")
        expect(page.locator("#count")).to_have_text("5")

        step("a server that forgot the session gets every topic re-joined")
        loop.call_soon_threadsafe(server.forget_sessions)
        asyncio.run_coroutine_threadsafe(server.drop_all(), loop).result(5)
        expect(page.locator("html")).to_have_class("sc-connected", timeout=10000)
        expect(page.locator("#count")).to_have_text("0")
        expect(page.locator("#list li")).to_have_count(2)
        page.click("#inc")
        expect(page.locator("#count")).to_have_text("1")

        step("?debug opens the panel with the message log and the state tree")
        page.goto(f"{base}/smoke.html?debug")
        expect(page.locator(".sc-debug")).to_be_visible()
        expect(page.locator(".sc-debug-log")).to_contain_text("hello")
        expect(page.locator(".sc-debug-log")).to_contain_text("snapshot")
        page.click("#inc")
        expect(page.locator(".sc-debug-log")).to_contain_text("patch")
        expect(page.locator(".sc-debug-log")).to_contain_text("rev 2")
        expect(page.locator(".sc-debug-states")).to_contain_text("count: 1")
        page.locator(".sc-debug-states summary", has_text="todos:").click()
        expect(page.locator(".sc-debug-states")).to_contain_text("0: {3}")
        page.screenshot(path=str(shots / "runtime-debug.png"))
        browser.close()

    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"all steps passed; screenshots in {shots}")


if __name__ == "__main__":
    main()
