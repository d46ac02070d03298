"""Undo and redo on the shared board (board.html): two members, each undoing only their
own change, by button and by keyboard; the rule for a change someone else touched since;
and a history that survives a restart of the server."""

import uuid

from playwright.sync_api import expect

from test_board import GUEST_NAME, add_item, open_guests
from test_deploy import RECORD_CONNECTION_STATES


TITLES = "() => [...document.querySelectorAll('#items .item-title')].map((field) => field.value)"


def has_titles(page, expected, timeout=5_000):
    """Waits until the page lists exactly `expected`, in order (or fails saying what it lists)."""
    try:
        page.wait_for_function(f"(expected) => JSON.stringify(({TITLES})()) === JSON.stringify(expected)", arg=expected, timeout=timeout)
    except Exception:
        raise AssertionError(f"expected {expected}, the page lists {page.evaluate(TITLES)}") from None


def shows(guests, expected):
    """Every member's page lists exactly `expected`, in order."""
    for guest in guests:
        has_titles(guest.page, expected)


def room():
    return f"undo-{uuid.uuid4().hex[:12]}"


def test_each_member_undoes_their_own_item_and_redo_brings_it_back(start_server, new_context, open_page_in):
    server = start_server()
    ada, ben = open_guests(server, room(), new_context, open_page_in, count=2)
    for guest in (ada, ben):
        expect(guest.page.get_by_role("button", name="Undo")).to_be_disabled(timeout=5_000)
        expect(guest.page.get_by_role("button", name="Redo")).to_be_disabled(timeout=5_000)

    add_item(ada, "Ada's item")
    shows((ada, ben), ["Ada's item"])
    add_item(ben, "Ben's item")
    shows((ada, ben), ["Ada's item", "Ben's item"])

    # A's undo removes A's item, not B's later one, on both pages.
    ada.page.get_by_role("button", name="Undo").click(timeout=5_000)
    shows((ada, ben), ["Ben's item"])
    expect(ada.page.get_by_role("button", name="Undo")).to_be_disabled(timeout=5_000)
    expect(ada.page.get_by_role("button", name="Redo")).to_be_enabled(timeout=5_000)
    expect(ben.page.get_by_role("button", name="Redo")).to_be_disabled(timeout=5_000)

    # B's undo, by Ctrl+Z outside any text field, removes B's item and not A's redo.
    ben.page.locator("#board-title").click(timeout=5_000)
    ben.page.keyboard.press("Control+z")
    shows((ada, ben), [])

    # Redo brings each back: A by the button, B by Ctrl+Shift+Z.
    ada.page.get_by_role("button", name="Redo").click(timeout=5_000)
    shows((ada, ben), ["Ada's item"])
    ben.page.keyboard.press("Control+Shift+z")
    # B's item goes back where B's undo took it from: the top of the list as it was then.
    shows((ada, ben), ["Ben's item", "Ada's item"])
    # Each item still shows its author.
    expect(ben.page.locator("#items .item-meta").nth(1)).to_contain_text(ada.name, timeout=5_000)
    expect(ada.page.locator("#items .item-meta").nth(0)).to_contain_text(ben.name, timeout=5_000)

    # Now B undoes first: B's item goes, A's stays.
    ben.page.get_by_role("button", name="Undo").click(timeout=5_000)
    shows((ada, ben), ["Ada's item"])
    # In a text field Ctrl+Z stays the field's own: the board is not touched.
    ada.page.locator("#draft").fill("typing", timeout=5_000)
    expect(ada.page.locator("#add")).to_be_enabled(timeout=5_000)
    ada.page.locator("#draft").press("Control+z")
    ada.page.locator("#draft").fill("", timeout=5_000)
    expect(ada.page.locator("#add")).to_be_disabled(timeout=5_000)
    shows((ada, ben), ["Ada's item"])


def test_an_undo_of_what_another_member_changed_since_is_skipped_and_said(start_server, new_context, open_page_in):
    server = start_server()
    ada, ben = open_guests(server, room(), new_context, open_page_in, count=2)
    add_item(ada, "Milk")
    shows((ada, ben), ["Milk"])
    field = ben.page.locator("#items .item-title").first
    field.fill("Oat milk", timeout=5_000)
    field.press("Tab")
    shows((ada, ben), ["Oat milk"])

    ada.page.get_by_role("button", name="Undo").click(timeout=5_000)
    expect(ada.page.locator("#undo-notice")).to_have_text(
        f"{ben.name} changed “Milk” since, so it was not undone.", timeout=5_000
    )
    expect(ben.page.locator("#undo-notice")).to_have_text("", timeout=5_000)
    shows((ada, ben), ["Oat milk"])
    # B's own undo is B's to make.
    ben.page.get_by_role("button", name="Undo").click(timeout=5_000)
    shows((ada, ben), ["Milk"])


def test_the_history_survives_a_restart_of_the_server(restartable_server, open_page, problems):
    server = restartable_server()
    name = room()
    page = open_page(f"{server.origin}/board.html?room={name}")
    expect(page.locator("#me")).to_have_text(GUEST_NAME, timeout=5_000)
    draft = page.locator("#draft")
    for title in ("First", "Second"):
        draft.fill(title, timeout=5_000)
        expect(page.locator("#add")).to_be_enabled(timeout=5_000)
        draft.press("Enter", timeout=5_000)
        expect(draft).to_have_value("", timeout=5_000)  # added: the draft was cleared
    has_titles(page, ["First", "Second"])

    # A deploy: SIGTERM, then a new process on the same port and data.
    page.evaluate(RECORD_CONNECTION_STATES)
    problems.allow(r"WebSocket connection to .* failed")
    assert server.stop() == 0, "".join(server.output)
    server.start()
    page.wait_for_function("() => window.connectionStates.includes('sc-connected')", timeout=15_000)

    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_enabled(timeout=5_000)
    undo.click(timeout=5_000)
    has_titles(page, ["First"])
    undo.click(timeout=5_000)
    has_titles(page, [])
    page.get_by_role("button", name="Redo").click(timeout=5_000)
    has_titles(page, ["First"])
