"""Durable stores against the real demo server and its SQLite file: no acknowledged
action is lost to kill -9, rooms and tabs come back after a restart, a failed write is
answered `unavailable` and changes nothing, a corrupt database stops the server."""

import json
import os
import pathlib
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Protocol"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from demo_binary import ROOT, demo_binary  # noqa: E402
from statecast_client import Client, SUBPROTOCOL  # noqa: E402


class Process:
    """statecast-demo on a free port with the given data directory."""

    def __init__(self, data, *flags):
        command = [str(demo_binary()), "--port", "0", "--public", str(ROOT / "Public"), "--data", str(data), *flags]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on "):
            self.process.kill()
            raise RuntimeError("statecast-demo did not start: " + line + self.process.stderr.read())
        self.port = int(line.split()[-1].rsplit(":", 1)[1])
        self.url = f"ws://127.0.0.1:{self.port}/ws"

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=20) == 0


def count_in(url, topic):
    client = Client(url)
    client.join(topic)
    count = client.states[topic]["count"]
    client.close()
    return count


def pipeline(url, topic, actions, acked, sent, ready):
    """Sends `actions` increments without waiting, counting every `ok` until the socket dies."""
    try:
        ws = connect(url, subprotocols=[SUBPROTOCOL], max_size=None, open_timeout=10)
        ws.recv(timeout=10)
        ws.send(json.dumps({"op": "join", "ref": 0, "topic": topic}))
        while json.loads(ws.recv(timeout=10)).get("op") != "reply":
            pass
    finally:
        ready.release()
    try:
        for ref in range(1, actions + 1):
            ws.send(json.dumps({"op": "action", "ref": ref, "topic": topic, "action": {"increment": {}}}))
            sent[0] += 1
            while True:  # read what has arrived, without blocking
                try:
                    message = json.loads(ws.recv(timeout=0))
                except TimeoutError:
                    break
                if message.get("op") == "reply" and message.get("status") == "ok" and message["ref"] > 0:
                    acked[0] += 1
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message.get("op") == "reply" and message.get("status") == "ok" and message["ref"] > 0:
                acked[0] += 1
    except (ConnectionClosed, OSError, TimeoutError):
        pass


def test_kill_9_loses_no_acknowledged_action():
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="statecast-kill9-") as data:
        server = Process(data, "--action-burst", "1000000", "--actions-per-second", "1000000")
        expected_at_least = 0
        expected_at_most = 0
        for round in range(10):
            clients = 4
            acked = [[0] for _ in range(clients)]
            sent = [[0] for _ in range(clients)]
            ready = threading.Semaphore(0)
            threads = [
                threading.Thread(target=pipeline, args=(server.url, "counter/k9", 2_000, acked[i], sent[i], ready), daemon=True)
                for i in range(clients)
            ]
            for thread in threads:
                thread.start()
            for _ in threads:
                assert ready.acquire(timeout=30)
            time.sleep(rng.uniform(0.02, 0.4))  # the kill point: a moment chosen at random
            server.kill()
            for thread in threads:
                thread.join(timeout=30)
            expected_at_least += sum(a[0] for a in acked)
            expected_at_most += sum(s[0] for s in sent)
            server = Process(data, "--action-burst", "1000000", "--actions-per-second", "1000000")
            count = count_in(server.url, "counter/k9")
            assert expected_at_least <= count <= expected_at_most, (round, expected_at_least, count, expected_at_most)
            print(f"kill point {round}: acknowledged {expected_at_least}, stored {count}, sent {expected_at_most}")
            # What the room holds now is the floor and ceiling of the next round.
            expected_at_least = expected_at_most = count
        server.stop()


def test_a_room_and_a_tab_survive_a_restart_and_the_tab_resumes():
    with tempfile.TemporaryDirectory(prefix="statecast-restart-") as data:
        server = Process(data)
        tab = Client(server.url)
        tab.join("counter")
        tab.join("counter/team")
        for _ in range(7):
            tab.action("counter/team", {"increment": {}})
        for _ in range(3):
            tab.action("counter", {"increment": {}})
        session = tab.hello["session"]
        revs = dict(tab.revs)
        server.stop()  # SIGTERM: a deploy; sessions are saved on the way out
        tab.close()

        server = Process(data)
        again = Client(server.url)
        reply, before = again.request({"op": "hello", "session": session, "resume": revs})
        assert reply["resumed"] is True and reply["session"] == session
        snapshots = {m["topic"]: m for m in before if m["op"] == "snapshot"}
        assert snapshots["counter/team"]["state"]["count"] == 7
        assert snapshots["counter"]["state"]["count"] == 3
        # Revisions keep increasing across the restart.
        assert snapshots["counter/team"]["rev"] > revs["counter/team"]
        again.action("counter", {"increment": {}})
        assert again.states["counter"]["count"] == 4
        # The room is on disk: a fresh tab sees it.
        assert count_in(server.url, "counter/team") == 7
        server.stop()


def test_an_action_retried_with_its_key_after_kill_9_is_not_applied_twice():
    """The idempotency key is journaled with the change: a server restarted after kill -9
    answers a retry of an applied action `ok` and changes nothing."""
    with tempfile.TemporaryDirectory(prefix="statecast-keys-") as data:
        server = Process(data)
        tab = Client(server.url)
        tab.join("counter/keys")
        reply, _ = tab.action("counter/keys", {"increment": {}}, key="retry-me-1")
        assert reply["status"] == "ok"
        reply, _ = tab.action("counter/keys", {"increment": {}}, key="retry-me-1")
        assert reply["status"] == "ok" and tab.states["counter/keys"]["count"] == 1
        tab.action("counter/keys", {"increment": {}})
        server.kill()
        tab.close()

        server = Process(data)
        again = Client(server.url)
        again.join("counter/keys")
        assert again.states["counter/keys"]["count"] == 2
        reply, before = again.action("counter/keys", {"increment": {}}, key="retry-me-1")
        assert reply["status"] == "ok"
        # Nothing of the retry: no patch touched the count (the join's own effects may
        # still be patching other fields).
        assert not any(op["path"] == "/count" for m in before if m["op"] == "patch" for op in m["ops"])
        assert again.states["counter/keys"]["count"] == 2
        reply, _ = again.action("counter/keys", {"increment": {}}, key="retry-me-2")
        assert reply["status"] == "ok" and again.states["counter/keys"]["count"] == 3
        server.stop()


def test_a_guest_who_acted_in_a_room_comes_back_as_itself_after_kill_9():
    """The `ok` of an action in a durable room means its sender is stored too: a guest
    that joined and acted moments before a kill -9 (long before the periodic session
    save) resumes its session, as the same viewer, instead of coming back a stranger to
    what it did."""
    with tempfile.TemporaryDirectory(prefix="statecast-guest-") as data:
        server = Process(data, "--session-save-interval", "3600")
        tab = Client(server.url)
        tab.join("counter/guests")
        reply, _ = tab.action("counter/guests", {"increment": {}})
        assert reply["status"] == "ok"
        session = tab.hello["session"]
        revs = dict(tab.revs)
        server.kill()
        tab.close()

        server = Process(data, "--session-save-interval", "3600")
        again = Client(server.url)
        reply, before = again.request({"op": "hello", "session": session, "resume": revs})
        assert reply["resumed"] is True and reply["session"] == session
        snapshots = {m["topic"]: m for m in before if m["op"] == "snapshot"}
        assert snapshots["counter/guests"]["state"]["count"] == 1
        # A tab that only looked at its own counter is not saved before its time.
        looker = Client(server.url)
        looker.join("counter")
        looker_session = looker.hello["session"]
        server.kill()
        looker.close()
        server = Process(data, "--session-save-interval", "3600")
        probe = Client(server.url)
        reply, _ = probe.request({"op": "hello", "session": looker_session, "resume": {}})
        assert reply["resumed"] is False
        server.stop()


def test_a_guest_whose_page_opened_its_session_comes_back_as_itself_after_kill_9():
    """The same for a session a page's GET opened and joined to the room: saved when its
    socket resumes it, before the action there is answered."""
    with tempfile.TemporaryDirectory(prefix="statecast-page-guest-") as data:
        server = Process(data, "--session-save-interval", "3600")
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/counter.html?room=page-guest", timeout=10) as page:
            body = page.read().decode()
        match = re.search(r'<script type="application/json" id="statecast-page">(.*?)</script>', body, re.S)
        rendered = json.loads(match.group(1))
        session = rendered["session"]
        tab = Client(server.url)
        topic = rendered["topics"]["counter/page-guest"]
        tab.states["counter/page-guest"] = topic["state"]
        tab.revs["counter/page-guest"] = topic["rev"]
        reply, _ = tab.request({"op": "hello", "session": session, "resume": {"counter/page-guest": topic["rev"]}})
        assert reply["resumed"] is True
        reply, _ = tab.action("counter/page-guest", {"increment": {}})
        assert reply["status"] == "ok"
        server.kill()
        tab.close()

        server = Process(data, "--session-save-interval", "3600")
        again = Client(server.url)
        reply, before = again.request({"op": "hello", "session": session, "resume": {}})
        assert reply["resumed"] is True and reply["session"] == session
        snapshots = {m["topic"]: m for m in before if m["op"] == "snapshot"}
        assert snapshots["counter/page-guest"]["state"]["count"] == 1
        server.stop()


def test_a_session_is_not_restored_for_a_malformed_or_unknown_id():
    with tempfile.TemporaryDirectory(prefix="statecast-restart-") as data:
        server = Process(data)
        for session in ["../../etc", "0" * 32, "ZZ" * 16]:
            probe = Client(server.url)
            reply, _ = probe.request({"op": "hello", "session": session, "resume": {}})
            assert reply["resumed"] is False and reply["session"] == probe.hello["session"]
            probe.close()
        server.stop()


def test_a_corrupt_database_stops_the_server_with_a_clear_message():
    with tempfile.TemporaryDirectory(prefix="statecast-corrupt-") as data:
        pathlib.Path(data, "statecast.sqlite").write_bytes(b"this is not a database" * 1000)
        command = [str(demo_binary()), "--port", "0", "--public", str(ROOT / "Public"), "--data", data]
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert "cannot open the database" in result.stderr
        assert "listening on" not in result.stdout


def test_a_failed_write_is_unavailable_and_changes_nothing():
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small file system")
    mountpoint = tempfile.mkdtemp(prefix="statecast-full-")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mountpoint]).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        server = Process(mountpoint)
        client = Client(server.url)
        client.join("counter/full")
        client.action("counter/full", {"increment": {}})
        assert client.states["counter/full"]["count"] == 1
        # Fill the file system: the next commit cannot be written.
        filler = pathlib.Path(mountpoint, "filler")
        with open(filler, "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
            except OSError:
                pass
        codes = []
        for _ in range(20):
            reply, _ = client.action("counter/full", {"increment": {}})
            codes.append(reply.get("error", {}).get("code"))
            if codes[-1] == "unavailable":
                break
        assert "unavailable" in codes, codes
        # Nothing changed for anyone: a fresh member sees what the failed action did not do.
        seen = count_in(server.url, "counter/full")
        assert seen == client.states["counter/full"]["count"]
        filler.unlink()
        reply, _ = client.action("counter/full", {"increment": {}})
        assert reply["status"] == "ok"
        server.stop()
    finally:
        subprocess.run(["umount", "-l", mountpoint])
        os.rmdir(mountpoint)
