"""Several statecast-demo processes sharing rooms and sessions through a real PostgreSQL
server (a throwaway cluster started by the tests): one order of revisions on every
process, failover after kill -9 of a room's owner, PostgreSQL stopped and started under
load, sessions resumed on any process."""

import json
import pathlib
import sys
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Protocol"))

from statecast_client import Client  # noqa: E402

INCREMENT = {"increment": {}}


def ws_url(process):
    return f"ws://127.0.0.1:{process.port}/ws"


def patches(client, topic):
    """(rev, ops) of every patch the client got on `topic`, in order."""
    return [(m["rev"], json.dumps(m["ops"], sort_keys=True)) for m in client.received
            if m.get("op") == "patch" and m.get("topic") == topic]


def drain(client, topic, until, timeout=10):
    """Reads until the client's state of `topic` satisfies `until`."""
    deadline = time.monotonic() + timeout
    while not until(client.states.get(topic)):
        assert time.monotonic() < deadline, f"state of {topic} never got there: {client.states.get(topic)}"
        client.recv(timeout=deadline - time.monotonic())


def test_three_processes_share_a_room_in_one_order(start_cluster):
    processes = start_cluster(3)
    room = "counter/one-order"
    clients = [Client(ws_url(p)) for p in processes for _ in range(2)]
    for client in clients:
        reply, _ = client.join(room)
        assert reply["status"] == "ok"
    # Every member sees every member, whichever process it is on.
    for client in clients:
        drain(client, room, lambda s: s is not None and len(s["presence"]) == len(clients))
    for _ in range(5):
        for client in clients:
            reply, _ = client.action(room, INCREMENT)
            assert reply["status"] == "ok", reply
            # The reply follows the patch: the sender already sees its own increment.
    total = 5 * len(clients)
    for client in clients:
        drain(client, room, lambda s: s["count"] == total)
    # One order: wherever two clients both saw a revision, it carried the same patch.
    seen = {}
    for client in clients:
        for rev, ops in patches(client, room):
            assert seen.setdefault(rev, ops) == ops, f"revision {rev} differs between processes"
    assert len({client.revs[room] for client in clients}) == 1


def test_a_session_resumes_on_another_process(start_cluster):
    a, b = start_cluster(2)
    room = "counter/resume-anywhere"
    first = Client(ws_url(a))
    first.join(room)
    first.join("counter")
    for _ in range(3):
        first.action(room, INCREMENT)
        first.action("counter", INCREMENT)
    session = first.hello["session"]
    first.close()
    # No stickiness: the same session comes back on the other process.
    second = Client(ws_url(b), hello=False)
    reply, before = second.request({"op": "hello", "session": session})
    assert reply["status"] == "ok" and reply["resumed"] is True and reply["session"] == session
    drain(second, room, lambda s: s is not None and s["count"] == 3)
    drain(second, "counter", lambda s: s is not None)
    reply, _ = second.action(room, INCREMENT)
    assert reply["status"] == "ok" and second.states[room]["count"] == 4


class Pipeline(threading.Thread):
    """Sends increments one after another on one socket (at most about 200 a second:
    every member reads every patch, and a Python client reading the patches of a
    faster sender would fall ever further behind), counting the acknowledged ones,
    until told to stop or the socket dies."""

    def __init__(self, url, room):
        super().__init__(daemon=True)
        self.client = Client(url)
        # Through a database outage a request may wait for its owner's answer (5 s) more
        # than once before the room is reachable again.
        self.client.timeout = 30
        self.client.join(room)
        self.room = room
        self.acknowledged = 0
        self.unavailable = 0
        self.sent = 0
        self.stopping = threading.Event()
        self.error = None

    def run(self):
        try:
            while not self.stopping.wait(0.005):
                self.sent += 1
                reply, _ = self.client.action(self.room, INCREMENT)
                if reply["status"] == "ok":
                    self.acknowledged += 1
                elif reply["error"]["code"] == "unavailable":
                    self.unavailable += 1
                else:
                    self.error = reply
                    return
        except (ConnectionClosed, TimeoutError, OSError) as error:
            self.error = error


def act_until_ok(url, room, deadline_seconds):
    """A fresh client on `url` joins and sends increments until one is acknowledged;
    returns it and how long that took."""
    started = time.monotonic()
    client = Client(url)
    client.join(room)
    while True:
        reply, _ = client.action(room, INCREMENT)
        if reply["status"] == "ok":
            return client, time.monotonic() - started
        assert reply["error"]["code"] == "unavailable", reply
        assert time.monotonic() - started < deadline_seconds, "the room never came back"


def test_the_owner_killed_mid_stream_loses_no_acknowledged_action(start_cluster):
    owner, b, c = start_cluster(3, "--session-grace", "30")
    room = "counter/failover"
    on_owner = Client(ws_url(owner))
    on_owner.join(room)  # the first join makes this process the room's owner
    on_owner.action(room, INCREMENT)
    pipelines = [Pipeline(ws_url(p), room) for p in (b, c)]
    for pipeline in pipelines:
        pipeline.start()
    deadline = time.monotonic() + 10
    while min(p.acknowledged for p in pipelines) < 20:
        assert time.monotonic() < deadline, "the followers' actions were not acknowledged"
        time.sleep(0.01)
    owner.kill()
    killed_at = time.monotonic()
    # The followers keep sending: `unavailable` until one of them owns the room.
    deadline = time.monotonic() + 20
    while True:
        before = sum(p.acknowledged for p in pipelines)
        time.sleep(0.2)
        if sum(p.acknowledged for p in pipelines) > before and all(p.is_alive() for p in pipelines):
            break
        assert time.monotonic() < deadline, "no process took the room over"
    took_over = time.monotonic() - killed_at
    print(f"acknowledged again {took_over:.2f} s after the owner was killed")
    for pipeline in pipelines:
        pipeline.stopping.set()
    for pipeline in pipelines:
        pipeline.join(timeout=15)
    acknowledged = 1 + sum(p.acknowledged for p in pipelines)
    sent = 1 + sum(p.sent for p in pipelines)
    # Every acknowledged action is in the state every member converges on.
    final, _ = act_until_ok(ws_url(b), room, 10)
    count = final.states[room]["count"] - 1
    assert acknowledged <= count <= sent, (acknowledged, count, sent)
    for pipeline in pipelines:
        drain(pipeline.client, room, lambda s: s["count"] == count + 1)
    # Taken over within five seconds of the lease lapsing (two seconds).
    assert took_over < 5 + 2, f"takeover took {took_over:.1f} s"
    # The owner's own client reconnects to another process and resumes its session.
    resumed = Client(ws_url(c), hello=False)
    reply, _ = resumed.request({"op": "hello", "session": on_owner.hello["session"]})
    assert reply["resumed"] is True
    drain(resumed, room, lambda s: s is not None and s["count"] == count + 1)


def test_postgres_stopped_and_started_under_load(start_cluster, own_postgres):
    processes = start_cluster(2, database=own_postgres)
    room = "counter/database-outage"
    pipelines = [Pipeline(ws_url(p), room) for p in processes]
    for pipeline in pipelines:
        pipeline.start()
    deadline = time.monotonic() + 10
    while min(p.acknowledged for p in pipelines) < 10:
        assert time.monotonic() < deadline, "actions were not acknowledged"
        time.sleep(0.01)
    own_postgres.pause()
    # Actions on the durable room are answered `unavailable` while it is down.
    deadline = time.monotonic() + 20
    while sum(p.unavailable for p in pipelines) < 2:
        assert time.monotonic() < deadline, "no action was answered unavailable"
        time.sleep(0.05)
    own_postgres.resume()
    # The processes recover by themselves (a follower may need a few request timeouts).
    deadline = time.monotonic() + 30
    while True:
        before = [p.acknowledged for p in pipelines]
        time.sleep(0.5)
        if all(p.acknowledged > n for p, n in zip(pipelines, before)):
            break
        assert time.monotonic() < deadline, "the processes did not recover after the database came back: " + ", ".join(
            f"acknowledged {p.acknowledged}, unavailable {p.unavailable}, {p.error!r}" for p in pipelines)
    for pipeline in pipelines:
        pipeline.stopping.set()
    for pipeline in pipelines:
        pipeline.join(timeout=15)
    acknowledged = sum(p.acknowledged for p in pipelines)
    sent = sum(p.sent for p in pipelines)
    final, _ = act_until_ok(ws_url(processes[0]), room, 20)
    count = final.states[room]["count"] - 1
    assert acknowledged <= count <= sent, (acknowledged, count, sent)
    for process in processes:
        assert process.stop() == 0, "".join(process.output)


def test_new_rooms_count_against_the_quota_of_the_process_that_runs_them(start_cluster):
    (process,) = start_cluster(1, "--max-new-rooms-per-viewer", "2")
    client = Client(ws_url(process))
    codes = []
    for index in range(3):
        room = f"counter/cluster-quota-{time.monotonic_ns()}-{index}"
        client.join(room)
        reply, _ = client.action(room, INCREMENT)
        codes.append(reply.get("error", {}).get("code", reply["status"]))
        client.leave(room)
    assert codes == ["ok", "ok", "rate_limited"]


def test_a_retry_with_its_key_is_applied_once_by_the_next_owner(start_cluster):
    """An action acknowledged before its room's owner died, sent again with its key
    through another process: the process that takes the room over finds the key in the
    journal, answers `ok` and changes nothing."""
    owner, b = start_cluster(2)
    room = "counter/keys-failover"
    on_owner = Client(ws_url(owner))
    on_owner.join(room)  # the first join makes this process the room's owner
    member = Client(ws_url(b))
    member.join(room)
    reply, _ = member.action(room, INCREMENT, key="failover-key-1")
    assert reply["status"] == "ok"
    drain(member, room, lambda s: s["count"] == 1)
    owner.kill()
    deadline = time.monotonic() + 20
    while True:
        reply, _ = member.action(room, INCREMENT, key="failover-key-1")
        if reply["status"] == "ok":
            break
        assert reply["error"]["code"] == "unavailable", reply
        assert time.monotonic() < deadline, "the room never came back"
    fresh = Client(ws_url(b))
    fresh.join(room)
    assert fresh.states[room]["count"] == 1
    reply, _ = fresh.action(room, INCREMENT, key="failover-key-2")
    assert reply["status"] == "ok" and fresh.states[room]["count"] == 2


def test_new_rooms_made_through_another_process_count_against_the_quota(start_cluster):
    """A member on a follower creates rooms that another process runs: the first change
    of each is counted where the room runs, against the member's viewer and address."""
    runner, follower = start_cluster(2, "--max-new-rooms-per-viewer", "2")
    opener = Client(ws_url(runner))
    member = Client(ws_url(follower))
    codes = []
    for index in range(3):
        room = f"counter/forwarded-quota-{time.monotonic_ns()}-{index}"
        opener.join(room)  # the runner opens the room first, so it runs it
        member.join(room)
        reply, _ = member.action(room, INCREMENT)
        codes.append(reply.get("error", {}).get("code", reply["status"]))
    assert codes == ["ok", "ok", "rate_limited"]
