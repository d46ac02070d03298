"""Demo 3 in a real browser: idle, loading, error, retry, loaded, and a log-out event."""

from playwright.sync_api import expect

# Remembers every status the page showed, so that short-lived ones (loading) are seen
# without racing them.
RECORD_STATUSES = """() => {
  const status = document.querySelector('#status');
  window.statusesShown = [status.textContent];
  new MutationObserver(() => window.statusesShown.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
}"""


def test_the_list_goes_through_its_states_and_a_log_out_resets_it(server, open_page, screenshot):
    page = open_page(f"{server.origin}/recruitment.html")
    status = page.locator("#status")
    expect(status).to_have_text("idle")
    expect(page.locator("#load")).to_be_visible()
    page.evaluate(RECORD_STATUSES)

    # The demo service fails the first load of every store.
    page.click("#load")
    expect(status).to_have_text("error")
    expect(page.locator("#error-message")).to_have_text("The recruitment service could not be reached. Please try again.")
    expect(page.locator("#load")).to_be_hidden()
    expect(page.locator("#processes")).to_be_hidden()

    page.click("#retry")
    expect(status).to_have_text("loaded")
    expect(page.locator("#error-message")).to_be_hidden()
    expect(page.locator("#processes .process-company")).to_have_text(["Jobandtalent", "PlanGrid", "Point-Free"])
    expect(page.locator("#processes .process").first).to_contain_text("Interview on Thursday")
    assert page.evaluate("window.statusesShown") == ["idle", "loading", "error", "loading", "loaded"]
    screenshot(page, "recruitment")

    # Expiring the session comes back as a log-out event from the session's event source.
    page.click("#expire")
    expect(status).to_have_text("idle")
    expect(page.locator("#processes")).to_be_hidden()
    expect(page.locator("#load")).to_be_enabled()
