"""Demo 5 in a real browser: deep links resolved by rules, and an address bar that
follows the screen."""

import re

from playwright.sync_api import expect


def test_a_deep_link_to_an_artist_and_song_opens_that_screen(server, open_page, screenshot):
    page = open_page(f"{server.origin}/music/artist/42?song=7")
    expect(page.locator("#artist-screen")).to_be_visible()
    expect(page.locator("#artist-screen h2")).to_have_text("Ada and the Lovelaces")
    expect(page.locator("#selected-song")).to_contain_text("Bernoulli Numbers")
    expect(page.locator("#artist-songs a.selected")).to_have_text(re.compile(r"Bernoulli Numbers\s+3:41"))
    expect(page.locator("#artist-albums a")).to_have_count(2)
    expect(page.locator("#screen-path")).to_have_text("/music/artist/42?song=7")
    expect(page).to_have_url(f"{server.origin}/music/artist/42?song=7")
    expect(page).to_have_title("Ada and the Lovelaces · Music · Statecast demos")
    expect(page.locator("#home-screen")).to_be_hidden()
    screenshot(page, "music")


def test_a_deep_link_to_an_album_opens_the_album(server, open_page, screenshot):
    page = open_page(f"{server.origin}/music/album/9")
    expect(page.locator("#album-screen")).to_be_visible()
    expect(page.locator("#album-screen h2")).to_have_text("Analytical Engine")
    expect(page.locator("#album-artist-link")).to_have_text("Ada and the Lovelaces")
    expect(page.locator("#album-songs .grow")).to_have_text(["Bernoulli Numbers", "Punched Cards"])
    expect(page).to_have_url(f"{server.origin}/music/album/9")
    screenshot(page, "music-album")


def test_unknown_links_show_not_found(server, open_page, screenshot):
    page = open_page(f"{server.origin}/music/artist/1000")
    expect(page.locator("#not-found-screen")).to_be_visible()
    expect(page.locator("#requested-path")).to_have_text("/music/artist/1000")
    expect(page).to_have_url(f"{server.origin}/music/artist/1000")
    screenshot(page, "music-not-found")

    page.goto(f"{server.origin}/music/nowhere/at/all")
    expect(page.locator("#requested-path")).to_have_text("/music/nowhere/at/all")

    page.click("#back-home")
    expect(page.locator("#home-screen")).to_be_visible()
    expect(page.locator("#artists .grow")).to_have_text(["Ada and the Lovelaces", "The Hoppers", "Turing Complete"])
    expect(page).to_have_url(f"{server.origin}/music")


def test_navigating_in_the_page_updates_the_address_bar_and_history(server, open_page):
    page = open_page(f"{server.origin}/music")
    expect(page.locator("#home-screen")).to_be_visible()
    # Set on this document: it survives only if no link reloads the page.
    page.evaluate("window.sameDocument = true")

    page.locator("#artists a").filter(has_text="Ada and the Lovelaces").click()
    expect(page.locator("#artist-screen h2")).to_have_text("Ada and the Lovelaces")
    expect(page).to_have_url(f"{server.origin}/music/artist/42")
    expect(page.locator("#selected-song")).to_be_hidden()

    page.locator("#artist-songs a").filter(has_text="Punched Cards").click()
    expect(page).to_have_url(f"{server.origin}/music/artist/42?song=8")
    expect(page.locator("#selected-song")).to_contain_text("Punched Cards")

    page.click("#song-album-link")
    expect(page).to_have_url(f"{server.origin}/music/album/9")
    expect(page.locator("#album-screen h2")).to_have_text("Analytical Engine")

    page.click("#album-artist-link")
    expect(page).to_have_url(f"{server.origin}/music/artist/42")

    page.click("#home-link")
    expect(page).to_have_url(f"{server.origin}/music")
    expect(page.locator("#home-screen")).to_be_visible()
    assert page.evaluate("window.sameDocument") is True

    # Back and Forward walk the same screens, each opened by the server again.
    page.go_back()
    expect(page).to_have_url(f"{server.origin}/music/artist/42")
    expect(page.locator("#artist-screen")).to_be_visible()
    page.go_back()
    expect(page).to_have_url(f"{server.origin}/music/album/9")
    expect(page.locator("#album-screen h2")).to_have_text("Analytical Engine")
    page.go_back()
    expect(page).to_have_url(f"{server.origin}/music/artist/42?song=8")
    expect(page.locator("#selected-song")).to_contain_text("Punched Cards")
    page.go_forward()
    expect(page).to_have_url(f"{server.origin}/music/album/9")
    expect(page.locator("#album-screen")).to_be_visible()
    assert page.evaluate("window.sameDocument") is True


def test_a_link_for_an_unknown_song_opens_the_artist_and_corrects_the_address(server, open_page):
    page = open_page(f"{server.origin}/music/artist/17?song=7")
    expect(page.locator("#artist-screen h2")).to_have_text("The Hoppers")
    expect(page.locator("#selected-song")).to_be_hidden()
    expect(page).to_have_url(f"{server.origin}/music/artist/17")
    # The corrected address replaced the one typed: Back leaves the music app.
    assert page.evaluate("history.length") == 2
