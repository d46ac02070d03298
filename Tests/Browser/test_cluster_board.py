"""The shared board in Chromium with two tabs on two server processes that share the
room through PostgreSQL (no stickiness: each tab talks to its own process)."""

import uuid

from playwright.sync_api import expect
from test_board import GUEST_NAME, add_item, item


def test_two_tabs_on_two_processes_share_the_board_live(start_cluster, new_context, open_page_in, screenshot):
    a, b = start_cluster(2)
    room = f"cluster-{uuid.uuid4().hex[:12]}"
    pages = []
    for process in (a, b):
        page = open_page_in(new_context(), f"{process.origin}/board.html?room={room}")
        expect(page.locator("#me")).to_have_text(GUEST_NAME, timeout=5_000)
        pages.append(page)
    # Each sees both members, though they are on different processes.
    for page in pages:
        expect(page.locator("#members li.member")).to_have_count(2, timeout=5_000)
    # What one adds, the other sees at once, and the other way round.
    add_item(_Guest(pages[0]), "Milk from process A")
    expect(item(pages[1], "Milk from process A").locator(".item-title")).to_have_value("Milk from process A")
    add_item(_Guest(pages[1]), "Bread from process B")
    expect(item(pages[0], "Bread from process B").locator(".item-title")).to_have_value("Bread from process B")
    screenshot(pages[1], "board-two-processes")


class _Guest:
    """What `add_item` needs of a guest: its page."""

    def __init__(self, page):
        self.page = page
