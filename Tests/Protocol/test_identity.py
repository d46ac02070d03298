"""Identity over real sockets: a signed-in visitor's cookie makes the socket that viewer,
a cookie that fails verification makes a guest and is cleared, and a session belongs to
its viewer."""

import socket

from statecast_client import Client, SUBPROTOCOL


def upgrade_response(port, cookie):
    """The status line and headers of a WebSocket upgrade of /ws carrying `cookie`."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            (
                "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\nCookie: {cookie}\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                break
            head += chunk
        return head.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")


def upgrade_status(port, cookie):
    """The status line of a WebSocket upgrade of /ws carrying `cookie`."""
    return upgrade_response(port, cookie)[0]


def cleared_cookie_paths(response_lines):
    """The paths at which a response deletes the sign-in cookie (`Max-Age=0`)."""
    paths = []
    for line in response_lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "set-cookie" and value.strip().startswith("statecast_viewer=;"):
            attributes = [part.strip().lower() for part in value.split(";")]
            assert "max-age=0" in attributes, value
            paths += [part.split("=", 1)[1] for part in attributes if part.startswith("path=")]
    return paths


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


def test_a_cookie_that_fails_verification_makes_a_guest_and_is_cleared(server):
    cookie = signed_cookie(server, "Ada")
    payload, signature = cookie.split("=", 1)[1].split(".")
    altered = f"statecast_viewer={payload[:-2]}xx.{signature}"
    for bad in (altered, "statecast_viewer=nonsense"):
        response = upgrade_response(server.port, bad)
        # Not 403: a person whose cookie went bad (a rotated secret, a lost --data, a
        # planted one) could otherwise never reach the sign-in page's socket again.
        assert response[0].startswith("HTTP/1.1 101"), response
        assert sorted(cleared_cookie_paths(response)) == ["/", "/ws"], response
        guest = Client(server.ws_url, headers={"Cookie": bad})
        guest.join("account")
        assert guest.states["account"]["isGuest"] is True
        assert guest.states["account"]["name"] != "Ada"
        guest.close()
    good = upgrade_response(server.port, cookie)
    assert good[0].startswith("HTTP/1.1 101") and cleared_cookie_paths(good) == []
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
