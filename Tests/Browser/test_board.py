"""The shared board (board.html) with three guests at once, each in a browser context of
its own: presence, authors, a private draft, and concurrent reorders.

The server runs with `--session-grace 1`, so a member who left is gone a second later.
"""

import re
import time
import uuid
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

GRACE_SECONDS = 1
GUEST_NAME = re.compile(r"^Guest \d+$")


class Frames:
    """The text of every WebSocket frame a page received, recorded from before its
    first socket opened (Playwright's own view of the wire, not the runtime's)."""

    def __init__(self):
        self.sockets = []
        self.received = []

    def attach(self, page):
        page.on("websocket", self._opened)

    def _opened(self, ws):
        self.sockets.append(ws)
        ws.on("framereceived", lambda payload: self.received.append(payload))

    def containing(self, text):
        return [frame for frame in self.received if text in str(frame)]

    def wait_for(self, text, timeout=10_000):
        """Waits until a received frame contains `text` (events, not sleeps)."""
        deadline = time.monotonic() + timeout / 1000
        while not self.containing(text):
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no frame with {text!r} within {timeout} ms"
            self.sockets[-1].wait_for_event("framereceived", timeout=remaining * 1000)


@dataclass
class Guest:
    page: object
    frames: Frames
    name: str
    context: object


def open_guests(server, room, new_context, open_page_in, count=3):
    """`count` guests on one board, each in a context of its own (its own session)."""
    guests = []
    for _ in range(count):
        context = new_context()
        frames = Frames()
        page = open_page_in(context, f"{server.origin}/board.html?room={room}", before=frames.attach)
        expect(page.locator("#me")).to_have_text(GUEST_NAME, timeout=5_000)
        guests.append(Guest(page, frames, page.locator("#me").text_content(), context))
    assert len({guest.name for guest in guests}) == count, "two guests drew the same name; run again"
    return guests


def add_item(guest, title):
    draft = guest.page.locator("#draft")
    draft.fill(title, timeout=5_000)
    expect(guest.page.locator("#add")).to_be_enabled(timeout=5_000)  # the server has the draft
    draft.press("Enter", timeout=5_000)
    expect(draft).to_have_value("", timeout=5_000)  # added: the draft was cleared


def item(page, title, timeout=5_000):
    """The list row whose title field holds `title`, once there is one (rows do not
    move meanwhile in the tests that use this)."""
    find = "(title) => [...document.querySelectorAll('#items .item-title')].findIndex((i) => i.value === title)"
    page.wait_for_function(f"(title) => ({find})(title) >= 0", arg=title, timeout=timeout)
    return page.locator("#items li.board-item").nth(page.evaluate(find, title))


def item_ids(page):
    return page.eval_on_selector_all("#items [data-item-id]", "rows => rows.map((row) => row.dataset.itemId)")


def unique_room(kind):
    return f"{kind}-{uuid.uuid4().hex[:12]}"


# Logs each change of the member list: [Date.now(), members, offline members, names].
RECORD_MEMBERS = """() => {
  window.memberLog = [];
  const members = document.querySelector('#members');
  const record = () => window.memberLog.push([
    Date.now(),
    members.querySelectorAll('li.member').length,
    members.querySelectorAll('li.member.offline').length,
  ]);
  record();
  new MutationObserver(record).observe(members, { subtree: true, childList: true, attributes: true });
}"""


def test_presence_shows_three_guests_and_drops_one_who_leaves(start_server, new_context, open_page_in, screenshot):
    server = start_server("--session-grace", str(GRACE_SECONDS))
    guests = open_guests(server, unique_room("presence"), new_context, open_page_in)
    names = [guest.name for guest in guests]

    # Within a second of the third guest's arrival, every page lists all three, in the
    # order they came, each with an avatar of their initials, none away.
    for guest in guests:
        members = guest.page.locator("#members li.member")
        expect(members).to_have_count(3, timeout=1_000)
        expect(members.locator('[data-sc-text="name"]')).to_have_text(names, timeout=1_000)
        expect(members.locator(".avatar")).to_have_text([f"G{name.split()[1][0]}" for name in names], timeout=1_000)
        expect(guest.page.locator('[data-sc-text="presence.length"]')).to_have_text("3", timeout=1_000)
        expect(guest.page.locator("#members li.member.offline")).to_have_count(0, timeout=1_000)
    screenshot(guests[0].page, "board-three-members")

    stayers, leaver = guests[:2], guests[2]
    for guest in stayers:
        guest.page.evaluate(RECORD_MEMBERS)
    closed_at = stayers[0].page.evaluate("Date.now()")
    leaver.context.close()

    for guest in stayers:
        # First away (dimmed), then gone once the session grace is over.
        offline = guest.page.locator("#members li.member.offline")
        expect(offline).to_have_count(1, timeout=1_000)
        expect(offline).to_have_attribute("title", leaver.name, timeout=1_000)
    for guest in stayers:
        expect(guest.page.locator("#members li.member")).to_have_count(2, timeout=(GRACE_SECONDS + 1) * 1_000)
        expect(guest.page.locator('#members [data-sc-text="name"]')).to_have_text(names[:2], timeout=1_000)
        expect(guest.page.locator('[data-sc-text="presence.length"]')).to_have_text("2", timeout=1_000)
        log = guest.page.evaluate("window.memberLog")
        away = next(at for at, _, offline in log if offline == 1) - closed_at
        gone = next(at for at, count, _ in log if count == 2) - closed_at
        print(f"{guest.name} saw {leaver.name} away after {away} ms, gone after {gone} ms")
        assert away < 1_000, f"away {away} ms after the close"
        # Kept (dimmed) for the grace period, then gone within a second after it.
        assert gone - away >= GRACE_SECONDS * 1_000 * 0.8, log
        assert gone <= (GRACE_SECONDS + 1) * 1_000, f"gone {gone} ms after the close"


def test_an_added_item_shows_its_author_to_everyone(start_server, new_context, open_page_in):
    server = start_server("--session-grace", str(GRACE_SECONDS))
    guests = open_guests(server, unique_room("authors"), new_context, open_page_in)
    token = uuid.uuid4().hex[:8]

    for author, title in ((guests[0], f"Milk {token}"), (guests[1], f"Bread {token}")):
        add_item(author, title)
        for guest in guests:
            row = item(guest.page, title)
            expect(row.locator('[data-sc-text="authorName"]')).to_have_text(author.name, timeout=5_000)
            you = row.locator('[data-sc-show="mine"]')
            if guest is author:
                expect(you).to_be_visible(timeout=5_000)
                expect(row).to_have_class(re.compile(r"\bmine\b"), timeout=5_000)
            else:
                expect(you).to_be_hidden(timeout=5_000)
                expect(row).not_to_have_class(re.compile(r"\bmine\b"), timeout=5_000)
    for guest in guests:
        expect(guest.page.locator("#items .item-title")).to_have_count(2, timeout=5_000)
        expect(guest.page.locator("#done-count")).to_have_text(re.compile(r"^\s*0\s+of\s+2\s+done\s*$"), timeout=5_000)


def test_a_draft_reaches_nobody_else(start_server, new_context, open_page_in):
    server = start_server("--session-grace", str(GRACE_SECONDS))
    a, b, c = open_guests(server, unique_room("draft"), new_context, open_page_in)
    marker = "Pssst"  # in no frame of this room but the drafts
    secret = f"{marker} {uuid.uuid4().hex}"

    # Typed key by key: one draftChanged per keystroke, each kept on the server.
    a.page.locator("#draft").press_sequentially(secret, timeout=10_000)
    a.frames.wait_for(f'/myDraft","value":"{secret}"')
    expect(a.page.locator("#add")).to_be_enabled(timeout=5_000)

    # A later change that everyone receives: any frame about the draft would have
    # been sent to B and C before it.
    barrier = f"Barrier {uuid.uuid4().hex[:8]}"
    add_item(b, barrier)
    for guest in (a, b, c):
        item(guest.page, barrier)
        guest.frames.wait_for(barrier)

    assert a.frames.containing(secret), "A's own view carries its draft"
    for other in (b, c):
        leaked = other.frames.containing(marker)
        assert leaked == [], f"{other.name} received A's draft: {leaked}"
        assert other.frames.received, "frames were recorded"
        print(f"{other.name}: {len(other.frames.received)} frames, none with the draft")
        expect(other.page.locator("#draft")).to_have_value("", timeout=5_000)
    # A's draft is still A's: kept in its box, not on the board.
    expect(a.page.locator("#draft")).to_have_value(secret, timeout=5_000)
    for guest in (a, b, c):
        expect(guest.page.locator("#items .item-title")).to_have_count(1, timeout=5_000)


def test_a_signed_in_members_draft_survives_a_reload(start_server, open_page):
    server = start_server()
    room = unique_room("reload")
    page = open_page(f"{server.origin}/signin.html?next=/board.html%3Froom%3D{room}")
    page.locator("#name").fill("Ada Lovelace", timeout=5_000)
    page.locator("#signin button[type=submit]").click(timeout=5_000)
    expect(page).to_have_url(re.compile(r"/board\.html\?room="), timeout=10_000)
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"), timeout=10_000)
    expect(page.locator("#me")).to_contain_text("Ada Lovelace", timeout=5_000)
    draft = f"Kept {uuid.uuid4().hex[:8]}"
    page.locator("#draft").fill(draft, timeout=5_000)
    expect(page.locator("#add")).to_be_enabled(timeout=5_000)  # the server has it
    page.reload(timeout=10_000)
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"), timeout=10_000)
    # The cookie makes the reloaded page the same viewer, whose draft the room kept.
    expect(page.locator("#me")).to_contain_text("Ada Lovelace", timeout=5_000)
    expect(page.locator("#draft")).to_have_value(draft, timeout=3_000)


# Counts the answers to the page's own declarative actions (they bubble to document).
COUNT_REPLIES = """() => {
  window.answers = 0;
  document.addEventListener('statecast:reply', () => { window.answers += 1; });
  document.addEventListener('statecast:error', () => { window.answers += 1; });
}"""

# At `at` (Date.now() of the shared clock) clicks the buttons, all in one task.
CLICK_AT = """([at, clicks]) => {
  setTimeout(() => {
    window.clickedAt = Date.now();
    for (const [id, button] of clicks) document.querySelector(`[data-item-id="${id}"] .${button}`).click();
  }, Math.max(0, at - Date.now()));
}"""


def test_concurrent_moves_leave_every_page_with_the_same_order(start_server, new_context, open_page_in, screenshot):
    server = start_server("--session-grace", str(GRACE_SECONDS))
    a, b, c = open_guests(server, unique_room("moves"), new_context, open_page_in)
    titles = [f"Item {n}" for n in range(1, 7)]
    for n, title in enumerate(titles):
        add_item((a, b, c)[n % 3], title)
    for guest in (a, b, c):
        expect(guest.page.locator("#items .item-title")).to_have_count(6, timeout=5_000)
    ids = item_ids(a.page)
    assert len(ids) == 6
    for guest in (b, c):
        assert item_ids(guest.page) == ids

    # Three clicks per page at the same moment, several on the same items.
    plan = {
        "a": [(ids[5], "move-top"), (ids[2], "move-down"), (ids[0], "move-down")],
        "b": [(ids[2], "move-up"), (ids[4], "move-top"), (ids[5], "move-down")],
        "c": [(ids[0], "move-down"), (ids[3], "move-up"), (ids[2], "move-top")],
    }
    pages = {"a": a.page, "b": b.page, "c": c.page}
    for page in pages.values():
        page.evaluate(COUNT_REPLIES)
    at = int(time.time() * 1000) + 500
    for key, page in pages.items():
        page.evaluate(CLICK_AT, [at, plan[key]])
    # Every click answered: the server has applied all nine moves.
    for key, page in pages.items():
        page.wait_for_function("(n) => window.answers === n", arg=len(plan[key]), timeout=10_000)
    spread = [page.evaluate("window.clickedAt") for page in pages.values()]
    assert max(spread) - min(spread) < 500, spread

    # The server's order, as a member joining now gets it in its snapshot.
    late = open_page_in(new_context(), f"{server.origin}/board.html?room={a.page.url.split('room=')[1]}")
    expect(late.locator("#items .item-title")).to_have_count(6, timeout=5_000)
    final = item_ids(late)
    assert sorted(final) == sorted(ids) and final != ids, (ids, final)
    print(f"clicks {max(spread) - min(spread)} ms apart; order {[titles[ids.index(id)] for id in final]}")
    for key, page in pages.items():
        try:
            page.wait_for_function(
                "(ids) => JSON.stringify([...document.querySelectorAll('#items [data-item-id]')]"
                ".map((row) => row.dataset.itemId)) === JSON.stringify(ids)",
                arg=final,
                timeout=5_000,
            )
        except Exception:
            raise AssertionError(f"page {key} shows {item_ids(page)}, the server {final}") from None
    expected_titles = [titles[ids.index(id)] for id in final]
    for page in pages.values():
        expect(page.locator("#items .item-title")).to_have_count(6, timeout=5_000)
        assert [page.locator("#items .item-title").nth(i).input_value() for i in range(6)] == expected_titles
    screenshot(a.page, "board-after-concurrent-moves")
