"""Demo 2 in a real browser: the fasting timer ticking on the server, and sharing."""

import re

from playwright.sync_api import expect


def test_a_fast_ticks_from_the_server_then_finishes_and_is_shared(server, open_page, screenshot):
    page = open_page(f"{server.origin}/fasting-timer.html")
    elapsed = page.locator("#elapsed")
    expect(elapsed).to_have_text("0:00:00")
    expect(page.locator("#phase-not-started")).to_be_visible()
    expect(page.locator("#finish")).to_be_disabled()
    expect(page.locator("#reset")).to_be_disabled()
    expect(page.locator("#share")).to_be_disabled()

    page.click("#start")
    expect(page.locator("#phase-fasting")).to_be_visible()
    expect(page.locator("#phase-not-started")).to_be_hidden()
    expect(page.locator("#start")).to_be_disabled()
    # The page has no clock of its own: every second shown was pushed by the server.
    expect(elapsed).to_have_text(re.compile(r"^0:00:0[1-9]$"))
    first_tick = elapsed.inner_text()
    expect(elapsed).not_to_have_text(first_tick)

    page.click("#finish")
    expect(page.locator("#phase-finished")).to_be_visible()
    expect(page.locator("#phase-fasting")).to_be_hidden()
    expect(page.locator("#summary")).to_have_text(re.compile(r"^You fasted for 0:00:\d\d\.$"))
    shown = elapsed.inner_text()
    expect(page.locator("#summary")).to_have_text(f"You fasted for {shown}.")
    expect(page.locator("#finish")).to_be_disabled()
    expect(page.locator("#start")).to_be_enabled()

    expect(page.locator("#share-idle")).to_have_text("Ready to share.", use_inner_text=True)
    page.click("#share")
    expect(page.locator("#share-shared")).to_be_visible()
    expect(page.locator("#share-idle")).to_be_hidden()
    expect(page.locator("#share-sharing")).to_be_hidden()
    expect(page.locator("#share-failed")).to_be_hidden()
    expect(page.locator("#share")).to_be_disabled()
    screenshot(page, "fasting-timer")

    page.click("#reset")
    expect(page.locator("#phase-not-started")).to_be_visible()
    expect(page.locator("#phase-finished")).to_be_hidden()
    expect(elapsed).to_have_text("0:00:00")
    expect(page.locator("#summary")).to_have_text("")
    expect(page.locator("#share-shared")).to_be_hidden()
    expect(page.locator("#share-idle")).to_have_text("Finish a fast to share it.", use_inner_text=True)

