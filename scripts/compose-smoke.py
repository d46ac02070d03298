#!/usr/bin/env python3
"""The wire-protocol scenario of scripts/compose-check.sh: two app processes sharing
PostgreSQL behind nginx, with no sticky sessions (docs/DEPLOYMENT.md, docs/PROTOCOL.md).
Usage: compose-smoke.py NGINX_PORT APP1_PORT APP2_PORT APP1_PID

1. Ready: GET /readyz answers 200 through nginx and from each app.
2. Across processes: a client on app1 and a client on app2 (direct) join the durable
   room counter/compose-check; one increments; both see the patch.
3. Through nginx, as a browser (with an Origin header): two more clients join; nginx
   puts them on different apps (round robin); one increments; all four see it.
4. Failover: SIGTERM to app1 (APP1_PID). Its clients are closed with 1012, one direct
   and exactly one of the two through nginx (which proves that nginx spread them). The
   direct one reconnects through nginx, which now reaches app2 only, and resumes its
   session there (`resumed: true`); its increment, retried while the room moves to its
   new owner, reaches the clients on app2.
Exits 0 when all of it holds; app1 is then stopping, and the caller checks its exit."""

import contextlib
import json
import os
import signal
import sys
import time
import urllib.request

import jsonpatch
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

TOPIC = "counter/compose-check"
# Every socket, closed when main returns or fails.
sockets = contextlib.ExitStack()


class Client:
    """One tab: a socket, its session, and the room's state as its patches build it."""

    def __init__(self, name: str, port: int, origin: bool = False):
        self.name, self.port = name, port
        self.state, self.rev, self.ref = None, None, 0
        self.ws = self._connect(origin)
        hello = self.receive()
        assert hello["op"] == "hello", (name, hello)
        self.session = hello["session"]

    def _connect(self, origin: bool):
        # A browser sends its page's origin; the server accepts it only when it names the
        # Host that nginx passed on.
        return sockets.enter_context(
            connect(
                f"ws://127.0.0.1:{self.port}/ws",
                subprotocols=["statecast.v1"],
                origin=f"http://127.0.0.1:{self.port}" if origin else None,
                open_timeout=10,
            )
        )

    def receive(self, timeout: float = 10):
        return json.loads(self.ws.recv(timeout=timeout))

    def apply(self, message) -> None:
        if message.get("topic") != TOPIC:
            return
        if message["op"] == "snapshot":
            self.state, self.rev = message["state"], message["rev"]
        elif message["op"] == "patch":
            assert message["rev"] == self.rev + 1, (self.name, self.rev, message)
            self.state, self.rev = jsonpatch.apply_patch(self.state, message["ops"]), message["rev"]

    def request(self, message):
        """Sends one message and returns its reply, applying what comes before it."""
        self.ref += 1
        self.ws.send(json.dumps({**message, "ref": self.ref}))
        while (answer := self.receive())["op"] != "reply" or answer["ref"] != self.ref:
            self.apply(answer)
        return answer

    def join(self) -> None:
        reply = self.request({"op": "join", "topic": TOPIC})
        assert reply["status"] == "ok", (self.name, reply)

    def increment(self, retry_for: float = 0) -> None:
        """Increments the room; `unavailable` is retried for `retry_for` seconds (while a
        room changes owner, its actions may be refused for a moment)."""
        deadline = time.monotonic() + retry_for
        while True:
            reply = self.request({"op": "action", "topic": TOPIC, "action": {"increment": {}}})
            if reply["status"] == "ok":
                return
            code = reply.get("error", {}).get("code")
            assert code == "unavailable" and time.monotonic() < deadline, (self.name, reply)
            time.sleep(0.25)

    def see_count(self, count: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.state["count"] != count:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.name} sees count {self.state['count']}, not {count}"
            self.apply(self.receive(timeout=left))

    def close_code(self, timeout: float):
        """The close code the server sent within `timeout` seconds, else None."""
        deadline = time.monotonic() + timeout
        try:
            while (left := deadline - time.monotonic()) > 0:
                self.apply(self.receive(timeout=left))
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        return None


def ready(port: int) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as response:
        assert response.status == 200, (port, response.status)


def main(nginx: int, app1: int, app2: int, app1_pid: int) -> None:
    for port in (nginx, app1, app2):
        ready(port)
    print(f"ready: /readyz answers 200 through nginx (port {nginx}) and from both apps")

    a, b = Client("a (app1)", app1), Client("b (app2)", app2)
    a.join()
    b.join()
    start = a.state["count"]
    a.increment()
    a.see_count(start + 1)
    b.see_count(start + 1)
    print(f"across processes: {TOPIC} incremented on app1, seen on app2")

    c, d = Client("c (nginx)", nginx, origin=True), Client("d (nginx)", nginx, origin=True)
    c.join()
    d.join()
    d.increment()
    for client in (a, b, c, d):
        client.see_count(start + 2)
    print("through nginx: two browsers joined with an Origin, one incremented, all four saw it")

    terminated = time.monotonic()
    os.kill(app1_pid, signal.SIGTERM)
    assert a.close_code(timeout=10) == 1012, "a: app1 did not close with 1012"
    closed = time.monotonic() - terminated
    # Exactly one of c and d was on app1: then nginx spread them over both apps.
    code_c, code_d = c.close_code(timeout=3), d.close_code(timeout=0.5)
    assert sorted([code_c or 0, code_d or 0]) == [0, 1012], f"through nginx, close codes {code_c}, {code_d}"
    survivor = d if code_c == 1012 else c
    print(
        f"drain: SIGTERM to app1 closed its clients with 1012 ({closed:.2f} s), "
        "one direct and one of the two through nginx"
    )

    # The tab on app1 reconnects through nginx (only app2 is left) and resumes.
    old_session, old_rev = a.session, a.rev
    reconnected = time.monotonic()
    a.port = nginx
    a.ws = a._connect(origin=True)
    assert a.receive()["op"] == "hello"
    reply = a.request({"op": "hello", "session": old_session, "resume": {TOPIC: old_rev}})
    assert reply["status"] == "ok" and reply.get("resumed") is True, ("a", reply)
    a.see_count(start + 2)
    a.increment(retry_for=20)
    for client in (a, b, survivor):
        client.see_count(start + 3)
    print(
        f"failover: a resumed its session on app2 through nginx, and its increment reached "
        f"app2's clients, {time.monotonic() - reconnected:.2f} s after it reconnected"
    )


if __name__ == "__main__":
    with sockets:
        main(*map(int, sys.argv[1:5]))
