"""A session replayed as a test: the counter driven in Chromium with `?debug`, its
session exported from the panel (the recording and the Swift Testing file), the same file
written by `statecast-demo export-test`, compiled against the built modules and run: it
passes; written again with a changed reducer, it fails at the step that differs."""

import subprocess

from playwright.sync_api import expect

from demo_binary import demo_binary
from replay_build import compile_replay, run_replay

# The counter's store as the test runs it: no prime is asked, favourites are loaded (the
# page's store had loaded its empty list before the first action).
DEPENDENCIES = "Counter.Dependencies(nthPrime: { _ in 2 }, loadFavoritePrimes: { [] }, saveFavoritePrimes: { _ in })"
INITIAL_STATE = "Counter.State(isLoadingFavorites: false)"
REDUCER = f"Counter.reducer(dependencies: {DEPENDENCIES})"
# A reducer changed the way a regression would: increment adds 2.
CHANGED_REDUCER = (
    f"Reducer.combine({REDUCER}, Reducer {{ state, action in\n"
    "    if case .client(.increment) = action { state.count += 1 }\n"
    "    return .none\n"
    "  })"
)


def test_a_recorded_session_exports_compiles_passes_and_catches_a_changed_reducer(server, open_page, tmp_path):
    page = open_page(f"{server.origin}/counter.html?debug")
    expect(page.locator("#count")).to_have_text("0", timeout=5_000)
    expect(page.locator("#favorite-count")).to_have_text("0", timeout=5_000)
    for button, shown in (("#increment", "1"), ("#increment", "2"), ("#increment", "3"), ("#decrement", "2")):
        page.locator(button).click(timeout=5_000)
        expect(page.locator("#count")).to_have_text(shown, timeout=5_000)
    # Every action answered before exporting.
    page.wait_for_function("() => !document.querySelector('.sc-loading')", timeout=5_000)

    panel = page.locator(".sc-debug-export")
    panel.get_by_label("Feature").fill("Counter")
    panel.get_by_label("Module").fill("StatecastExamples")
    panel.get_by_label("Initial state").fill(INITIAL_STATE)
    panel.get_by_label("Reducer").fill(REDUCER)
    with page.expect_download() as download:
        panel.get_by_role("button", name="Export session").click()
    recording = tmp_path / "counter.session.json"
    download.value.save_as(recording)
    with page.expect_download() as download:
        panel.get_by_role("button", name="Export as Swift test").click()
    from_panel = tmp_path / "from-panel.swift"
    download.value.save_as(from_panel)

    # The command line writes the same file from the recording.
    command = [
        str(demo_binary()), "export-test", str(recording), "--feature", "Counter", "--module", "StatecastExamples",
        "--initial-state", INITIAL_STATE, "--reducer", REDUCER,
    ]
    written = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert written.returncode == 0, written.stderr
    source = from_panel.read_text()
    assert written.stdout == source
    assert source.count("await store.send(Counter.embed(") == 4, source
    assert '#"{"decrement":{}}"#' in source

    bin_dir = demo_binary().parent
    executable, seconds = compile_replay(bin_dir, source, tmp_path / "replay")
    print(f"\nthe exported test compiled and linked in {seconds:.1f} s")
    passed = run_replay(executable)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "recordedSessionReplays()" in passed.stdout + passed.stderr

    # The same session against a changed reducer: the test fails where the views part.
    changed = subprocess.run(command[:-1] + [CHANGED_REDUCER], capture_output=True, text=True, timeout=30)
    assert changed.returncode == 0, changed.stderr
    executable, _ = compile_replay(bin_dir, changed.stdout, tmp_path / "changed")
    failed = run_replay(executable)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0, output
    assert "not the view recorded" in output, output


def test_export_test_refuses_what_is_not_a_recording(tmp_path):
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"topic": 1}')
    result = subprocess.run(
        [str(demo_binary()), "export-test", str(bogus), "--feature", "Counter", "--module", "M"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2, result
    assert "is not a recorded session" in result.stderr
