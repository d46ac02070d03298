"""Fixtures shared by the Python test suites: a real statecast-demo server process.

The server binary comes from STATECAST_BIN_DIR (scripts/test.sh sets it to the debug
build's folder), or from `swift build --show-bin-path`.
"""

import os
import pathlib
import signal
import subprocess
import tempfile
import threading

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


class RestartableServer:
    """A statecast-demo process that can be stopped (SIGTERM), killed (SIGKILL) and started
    again on the same port with the same --data directory, as a deploy or a crash would.

    The first start picks a free port; every later start reuses it, so open pages find the
    new process where the old one was. Output is read by a thread (the pipe never fills)
    and kept in `output`.
    """

    def __init__(self, *flags: str):
        self.flags = flags
        self.data = tempfile.TemporaryDirectory(prefix="statecast-restart-")
        self.port = 0
        self.process = None
        self.output = []

    def start(self) -> "RestartableServer":
        assert self.process is None or self.process.poll() is not None, "already running"
        command = [
            str(demo_binary()), "--port", str(self.port), "--public", str(ROOT / "Public"),
            "--data", self.data.name, *self.flags,
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            self.output.append(line)
            if line.startswith("listening on "):
                origin = line.split()[-1].strip()
                break
        else:
            raise RuntimeError("statecast-demo exited before listening:\n" + "".join(self.output))
        port = int(origin.rsplit(":", 1)[1])
        assert self.port in (0, port), f"asked for port {self.port}, listening on {port}"
        self.port = port
        self.origin = origin
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()
        return self

    def _drain(self, process):
        for line in process.stdout:
            self.output.append(line)

    def stop(self) -> int:
        """SIGTERM (a deploy): sessions are saved and the process exits; returns its code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        return code

    def kill(self) -> int:
        """SIGKILL (a crash): nothing runs on the way out."""
        self.process.send_signal(signal.SIGKILL)
        return self.process.wait(timeout=15)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@pytest.fixture
def restartable_server():
    """Starts a RestartableServer with the given flags; a running one is stopped at
    teardown (and must exit 0), then its data directory is removed."""
    servers = []

    def start(*flags: str) -> RestartableServer:
        server = RestartableServer(*flags).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        code = server.stop() if server.running() else 0
        server.data.cleanup()
        assert code == 0, "statecast-demo did not exit cleanly:\n" + "".join(server.output)


SCRIPTS = ROOT / "scripts"
CLUSTER_SECRET = "a-secret-every-process-of-the-test-cluster-shares"


class ThrowawayPostgres:
    """A PostgreSQL server of its own in a temporary directory (scripts/postgres-throwaway.sh):
    a free loopback port, an unprivileged user, deleted when stopped."""

    def __init__(self):
        out = subprocess.run(
            [str(SCRIPTS / "postgres-throwaway.sh"), "start"], check=True, capture_output=True, text=True, timeout=120
        ).stdout.split()
        self.url, self.directory = out[0], out[1]

    def pause(self):
        """Stops the server (its data stays): clients see the database unreachable."""
        subprocess.run([str(SCRIPTS / "postgres-throwaway.sh"), "pause", self.directory], check=True, timeout=120)

    def resume(self):
        subprocess.run([str(SCRIPTS / "postgres-throwaway.sh"), "resume", self.directory], check=True, timeout=120)

    def stop(self):
        subprocess.run([str(SCRIPTS / "postgres-throwaway.sh"), "stop", self.directory], check=True, timeout=120)


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL server for the whole run (tests use rooms of their own)."""
    server = ThrowawayPostgres()
    yield server
    server.stop()


@pytest.fixture
def own_postgres():
    """A PostgreSQL server for one test alone (one that stops and starts it)."""
    server = ThrowawayPostgres()
    yield server
    server.stop()


@pytest.fixture
def start_cluster(postgres, restartable_server):
    """Starts `count` demo processes sharing `database` (default: the session's
    PostgreSQL), each on a port of its own, as a load balancer would spread them."""

    def start(count: int, *flags: str, database=None) -> list:
        url = (database or postgres).url
        return [
            restartable_server("--postgres", url, "--secret", CLUSTER_SECRET, *flags) for _ in range(count)
        ]

    return start
