"""Identity over real sockets: a signed-in visitor's cookie makes the socket that viewer,
a cookie that fails verification makes a guest and is cleared, and a session belongs to
its viewer."""

import base64
import hashlib
import hmac
import json
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request

import pytest

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


def sign_in(server, name, tls=None):
    """Signs in through the demo's account topic and posts the ticket its view shows, as
    signin.html does; returns the `Set-Cookie` answer and the client (still open).
    `tls` is the client's SSL context for a server that speaks TLS."""
    client = Client(server.ws_url, ssl=tls)
    client.join("account")
    client.action("account", {"signIn": {"name": name}})
    request = urllib.request.Request(
        f"{server.origin}/statecast/cookie",
        method="POST",
        headers={"X-Statecast-Ticket": client.states["account"]["ticket"], "Origin": server.origin},
    )
    with urllib.request.urlopen(request, timeout=10, context=tls) as response:
        assert response.status == 204
        return response.headers["Set-Cookie"], client


def signed_cookie(server, name):
    """Signs in through the demo's account topic; returns the cookie header's value."""
    set_cookie, client = sign_in(server, name)
    client.close()
    return set_cookie.split(";", 1)[0]


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


def test_the_cookie_is_set_by_the_server_httponly_and_its_value_is_in_no_frame(server):
    set_cookie, client = sign_in(server, "Ada")
    attributes = [part.strip().lower() for part in set_cookie.split(";")[1:]]
    assert "httponly" in attributes and "samesite=lax" in attributes and "path=/" in attributes
    value = set_cookie.split(";", 1)[0].split("=", 1)[1]
    assert "cookie" not in client.states["account"]
    assert not any(value in json.dumps(message) for message in client.received)
    client.close()


def test_a_ticket_is_good_once_and_only_from_the_servers_own_origin(server):
    client = Client(server.ws_url)
    client.join("account")
    client.action("account", {"signIn": {"name": "Ada"}})
    ticket = client.states["account"]["ticket"]
    url = f"http://127.0.0.1:{server.port}/statecast/cookie"

    def post(origin):
        headers = {"X-Statecast-Ticket": ticket}
        if origin:
            headers["Origin"] = origin
        try:
            with urllib.request.urlopen(urllib.request.Request(url, method="POST", headers=headers), timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as error:
            return error.code

    assert post(f"http://127.0.0.1:{server.port + 1}") == 403  # another origin of the host
    assert post(None) == 403
    assert post(f"http://127.0.0.1:{server.port}") == 204
    assert post(f"http://127.0.0.1:{server.port}") == 403  # used
    client.close()


def test_two_cookies_of_the_name_make_a_guest_and_both_are_cleared(server):
    ada, bob = signed_cookie(server, "Ada"), signed_cookie(server, "Bob")
    response = upgrade_response(server.port, f"{bob}; {ada}")
    assert response[0].startswith("HTTP/1.1 101") and sorted(cleared_cookie_paths(response)) == ["/", "/ws"]
    guest = Client(server.ws_url, headers={"Cookie": f"{bob}; {ada}"})
    guest.join("account")
    assert guest.states["account"]["isGuest"] is True


SECRET = "s" * 40
RETIRED = "r" * 40


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def cookie_signed_with(secret, claims):
    """A cookie value signed as the server signs one, with the claims given."""
    payload = json.dumps(claims, separators=(",", ":")).encode()
    signature = hmac.new(secret.encode(), payload, hashlib.sha256).digest()
    return f"statecast_viewer={b64(payload)}.{b64(signature)}"


def key_id(secret):
    return b64(hmac.new(secret.encode(), b"statecast key id", hashlib.sha256).digest()[:6])


def viewer_name(server, cookie):
    client = Client(server.ws_url, headers={"Cookie": cookie})
    client.join("account")
    name = None if client.states["account"]["isGuest"] else client.states["account"]["name"]
    client.close()
    return name


@pytest.mark.parametrize("flags", [("--secret", SECRET)])
def test_a_cookie_without_expiry_or_past_it_is_a_guests(start_server, flags):
    server = start_server(*flags)
    future, past = int(time.time()) + 3_600, int(time.time()) - 1
    valid = {"id": "v-ada", "name": "Ada", "exp": future, "kid": key_id(SECRET)}
    assert viewer_name(server, cookie_signed_with(SECRET, valid)) == "Ada"
    # The format of a cookie issued before expiry was signed: good forever, once.
    assert viewer_name(server, cookie_signed_with(SECRET, {"id": "v-ada", "name": "Ada"})) is None
    assert viewer_name(server, cookie_signed_with(SECRET, {**valid, "exp": past})) is None


def test_a_rotated_secret_keeps_its_cookies_while_it_is_listed(start_server):
    claims = {"id": "v-ada", "name": "Ada", "exp": int(time.time()) + 3_600, "kid": key_id(RETIRED)}
    cookie = cookie_signed_with(RETIRED, claims)
    rotated = start_server("--secret", SECRET, "--previous-secret", RETIRED)
    assert viewer_name(rotated, cookie) == "Ada"
    assert viewer_name(rotated, signed_cookie(rotated, "Bob")) == "Bob"  # signed with the new one
    revoked = start_server("--secret", SECRET)
    assert viewer_name(revoked, cookie) is None


def test_a_display_name_loses_its_bidirectional_and_invisible_characters(server):
    cookie = signed_cookie(server, "\u202eAda\u2066 Lovelace\u200b\u0007")
    client = Client(server.ws_url, headers={"Cookie": cookie})
    client.join("account")
    assert client.states["account"]["name"] == "Ada Lovelace"
    client.close()
    # A name of nothing else is no name: the sign-in changes nothing.
    guest = Client(server.ws_url)
    guest.join("account")
    reply, _ = guest.action("account", {"signIn": {"name": "\u202e\u200f"}})
    assert reply["status"] == "ok" and guest.states["account"]["isGuest"] is True


def test_under_tls_the_cookie_is_secure_and_host_prefixed(start_server, tmp_path):
    certificate, key = tmp_path / "certificate.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=60,
    )
    server = start_server("--tls-cert", str(certificate), "--tls-key", str(key))
    tls = ssl.create_default_context(cafile=str(certificate))
    # TLS 1.2 for this client: the `websockets` sync client starts its receiving thread
    # before it writes the upgrade request, and under TLS 1.3 the server's session
    # tickets arrive just then. Python's SSL socket is not safe to read and write from two
    # threads at once, and about one connection in a hundred lost its request (the server
    # never received it and timed it out). Browsers are not concerned.
    tls.maximum_version = ssl.TLSVersion.TLSv1_2
    set_cookie, client = sign_in(server, "Ada", tls)
    client.close()
    pair, _, attributes = set_cookie.partition(";")
    assert pair.startswith("__Host-statecast_viewer=")
    attributes = [part.strip().lower() for part in attributes.split(";")]
    assert {"secure", "httponly", "samesite=lax", "path=/"} <= set(attributes)
    ada = Client(server.ws_url, ssl=tls, headers={"Cookie": pair})
    ada.join("account")
    assert ada.states["account"]["name"] == "Ada"
    # The plain name is not read under TLS: another site of the host could have set it.
    plain = Client(server.ws_url, ssl=tls, headers={"Cookie": pair.replace("__Host-", "", 1)})
    plain.join("account")
    assert plain.states["account"]["isGuest"] is True
