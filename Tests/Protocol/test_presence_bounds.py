"""Presence as another member of a room could abuse it: a burst of presence messages
reaches the others coalesced, and members whose sockets dropped (kept for the session
grace period) fill a newcomer's presence only up to a bound."""

import time

from statecast_client import Client


def presence_patches(client, topic):
    return [
        message
        for message in client.received
        if message.get("op") == "patch"
        and message.get("topic") == topic
        and any(op["path"].startswith("/presence") for op in message["ops"])
    ]


def test_a_burst_of_presence_reaches_the_others_coalesced(server):
    topic = "board/presence-burst"
    sender, watcher = Client(server.ws_url), Client(server.ws_url)
    sender.join(topic)
    watcher.join(topic)
    started = time.monotonic()
    for index in range(200):
        sender.send({"op": "presence", "ref": 1_000 + index, "topic": topic, "meta": {"cursor": index}})
    reply, _ = sender.until_reply(1_199)
    assert reply["status"] == "ok"
    # The watcher ends with the last position, whatever it skipped on the way.
    while not any(entry["meta"] == {"cursor": 199} for entry in watcher.states[topic]["presence"]):
        watcher.recv(timeout=5)
    elapsed = time.monotonic() - started
    # At most one presence patch per 100 ms (and the first at once).
    assert len(presence_patches(watcher, topic)) <= elapsed / 0.1 + 2, (len(presence_patches(watcher, topic)), elapsed)


def test_dropped_members_fill_presence_only_up_to_a_bound(start_server):
    server = start_server("--session-grace", "30")
    topic = "board/presence-churn"
    for _ in range(40):
        member = Client(server.ws_url)
        member.join(topic)
        member.close()  # its session waits 30 s for a resume, and stays in presence
    newcomer = Client(server.ws_url)
    newcomer.join(topic)
    entries = newcomer.states[topic]["presence"]
    offline = [entry for entry in entries if not entry["online"]]
    assert len(offline) <= 16, len(offline)
    assert [entry["online"] for entry in entries].count(True) == 1


def test_one_address_fills_presence_only_up_to_a_bound(server):
    topic = "board/presence-crowd"
    members = [Client(server.ws_url) for _ in range(40)]  # 40 guests, one address, online
    for member in members:
        member.join(topic)
    newcomer = Client(server.ws_url)
    newcomer.join(topic)
    assert len(newcomer.states[topic]["presence"]) <= 32
