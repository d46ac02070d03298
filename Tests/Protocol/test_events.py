"""Events for hooks over a real socket: only a join that asked for them receives them,
to the pinger or to the whole room, and a bad `events` field is refused."""

import time
import uuid

from statecast_client import Client


def events_in(messages):
    return [message for message in messages if message.get("op") == "event"]


def next_event(client, already=()):
    """The first event among `already`, else the next one the client receives within 5 s
    (readings keep arriving as patches meanwhile)."""
    for message in already:
        if message.get("op") == "event":
            return message
    deadline = time.monotonic() + 5
    while True:
        assert time.monotonic() < deadline, "no event came"
        message = client.recv(timeout=5)
        if message.get("op") == "event":
            return message


def test_events_reach_only_joins_that_asked_and_whom_they_are_for(server):
    topic = f"live/{uuid.uuid4().hex[:8]}"
    asking, other, old = Client(server.ws_url), Client(server.ws_url), Client(server.ws_url)
    for client, events in ((asking, True), (other, True), (old, None)):
        message = {"op": "join", "topic": topic}
        if events is not None:
            message["events"] = events
        reply, _ = client.request(message)
        assert reply["status"] == "ok"

    # "Ping" goes to the pinger's tabs only; its event precedes the action's reply.
    reply, before = asking.action(topic, {"pingTapped": {"everyone": False}})
    assert reply["status"] == "ok"
    event = next_event(asking, before)
    assert event["topic"] == topic and event["event"] == "toast"
    assert event["payload"]["text"].startswith("Pong at reading")

    # "Ping everyone" reaches every member that asked, and never the old client.
    reply, before = other.action(topic, {"pingTapped": {"everyone": True}})
    assert reply["status"] == "ok"
    for client, already in ((asking, ()), (other, before)):
        assert "pinged everyone" in next_event(client, already)["payload"]["text"]
    # The old client's stream, up to a reply it asks for now, holds no event.
    reply, before = old.request({"op": "presence", "topic": topic, "meta": {}})
    assert reply["status"] == "ok"
    assert events_in(before) == [] and events_in(old.received) == []


def test_a_join_with_an_unusable_events_field_is_refused(server):
    client = Client(server.ws_url)
    reply, _ = client.request({"op": "join", "topic": "live", "events": "yes"})
    assert reply["status"] == "error" and reply["error"]["code"] == "bad_message"
    reply, _ = client.request({"op": "join", "topic": "live", "events": True})
    assert reply["status"] == "ok"
