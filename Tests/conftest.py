"""Fixtures shared by the Python test suites: a real statecast-demo server process.

The server binary comes from STATECAST_BIN_DIR (scripts/test.sh sets it to the debug
build's folder), or from `swift build --show-bin-path`.
"""

import os
import pathlib
import signal
import subprocess
import tempfile

import pytest

from demo_binary import ROOT, demo_binary


class DemoServer:
    """A statecast-demo process on a free port, stopped with SIGTERM on teardown."""

    def __init__(self, *flags: str):
        self.data = tempfile.TemporaryDirectory(prefix="statecast-test-")
        command = [str(demo_binary()), "--port", "0", "--public", str(ROOT / "Public"), "--data", self.data.name, *flags]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output = []
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith("listening on "):
                self.origin = line.split()[-1].strip()
                break
        else:
            raise RuntimeError("statecast-demo exited before listening:\n" + "".join(self.output))
        self.port = int(self.origin.rsplit(":", 1)[1])
        scheme = "wss" if self.origin.startswith("https") else "ws"
        self.ws_url = f"{scheme}://127.0.0.1:{self.port}/ws"

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            if os.environ.get("STATECAST_DEBUG_HANG"):
                subprocess.run(["gdb", "-p", str(self.process.pid), "-batch", "-ex", "thread apply all bt 20"])
            self.process.kill()
            code = self.process.wait()
        self.output.extend(self.process.stdout.readlines())
        self.data.cleanup()
        return code


@pytest.fixture
def start_server():
    """Starts demo servers with the given flags; each is stopped (and must exit 0) at teardown."""
    servers = []

    def start(*flags: str) -> DemoServer:
        server = DemoServer(*flags)
        servers.append(server)
        return server

    yield start
    for server in servers:
        code = server.stop()
        assert code == 0, "statecast-demo did not exit cleanly:\n" + "".join(server.output)


@pytest.fixture
def server(start_server):
    """A demo server with default settings."""
    return start_server()
