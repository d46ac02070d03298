"""Demo 1 in a real browser: the counter, the nth prime effect and favourite primes."""

import json
import re
import uuid

from playwright.sync_api import expect


def test_buttons_change_the_count_the_server_keeps(server, open_page):
    page = open_page(f"{server.origin}/counter.html")
    count = page.locator("#count")
    expect(count).to_have_text("0")
    expect(page.locator("#not-prime-badge")).to_be_visible()
    expect(page.locator("#ask")).to_be_disabled()

    for _ in range(3):
        page.click("#increment")
    expect(count).to_have_text("3")
    expect(page.locator("#prime-badge")).to_be_visible()
    expect(page.locator("#not-prime-badge")).to_be_hidden()
    expect(page.locator("#ask")).to_have_text("What is the 3rd prime?")
    expect(page.locator("#add-favorite")).to_be_enabled()

    page.click("#decrement")
    expect(count).to_have_text("2")
    expect(page.locator("#ask")).to_have_text("What is the 2nd prime?")


def test_nth_prime_answers_and_favourites_are_kept(server, open_page, screenshot):
    page = open_page(f"{server.origin}/counter.html")
    for _ in range(5):
        page.click("#increment")
    expect(page.locator("#count")).to_have_text("5")

    page.click("#ask")
    expect(page.locator("#nth-loading")).to_be_visible()
    expect(page.locator("#cancel")).to_be_visible()
    expect(page.locator("#nth-answer")).to_have_text("The 5th prime is 11.")
    expect(page.locator("#nth-loading")).to_be_hidden()
    expect(page.locator("#cancel")).to_be_hidden()

    expect(page.locator("#favorites-empty")).to_be_visible()
    page.click("#add-favorite")
    expect(page.locator("#favorites li")).to_have_count(1)
    expect(page.locator("#favorites li").first).to_contain_text("5")
    expect(page.locator("#favorite-count")).to_have_text("1")
    expect(page.locator("#favorites-empty")).to_be_hidden()
    expect(page.locator("#add-favorite")).to_be_hidden()
    expect(page.locator("#remove-favorite")).to_be_visible()

    page.click("#increment")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("7")
    page.click("#add-favorite")
    expect(page.locator("#favorites li .favourite-prime")).to_have_text(["5", "7"])
    screenshot(page, "counter")

    page.locator("#favorites li").filter(has_text="5").get_by_role("button", name="Remove").click()
    expect(page.locator("#favorites li .favourite-prime")).to_have_text(["7"])
    page.click("#remove-favorite")
    expect(page.locator("#favorites li")).to_have_count(0)
    expect(page.locator("#favorites-empty")).to_be_visible()
    expect(page.locator("#add-favorite")).to_be_visible()


def test_a_question_can_be_cancelled(server, open_page):
    page = open_page(f"{server.origin}/counter.html")
    page.click("#increment")
    expect(page.locator("#ask")).to_have_text("What is the 1st prime?")

    page.click("#ask")
    page.click("#cancel")
    # Loading ends either with an answer or with the cancellation, in the same patch.
    expect(page.locator("#nth-loading")).to_be_hidden()
    expect(page.locator("#nth-answer")).to_have_text("")
    expect(page.locator("#ask")).to_be_enabled()


def test_favourites_are_saved_on_the_server(server, open_page):
    first = open_page(f"{server.origin}/counter.html")
    first.click("#increment")
    first.click("#increment")
    expect(first.locator("#count")).to_have_text("2")
    first.click("#add-favorite")
    expect(first.locator("#favorites li")).to_have_count(1)

    # A new tab has a store of its own, which loads the saved favourites when it starts.
    second = open_page(f"{server.origin}/counter.html")
    expect(second.locator("#count")).to_have_text("0")
    expect(second.locator("#favorites li .favourite-prime")).to_have_text(["2"])


def test_two_tabs_have_independent_counters(server, open_page):
    first = open_page(f"{server.origin}/counter.html")
    second = open_page(f"{server.origin}/counter.html")

    first.click("#increment")
    first.click("#increment")
    expect(first.locator("#count")).to_have_text("2")
    second.click("#decrement")
    expect(second.locator("#count")).to_have_text("-1")
    expect(first.locator("#count")).to_have_text("2")

    first.click("#increment")
    expect(first.locator("#count")).to_have_text("3")
    expect(second.locator("#count")).to_have_text("-1")
    expect(second.locator("#ask")).to_have_text(re.compile(r"-1st prime"))


def test_tabs_in_one_room_share_one_counter_live(server, open_page):
    first = open_page(f"{server.origin}/counter.html?room=team")
    second = open_page(f"{server.origin}/counter.html?room=team")
    expect(second.locator("#count")).to_have_text("0")
    for _ in range(2):
        first.click("#increment")
    # The other tab changes without doing anything: the shared store's patch.
    expect(second.locator("#count")).to_have_text("2")
    second.click("#decrement")
    expect(first.locator("#count")).to_have_text("1")
    # A tab without the room keeps its own counter.
    alone = open_page(f"{server.origin}/counter.html")
    expect(alone.locator("#count")).to_have_text("0")


def test_the_page_joins_its_topic_once_from_the_early_socket(start_server, context, problems):
    """On a page the server did not render, the inline snippet at the top of the page
    joins the topic as soon as its socket is open and the page parsed (after the page's
    parse-time script named the room); the runtime, held back here until that join is
    out, adopts it instead of sending another."""
    server = start_server("--no-render-pages")
    room = f"early-{uuid.uuid4().hex[:12]}"
    page = context.new_page()
    page.on("pageerror", lambda error: problems.messages.append(f"page error: {error}"))
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(json.loads(payload))))
    held = []
    page.route("**/statecast.js", lambda route: held.append(route))
    with page.expect_request(lambda request: request.url.endswith("/statecast.js")):
        page.goto(f"{server.origin}/counter.html?room={room}", wait_until="commit")
    page.wait_for_function("() => (window.statecastEarlySocket?.joins ?? []).length > 0", timeout=10_000)
    assert len(held) == 1, "the runtime is still held back"
    held[0].continue_()

    expect(page.locator("#count")).to_have_text("0")
    expect(page.locator("[data-sc-topic]")).to_have_class(re.compile(r"\bsc-ready\b"))
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("1")
    joins = [message for message in sent if message.get("op") == "join"]
    assert [(join["ref"], join["topic"]) for join in joins] == [(1, f"counter/{room}")], sent
    actions = [message for message in sent if message.get("op") == "action"]
    assert [action["ref"] for action in actions] == [2], "the runtime's refs follow the early join's"
    assert not [message for message in sent if message.get("op") == "leave"], sent
    assert problems.unexpected() == [], "the page reported errors"
