"""Every demo page: reachable from the index, says what it shows, links back, and fits
a desktop and a phone screen."""

import re

import pytest
from playwright.sync_api import expect

DEMOS = [
    ("counter", "/counter.html", "Counter and nth prime"),
    ("fasting-timer", "/fasting-timer.html", "Fasting timer"),
    ("recruitment", "/recruitment.html", "Recruitment processes"),
    ("annotation-filters", "/annotation-filters.html", "Annotation filters"),
    ("music", "/music/artist/42?song=7", "Music deep links"),
    ("board", "/board.html?room=team", "Shared board"),
    ("signup", "/signup.html", "Sign up"),
    ("uploads", "/uploads.html", "Uploads"),
    ("rows", "/rows.html", "100,000 rows"),
    ("live", "/live.html", "Live chart"),
]


def test_the_index_links_every_demo(server, open_page, screenshot):
    page = open_page(f"{server.origin}/", connected=False)
    expect(page.locator("h1")).to_have_text("Server-side state, live in the browser")
    cards = page.locator(".demo-card")
    expect(cards).to_have_count(len(DEMOS))
    for card, (_, path, title) in zip(cards.all(), DEMOS):
        expect(card).to_have_attribute("href", path)
        expect(card.locator("h2")).to_have_text(title)
        expect(card.locator(".demo-source")).to_have_text(re.compile(r"^After "))
    screenshot(page, "index")

    cards.filter(has_text="Annotation filters").click()
    expect(page).to_have_url(f"{server.origin}/annotation-filters.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    page.get_by_role("link", name="← All demos").click()
    expect(page).to_have_url(f"{server.origin}/")


@pytest.mark.parametrize(("name", "path", "title"), DEMOS, ids=[demo[0] for demo in DEMOS])
def test_each_demo_explains_itself_and_fits_a_phone(name, path, title, server, context, open_page, screenshot):
    page = open_page(f"{server.origin}{path}")
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator(".demo-about")).to_contain_text("What this shows:")
    expect(page.get_by_role("link", name="← All demos")).to_have_attribute("href", "/")
    expect(page.locator("[data-sc-topic]")).to_have_class(re.compile(r"\bsc-ready\b"))

    page.set_viewport_size({"width": 390, "height": 844})
    # Nothing sticks out sideways on a phone.
    expect(page.locator("html")).to_have_js_property("scrollWidth", 390)
    screenshot(page, f"{name}-phone")


def test_debug_in_the_address_opens_the_message_log(server, open_page, screenshot):
    page = open_page(f"{server.origin}/counter.html?debug")
    panel = page.locator(".sc-debug")
    expect(panel).to_be_visible()
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")
    expect(panel.locator(".sc-debug-log")).to_contain_text("increment")
    expect(panel.locator(".sc-debug-log")).to_contain_text("patch")
    screenshot(page, "counter-debug")
