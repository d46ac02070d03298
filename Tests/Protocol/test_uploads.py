"""Uploads over the wire (docs/PROTOCOL.md, "Uploads"): a raw client announces files,
sends binary chunks, and checks what the server acknowledges, refuses and keeps on disk."""

import hashlib
import os
import pathlib
import time

import pytest
from websockets.exceptions import ConnectionClosed

from statecast_client import Client

def uploads_dir(server) -> pathlib.Path:
    return pathlib.Path(server.data.name) / "uploads"


def kept_files(server) -> list:
    directory = uploads_dir(server)
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def chunk(upload_id: str, offset: int, data: bytes) -> bytes:
    return bytes.fromhex(upload_id) + offset.to_bytes(8, "big") + data


def announce(client, size, name="data.bin", type="application/octet-stream"):
    reply, _ = client.request({"op": "upload", "topic": "uploads", "name": name, "size": size, "type": type})
    return reply


def next_upload_message(client, op=None):
    """The next upload_* message (of kind `op`, if given), skipping patches and replies."""
    while True:
        message = client.recv()
        if message.get("op", "").startswith("upload_") and (op is None or message["op"] == op):
            return message


def send_all(client, upload, data, start=0):
    """Sends data[start:] keeping at most `window` chunks unacknowledged; returns upload_done."""
    size, step, window = len(data), upload["chunk"], upload["window"]
    sent = acked = start
    while True:
        while sent < size and sent - acked < window * step:
            client.send_raw(chunk(upload["upload"], sent, data[sent : sent + step]))
            sent = min(sent + step, size)
        message = next_upload_message(client)
        if message["op"] == "upload_done":
            return message
        assert message["op"] == "upload_ack", message
        acked = max(acked, message["offset"])


def wait_until(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.05)


@pytest.fixture
def uploader(server):
    client = Client(server.ws_url)
    reply, _ = client.join("uploads")
    assert reply["status"] == "ok"
    yield client
    client.close()


def test_a_file_arrives_whole_with_the_servers_hash(server, uploader):
    data = os.urandom(300_000)
    upload = announce(uploader, len(data), name="photo <1>.jpg", type="image/jpeg")
    assert upload["status"] == "ok" and upload["offset"] == 0 and upload["window"] >= 1
    assert upload["chunk"] == 65_536 - 24
    done = send_all(uploader, upload, data)
    assert done["sha256"] == hashlib.sha256(data).hexdigest() and done["size"] == len(data)
    files = uploader.states["uploads"]["files"]
    assert [(f["name"], f["size"], f["sha256"]) for f in files] == [("photo <1>.jpg", len(data), done["sha256"])]
    # The store holds the file until the session ends.
    assert kept_files(server) == [upload["upload"]]
    assert (uploads_dir(server) / upload["upload"]).read_bytes() == data


def test_an_empty_file_is_done_with_its_announcement(uploader):
    upload = announce(uploader, 0, name="empty.txt")
    assert upload["status"] == "ok" and upload["done"] is True
    assert upload["sha256"] == hashlib.sha256(b"").hexdigest()
    # The store had it before the reply.
    assert [f["name"] for f in uploader.states["uploads"]["files"]] == ["empty.txt"]


def test_chunks_out_of_order_are_refused_and_the_upload_goes_on(uploader):
    data = os.urandom(150_000)
    upload = announce(uploader, len(data))
    step = upload["chunk"]
    uploader.send_raw(chunk(upload["upload"], step, data[step : 2 * step]))
    error = next_upload_message(uploader)
    assert error["op"] == "upload_error" and error["error"]["code"] == "bad_chunk" and error["offset"] == 0
    assert "offset 0" in error["error"]["message"]
    done = send_all(uploader, upload, data)
    assert done["sha256"] == hashlib.sha256(data).hexdigest()
    # Past the announced size is refused too, and nothing of it is written.
    small = announce(uploader, 10)
    uploader.send_raw(chunk(small["upload"], 0, b"x" * 11))
    error = next_upload_message(uploader)
    assert error["error"]["code"] == "bad_chunk" and "past the announced size" in error["error"]["message"]
    assert send_all(uploader, small, b"y" * 10)["sha256"] == hashlib.sha256(b"y" * 10).hexdigest()


def test_a_chunk_of_an_unknown_upload_closes_with_1003(uploader):
    uploader.send_raw(chunk("00" * 16, 0, b"hello"))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            uploader.recv()
    assert closed.value.rcvd.code == 1003


def test_another_sessions_upload_is_not_theirs_to_add_to(server, uploader):
    data = os.urandom(100_000)
    upload = announce(uploader, len(data))
    intruder = Client(server.ws_url)
    intruder.join("uploads")
    reply, _ = intruder.request({"op": "upload_resume", "upload": upload["upload"]})
    assert reply["error"]["code"] == "unknown_upload"
    reply, _ = intruder.request({"op": "upload_cancel", "upload": upload["upload"]})
    assert reply["error"]["code"] == "unknown_upload"
    intruder.send_raw(chunk(upload["upload"], 0, data[:1000]))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            intruder.recv()
    assert closed.value.rcvd.code == 1003
    # The owner's upload is untouched: it starts at 0 and completes.
    assert send_all(uploader, upload, data)["sha256"] == hashlib.sha256(data).hexdigest()


def test_limits_refuse_a_file_with_its_reason_and_keep_nothing(server, uploader):
    reply = announce(uploader, 26 << 20, name="huge.iso")
    assert reply["status"] == "error" and reply["error"]["code"] == "upload_refused"
    assert reply["error"]["message"] == "huge.iso is 26 MB; files may be at most 25 MB"
    assert announce(uploader, 24 << 20, name="a.bin")["status"] == "ok"
    assert announce(uploader, 24 << 20, name="b.bin")["status"] == "ok"
    over = announce(uploader, 24 << 20, name="c.bin")
    assert over["error"]["code"] == "upload_refused" and "quota of 60 MB" in over["error"]["message"]
    # Two files announced, each with its record (for a resume after a restart); nothing of the refused ones.
    assert len(kept_files(server)) == 4
    reply, _ = uploader.request({"op": "upload", "topic": "counter", "name": "x", "size": 1})
    assert reply["error"]["code"] == "not_joined"
    reply, _ = uploader.request({"op": "upload", "topic": "uploads", "name": "", "size": 1})
    assert reply["error"]["code"] == "bad_message"


def test_cancel_removes_what_was_written(server, uploader):
    data = os.urandom(200_000)
    upload = announce(uploader, len(data))
    uploader.send_raw(chunk(upload["upload"], 0, data[: upload["chunk"]]))
    assert next_upload_message(uploader, "upload_ack")["offset"] == upload["chunk"]
    reply, _ = uploader.request({"op": "upload_cancel", "upload": upload["upload"]})
    assert reply["status"] == "ok"
    wait_until(lambda: kept_files(server) == [])
    reply, _ = uploader.request({"op": "upload_resume", "upload": upload["upload"]})
    assert reply["error"]["code"] == "unknown_upload"


def test_a_resumed_session_continues_from_what_the_server_acknowledged(server, uploader):
    data = os.urandom(400_000)
    upload = announce(uploader, len(data))
    step = upload["chunk"]
    for offset in range(0, 3 * step, step):
        uploader.send_raw(chunk(upload["upload"], offset, data[offset : offset + step]))
    while next_upload_message(uploader, "upload_ack")["offset"] < 3 * step:
        pass
    session = uploader.hello["session"]
    uploader.close()
    again = Client(server.ws_url)
    again.states["uploads"], again.revs["uploads"] = uploader.states["uploads"], uploader.revs["uploads"]
    reply, _ = again.request({"op": "hello", "session": session, "resume": {"uploads": uploader.revs["uploads"]}})
    assert reply["resumed"] is True
    resumed, _ = again.request({"op": "upload_resume", "upload": upload["upload"]})
    assert resumed["status"] == "ok" and resumed["offset"] == 3 * step and resumed["done"] is False
    done = send_all(again, resumed, data, start=resumed["offset"])
    assert done["sha256"] == hashlib.sha256(data).hexdigest()
    again.close()


def test_a_client_that_stops_mid_file_leaves_no_file_behind(start_server):
    server = start_server("--session-grace", "0.2")
    client = Client(server.ws_url)
    client.join("uploads")
    data = os.urandom(300_000)
    upload = announce(client, len(data))
    client.send_raw(chunk(upload["upload"], 0, data[: upload["chunk"]]))
    next_upload_message(client, "upload_ack")
    assert kept_files(server) == [upload["upload"], upload["upload"] + ".upload"]
    client.close()
    # The session expires after its grace period, and its temporary file goes with it.
    wait_until(lambda: kept_files(server) == [])


def test_an_upload_goes_on_after_the_server_restarts(restartable_server):
    server = restartable_server()
    client = Client(f"ws://127.0.0.1:{server.port}/ws")
    client.join("uploads")
    data = os.urandom(500_000)
    upload = announce(client, len(data))
    step = upload["chunk"]
    for offset in range(0, 2 * step, step):
        client.send_raw(chunk(upload["upload"], offset, data[offset : offset + step]))
    while next_upload_message(client, "upload_ack")["offset"] < 2 * step:
        pass
    session = client.hello["session"]
    assert server.stop() == 0  # a deploy: SIGTERM, sessions saved, the partial file kept
    client.close()
    server.start()
    again = Client(f"ws://127.0.0.1:{server.port}/ws")
    reply, _ = again.request({"op": "hello", "session": session, "resume": {}})
    assert reply["resumed"] is True
    resumed, _ = again.request({"op": "upload_resume", "upload": upload["upload"]})
    assert resumed["status"] == "ok" and resumed["offset"] == 2 * step
    done = send_all(again, resumed, data, start=resumed["offset"])
    assert done["sha256"] == hashlib.sha256(data).hexdigest()
    again.close()
