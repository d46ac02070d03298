"""Demo 8 in a real browser: hooks mounted, updated and destroyed with their elements,
and events pushed by the server to one tab or to every member of a room."""

import json
import re
import uuid

from playwright.sync_api import expect

LOG_KEY = "statecast-live-hook-log"


def hook_log(page):
    return json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}') ?? '[]'"))


def assert_in_order(log, *lines):
    positions = [log.index(line) for line in lines]
    assert positions == sorted(positions), f"{lines} out of order in {log}"


def test_hooks_are_mounted_updated_and_destroyed_with_their_elements(server, open_page, screenshot):
    page = open_page(f"{server.origin}/live.html")
    chart = page.locator("#chart")
    # The chart's hook is told of every new reading.
    expect(chart).to_have_attribute("data-updates", re.compile(r"^[2-9]|\d\d"))
    log = hook_log(page)
    assert_in_order(log, "mounted chart chart", "updated chart chart")
    assert "mounted toasts" in log

    # Marks: each row of the list has a hook, destroyed when its row is removed.
    page.click("#mark")
    expect(page.locator("#marks li")).to_have_count(1)
    page.click("#pause")
    page.click("#mark")
    expect(page.locator("#marks li")).to_have_count(2)
    first, second = (item.get_attribute("data-id") for item in page.locator("#marks li").all())
    page.locator("#marks li").first.locator("button").click()
    expect(page.locator("#marks li")).to_have_count(1)
    log = hook_log(page)
    assert_in_order(log, f"mounted mark {first}", f"destroyed mark {first}")
    assert f"destroyed mark {second}" not in log
    # The remaining row was kept (not re-created), so its hook was not mounted again.
    assert log.count(f"mounted mark {second}") == 1

    # Leave: a second chart bound to the same topic, then unbound.
    page.click("#resume")
    page.click("#widget-toggle")
    expect(page.locator("#widget-chart")).to_have_attribute("data-updates", re.compile(r"\d"))
    page.click("#widget-toggle")
    expect(page.locator("#widget-chart")).to_have_count(0)
    assert_in_order(hook_log(page), "mounted chart widget-chart", "updated chart widget-chart", "destroyed chart widget-chart")
    expect(chart).to_have_attribute("data-updates", re.compile(r"\d"))  # the page's own chart goes on
    assert "destroyed chart chart" not in hook_log(page)
    screenshot(page, "live")

    # Navigation: the page goes away and every hook on it is destroyed.
    page.click("#back")
    expect(page).to_have_url(f"{server.origin}/")
    log = hook_log(page)
    assert_in_order(log, "mounted chart chart", "updated chart chart", "destroyed chart chart")
    assert_in_order(log, "mounted toasts", "destroyed toasts")
    assert_in_order(log, f"mounted mark {first}", f"destroyed mark {first}", f"destroyed mark {second}")


def test_a_server_event_reaches_the_tab_it_is_for_and_not_another(server, new_context, open_page_in):
    room = f"live-{uuid.uuid4().hex[:8]}"
    ada = open_page_in(new_context(), f"{server.origin}/live.html?room={room}")
    bob = open_page_in(new_context(), f"{server.origin}/live.html?room={room}")
    for page in (ada, bob):
        expect(page.locator(".demo-topic")).to_have_class(re.compile(r"\bsc-ready\b"))

    # To whoever pinged: Ada's tab shows it.
    ada.click("#ping")
    expect(ada.locator(".toast")).to_have_text(re.compile(r"^Pong at reading \d+$"))

    # To everyone: both tabs show it. Bob's socket delivers in order, so had Ada's pong
    # reached Bob it would be on his page by now.
    bob.click("#ping-everyone")
    for page in (ada, bob):
        expect(page.locator(".toast").filter(has_text="pinged everyone")).to_have_count(1)
    expect(bob.locator(".toast").filter(has_text="Pong")).to_have_count(0)
    expect(ada.locator(".toast").filter(has_text="Pong")).to_have_count(1)
