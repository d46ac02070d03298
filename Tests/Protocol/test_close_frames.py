"""Close frames reach a peer that is still sending, with Python's `websockets` asyncio client.

PROTOCOL.md: "Whenever the server closes a socket, its close frame (and any error reply
before it) reaches the peer, even if the peer is still sending." The asyncio client of
`websockets` writes while the server is already closing and answers the close frame
from its reader; a server that closes its socket with unread bytes in it makes the
kernel answer with a reset, which destroys the reply and the close frame in flight.
Each case runs 30 times in a row: a lost close frame shows up as a run that ends with
no close code (1006) or without its error reply.
"""

import asyncio
import concurrent.futures
import json

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from statecast_client import SUBPROTOCOL

RUNS = 30


def run_in_own_loop(coroutine):
    """`asyncio.run` on a thread of its own: a suite that ran before in the same pytest
    process (Playwright's sync API) can leave an event loop running on the main thread,
    where `asyncio.run` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def read_until_closed(ws) -> tuple[list[dict], int | None]:
    """Every message after `hello` that the server sent before its close frame, and
    the code of the close frame received (None when none arrived: the socket was reset)."""
    messages = []
    try:
        while True:
            message = json.loads(await ws.recv())
            if message["op"] != "hello":
                messages.append(message)
    except ConnectionClosed as closed:
        return messages, closed.rcvd.code if closed.rcvd else None


async def send_oversized(url: str, size: int, fragment: int) -> tuple[list[dict], int | None]:
    """Sends one `size`-byte action in `fragment`-byte fragments without reading; returns
    what came back and the close code received (None when no close frame arrived)."""
    async with websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=None, open_timeout=10) as ws:
        head = json.dumps({"op": "action", "ref": 1, "topic": "counter", "action": {"increment": {}}})
        body = (head[:-1] + ', "pad": "' + "x" * size)[:size - 2] + '"}'
        fragments = [body[i:i + fragment] for i in range(0, len(body), fragment)]
        try:
            await ws.send(iter(fragments))
        except ConnectionClosed:
            pass  # the server closed while the message was still being written
        return await read_until_closed(ws)


def too_large_then(code: int | None, messages: list[dict]) -> bool:
    return (
        code == 1009
        and len(messages) == 1
        and messages[0] == {"op": "reply", "ref": None, "status": "error", "error": messages[0]["error"]}
        and messages[0]["error"]["code"] == "too_large"
    )


@pytest.mark.parametrize(("size", "fragment"), [(1_048_576, 16_384), (153_600, 4_096)], ids=["1MB-16KB", "150KB-4KB"])
def test_an_oversized_fragmented_message_gets_its_reply_and_1009_every_time(server, size, fragment):
    async def runs():
        outcomes = []
        for _ in range(RUNS):
            messages, code = await asyncio.wait_for(send_oversized(server.ws_url, size, fragment), 20)
            outcomes.append(too_large_then(code, messages) or (code, [m.get("error", {}).get("code") for m in messages]))
        return outcomes

    outcomes = run_in_own_loop(runs())
    assert outcomes == [True] * RUNS


async def send_malformed(url: str, count: int) -> tuple[list[dict], int | None]:
    """Sends `count` malformed messages back to back, then reads until the close."""
    async with websockets.connect(url, subprotocols=[SUBPROTOCOL], max_size=None, open_timeout=10) as ws:
        try:
            for _ in range(count):
                await ws.send("nonsense")
        except ConnectionClosed:
            pass
        return await read_until_closed(ws)


def test_two_thousand_bad_messages_get_their_replies_and_1008_every_time(server):
    async def runs():
        outcomes = []
        for _ in range(RUNS):
            messages, code = await asyncio.wait_for(send_malformed(server.ws_url, 2_000), 20)
            codes = {m.get("error", {}).get("code") for m in messages}
            # The allowance is 100 error replies in 10 s: those replies, then the 1008 close.
            outcomes.append(code == 1008 and len(messages) >= 100 and codes == {"bad_json"} or (code, len(messages)))
        return outcomes

    outcomes = run_in_own_loop(runs())
    assert outcomes == [True] * RUNS
