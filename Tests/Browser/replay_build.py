"""Compiles and runs an exported session test (a Swift Testing file) against the modules
the debug build already holds, without a package: swiftc type-checks the one file, links
the object files of the few targets it needs, and the program runs Swift Testing's own
entry point. A few seconds, where a package of its own would build its dependencies."""

import pathlib
import shutil
import subprocess
import time

# What an exported test of a demo feature links: the feature's module, the TestStore
# and what they stand on.
TARGETS = [
    "StatecastExamples", "Statecast", "StatecastTesting", "CustomDump", "Clocks", "ConcurrencyExtras",
    "IssueReporting", "IssueReportingTestSupport", "XCTestDynamicOverlay",
]

MAIN = """import Testing

@main struct ReplayRunner {
  static func main() async { await Testing.__swiftPMEntryPoint() as Never }
}
"""


def swiftc() -> str:
    return shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"


def compile_replay(bin_dir: pathlib.Path, source: str, work: pathlib.Path) -> tuple[pathlib.Path, float]:
    """Builds `source` into an executable in `work`; returns it and the seconds it took."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "Replay.swift").write_text(source)
    (work / "Main.swift").write_text(MAIN)
    objects = []
    for target in TARGETS:
        folder = bin_dir / f"{target}.build"
        if folder.is_dir():
            objects += sorted(str(path) for path in folder.glob("*.o"))
    executable = work / "replay"
    started = time.monotonic()
    result = subprocess.run(
        [
            swiftc(), "-parse-as-library", "-swift-version", "6", "-Onone",
            "-I", str(bin_dir / "Modules"), str(work / "Replay.swift"), str(work / "Main.swift"),
            *objects, "-lTesting", "-lXCTest", "-o", str(executable),
        ],
        capture_output=True, text=True, timeout=300,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 0, f"the exported test does not compile:\n{result.stderr}"
    return executable, elapsed


def run_replay(executable: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(executable), "--testing-library", "swift-testing"], capture_output=True, text=True, timeout=120
    )
