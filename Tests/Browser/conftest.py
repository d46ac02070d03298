"""Fixtures of the real-browser tests: Debian's Chromium driven by Playwright.

The browser is Debian's own (`/usr/bin/chromium`, no download); one browser serves the
whole run and every test gets a fresh context (its own tabs, storage and history). Each
page records uncaught errors and console errors, and a test fails if any appeared that
it did not expect. Screenshots go to `artifacts/screenshots/` at the repository root.
"""

import os
import pathlib
import re

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("STATECAST_CHROMIUM", "/usr/bin/chromium")

# Long enough for a loaded two-core machine, short enough to fail fast.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


class PageProblems:
    """Errors a page reported: uncaught exceptions and console errors.

    Tests that provoke an error on purpose (a stopped server refuses the socket) say
    which messages are expected with `allow`.
    """

    def __init__(self):
        self.messages = []
        self.allowed = []

    def allow(self, pattern: str):
        self.allowed.append(re.compile(pattern))

    def unexpected(self):
        return [m for m in self.messages if not any(p.search(m) for p in self.allowed)]


@pytest.fixture
def problems():
    return PageProblems()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def _open_page(context, problems, url: str, *, connected: bool = True, before=None):
    page = context.new_page()
    page.on("pageerror", lambda error: problems.messages.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: message.type == "error" and problems.messages.append(f"console error: {message.text}"),
    )
    if before is not None:
        before(page)  # e.g. listeners that must see the page's first WebSocket
    page.goto(url)
    if connected:
        expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    return page


@pytest.fixture
def open_page(context, problems):
    """Opens a new tab at `url` and waits until its socket is connected; `before(page)`,
    if given, runs before the navigation."""

    def open_page(url: str, *, connected: bool = True, before=None):
        return _open_page(context, problems, url, connected=connected, before=before)

    yield open_page
    assert problems.unexpected() == [], "the page reported errors"


@pytest.fixture
def open_page_in(problems):
    """Like `open_page`, in a context the test names (several users at once)."""

    def open_page_in(context, url: str, *, connected: bool = True, before=None):
        return _open_page(context, problems, url, connected=connected, before=before)

    yield open_page_in
    assert problems.unexpected() == [], "the page reported errors"


@pytest.fixture
def new_context(browser):
    """Makes more browser contexts (separate users: own cookies, storage and sessions);
    those still open are closed at teardown."""
    contexts = []

    def new_context():
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts.append(context)
        return context

    yield new_context
    for context in contexts:
        try:
            context.close()
        except Exception:
            pass  # closed by the test


@pytest.fixture
def screenshot():
    """Writes a full-page screenshot of `page` to artifacts/screenshots/NAME.png."""

    def screenshot(page, name: str):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.mouse.move(0, 0)  # no hover styles in the picture
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, animations="disabled")

    return screenshot
