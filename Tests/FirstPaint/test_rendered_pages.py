"""Pages rendered with their first state, over HTTP and a real socket against the real
demo server: the GET renders each topic's bindings and opens the tab's session, the
socket resumes that session from the rendered revision (patches, no second snapshot),
rendered pages are private, hostile state is escaped, and GETs without sockets cost
a bounded amount."""

import json
import re
import shutil
import time
import urllib.request

import pytest

from demo_binary import ROOT
from statecast_client import Client



def get(server, path, headers=None):
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers, response.read().decode()


def page_data(body):
    match = re.search(r'<script type="application/json" id="statecast-page">(.*?)</script>', body, re.S)
    assert match, "the page carries no rendered session"
    return json.loads(match.group(1))


def test_a_page_is_rendered_with_its_first_state_and_is_private(server):
    status, headers, body = get(server, "/counter.html?room=paint")
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    assert headers["Cache-Control"] == "private, no-store"
    # The runtime's stylesheet, which holds the first paint, is fetched with the page, not
    # after the early snippet that inserts it has been fetched and run.
    assert headers["Link"] == "</statecast.css>; rel=preload; as=style"
    data = page_data(body)
    assert re.fullmatch(r"[0-9a-f]{32}", data["session"])
    topic = data["topics"]["counter/paint"]
    assert topic["state"]["count"] == 0 and isinstance(topic["rev"], int)
    # The bound elements show the state, and the topic element is ready (nothing cloaked).
    assert re.search(r'<output id="count" data-sc-text="count" data-sc-cloak aria-live="polite">0</output>', body)
    assert re.search(r'<div class="[^"]*\bsc-ready\b[^"]*" data-sc-topic="counter/\{query\.room\}"[^>]*>', body)
    # Static assets keep their validators.
    _, asset_headers, _ = get(server, "/demo.css")
    assert "ETag" in asset_headers


def test_the_socket_resumes_the_rendered_session_with_patches_only(server):
    owner = Client(server.ws_url)
    owner.join("counter/resume")
    owner.action("counter/resume", {"increment": {}})
    _, _, body = get(server, "/counter.html?room=resume")
    data = page_data(body)
    rendered = data["topics"]["counter/resume"]
    assert rendered["state"]["count"] == 1
    assert '<output id="count" data-sc-text="count" data-sc-cloak aria-live="polite">1</output>' in body
    # A change after the page was rendered, before its socket comes.
    owner.action("counter/resume", {"increment": {}})
    page = Client(server.ws_url)
    page.states["counter/resume"] = rendered["state"]
    page.revs["counter/resume"] = rendered["rev"]
    reply, before = page.request({"op": "hello", "session": data["session"], "resume": {"counter/resume": rendered["rev"]}})
    assert reply["status"] == "ok" and reply["resumed"] is True and reply["session"] == data["session"]
    # Patches after the rendered revision (the count, and presence), never a snapshot.
    assert before and all(m["op"] == "patch" for m in before), before
    assert page.states["counter/resume"]["count"] == 2
    # Interactive at once: the topic is joined in the resumed session.
    reply, _ = page.action("counter/resume", {"increment": {}})
    assert reply["status"] == "ok"
    assert page.states["counter/resume"]["count"] == 3
    page.close()
    owner.close()


def test_hostile_state_is_escaped_and_a_private_view_stays_private(server):
    hostile = '</script><script>alert(1)</script>"\'&<b>'
    owner = Client(server.ws_url)
    owner.join("board/hostile")
    for action in ({"draftChanged": {"text": hostile}}, {"addDraft": {}}, {"draftChanged": {"text": "private draft 7731"}}):
        reply, _ = owner.action("board/hostile", action)
        assert reply["status"] == "ok", reply
    _, _, body = get(server, "/board.html?room=hostile")
    assert "<script>alert(1)</script>" not in body
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in body
    # The page data is JSON in a script element: no "<" can end it early.
    data = page_data(body)
    assert "alert(1)" in json.dumps(data["topics"]["board/hostile"]["state"])
    # Another viewer's page shows the shared items, never the owner's draft.
    assert "private draft 7731" not in body
    owner.close()


def sessions(server):
    """How many sessions the server holds (live or waiting), from /metrics."""
    _, _, text = get(server, "/metrics")
    return sum(int(count) for count in re.findall(r'^statecast_sessions\{state="\w+"\} (\d+)', text, re.M))


def test_a_page_session_without_a_socket_expires_after_its_grace(start_server):
    server = start_server("--page-session-grace", "2")
    _, _, body = get(server, "/counter.html?room=crawler")
    data = page_data(body)
    # The gauge is sampled every second: the page's session shows, then goes.
    deadline = time.monotonic() + 10
    while sessions(server) == 0:
        assert time.monotonic() < deadline, "the page's session never showed"
        time.sleep(0.1)
    while sessions(server) > 0:
        assert time.monotonic() < deadline, "the page's session outlived its grace"
        time.sleep(0.1)
    client = Client(server.ws_url)
    reply, _ = client.request({"op": "hello", "session": data["session"], "resume": {}})
    assert reply["resumed"] is False
    client.close()


def test_navigate_renders_a_page_in_the_sockets_session(server):
    client = Client(server.ws_url)
    reply, before = client.request({"op": "navigate", "path": "/counter.html?room=navigate"})
    assert reply["status"] == "ok", reply
    # The page's topic is joined on this socket: its snapshot came before the reply.
    assert [m["op"] for m in before][:1] == ["snapshot"] and before[0]["topic"] == "counter/navigate"
    data = page_data(reply["html"])
    assert data["session"] == client.hello["session"]
    assert data["topics"]["counter/navigate"]["rev"] == before[0]["rev"]
    assert '<output id="count" data-sc-text="count" data-sc-cloak aria-live="polite">0</output>' in reply["html"]
    reply, _ = client.action("counter/navigate", {"increment": {}})
    assert reply["status"] == "ok" and client.states["counter/navigate"]["count"] == 1
    # A page without topics is answered as written; a path that is no page, or not a path, is refused.
    reply, _ = client.request({"op": "navigate", "path": "/"})
    assert reply["status"] == "ok" and "Server-side state, live in the browser" in reply["html"]
    reply, _ = client.request({"op": "navigate", "path": "/no-such-page.html"})
    assert reply["error"]["code"] == "unknown_page"
    for path in ["//evil.example/x", "counter.html", 7, "/" + "a" * 3000]:
        reply, _ = client.request({"op": "navigate", "path": path})
        assert reply["error"]["code"] == "bad_message", path
    for path in ["/../Package.swift", "/.statecast-rendered-index", "/bench/../counter.html"]:
        reply, _ = client.request({"op": "navigate", "path": path})
        assert reply["status"] == "error", path
    client.close()


def receive_until(client, done):
    """Reads the client's messages until `done()` (each read waits at most its timeout)."""
    while not done():
        client.recv()


def test_navigate_to_a_page_of_a_room_the_socket_holds_keeps_it_and_renders_its_view(server):
    client = Client(server.ws_url)
    other = Client(server.ws_url)
    client.join("board/keep")
    other.join("board/keep")
    reply, _ = other.action("board/keep", {"draftChanged": {"text": "kept item"}})
    reply, _ = other.action("board/keep", {"addDraft": {}})
    assert reply["status"] == "ok", reply
    receive_until(client, lambda: any(item["title"] == "kept item" for item in client.states["board/keep"]["items"]))
    reply, before = client.request({"op": "navigate", "path": "/board.html?room=keep"})
    assert reply["status"] == "ok", reply
    # Not joined again: no snapshot, and the page shows the view the socket has, at its
    # revision, presence and all (as a snapshot carries it).
    assert [m for m in before if m.get("op") == "snapshot"] == [], before
    rendered = page_data(reply["html"])["topics"]["board/keep"]
    assert rendered["rev"] == client.revs["board/keep"]
    assert rendered["state"] == client.states["board/keep"]
    assert len(rendered["state"]["presence"]) == 2
    assert "kept item" in reply["html"]
    # Its patches run on from there.
    other.action("board/keep", {"draftChanged": {"text": "next"}})
    other.action("board/keep", {"addDraft": {}})
    receive_until(client, lambda: len(client.states["board/keep"]["items"]) == 2)
    client.close()
    other.close()


def test_an_index_that_binds_a_topic_is_rendered_at_slash(start_server, tmp_path):
    public = tmp_path / "Public"
    shutil.copytree(ROOT / "Public", public)
    index = public / "index.html"
    index.write_text(index.read_text().replace(
        '<main class="demo">', '<main class="demo" data-sc-topic="counter/{query.room}"><output id="c" data-sc-text="count">?</output>'))
    server = start_server("--public", str(public))
    for path in ("/?room=slash", "/index.html?room=slash"):
        status, headers, body = get(server, path)
        assert status == 200 and headers["Cache-Control"] == "private, no-store"
        assert '<output id="c" data-sc-text="count">0</output>' in body, path
    # Other files are served from the directory as before.
    status, headers, _ = get(server, "/demo.css")
    assert status == 200 and "ETag" in headers
