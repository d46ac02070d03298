"""Time travel in the debug panel (`?debug`): a topic's revisions with the action and
the patch of each, stepped and scrubbed through, the state at any one, and two compared."""

import re

from playwright.sync_api import expect


def test_the_panel_steps_scrubs_and_compares_a_topics_revisions(server, open_page):
    page = open_page(f"{server.origin}/counter.html?debug")
    expect(page.locator("#count")).to_have_text("0", timeout=5_000)
    for expected in ("1", "2", "3"):
        page.locator("#increment").click(timeout=5_000)
        expect(page.locator("#count")).to_have_text(expected, timeout=5_000)
    page.locator("#decrement").click(timeout=5_000)
    expect(page.locator("#count")).to_have_text("2", timeout=5_000)

    revisions = page.locator(".sc-debug-revisions")
    expect(revisions.get_by_label("Topic")).to_have_value("counter", timeout=5_000)
    caption = revisions.locator(".sc-debug-revision")
    state = revisions.locator(".sc-debug-revision-state")
    # The newest revision: the decrement, its patch and the state after it.
    expect(caption).to_have_text(re.compile(r'^rev \d+ \((\d+) of \1\) · action \{"decrement":\{\}\}$'), timeout=5_000)
    total = int(re.search(r"of (\d+)", caption.text_content()).group(1))
    expect(revisions.locator(".sc-debug-change")).to_contain_text('"path": "/count"')
    expect(state).to_contain_text("count: 2")
    expect(revisions.get_by_role("button", name="Next revision")).to_be_disabled()

    # One step back: the third increment, with 3 then.
    revisions.get_by_role("button", name="Previous revision").click()
    expect(caption).to_have_text(re.compile(rf'\({total - 1} of {total}\) · action \{{"increment":\{{\}}\}}$'))
    expect(state).to_contain_text("count: 3")

    # Scrubbed to the start: the state the page began with (its join's snapshot, or the
    # first paint when the page came with its state), with 0.
    revisions.get_by_label("Revision", exact=True).fill("0")
    expect(caption).to_have_text(re.compile(rf"\(1 of {total}\) · (snapshot|first paint)$"))
    expect(state).to_contain_text("count: 0")
    expect(revisions.get_by_role("button", name="Previous revision")).to_be_disabled()

    # Compared with the newest revision: what differs, before → after.
    newest = revisions.get_by_label("Compare with revision").locator("option").last.get_attribute("value")
    revisions.get_by_label("Compare with revision").select_option(newest)
    expect(revisions.locator(".sc-debug-differences")).to_contain_text("/count: 2 → 0")

    # New revisions keep arriving while the panel shows an older one.
    page.locator("#increment").click(timeout=5_000)
    expect(page.locator("#count")).to_have_text("3", timeout=5_000)
    expect(caption).to_have_text(re.compile(rf"\(1 of {total + 1}\) · (snapshot|first paint)$"))
    revisions.get_by_label("Revision", exact=True).fill(str(total))
    expect(caption).to_have_text(re.compile(rf'\({total + 1} of {total + 1}\) · action \{{"increment":\{{\}}\}}$'))


def test_restoring_a_revision_is_an_action_a_tab_may_send_and_a_room_refuses(server, open_page):
    page = open_page(f"{server.origin}/counter.html?debug")
    expect(page.locator(".demo-topic")).to_have_class(re.compile(r"\bsc-ready\b"), timeout=5_000)
    for expected in ("1", "2"):
        page.locator("#increment").click(timeout=5_000)
        expect(page.locator("#count")).to_have_text(expected, timeout=5_000)
    revisions = page.locator(".sc-debug-revisions")
    caption = revisions.locator(".sc-debug-revision")
    expect(caption).to_have_text(re.compile(r'action \{"increment":\{\}\}$'), timeout=5_000)
    revisions.get_by_label("Revision", exact=True).fill("0")
    expect(revisions.locator(".sc-debug-revision-state")).to_contain_text("count: 0")

    # A tab's own counter: the restore goes through the reducer like a click.
    compared = revisions.get_by_label("Compare with revision").locator("option")
    kept = compared.count()
    revisions.get_by_role("button", name="Restore this revision").click()
    expect(page.locator("#count")).to_have_text("0", timeout=5_000)
    expect(revisions.locator(".sc-debug-restore-outcome")).to_have_text(re.compile(r"restored$"), timeout=5_000)
    # The restore's revision is the newest (it may arrive just after the outcome).
    expect(compared).to_have_count(kept + 1, timeout=5_000)
    revisions.get_by_label("Revision", exact=True).fill("99")
    expect(caption).to_have_text(re.compile(r'^rev \d+ .*action \{"restoreCount":\{"count":0\}\}$'))

    # A room: its access rule refuses, and nothing changes.
    room = open_page(f"{server.origin}/counter.html?room=restore-{server.port}&debug")
    expect(room.locator(".demo-topic")).to_have_class(re.compile(r"\bsc-ready\b"), timeout=5_000)
    room.locator("#increment").click(timeout=5_000)
    expect(room.locator("#count")).to_have_text("1", timeout=5_000)
    shared = room.locator(".sc-debug-revisions")
    shared.get_by_label("Revision", exact=True).fill("0")
    shared.get_by_role("button", name="Restore this revision").click()
    expect(shared.locator(".sc-debug-restore-outcome")).to_have_text(re.compile(r"refused: .+"), timeout=5_000)
    expect(room.locator("#count")).to_have_text("1", timeout=1_000)
