"""The browser runtime's bindings in real Chromium, against the small reference server
of reference_server.py: what the demo pages do not exercise one by one (forms, focus
kept in untouched rows of a keyed list, debounced two-way inputs, a server that forgot
the session). run_browser_smoke.py drives it and exits non-zero on any failed step."""

import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def test_runtime_bindings_in_chromium():
    with tempfile.TemporaryDirectory(prefix="statecast-runtime-") as shots:
        result = subprocess.run(
            [sys.executable, str(HERE / "run_browser_smoke.py"), shots],
            capture_output=True, text=True, timeout=120,
        )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all steps passed" in result.stdout
