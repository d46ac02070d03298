"""Pages rendered with their first state, in Chromium: every demo page shows its state
with JavaScript disabled; with it, the runtime resumes the rendered session (no join, no
second snapshot) and the page answers at once; live navigation swaps pages over the one
socket, with history, scroll and focus, and falls back to a normal load; a signed-in
viewer's page shows that viewer's view and no one else's."""

import json
import re

import pytest
from playwright.sync_api import expect

# Each demo page and what its first state shows without any script.
PAGES = [
    ("counter", "/counter.html", "#count", "0"),
    ("fasting-timer", "/fasting-timer.html", "#elapsed", "0:00:00"),
    ("recruitment", "/recruitment.html", "#status", re.compile(r"\S")),
    ("annotation-filters", "/annotation-filters.html", "#summary", re.compile(r"\S")),
    ("music", "/music/artist/42?song=7", "#crumb-title", re.compile(r"\S")),
    ("board", "/board.html?room=paint", "#me", re.compile(r"\S")),
]


@pytest.mark.parametrize(("name", "path", "selector", "text"), PAGES, ids=[page[0] for page in PAGES])
def test_every_demo_page_shows_its_state_without_javascript(name, path, selector, text, server, browser, screenshot):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        response = page.goto(f"{server.origin}{path}")
        assert response.headers["cache-control"] == "private, no-store"
        topic = page.locator("[data-sc-topic]").first
        expect(topic).to_have_class(re.compile(r"\bsc-ready\b"))
        expect(page.locator(selector)).to_have_text(text)
        # Nothing bound is still cloaked or showing a placeholder binding.
        assert page.locator("[data-sc-topic] [data-sc-text]:not(template *)").count() > 0
        screenshot(page, f"first-paint-{name}-no-js")
    finally:
        context.close()


def test_the_runtime_resumes_the_rendered_session_instead_of_joining(server, context, problems):
    page = context.new_page()
    page.on("pageerror", lambda error: problems.messages.append(f"page error: {error}"))
    sent, received = [], []

    def watch(socket):
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    page.goto(f"{server.origin}/counter.html?room=first-paint")
    expect(page.locator("#count")).to_have_text("0")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")
    hellos = [message for message in sent if message.get("op") == "hello"]
    assert len(hellos) == 1 and list(hellos[0]["resume"]) == ["counter/first-paint"], sent
    assert not [message for message in sent if message.get("op") == "join"], sent
    assert not [message for message in received if message.get("op") == "snapshot"], received
    replies = [message for message in received if message.get("op") == "reply" and message.get("ref") == hellos[0]["ref"]]
    assert replies and replies[0]["resumed"] is True
    # The runtime's files are fetched once each (the stylesheet preloaded by the page's Link header).
    fetched = page.evaluate("performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)")
    assert fetched.count("/statecast.js") == 1 and fetched.count("/statecast.css") == 1, fetched
    assert problems.unexpected() == []


def test_the_index_navigates_live_over_one_socket_with_history_scroll_and_focus(server, open_page, screenshot):
    sockets = []
    page = open_page(f"{server.origin}/", before=lambda page: page.on("websocket", lambda socket: sockets.append(socket)))
    page.set_viewport_size({"width": 390, "height": 500})
    page.evaluate("window.scrollTo(0, 400)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    page.evaluate("window.statecastMarker = 'same document'")
    card = page.locator('a.demo-card[href="/counter.html"]')
    card.focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{server.origin}/counter.html")
    expect(page.locator("h1")).to_have_text("Counter and nth prime")
    expect(page.locator("#count")).to_have_text("0")
    assert page.evaluate("window.statecastMarker") == "same document", "the page was loaded anew"
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")
    screenshot(page, "live-navigation-counter")

    page.go_back()
    expect(page).to_have_url(f"{server.origin}/")
    expect(page.locator("h1")).to_have_text("Server-side state, live in the browser")
    page.wait_for_function(f"() => Math.abs(window.scrollY - {scrolled}) < 2")
    expect(page.locator('a.demo-card[href="/counter.html"]')).to_be_focused()

    page.go_forward()
    expect(page.locator("h1")).to_have_text("Counter and nth prime")
    # The tab's own counter was left with its page, as a page load would leave it.
    expect(page.locator("#count")).to_have_text("0")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")
    page.get_by_role("link", name="← All demos").click()
    expect(page.locator("h1")).to_have_text("Server-side state, live in the browser")
    assert page.evaluate("window.statecastMarker") == "same document"
    assert len(sockets) == 1, "live navigation opened another socket"


def test_live_navigation_falls_back_to_a_normal_load(server, open_page, problems):
    problems.allow(r"404")
    page = open_page(f"{server.origin}/")
    page.evaluate("window.statecastMarker = 'old document'")
    # A link the server has no page for: the refused navigate loads it as usual.
    page.evaluate(
        """() => {
          const link = document.createElement("a");
          link.href = "/no-such-page.html"; link.id = "missing"; link.textContent = "missing";
          document.querySelector("[data-sc-navigate]").append(link);
        }"""
    )
    page.click("#missing")
    expect(page).to_have_url(f"{server.origin}/no-such-page.html")
    assert page.evaluate("window.statecastMarker") is None


def test_a_signed_in_viewer_sees_their_own_view_rendered_and_another_viewer_never_does(
    server, browser, new_context, open_page_in
):
    """Signed in through signin.html as a person would; the pages are then read with
    scripts off, so what shows is what the server rendered for that viewer."""
    draft = "Ada private draft 6620"
    people = {}
    for name in ("Ada", "Bob"):
        context = new_context()
        page = open_page_in(context, f"{server.origin}/signin.html")
        page.locator("#name").fill(name)
        page.locator("#signin button[type=submit]").click()
        expect(page).to_have_url(f"{server.origin}/", timeout=10_000)
        people[name] = (context, page)
    ada = people["Ada"][1]
    ada.goto(f"{server.origin}/board.html?room=signed-in")
    expect(ada.locator("#me")).to_have_text("Ada")
    ada.locator("#draft").fill(draft)
    expect(ada.locator("#add")).to_be_enabled()  # the server has the draft: canAdd follows it

    for name, expected_draft in (("Ada", draft), ("Bob", "")):
        plain = browser.new_context(storage_state=people[name][0].storage_state(), java_script_enabled=False)
        try:
            page = plain.new_page()
            page.goto(f"{server.origin}/board.html?room=signed-in")
            expect(page.locator("#me")).to_have_text(name)
            expect(page.locator("#draft")).to_have_value(expected_draft)
            if name != "Ada":
                assert draft not in page.content()
        finally:
            plain.close()
