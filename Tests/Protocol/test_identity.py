"""Identity over real sockets: a signed-in visitor's cookie makes the socket that viewer,
an altered cookie is refused before any WebSocket exists, and a session belongs to its
viewer."""

import socket

from statecast_client import Client, SUBPROTOCOL


def upgrade_status(port, cookie):
    """The status line of a WebSocket upgrade of /ws carrying `cookie`."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            (
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\nCookie: {cookie}\r\n\r\n"
            ).encode()
        )
        return sock.recv(4096).split(b"\r\n", 1)[0].decode()


def signed_cookie(server, name):
    """Signs in through the demo's account topic; returns the cookie header's value."""
    client = Client(server.ws_url)
    client.join("account")
    client.action("account", {"signIn": {"name": name}})
    value = client.states["account"]["cookie"]
    client.close()
    return f"statecast_viewer={value}"


def test_a_signed_cookie_makes_the_socket_that_viewer(server):
    cookie = signed_cookie(server, "Ada")
    ada = Client(server.ws_url, headers={"Cookie": cookie})
    ada.join("counter/identity")
    assert [member["name"] for member in ada.states["counter/identity"]["presence"]] == ["Ada"]
    ada.join("account")
    assert ada.states["account"]["name"] == "Ada" and ada.states["account"]["isGuest"] is False


def test_an_altered_cookie_is_refused_with_403_before_any_websocket(server):
    cookie = signed_cookie(server, "Ada")
    payload, signature = cookie.split("=", 1)[1].split(".")
    altered = f"statecast_viewer={payload[:-2]}xx.{signature}"
    assert upgrade_status(server.port, altered).startswith("HTTP/1.1 403")
    assert upgrade_status(server.port, "statecast_viewer=nonsense").startswith("HTTP/1.1 403")
    assert upgrade_status(server.port, cookie).startswith("HTTP/1.1 101")
    assert upgrade_status(server.port, "other=1").startswith("HTTP/1.1 101")  # a guest


def test_a_session_resumes_only_for_its_viewer(server):
    ada_cookie = signed_cookie(server, "Ada")
    bob_cookie = signed_cookie(server, "Bob")
    ada = Client(server.ws_url, headers={"Cookie": ada_cookie})
    ada.join("counter")
    session = ada.hello["session"]
    # Another viewer, and a guest, who know the session id cannot take it over.
    for headers in ({"Cookie": bob_cookie}, {}):
        thief = Client(server.ws_url, headers=headers)
        reply, _ = thief.request({"op": "hello", "session": session, "resume": {"counter": 0}})
        assert reply["resumed"] is False and reply["session"] == thief.hello["session"]
        thief.close()
    # The same viewer, on another socket, can.
    again = Client(server.ws_url, headers={"Cookie": ada_cookie})
    reply, _ = again.request({"op": "hello", "session": session, "resume": {}})
    assert reply["resumed"] is True and reply["session"] == session
