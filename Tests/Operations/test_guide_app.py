"""docs/GUIDE.md, followed as a newcomer would: its blocks written into a package of
their own (Package.swift with this checkout instead of the repository URL, the feature,
its test, main.swift, the page), built, its test run, the app started from another
folder, and its page used by two browsers sharing a room.

The guide's main.swift listens on 8080, as the guide says; the test is skipped when
that port is taken."""

import importlib.util
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "GUIDE.md"
SWIFT = shutil.which("swift") or "/opt/swift/usr/bin/swift"
CHROMIUM = os.environ.get("STATECAST_CHROMIUM", "/usr/bin/chromium")
spec = importlib.util.spec_from_file_location("doc_snippets", ROOT / "scripts" / "doc-snippets.py")
doc_snippets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(doc_snippets)


def package_from_guide(folder: pathlib.Path):
    """The guide's files, each block where the guide says it goes."""
    text = GUIDE.read_text()
    codes = [code for _, code, _ in doc_snippets.blocks(text)]
    manifest = next(code for code in codes if code.startswith("// swift-tools-version"))
    url = '.package(url: "https://github.com/statecast/statecast.git", branch: "main")'
    assert url in manifest, "the guide's Package.swift no longer names the repository as this test expects"
    files = {"Package.swift": manifest.replace(url, f'.package(name: "statecast", path: "{ROOT}")')}
    swift = [code for code in codes if not code.startswith("// swift-tools-version")]
    feature = next(code for code in swift if "public enum Poll: Feature" in code)
    files["Sources/PollFeature/Poll.swift"] = feature
    files["Sources/PollFeature/Poll+Durable.swift"] = next(c for c in swift if "extension Poll: DurableFeature" in c)
    files["Sources/PollFeature/Poll+Viewer.swift"] = next(c for c in swift if "viewState(_ state: State, for viewer" in c)
    files["Tests/PollFeatureTests/PollTests.swift"] = next(c for c in swift if "@Test" in c)
    # The last main.swift of the guide: shared, durable, per viewer.
    files["Sources/Poll/main.swift"] = [c for c in swift if "ServiceGroup" in c][-1]
    page = re.findall(r"```html\n(.*?)```", text, re.S)[0]
    room = re.search(r'<main data-sc-topic="([^"]*\{query\.room\}[^"]*)">', text).group(1)
    files["Public/index.html"] = page.replace('data-sc-topic="poll"', f'data-sc-topic="{room}"')
    for path, content in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(content)


def port_taken(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_the_guide_builds_a_live_shared_poll():
    if port_taken(8080):
        pytest.skip("port 8080, where the guide's app listens, is taken")
    with tempfile.TemporaryDirectory(prefix="statecast-guide-") as folder:
        package = pathlib.Path(folder) / "Poll"
        package_from_guide(package)
        build = subprocess.run([SWIFT, "build", "--build-tests"], cwd=package, capture_output=True, text=True)
        assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
        assert " warning: " not in build.stdout, build.stdout
        tests = subprocess.run([SWIFT, "test", "--skip-build"], cwd=package, capture_output=True, text=True)
        assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-4000:]

        # Started from elsewhere: the app finds its Public/ in its package.
        elsewhere = pathlib.Path(folder) / "elsewhere"
        elsewhere.mkdir()
        app = subprocess.Popen(
            [str(package / ".build" / "debug" / "Poll")], cwd=elsewhere, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        try:
            line = app.stdout.readline()
            while line and not line.startswith("listening on "):
                line = app.stdout.readline()
            assert line.startswith("listening on http://127.0.0.1:8080"), line
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                ada = browser.new_context().new_page()
                ben = browser.new_context().new_page()
                for page in (ada, ben):
                    page.goto("http://127.0.0.1:8080/?room=guide")
                expect(ada.locator("h1")).to_have_text("Tabs or spaces?")
                ada.get_by_role("button", name="Tabs").click()
                expect(ben.locator("li").first.locator("output")).to_have_text("1")
                expect(ada.locator("main p span")).to_have_text("Tabs")
                expect(ben.locator("main p span")).to_have_text("")
                browser.close()
        finally:
            app.send_signal(signal.SIGTERM)
            assert app.wait(timeout=15) == 0
