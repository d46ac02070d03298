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
