"""Demo 4 in a real browser: groups, toggles, the query-driven Clear button, reset."""

from playwright.sync_api import expect

ALL_TITLES = [
    "Crack in slab near column C4",
    "Missing fire stop, riser 2",
    "Door swing reversed, room 104",
    "Revise partition layout",
    "Duct routing",
    "Verify ceiling height 2.7 m",
    "Lobby before drywall",
    "Electrical panel",
    "Spec section 09 21 16",
]


def test_toggles_filter_the_annotations_and_clear_follows_the_state(server, open_page, screenshot):
    page = open_page(f"{server.origin}/annotation-filters.html")
    titles = page.locator("#annotations .annotation-title")
    clear = page.locator("#clear")
    expect(page.locator("#summary")).to_have_text("Showing all 9 annotations")
    expect(titles).to_have_text(ALL_TITLES)
    expect(clear).to_be_disabled()
    expect(page.locator("#groups .group-title")).to_have_text(["Issues", "Markups", "Media"])
    expect(page.locator("#open-group")).to_be_hidden()

    page.locator("#groups button").filter(has_text="Issues").click()
    expect(page.locator("#open-group")).to_be_visible()
    expect(page.locator("#groups")).to_be_hidden()
    expect(page.locator("#open-group-title")).to_have_text("Issues")
    open_issues = page.get_by_label("Open issues")
    closed_issues = page.get_by_label("Closed issues")
    expect(open_issues).not_to_be_checked()

    open_issues.check()
    expect(page.locator("#summary")).to_have_text("Showing 2 of 9 annotations")
    expect(titles).to_have_text(ALL_TITLES[:2])
    expect(open_issues).to_be_checked()
    expect(clear).to_be_enabled()
    expect(page.locator("#filtering")).to_be_visible()

    closed_issues.check()
    expect(page.locator("#summary")).to_have_text("Showing 3 of 9 annotations")
    expect(titles).to_have_text(ALL_TITLES[:3])
    screenshot(page, "annotation-filters")

    open_issues.uncheck()
    expect(page.locator("#summary")).to_have_text("Showing 1 of 9 annotations")
    expect(titles).to_have_text(ALL_TITLES[2:3])

    page.click("#leave-group")
    expect(page.locator("#groups")).to_be_visible()
    expect(page.locator("#groups li").filter(has_text="Issues").locator(".pill")).to_have_text("1 on")
    expect(page.locator("#groups li").filter(has_text="Markups").locator(".pill")).to_be_hidden()

    page.locator("#groups button").filter(has_text="Media").click()
    page.get_by_label("Photos").check()
    expect(page.locator("#summary")).to_have_text("Showing 3 of 9 annotations")
    expect(titles).to_have_text([ALL_TITLES[2], ALL_TITLES[6], ALL_TITLES[7]])

    clear.click()
    expect(page.locator("#summary")).to_have_text("Showing all 9 annotations")
    expect(titles).to_have_text(ALL_TITLES)
    expect(clear).to_be_disabled()
    expect(page.locator("#filtering")).to_be_hidden()
    expect(page.get_by_label("Photos")).not_to_be_checked()
