"""A small client of the Statecast wire protocol (PROTOCOL.md), written from the spec
alone with the `websockets` library, so the server is tested by a client that shares
no code with it. Patches are applied with Python's `jsonpatch`."""

import itertools
import json

import jsonpatch
from websockets.sync.client import connect

SUBPROTOCOL = "statecast.v1"


class Client:
    def __init__(self, url: str, *, origin=None, subprotocols=(SUBPROTOCOL,), hello=True, headers=None, ssl=None):
        self.ws = connect(
            url, subprotocols=list(subprotocols) or None, origin=origin, max_size=None, open_timeout=10,
            additional_headers=headers, **({"ssl": ssl} if ssl is not None else {}),
        )
        self.timeout = 10  # seconds a message may take to arrive
        self.refs = itertools.count(1)
        self.states = {}  # topic -> state built from snapshot + patches
        self.revs = {}  # topic -> last applied rev
        self.received = []  # every message, in order
        self.hello = self.recv() if hello else None

    def close(self):
        self.ws.close()

    def send_raw(self, data):
        self.ws.send(data)

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout=None) -> dict:
        message = json.loads(self.ws.recv(timeout=self.timeout if timeout is None else timeout))
        self.received.append(message)
        self._apply(message)
        return message

    def _apply(self, message):
        op = message.get("op")
        if op == "snapshot":
            self.states[message["topic"]] = message["state"]
            self.revs[message["topic"]] = message["rev"]
        elif op == "patch":
            topic = message["topic"]
            assert message["rev"] == self.revs[topic] + 1, f"revision gap: {self.revs[topic]} -> {message['rev']}"
            self.states[topic] = jsonpatch.apply_patch(self.states[topic], message["ops"])
            self.revs[topic] = message["rev"]

    def request(self, message: dict, ref=None):
        """Sends a message with a fresh ref; returns (reply, messages received before it)."""
        message = dict(message)
        message["ref"] = next(self.refs) if ref is None else ref
        self.send(message)
        return self.until_reply(message["ref"])

    def until_reply(self, ref):
        before = []
        while True:
            message = self.recv()
            if message.get("op") == "reply" and message.get("ref") == ref:
                return message, before
            before.append(message)

    def join(self, topic, params=None):
        message = {"op": "join", "topic": topic}
        if params is not None:
            message["params"] = params
        return self.request(message)

    def action(self, topic, action, key=None):
        message = {"op": "action", "topic": topic, "action": action}
        if key is not None:
            message["key"] = key
        return self.request(message)

    def leave(self, topic):
        return self.request({"op": "leave", "topic": topic})
