"""The sign-in page (signin.html) follows its `next` parameter only within its own site.

A second demo server on another port is a second origin: a `next` that names it, in any
spelling a browser resolves to another host, must leave the visitor on the first site.
"""

import re

import pytest
from playwright.sync_api import expect


def sign_in(page, name):
    page.locator("#name").fill(name, timeout=5_000)
    page.locator("#signin button[type=submit]").click(timeout=5_000)


@pytest.mark.parametrize("spelling", ["//{host}/counter.html", "/\\{host}/counter.html", "http://{host}/counter.html"])
def test_a_next_on_another_origin_is_not_followed(spelling, start_server, open_page):
    site, other = start_server(), start_server()
    other_host = other.origin.split("//", 1)[1]
    page = open_page(f"{site.origin}/signin.html")
    page.goto(f"{site.origin}/signin.html?next=" + spelling.format(host=other_host).replace("\\", "%5C"))
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    sign_in(page, "Ada")
    expect(page).to_have_url(f"{site.origin}/", timeout=10_000)


def test_a_next_on_the_same_origin_is_followed(server, open_page):
    page = open_page(f"{server.origin}/signin.html?next=/counter.html%3Fa%3D1%23top")
    sign_in(page, "Ada")
    expect(page).to_have_url(f"{server.origin}/counter.html?a=1#top", timeout=10_000)


def test_a_cookie_this_server_did_not_sign_does_not_lock_the_person_out(start_server, context, open_page):
    # Cookies ignore ports: a sign-in on the other server (another secret, as after a
    # rotated secret or a lost --data) leaves a cookie this server cannot verify.
    site, other = start_server(), start_server()
    page = open_page(f"{other.origin}/signin.html")
    sign_in(page, "Ada")
    expect(page).to_have_url(f"{other.origin}/", timeout=10_000)
    assert [c["name"] for c in context.cookies(site.origin)] == ["statecast_viewer"]
    page.goto(f"{site.origin}/signin.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    expect(page.locator("main [data-sc-show=isGuest]")).to_be_visible()
    assert context.cookies(site.origin) == []  # the upgrade's answer cleared it
    sign_in(page, "Bob")
    expect(page).to_have_url(f"{site.origin}/", timeout=10_000)
    page.goto(f"{site.origin}/signin.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    expect(page.locator("main strong[data-sc-text=name]")).to_have_text("Bob")


def signed_in(context, open_page_in, site, name):
    """Signs `name` in on `site` in `context`; returns the page, back on the site's index."""
    page = open_page_in(context, f"{site.origin}/signin.html")
    sign_in(page, name)
    expect(page).to_have_url(f"{site.origin}/", timeout=10_000)
    return page


def test_the_cookie_is_httponly_and_a_page_of_another_origin_cannot_read_it(
    start_server, new_context, open_page_in, problems
):
    problems.allow(r"404 \(Not Found\)")  # the other origin's /favicon.ico
    site, other = start_server(), start_server()
    context = new_context()
    page = signed_in(context, open_page_in, site, "Ada")
    (cookie,) = context.cookies(site.origin)
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    # A page of another port of the same host gets the cookie sent (cookies ignore
    # ports) but its scripts cannot read it.
    page.goto(f"{other.origin}/healthz")
    assert "statecast_viewer" not in page.evaluate("document.cookie")


def test_a_cookie_planted_by_another_origin_makes_a_guest_not_the_planter(
    start_server, new_context, open_page_in, problems
):
    problems.allow(r"404 \(Not Found\)")  # the other origin's /favicon.ico
    site, other = start_server(), start_server()
    # Mallory signs in on the site in her own browser and takes her cookie's value.
    mallory = new_context()
    signed_in(mallory, open_page_in, site, "Mallory")
    (planted,) = mallory.cookies(site.origin)
    # Ada signs in, then visits Mallory's page on another port of the host, which plants
    # Mallory's cookie with a longer path (Chromium sends it first to /ws).
    ada = new_context()
    page = signed_in(ada, open_page_in, site, "Ada")
    page.goto(f"{other.origin}/healthz")
    page.evaluate(f"document.cookie = 'statecast_viewer={planted['value']}; path=/ws'")
    page.goto(f"{site.origin}/board.html?room=planted")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    expect(page.locator("#me")).to_have_text(re.compile(r"Guest \d+"))
    # Both were cleared: signing in again works, as Ada alone.
    assert ada.cookies(site.origin) == []
    signed_in(ada, open_page_in, site, "Ada")
    board = open_page_in(ada, f"{site.origin}/board.html?room=planted")
    expect(board.locator("#me")).to_contain_text("Ada")
