"""A tiny reference server of the Statecast wire protocol, for checking the browser
runtime in a real browser without building the Swift server.

It serves Public/, the runtime (Runtime/) and this folder's pages over HTTP and speaks PROTOCOL.md on /ws for
two per-session topics: `counter` and `todos`. States change only through actions, and
each change goes out as a JSON Patch made by Python's jsonpatch, before the action's
reply, as the protocol requires. Sessions survive a dropped socket (resume).

Used by run_browser_smoke.py; run alone with: python3 Tests/JS/browser/reference_server.py 8099
"""

import asyncio
import copy
import json
import mimetypes
import pathlib
import secrets
import sys

import jsonpatch
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.http11 import Response

ROOT = pathlib.Path(__file__).resolve().parents[3]
PUBLIC = ROOT / "Public"
RUNTIME = ROOT / "Runtime"
PAGES = pathlib.Path(__file__).resolve().parent


def counter_reduce(state, action):
    if "increment" in action:
        state["count"] += 1
    elif "decrement" in action:
        state["count"] -= 1
    else:
        raise ValueError(f"unknown action {sorted(action)}")


def todos_reduce(state, action):
    if "add" in action:
        title = str(action["add"].get("title", "")).strip()
        if not title:
            raise ValueError("a todo needs a title")
        state["nextID"] += 1
        state["todos"].insert(0, {"id": f"T{state['nextID']}", "title": title, "done": False})
    elif "toggle" in action:
        for todo in state["todos"]:
            if todo["id"] == action["toggle"]["id"]:
                todo["done"] = not todo["done"]
    elif "remove" in action:
        state["todos"] = [t for t in state["todos"] if t["id"] != action["remove"]["id"]]
    elif "filterPicked" in action:
        picked = action["filterPicked"].get("filter")
        if picked not in [option["value"] for option in state["filters"]]:
            raise ValueError(f"no filter {picked!r}")
        state["filter"] = picked
    elif "draftChanged" in action:
        state["draft"] = str(action["draftChanged"].get("text", "")).upper()
    else:
        raise ValueError(f"unknown action {sorted(action)}")
    state["remaining"] = sum(1 for t in state["todos"] if not t["done"])


TOPICS = {
    "counter": (lambda: {"count": 0}, counter_reduce),
    "todos": (
        lambda: {
            "nextID": 2,
            "draft": "",
            "filter": "all",
            "filters": [{"value": "all", "label": "All"}, {"value": "active", "label": "Active"}, {"value": "done", "label": "Done"}],
            "remaining": 2,
            "todos": [
                {"id": "T2", "title": "Buy milk", "done": False},
                {"id": "T1", "title": "Write <b>docs</b>", "done": False},
            ],
        },
        todos_reduce,
    ),
}


class Store:
    def __init__(self, name):
        make, self.reduce = TOPICS[name]
        self.state = make()
        self.rev = 1


class Session:
    def __init__(self):
        self.id = secrets.token_hex(16)
        self.stores = {}
        self.socket = None


class ReferenceServer:
    def __init__(self):
        self.sessions = {}
        self.sockets = set()
        # While paused, upgrades to /ws are refused, as by a server that is restarting.
        self.paused = False

    async def drop_all(self):
        """Closes every socket as a network failure would (sessions are kept)."""
        for socket in list(self.sockets):
            await socket.close(1012, "service restart")

    def forget_sessions(self):
        self.sessions.clear()

    def process_request(self, connection, request):
        path = request.path.split("?")[0]
        if path == "/ws":
            if self.paused:
                return Response(503, "Service Unavailable", Headers([("Content-Length", "0")]))
            return None
        if path == "/":
            path = "/smoke.html"
        if path == "/favicon.ico":
            return Response(204, "No Content", Headers([("Content-Length", "0")]))
        for base in (PAGES, RUNTIME, PUBLIC):
            candidate = (base / path.lstrip("/")).resolve()
            if candidate.is_file() and base in candidate.parents:
                body = candidate.read_bytes()
                kind = mimetypes.guess_type(candidate.name)[0] or "application/octet-stream"
                if candidate.suffix == ".js":
                    kind = "text/javascript"
                headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
                return Response(200, "OK", headers, body)
        return Response(404, "Not Found", Headers([("Content-Length", "9")]), b"not found")

    async def handle(self, socket):
        self.sockets.add(socket)
        session = Session()
        self.sessions[session.id] = session
        session.socket = socket
        first = True
        try:
            await self.send(socket, {"op": "hello", "session": session.id, "server": "reference"})
            async for text in socket:
                message = json.loads(text)
                op = message.get("op")
                ref = message.get("ref")
                if op == "hello" and first:
                    old = self.sessions.get(message.get("session"))
                    if old is None:
                        await self.reply(socket, ref, session=session.id, resumed=False)
                    else:
                        del self.sessions[session.id]
                        session = old
                        session.socket = socket
                        for name, rev in message.get("resume", {}).items():
                            store = session.stores.get(name)
                            if store is not None and store.rev != rev:
                                await self.send(socket, {"op": "snapshot", "topic": name, "rev": store.rev, "state": store.state})
                        await self.reply(socket, ref, session=session.id, resumed=True)
                elif op == "join":
                    name = message.get("topic")
                    if name not in TOPICS:
                        await self.error(socket, ref, "unknown_topic", f"no route matches {name}")
                    else:
                        store = session.stores.setdefault(name, Store(name))
                        await self.send(socket, {"op": "snapshot", "topic": name, "rev": store.rev, "state": store.state})
                        await self.reply(socket, ref)
                elif op == "leave":
                    session.stores.pop(message.get("topic"), None)
                    await self.reply(socket, ref)
                elif op == "action":
                    store = session.stores.get(message.get("topic"))
                    if store is None:
                        await self.error(socket, ref, "not_joined", "join the topic first")
                        continue
                    before = copy.deepcopy(store.state)
                    try:
                        store.reduce(store.state, message.get("action") or {})
                    except (ValueError, KeyError, TypeError, AttributeError) as problem:
                        store.state = before
                        await self.error(socket, ref, "bad_action", str(problem))
                        continue
                    ops = jsonpatch.make_patch(before, store.state).patch
                    if ops:
                        store.rev += 1
                        await self.send(socket, {"op": "patch", "topic": message["topic"], "rev": store.rev, "ops": ops})
                    await self.reply(socket, ref)
                else:
                    await self.error(socket, ref, "bad_message", f"unknown op {op}")
                first = False
        except Exception:  # noqa: BLE001 - a dropped socket ends the handler
            pass
        finally:
            self.sockets.discard(socket)

    async def send(self, socket, message):
        await socket.send(json.dumps(message))

    async def reply(self, socket, ref, **extra):
        await self.send(socket, {"op": "reply", "ref": ref, "status": "ok", **extra})

    async def error(self, socket, ref, code, text):
        await self.send(socket, {"op": "reply", "ref": ref, "status": "error", "error": {"code": code, "message": text}})


async def run(port, ready=None, server_box=None):
    reference = ReferenceServer()
    if server_box is not None:
        server_box.append(reference)
    async with serve(
        reference.handle,
        "127.0.0.1",
        port,
        subprotocols=["statecast.v1"],
        process_request=reference.process_request,
    ) as server:
        if ready is not None:
            ready.set()
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 8099))
