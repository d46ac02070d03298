"""The wire protocol (PROTOCOL.md) over a real socket against the real demo server:
every message, every ordering rule and every error code, from an independent client."""

import json
import re

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from statecast_client import Client, SUBPROTOCOL


def increment():
    return {"increment": {}}


def test_hello_names_an_unguessable_session(server):
    first = Client(server.ws_url)
    second = Client(server.ws_url)
    for client in (first, second):
        assert client.hello["op"] == "hello"
        assert re.fullmatch(r"[0-9a-f]{32}", client.hello["session"]), client.hello
        assert isinstance(client.hello["server"], str) and client.hello["server"]
    assert first.hello["session"] != second.hello["session"]
    assert first.ws.subprotocol == SUBPROTOCOL


def test_join_sends_the_snapshot_before_the_reply(server):
    client = Client(server.ws_url)
    reply, before = client.join("counter")
    assert reply == {"op": "reply", "ref": 1, "status": "ok"}
    # The counter loads its saved favourites when its store starts: that effect may
    # finish before the reply, as a patch after the snapshot.
    assert [m["op"] for m in before][:1] == ["snapshot"]
    assert all(m["op"] == "patch" and m["topic"] == "counter" for m in before[1:])
    snapshot = before[0]
    assert snapshot["topic"] == "counter"
    assert isinstance(snapshot["rev"], int)
    assert snapshot["state"]["count"] == 0


def test_an_action_patch_arrives_before_its_reply_and_revisions_step_by_one(server):
    client = Client(server.ws_url)
    client.join("counter")
    for expected in range(1, 6):
        reply, before = client.action("counter", increment())
        assert reply["status"] == "ok"
        patches = [m for m in before if m["op"] == "patch"]
        assert patches, "the patch an action caused must come before its reply"
        assert client.states["counter"]["count"] == expected
    reply, before = client.action("counter", {"decrement": {}})
    assert client.states["counter"]["count"] == 4
    # Applying every patch in order gives exactly what a fresh snapshot shows.
    rev = client.revs["counter"]
    reply, before = client.join("counter")
    snapshot = before[-1]
    assert snapshot["op"] == "snapshot" and snapshot["rev"] == rev
    assert snapshot["state"] == client.states["counter"]


def test_patches_use_only_rfc6902_operations(server):
    client = Client(server.ws_url)
    client.join("counter")
    for _ in range(3):
        client.action("counter", increment())
    ops = [op for m in client.received if m["op"] == "patch" for op in m["ops"]]
    assert ops
    assert {op["op"] for op in ops} <= {"add", "remove", "replace", "move", "copy", "test"}
    assert all(op["path"].startswith("/") for op in ops)


def test_two_connections_have_independent_counters(server):
    first = Client(server.ws_url)
    second = Client(server.ws_url)
    first.join("counter")
    second.join("counter")
    for _ in range(3):
        first.action("counter", increment())
    second.action("counter", {"decrement": {}})
    assert first.states["counter"]["count"] == 3
    assert second.states["counter"]["count"] == -1


@pytest.mark.parametrize("raw", ["not json", "[1,2]", "42", '"op"', "{\"op\":\"join\"", "{} extra"])
def test_bad_json_is_answered_with_a_null_ref(server, raw):
    client = Client(server.ws_url)
    client.send_raw(raw)
    reply = client.recv()
    assert reply["op"] == "reply" and reply["ref"] is None and reply["status"] == "error"
    assert reply["error"]["code"] == "bad_json"
    assert reply["error"]["message"]


@pytest.mark.parametrize(
    "message, echoed_ref",
    [
        ({"op": "dance", "ref": 4}, 4),
        ({"op": "join", "ref": 4}, 4),
        ({"op": "join", "ref": 4, "topic": 7}, 4),
        ({"op": "join", "ref": 4, "topic": "counter", "params": [1]}, 4),
        ({"op": "action", "ref": 4, "topic": "counter"}, 4),
        ({"op": "leave", "ref": 4}, 4),
        ({"ref": 4, "topic": "counter"}, 4),
        ({"op": "join", "topic": "counter"}, None),
        ({"op": "join", "topic": "counter", "ref": -1}, None),
        ({"op": "join", "topic": "counter", "ref": 2**53}, None),
        ({"op": "join", "topic": "counter", "ref": 1.5}, None),
        ({"op": "join", "topic": "counter", "ref": "1"}, None),
        ({"op": "join", "topic": "counter", "ref": None}, None),
    ],
)
def test_bad_messages_change_nothing(server, message, echoed_ref):
    client = Client(server.ws_url)
    client.send(message)
    reply = client.recv()
    assert reply["ref"] == echoed_ref
    assert reply["status"] == "error" and reply["error"]["code"] == "bad_message"
    # Nothing was joined or created by the bad message.
    reply, _ = client.action("counter", increment())
    assert reply["error"]["code"] == "not_joined"


def test_the_largest_ref_is_echoed(server):
    client = Client(server.ws_url)
    reply, _ = client.request({"op": "join", "topic": "counter"}, ref=2**53 - 1)
    assert reply["status"] == "ok" and reply["ref"] == 2**53 - 1


def test_unknown_topic_and_not_joined(server):
    client = Client(server.ws_url)
    reply, _ = client.join("no/such/topic")
    assert reply["error"]["code"] == "unknown_topic"
    reply, _ = client.action("no/such/topic", increment())
    assert reply["error"]["code"] == "not_joined"
    reply, _ = client.leave("counter")
    assert reply["error"]["code"] == "not_joined"


def test_a_topic_name_that_is_too_long_or_disguised_is_refused(server):
    client = Client(server.ws_url)
    for topic in ["counter/" + "a" * 1_000, "counter/" + "b" * 193, "counter/a\u202eb", "counter/a\u200bb", "counter/a\nb"]:
        reply, _ = client.join(topic)
        assert reply["status"] == "error" and reply["error"]["code"] == "bad_message", (topic, reply)
        assert topic not in client.states
    reply, _ = client.join("counter/" + "c" * 192)  # 200 bytes: the longest name
    assert reply["status"] == "ok"
    reply, _ = client.join("counter/équipe-42")
    assert reply["status"] == "ok"


@pytest.mark.parametrize("action", [None, "increment", {"nope": {}}, {"removeFavoritePrime": {"prime": "seven"}}, 3, []])
def test_bad_actions_are_refused_and_change_no_state(server, action):
    client = Client(server.ws_url)
    client.join("counter")
    rev = client.revs["counter"]
    reply, before = client.action("counter", action)
    assert reply["status"] == "error" and reply["error"]["code"] == "bad_action"
    assert reply["error"]["message"]
    assert not [m for m in before if m["op"] == "patch" and m["rev"] > rev and "count" in json.dumps(m["ops"])]
    client.action("counter", increment())
    assert client.states["counter"]["count"] == 1


def test_unknown_keys_inside_an_action_payload_are_ignored(server):
    client = Client(server.ws_url)
    client.join("counter")
    reply, _ = client.action("counter", {"increment": {"by": 99}})
    assert reply["status"] == "ok"
    assert client.states["counter"]["count"] == 1


def test_leave_ends_the_store_and_a_later_join_starts_fresh(server):
    client = Client(server.ws_url)
    client.join("counter")
    client.action("counter", increment())
    reply, _ = client.leave("counter")
    assert reply["status"] == "ok"
    reply, _ = client.action("counter", increment())
    assert reply["error"]["code"] == "not_joined"
    client.join("counter")
    assert client.states["counter"]["count"] == 0


def test_joining_again_keeps_the_store_and_sends_a_fresh_snapshot(server):
    client = Client(server.ws_url)
    client.join("counter")
    client.action("counter", increment())
    client.action("counter", increment())
    reply, before = client.join("counter")
    assert reply["status"] == "ok"
    assert before[-1]["op"] == "snapshot" and before[-1]["state"]["count"] == 2


def test_a_late_hello_is_a_bad_message(server):
    client = Client(server.ws_url)
    client.join("counter")
    reply, _ = client.request({"op": "hello", "session": client.hello["session"], "resume": {}})
    assert reply["error"]["code"] == "bad_message"


def test_hello_with_an_unknown_session_is_not_resumed(server):
    client = Client(server.ws_url)
    reply, _ = client.request({"op": "hello", "session": "0" * 32, "resume": {"counter": 3}})
    assert reply["status"] == "ok"
    assert reply["resumed"] is False
    assert reply["session"] == client.hello["session"]


def test_rate_limit(start_server):
    server = start_server("--action-burst", "5", "--actions-per-second", "0.01")
    client = Client(server.ws_url)
    client.join("counter")
    # The join spent one of the five.
    codes = [client.action("counter", increment())[0].get("error", {}).get("code") for _ in range(6)]
    assert codes == [None] * 4 + ["rate_limited"] * 2
    assert client.states["counter"]["count"] == 4


def test_joins_and_leaves_count_against_the_allowance(start_server):
    server = start_server("--action-burst", "6", "--actions-per-second", "0.01")
    client = Client(server.ws_url)
    codes = []
    for room in range(4):
        reply, _ = client.request({"op": "join", "topic": f"counter/r{room}"})
        codes.append(reply.get("error", {}).get("code"))
        reply, _ = client.request({"op": "leave", "topic": f"counter/r{room}"})
        codes.append(reply.get("error", {}).get("code"))
    assert codes == [None] * 6 + ["rate_limited"] * 2


def test_message_size_limit_is_exact(server):
    client = Client(server.ws_url)
    client.join("counter")
    base = json.dumps({"op": "action", "ref": 77, "topic": "counter", "action": increment()})
    exactly = base + " " * (65536 - len(base))
    assert len(exactly.encode()) == 65536
    client.send_raw(exactly)
    reply, _ = client.until_reply(77)
    assert reply["status"] == "ok"
    client.send_raw(exactly + " ")
    reply = client.recv()
    assert reply == {"op": "reply", "ref": None, "status": "error", "error": reply["error"]}
    assert reply["error"]["code"] == "too_large"
    with pytest.raises(ConnectionClosed) as closed:
        client.recv()
    assert closed.value.rcvd.code == 1009


def test_binary_messages_are_closed_with_1003(server):
    client = Client(server.ws_url)
    client.send_raw(b'{"op":"join","ref":1,"topic":"counter"}')
    with pytest.raises(ConnectionClosed) as closed:
        client.recv()
    assert closed.value.rcvd.code == 1003


def test_invalid_utf8_is_closed_with_1007(server):
    client = Client(server.ws_url)
    client.ws.send(b'{"op":"join","ref":1,"topic":"\xff"}', text=True)
    with pytest.raises(ConnectionClosed) as closed:
        client.recv()
    assert closed.value.rcvd.code == 1007


def test_a_peer_that_keeps_misbehaving_is_closed_with_1008(server):
    client = Client(server.ws_url)
    bystander = Client(server.ws_url)
    bystander.join("counter")
    for _ in range(100):
        client.send_raw("nonsense")
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv()
    assert closed.value.rcvd.code == 1008
    # Another client is untouched.
    bystander.action("counter", increment())
    assert bystander.states["counter"]["count"] == 1


def test_fragmented_messages_are_reassembled(server):
    client = Client(server.ws_url)
    text = json.dumps({"op": "join", "ref": 9, "topic": "counter"})
    client.ws.send([text[:10], text[10:20], text[20:]])
    reply, before = client.until_reply(9)
    assert reply["status"] == "ok"
    # A patch of the favourites loaded at store start may follow the snapshot.
    assert [m["op"] for m in before][:1] == ["snapshot"]
    assert all(m["op"] == "patch" for m in before[1:])


def test_origin_must_match_the_host(server):
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url, origin="http://evil.example")
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url, origin=f"http://127.0.0.1:{server.port + 1}")
    assert Client(server.ws_url, origin=f"http://127.0.0.1:{server.port}").hello["op"] == "hello"


def test_allowed_origins(start_server):
    server = start_server("--allow-origin", "https://app.example")
    assert Client(server.ws_url, origin="https://app.example").hello["op"] == "hello"
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url, origin="https://other.example")


def test_subprotocol_negotiation(server):
    assert Client(server.ws_url, subprotocols=()).hello["op"] == "hello"
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url, subprotocols=("chat.v2",))
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url.replace("/ws", "/other"))


def test_resume_replays_missed_patches_and_keeps_every_acknowledged_action(server):
    client = Client(server.ws_url)
    client.join("counter")
    client.action("counter", increment())
    session = client.hello["session"]
    rev_before_drop = client.revs["counter"]
    state_before_drop = client.states["counter"]
    # Fire actions without reading their replies, then drop the socket mid-stream.
    for ref in range(100, 110):
        client.send({"op": "action", "ref": ref, "topic": "counter", "action": increment()})
    acknowledged = 1
    while True:
        message = client.recv()
        if message["op"] == "reply" and message["ref"] >= 100:
            acknowledged += 1
            if message["ref"] == 104:
                break
    client.close()

    resumed = Client(server.ws_url)
    resumed.states["counter"] = state_before_drop
    resumed.revs["counter"] = rev_before_drop
    reply, before = resumed.request({"op": "hello", "session": session, "resume": {"counter": rev_before_drop}})
    assert reply["status"] == "ok" and reply["resumed"] is True and reply["session"] == session
    assert before, "the missed patches (or a snapshot) come before the reply"
    count = resumed.states["counter"]["count"]
    assert acknowledged <= count <= 11
    # The replayed state is exactly the server's: a fresh snapshot agrees.
    rev = resumed.revs["counter"]
    _, before = resumed.join("counter")
    assert before[-1]["rev"] == rev and before[-1]["state"] == resumed.states["counter"]
    resumed.action("counter", increment())
    assert resumed.states["counter"]["count"] == count + 1


def test_resume_takes_over_a_session_whose_socket_is_still_open(server):
    old = Client(server.ws_url)
    old.join("counter")
    old.action("counter", increment())
    new = Client(server.ws_url)
    # What the old socket had applied; patches it missed are replayed onto it.
    new.states["counter"] = old.states["counter"]
    new.revs["counter"] = old.revs["counter"]
    reply, _ = new.request({"op": "hello", "session": old.hello["session"], "resume": {"counter": old.revs["counter"]}})
    assert reply["resumed"] is True
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            old.recv()
    assert closed.value.rcvd.code == 4000
    new.action("counter", increment())
    assert new.states["counter"]["count"] == 2


def test_an_expired_session_is_not_resumed(start_server):
    import time

    server = start_server("--session-grace", "0.2")
    client = Client(server.ws_url)
    client.join("counter")
    client.join("counter/expiry")
    client.action("counter/expiry", increment())
    session = client.hello["session"]
    client.close()
    # The session stays a member of its room (offline) while it waits for a resume; once
    # it has expired the room's presence lists only the watcher. Looking does not touch
    # the session: the watcher joins and leaves the room, never resumes.
    watcher = Client(server.ws_url)
    deadline = time.monotonic() + 10
    while True:
        watcher.join("counter/expiry")
        if len(watcher.states["counter/expiry"]["presence"]) == 1:
            break
        watcher.leave("counter/expiry")
        assert time.monotonic() < deadline, "the session never expired"
    probe = Client(server.ws_url)
    reply, _ = probe.request({"op": "hello", "session": session, "resume": {"counter": 0}})
    assert reply["resumed"] is False
    assert reply["session"] == probe.hello["session"]


def test_effects_arrive_as_patches_without_a_ref(server):
    client = Client(server.ws_url)
    client.join("counter")
    for _ in range(5):
        client.action("counter", increment())
    reply, _ = client.action("counter", {"askNthPrime": {}})
    assert reply["status"] == "ok"
    assert client.states["counter"]["isNthPrimeLoading"] is True
    while client.states["counter"]["isNthPrimeLoading"]:
        message = client.recv()
        assert message["op"] == "patch"
    assert "11" in client.states["counter"]["nthPrimeAnswer"]


def test_static_files_and_app_pages(server):
    import urllib.request
    import urllib.error

    def get(path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}") as response:
                return response.status, response.headers.get("Content-Type", ""), response.read()
        except urllib.error.HTTPError as error:
            return error.code, "", b""

    status, kind, body = get("/")
    assert status == 200 and "text/html" in kind and b"<html" in body.lower()
    status, kind, _ = get("/statecast.js")
    assert status == 200 and "javascript" in kind
    status, kind, body = get("/music/artist/42?song=7")
    assert status == 200 and "text/html" in kind
    assert get("/no-such-file.txt")[0] == 404
    assert get("/../../etc/passwd")[0] in (400, 404)
    assert get("/healthz")[0] == 200


def test_a_shared_topic_is_one_store_for_every_member(server):
    ada = Client(server.ws_url)
    bob = Client(server.ws_url)
    ada.join("counter/team")
    bob.join("counter/team")
    ada.action("counter/team", increment())
    ada.action("counter/team", increment())
    while bob.states["counter/team"]["count"] != 2:
        assert bob.recv()["op"] == "patch"
    assert bob.revs["counter/team"] == ada.revs["counter/team"]
    bob.action("counter/team", {"decrement": {}})
    while ada.states["counter/team"]["count"] != 1:
        assert ada.recv()["op"] == "patch"
    # Another room, and each tab's own counter, are separate stores.
    ada.join("counter/other")
    ada.join("counter")
    assert ada.states["counter/other"]["count"] == 0
    assert ada.states["counter"]["count"] == 0
