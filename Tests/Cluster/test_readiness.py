"""A process started with --postgres while the database is down: alive, not ready.

It answers `/healthz` 200 at once (an orchestrator must not restart it), `/readyz` 503
and refuses WebSocket upgrades with 503 (a load balancer must not send it clients),
until PostgreSQL answers; then it is ready and serves rooms like any other process.
"""

import http.client
import queue
import signal
import socket
import subprocess
import tempfile
import threading
import time

from conftest import CLUSTER_SECRET
from demo_binary import ROOT, demo_binary


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(port: int, path: str, headers=None) -> int | None:
    """The HTTP status of GET `path`, or None when nothing answers."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path, headers=headers or {})
        return connection.getresponse().status
    except OSError:
        return None


def upgrade_status(port: int) -> int | None:
    return status(port, "/ws", {
        "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "statecast.v1",
    })


def wait_for(condition, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_process_waiting_for_its_database_is_alive_but_not_ready(own_postgres):
    own_postgres.pause()
    port = free_port()
    data = tempfile.TemporaryDirectory(prefix="statecast-test-")
    process = subprocess.Popen(
        [str(demo_binary()), "--port", str(port), "--public", str(ROOT / "Public"), "--data", data.name,
         "--postgres", own_postgres.url, "--secret", CLUSTER_SECRET],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    try:
        wait_for(lambda: status(port, "/healthz") == 200, "/healthz while the database is down")
        assert status(port, "/readyz") == 503
        assert upgrade_status(port) == 503
        # Still waiting a while later: not ready, not restarted, not exited.
        time.sleep(1)
        assert process.poll() is None
        assert status(port, "/readyz") == 503

        own_postgres.resume()
        wait_for(lambda: status(port, "/readyz") == 200, "/readyz once the database answers", timeout=60)
        assert upgrade_status(port) == 101
        seen = []
        deadline = time.monotonic() + 10
        while not any(line.startswith("listening on ") for line in seen):
            seen.append(lines.get(timeout=max(0.1, deadline - time.monotonic())))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=20)
        data.cleanup()
    assert code == 0
