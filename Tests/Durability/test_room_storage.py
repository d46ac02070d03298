"""What a visitor's joins cost the disk: a durable room is stored at its first change,
not at its join, so joining names (and leaving) writes nothing; and rooms end, by
default, 30 days after their last change."""

import pathlib
import sqlite3
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Protocol"))

from statecast_client import Client  # noqa: E402


def stored_rooms(server):
    """The ids of the rooms in the server's SQLite file (read beside the writer: WAL)."""
    with sqlite3.connect(f"file:{server.data.name}/statecast.sqlite?mode=ro", uri=True, timeout=10) as db:
        return sorted(row[0] for row in db.execute("SELECT id FROM room"))


def wait_until(condition, timeout=10):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_room_is_stored_at_its_first_change_not_at_its_join(server):
    client = Client(server.ws_url)
    for index in range(20):
        for kind in ("counter", "board"):
            client.join(f"{kind}/joined-{index}")
            client.leave(f"{kind}/joined-{index}")
    client.join("counter/kept-open")
    # The counter's own start (its favourites loaded) is no change to store either.
    while client.states["counter/kept-open"]["isLoadingFavorites"]:
        client.recv(timeout=10)  # the patch of the load finishing
    assert stored_rooms(server) == []
    reply, _ = client.action("counter/kept-open", {"increment": {}})
    assert reply["status"] == "ok"  # durable: stored once `ok` is sent
    assert stored_rooms(server) == ["counter/kept-open"]
    # A fresh member, and a restart of the store, see the stored change.
    other = Client(server.ws_url)
    other.join("counter/kept-open")
    assert other.states["counter/kept-open"]["count"] == 1


def stopped_with_rooms_changed_long_ago(restartable_server, save_interval, rooms, backdated):
    """A stopped server whose `rooms` each had one change, those in `backdated` 31 days
    ago as far as its SQLite file says (the default time to live keeps 30)."""
    server = restartable_server("--session-save-interval", save_interval)
    client = Client(f"ws://127.0.0.1:{server.port}/ws")
    for room in rooms:
        client.join(room)
        client.action(room, {"increment": {}})
    client.close()
    assert server.stop() == 0
    with sqlite3.connect(f"{server.data.name}/statecast.sqlite", timeout=10) as db:
        for room in backdated:
            db.execute("UPDATE room SET lastUsed = lastUsed - 31 * 86400 WHERE id = ?", (room,))
    return server


def test_a_room_unused_for_the_default_time_to_live_is_deleted(restartable_server):
    server = stopped_with_rooms_changed_long_ago(
        restartable_server, "0.2", ["counter/old", "counter/recent"], backdated=["counter/old"])
    server.start()
    # Polls the file: the sweep shows nothing to wait for from outside.
    wait_until(lambda: stored_rooms(server) == ["counter/recent"])


def test_a_room_people_are_looking_at_is_kept_however_old_its_last_change(restartable_server):
    rooms = ["counter/watched", "counter/abandoned"]
    server = stopped_with_rooms_changed_long_ago(restartable_server, "1", rooms, backdated=rooms)
    server.start()
    # Only the first room is open (read) when the sweep runs.
    reader = Client(f"ws://127.0.0.1:{server.port}/ws")
    reader.join("counter/watched")
    # The first sweep (at the first save after the start) deletes the abandoned room...
    wait_until(lambda: stored_rooms(server) == ["counter/watched"])
    # ...and the watched one survives it, with its state, though nobody changed it.
    reader.close()
    assert server.stop() == 0
    server.start()
    client = Client(f"ws://127.0.0.1:{server.port}/ws")
    client.join("counter/watched")
    assert client.states["counter/watched"]["count"] == 1


def create(client, room):
    """Joins `room` and changes it (its first change creates it); returns the reply."""
    client.join(room)
    reply, _ = client.action(room, {"increment": {}})
    client.leave(room)
    return reply


def test_new_rooms_are_limited_per_viewer_and_per_address(start_server):
    server = start_server("--max-new-rooms-per-viewer", "3", "--max-new-rooms-per-address", "5")
    first, second = Client(server.ws_url), Client(server.ws_url)  # two guests, one address
    assert [create(first, f"counter/q-{i}")["status"] for i in range(3)] == ["ok"] * 3
    refused = create(first, "counter/q-3")
    assert refused["status"] == "error" and refused["error"]["code"] == "rate_limited"
    assert create(first, "counter/q-0")["status"] == "ok"  # a room that exists is no new room
    assert [create(second, f"counter/r-{i}")["status"] for i in range(2)] == ["ok"] * 2
    assert create(second, "counter/r-2")["error"]["code"] == "rate_limited"  # the address's fifth was the last
    assert stored_rooms(server) == sorted([f"counter/q-{i}" for i in range(3)] + ["counter/r-0", "counter/r-1"])
