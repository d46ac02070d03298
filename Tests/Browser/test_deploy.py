"""Durable stores seen from a real browser: a deploy (SIGTERM, then a new process on
the same port and data) and a crash (kill -9) while pages are open.

The pages are never reloaded: the runtime reconnects by itself, resumes its session,
and shows the state the server kept, then keeps working.
"""

import json
import re
import uuid

from playwright.sync_api import expect

CONNECTED = re.compile(r"\bsc-connected\b")

# Remembers each connection state <html> took (sc-connected, sc-connecting, ...).
RECORD_CONNECTION_STATES = """() => {
  const html = document.documentElement;
  window.connectionStates = [];
  new MutationObserver(() => {
    const state = [...html.classList].find((name) => name.startsWith('sc-'));
    if (state && window.connectionStates.at(-1) !== state) window.connectionStates.push(state);
  }).observe(html, { attributes: true, attributeFilter: ['class'] });
}"""

# Counts the server's answers to the page's declarative actions (they bubble to document).
COUNT_REPLIES = """() => {
  window.replies = 0;
  window.actionErrors = [];
  document.addEventListener('statecast:reply', () => { window.replies += 1; });
  document.addEventListener('statecast:error', (event) => { window.actionErrors.push(event.detail.error.code); });
}"""


class Sockets:
    """Every WebSocket a page opened, with the JSON messages it received, in order."""

    def __init__(self):
        self.received = []  # one list of messages per socket

    def attach(self, page):
        page.on("websocket", self._opened)

    def _opened(self, ws):
        messages = []
        self.received.append(messages)
        ws.on("framereceived", lambda payload: messages.append(json.loads(payload)))


class Loads:
    """Counts `load` events of a page: a reload would add one."""

    def __init__(self):
        self.count = 0

    def attach(self, page):
        page.on("load", self._loaded)

    def _loaded(self, _page):
        self.count += 1


def attach_all(*watchers):
    def before(page):
        for watcher in watchers:
            watcher.attach(page)

    return before


def greeting_and_resume(messages):
    """(hello, the reply to the client's hello) of one socket's messages."""
    hello = next(m for m in messages if m.get("op") == "hello")
    resume = next((m for m in messages if m.get("op") == "reply" and "resumed" in m), None)
    return hello, resume


def session_in_force(messages):
    """The session of one socket: the one its resume took back (a page the server
    rendered resumes the session its request opened), else the greeting's."""
    hello, resume = greeting_and_resume(messages)
    return resume["session"] if resume is not None and resume.get("resumed") else hello["session"]


def click(page, selector, times):
    # Two tabs of one window: the one behind gets its animation frames throttled, which
    # slows Playwright's stability check (not the page), so the clicked tab comes forward.
    page.bring_to_front()
    for _ in range(times):
        page.click(selector, timeout=5_000)


def shows_count(page, topic, count):
    """The elements of counter.html that show the count: the big number, and the
    number in the favourites button (both bound to `count`); the topic is the one asked for
    (the page's `data-sc-topic` names it from the address, as the runtime resolves it)."""
    joined = page.evaluate(
        """async () => {
          const { topicName } = await import("/statecast.js");
          return topicName(document.querySelector("[data-sc-topic]").dataset.scTopic, window);
        }"""
    )
    assert joined == topic
    expect(page.locator("#count")).to_have_text(str(count), timeout=10_000)
    expect(page.locator("#add-favorite, #remove-favorite").filter(visible=True)).to_contain_text(
        str(count), timeout=10_000
    )


def test_a_deploy_keeps_a_tab_and_a_room_without_reloading_the_page(
    restartable_server, open_page, context, problems, screenshot
):
    server = restartable_server()
    room = f"deploy-{uuid.uuid4().hex[:12]}"
    tab_sockets, room_sockets, tab_loads, room_loads = Sockets(), Sockets(), Loads(), Loads()
    tab = open_page(f"{server.origin}/counter.html", before=attach_all(tab_sockets, tab_loads))
    shared = open_page(f"{server.origin}/counter.html?room={room}", before=attach_all(room_sockets, room_loads))

    shows_count(tab, "counter", 0)
    shows_count(shared, f"counter/{room}", 0)
    click(tab, "#increment", 3)
    shows_count(tab, "counter", 3)
    click(shared, "#increment", 7)
    shows_count(shared, f"counter/{room}", 7)
    # The other page did not move: one is this tab's own counter, the other the room's.
    shows_count(tab, "counter", 3)
    expect(tab.locator("#prime-badge")).to_be_visible(timeout=5_000)

    for page in (tab, shared):
        page.evaluate("window.__marker = 1")
        page.evaluate(RECORD_CONNECTION_STATES)
    assert (tab_loads.count, room_loads.count) == (1, 1)
    assert (len(tab_sockets.received), len(room_sockets.received)) == (1, 1)
    old_sessions = [session_in_force(s.received[0]) for s in (tab_sockets, room_sockets)]

    # The deploy: SIGTERM (sessions and per-tab stores are saved), then a new process on
    # the same port and data directory.
    problems.allow(r"WebSocket connection to .* failed")
    assert server.stop() == 0, "".join(server.output)
    server.start()

    for page in (tab, shared):
        page.wait_for_function("() => window.connectionStates.includes('sc-connected')", timeout=15_000)
        expect(page.locator("html")).to_have_class(CONNECTED, timeout=5_000)
        expect(page.locator(".sc-banner")).to_be_hidden(timeout=5_000)
    shows_count(tab, "counter", 3)
    shows_count(shared, f"counter/{room}", 7)
    screenshot(tab, "deploy-tab-restored")
    screenshot(shared, "deploy-room-restored")

    # Not reloaded: the same document, no further load event.
    for page in (tab, shared):
        assert page.evaluate("window.__marker") == 1
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert (tab_loads.count, room_loads.count) == (1, 1)

    # Each page opened a second socket, and the new process resumed the old session.
    for sockets, old_session in zip((tab_sockets, room_sockets), old_sessions):
        assert len(sockets.received) >= 2
        _, resume = greeting_and_resume(sockets.received[-1])
        assert resume is not None, sockets.received[-1]
        assert resume["status"] == "ok" and resume["resumed"] is True, resume
        assert resume["session"] == old_session

    # And they keep working.
    click(tab, "#increment", 1)
    shows_count(tab, "counter", 4)
    click(shared, "#increment", 1)
    shows_count(shared, f"counter/{room}", 8)
    # The room is the server's, not the page's: a fresh tab sees it too.
    fresh = open_page(f"{server.origin}/counter.html?room={room}")
    shows_count(fresh, f"counter/{room}", 8)


def test_kill_9_keeps_every_acknowledged_click_of_a_room(restartable_server, open_page, problems, screenshot):
    server = restartable_server()
    room = f"crash-{uuid.uuid4().hex[:12]}"
    loads = Loads()
    page = open_page(f"{server.origin}/counter.html?room={room}", before=loads.attach)
    page.evaluate(COUNT_REPLIES)
    page.evaluate("window.__marker = 1")

    click(page, "#increment", 7)
    # Seven acknowledged clicks: each `ok` means the change is in the database.
    page.wait_for_function("() => window.replies === 7", timeout=10_000)
    shows_count(page, f"counter/{room}", 7)

    # Five more clicks at once, then the crash at once: some may not be answered.
    page.evaluate(RECORD_CONNECTION_STATES)
    page.evaluate("() => { for (let i = 0; i < 5; i += 1) document.querySelector('#increment').click(); }")
    problems.allow(r"WebSocket connection to .* failed")
    server.kill()
    server.start()

    page.wait_for_function("() => window.connectionStates.includes('sc-connected')", timeout=15_000)
    expect(page.locator("html")).to_have_class(CONNECTED, timeout=5_000)
    # Every acknowledged click is kept; at most the five sent ones were added.
    # Each of the twelve clicks was answered: `ok`, or `connection_lost` for those in
    # flight at the crash (never re-sent).
    page.wait_for_function("() => window.replies + window.actionErrors.length === 12", timeout=10_000)
    acknowledged = page.evaluate("window.replies")
    lost = page.evaluate("window.actionErrors")
    assert all(code == "connection_lost" for code in lost), lost
    # The room shows the server's count once it has caught up: every acknowledged click
    # is kept, and at most the five sent ones were added.
    page.wait_for_function(
        "([low, high]) => { const n = Number(document.querySelector('#count').textContent);"
        " return n >= low && n <= high; }",
        arg=[acknowledged, 12],
        timeout=10_000,
    )
    count = int(page.locator("#count").text_content())
    assert acknowledged <= count <= 12, (acknowledged, count)
    print(f"kill -9: {acknowledged} of 12 clicks acknowledged, {len(lost)} lost, the room kept {count}")
    screenshot(page, "crash-room-restored")

    assert page.evaluate("window.__marker") == 1 and loads.count == 1
    click(page, "#increment", 1)
    shows_count(page, f"counter/{room}", count + 1)
    fresh = open_page(f"{server.origin}/counter.html?room={room}")
    shows_count(fresh, f"counter/{room}", count + 1)
