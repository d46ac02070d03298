"""Fixtures of TodoMVC's browser tests: one `todomvc` server for the run (its data in a
throwaway folder), Debian's Chromium driven by Playwright, and a fresh browser context
per test, so each test starts with an empty list of its own.

The binary comes from TODOMVC_BIN_DIR, or from `swift build -c release --show-bin-path`
in Examples/TodoMVC.
"""

import os
import pathlib
import re
import signal
import subprocess
import tempfile

import pytest
from playwright.sync_api import expect, sync_playwright

PACKAGE = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("STATECAST_CHROMIUM", "/usr/bin/chromium")

expect.set_options(timeout=10_000)


def binary() -> pathlib.Path:
    folder = os.environ.get("TODOMVC_BIN_DIR") or subprocess.run(
        ["swift", "build", "-c", "release", "--show-bin-path"], cwd=PACKAGE, check=True, capture_output=True, text=True
    ).stdout.strip()
    path = pathlib.Path(folder) / "todomvc"
    if not path.exists():
        pytest.fail(f"{path} does not exist: run `swift build -c release` in Examples/TodoMVC first")
    return path


class TodoServer:
    """A todomvc process on a free port, started from outside its package (it finds its
    page itself), stopped with SIGTERM."""

    def __init__(self, data: str, port: int = 0):
        self.process = subprocess.Popen(
            [str(binary()), "--port", str(port), "--data", data],
            cwd=tempfile.gettempdir(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.output = []
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith("listening on "):
                self.origin = line.split()[-1].strip()
                break
        else:
            raise RuntimeError("todomvc exited before listening:\n" + "".join(self.output))
        self.port = int(self.origin.rsplit(":", 1)[1])

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


@pytest.fixture(scope="session")
def data_folder():
    with tempfile.TemporaryDirectory(prefix="todomvc-test-") as folder:
        yield folder


@pytest.fixture(scope="session")
def server(data_folder):
    server = TodoServer(data_folder)
    yield server
    assert server.stop() == 0, "".join(server.output)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(server.origin + "/")
    expect(page.locator(".todoapp")).to_have_class(re.compile(r"\bsc-ready\b"))
    yield page
    context.close()
    assert errors == [], errors
