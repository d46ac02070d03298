"""Where the site ends, as another site of the host or a rebinding DNS name would probe
it: `/metrics` only for allowed addresses, the `Host` header checked against the server's
own names, the `Origin`'s scheme checked, and a content security policy without inline
scripts beyond the pages' own."""

import base64
import hashlib
import pathlib
import re
import socket
import urllib.request

import pytest
from websockets.exceptions import InvalidHandshake

from demo_binary import ROOT
from statecast_client import Client, SUBPROTOCOL


def request(host, port, path, headers=()):
    """A raw HTTP/1.1 request; returns the status code and the head's lines."""
    with socket.create_connection((host, port), timeout=10) as sock:
        lines = [f"GET {path} HTTP/1.1", *headers, "Connection: close", "", ""]
        if not any(h.lower().startswith("host:") for h in headers):
            lines.insert(1, f"Host: {host}:{port}")
        sock.sendall("\r\n".join(lines).encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head = answer.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")
    return int(head[0].split()[1]), head


def other_address():
    """A non-loopback address of this machine, or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # any routed address: no packet is sent
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_metrics_answer_loopback_only_by_default(start_server):
    address = other_address()
    if address is None:
        pytest.skip("no non-loopback address to reach the server from")
    server = start_server("--host", "0.0.0.0")
    assert request("127.0.0.1", server.port, "/metrics")[0] == 200
    assert request(address, server.port, "/metrics")[0] == 404
    assert request(address, server.port, "/healthz")[0] == 200
    allowed = start_server("--host", "0.0.0.0", "--metrics-allow", address)
    assert request(address, allowed.port, "/metrics")[0] == 200


UPGRADE = [
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
    f"Sec-WebSocket-Protocol: {SUBPROTOCOL}",
]


def test_a_host_name_that_is_not_the_servers_is_refused(start_server):
    # DNS rebinding: a page of rebind.example, now resolving to 127.0.0.1, is same-origin
    # with itself; only the Host header tells the server it is not its own name.
    server = start_server()
    port = server.port
    rebound = [f"Host: rebind.example:{port}"]
    assert request("127.0.0.1", port, "/", rebound)[0] == 421
    assert request("127.0.0.1", port, "/ws", [*rebound, f"Origin: http://rebind.example:{port}", *UPGRADE])[0] == 421
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert request("127.0.0.1", port, "/", [f"Host: {name}"])[0] == 200
    named = start_server("--allow-host", "rebind.example")
    assert request("127.0.0.1", named.port, "/", [f"Host: rebind.example:{named.port}"])[0] == 200


def test_an_origin_of_another_scheme_is_refused(server):
    with pytest.raises(InvalidHandshake):
        Client(server.ws_url, origin=f"https://127.0.0.1:{server.port}")
    assert Client(server.ws_url, origin=f"http://127.0.0.1:{server.port}").hello["op"] == "hello"


def inline_scripts(html):
    return re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)


def test_the_policy_allows_the_pages_own_inline_scripts_and_no_other(server):
    status, head = request("127.0.0.1", server.port, "/")
    policy = next(line.split(":", 1)[1].strip() for line in head if line.lower().startswith("content-security-policy:"))
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    assert "'unsafe-inline'" not in directives["script-src"]
    assert directives["connect-src"] == ["'self'"]
    for page in pathlib.Path(ROOT, "Public").rglob("*.html"):
        for script in inline_scripts(page.read_text()):
            digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in directives["script-src"], (page.name, script[:60])
