"""Where the statecast-demo binary under test is: STATECAST_BIN_DIR (scripts/test.sh sets
it to the debug build's folder), or `swift build --show-bin-path`. A module of its own
so that every suite imports it by one name (pytest loads several files named conftest)."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def demo_binary() -> pathlib.Path:
    folder = os.environ.get("STATECAST_BIN_DIR")
    if not folder:
        folder = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout.strip()
    binary = pathlib.Path(folder) / "statecast-demo"
    if not binary.exists():
        pytest.fail(f"{binary} does not exist: run `swift build` first")
    return binary
