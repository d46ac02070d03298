"""Losing the connection: the banner shows, then the page catches up with the server."""

import re

from playwright.sync_api import expect

# Remembers each connection state <html> took, so that a short drop is seen for sure.
RECORD_CONNECTION_STATES = """() => {
  const html = document.documentElement;
  window.connectionStates = [];
  new MutationObserver(() => {
    const state = [...html.classList].find((name) => name.startsWith('sc-'));
    if (state && window.connectionStates.at(-1) !== state) window.connectionStates.push(state);
  }).observe(html, { attributes: true, attributeFilter: ['class'] });
}"""

CONNECTED = re.compile(r"\bsc-connected\b")

# Keeps every WebSocket the page opens within reach, so a test can drop one the way a
# network failure would, without reaching into the runtime.
RECORD_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.openedSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.openedSockets.push(this);
    }
  };
})()"""


def test_a_dropped_socket_resumes_the_same_store(server, context, open_page):
    context.add_init_script(RECORD_SOCKETS)
    page = open_page(f"{server.origin}/counter.html")
    page.click("#increment")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("2")
    page.evaluate(RECORD_CONNECTION_STATES)

    page.evaluate("window.openedSockets.at(-1).close()")
    # The close is reported asynchronously: wait for the drop, then for the way back.
    page.wait_for_function("() => window.connectionStates.includes('sc-connected')")
    states = page.evaluate("window.connectionStates")
    assert states[0] == "sc-disconnected" and states[-1] == "sc-connected", states
    expect(page.locator("html")).to_have_class(CONNECTED)

    # The session was resumed: the same store, the same count, and actions flow again.
    expect(page.locator("#count")).to_have_text("2")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("3")
    expect(page.locator(".sc-banner")).to_be_hidden()


def test_a_restarted_server_shows_the_banner_then_its_own_state(start_server, open_page, problems, screenshot):
    first = start_server()
    page = open_page(f"{first.origin}/counter.html")
    for _ in range(3):
        page.click("#increment")
    expect(page.locator("#count")).to_have_text("3")
    # The "+" predicts its change: the count shows 3 before the server has answered the
    # third click. The question below is the server's own view of 3, and its reply comes
    # right behind it. (A click the server had not answered when it stopped is sent again
    # to the next server, by design, which would then count 1.)
    expect(page.locator("#ask")).to_have_text("What is the 3rd prime?")
    expect(page.locator(".sc-banner")).to_be_hidden()

    problems.allow(r"WebSocket connection to .* failed")
    assert first.stop() == 0
    banner = page.locator(".sc-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Reconnecting…")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-(disconnected|connecting)\b"))
    # The last known state stays on screen meanwhile.
    expect(page.locator("#count")).to_have_text("3")
    screenshot(page, "reconnecting")

    second = start_server("--port", str(first.port))
    assert second.origin == first.origin
    # The new server does not know the old session: the topic is joined afresh and the
    # page shows the new store's state.
    expect(page.locator("html")).to_have_class(CONNECTED)
    expect(banner).to_be_hidden()
    expect(page.locator("#count")).to_have_text("0")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")


def test_the_music_page_reopens_its_address_on_a_restarted_server(start_server, open_page, problems):
    first = start_server()
    page = open_page(f"{first.origin}/music/album/9")
    expect(page.locator("#album-screen h2")).to_have_text("Analytical Engine")

    problems.allow(r"WebSocket connection to .* failed")
    first.stop()
    expect(page.locator(".sc-banner")).to_be_visible()
    start_server("--port", str(first.port))

    # The new store starts on its home screen; the page opens the address it shows.
    expect(page.locator("html")).to_have_class(CONNECTED)
    expect(page.locator("#album-screen")).to_be_visible()
    expect(page.locator("#album-screen h2")).to_have_text("Analytical Engine")
    expect(page).to_have_url(f"{first.origin}/music/album/9")
