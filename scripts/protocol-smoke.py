#!/usr/bin/env python3
"""A short wire-protocol smoke test of a running server (docs/PROTOCOL.md): connect to
/ws with statecast.v1, get hello, join `counter`, send an increment, and see its patch
(the count becomes 1) before the ok reply.
Usage: protocol-smoke.py PORT; exits 0 when all of it holds."""

import json
import sys

import jsonpatch
from websockets.sync.client import connect


def main(port: int) -> None:
    with connect(f"ws://127.0.0.1:{port}/ws", subprotocols=["statecast.v1"], open_timeout=10) as ws:
        assert ws.subprotocol == "statecast.v1", ws.subprotocol

        def receive():
            return json.loads(ws.recv(timeout=10))

        hello = receive()
        assert hello["op"] == "hello" and len(hello["session"]) == 32, hello
        ws.send(json.dumps({"op": "join", "ref": 1, "topic": "counter"}))
        snapshot = receive()
        assert snapshot["op"] == "snapshot" and snapshot["state"]["count"] == 0, snapshot
        state, rev = snapshot["state"], snapshot["rev"]

        def patches_until_reply():
            """Applies patches until the next message that is not one; returns it.
            An effect of the join (the favourites loaded when the store starts) may
            add a patch at any point after the snapshot."""
            nonlocal state, rev
            while (message := receive())["op"] == "patch":
                assert message["rev"] == rev + 1, (rev, message)
                state, rev = jsonpatch.apply_patch(state, message["ops"]), message["rev"]
            return message

        reply = patches_until_reply()
        assert reply == {"op": "reply", "ref": 1, "status": "ok"}, reply
        ws.send(json.dumps({"op": "action", "ref": 2, "topic": "counter", "action": {"increment": {}}}))
        # The action's patch comes before its reply.
        message = patches_until_reply()
        assert message == {"op": "reply", "ref": 2, "status": "ok"}, message
        assert state["count"] == 1, state
    print(f"protocol smoke test: hello, join, snapshot, action, patch, reply on port {port}")


if __name__ == "__main__":
    main(int(sys.argv[1]))
