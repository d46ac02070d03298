"""A signed-in viewer's rendered page, against the real demo server: signed in as the demo
signs in (the account topic's ticket posted for an HttpOnly cookie), a viewer's GET of a
page with a per-viewer view renders that viewer's own view (their name, their private
draft, their items marked theirs), and another viewer's page, or a guest's, never holds
it, nor can another viewer resume the session the first viewer's page carries."""

import json
import re
import urllib.request

from statecast_client import Client
from test_identity import signed_cookie

ROOM = "board/viewers"
DRAFT = "Ada private draft 5521"
SHARED = "milk for the team"


def get(server, path, headers=None):
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def page_data(body):
    match = re.search(r'<script type="application/json" id="statecast-page">(.*?)</script>', body, re.S)
    assert match, "the page carries no rendered session"
    return json.loads(match.group(1))


def test_a_signed_in_viewer_sees_their_own_view_and_no_other_viewer_sees_it(server):
    ada_cookie = signed_cookie(server, "Ada")
    bob_cookie = signed_cookie(server, "Bob")
    ada = Client(server.ws_url, headers={"Cookie": ada_cookie})
    ada.join(ROOM)
    for action in ({"draftChanged": {"text": SHARED}}, {"addDraft": {}}, {"draftChanged": {"text": DRAFT}}):
        reply, _ = ada.action(ROOM, action)
        assert reply["status"] == "ok", reply

    body = get(server, "/board.html?room=viewers", {"Cookie": ada_cookie})
    view = page_data(body)["topics"][ROOM]["state"]
    assert view["me"]["name"] == "Ada" and view["myDraft"] == DRAFT
    # Rendered into the markup, not only carried for the runtime.
    assert '<strong id="me" data-sc-text="me.name">Ada</strong>' in body
    assert re.search(r'<input id="draft"[^>]*\bvalue="' + DRAFT + '"', body), "her draft is not in its field"
    assert re.search(r'<li class="board-item mine"[^>]*>', body), "her item is not marked hers"
    ada_session = page_data(body)["session"]

    for who, headers in (("Bob", {"Cookie": bob_cookie}), ("a guest", {})):
        other = get(server, "/board.html?room=viewers", headers)
        assert DRAFT not in other, f"{who}'s page holds Ada's draft"
        assert SHARED in other, f"{who}'s page misses the shared item"
        assert not re.search(r'<li class="board-item mine"', other), f"{who}'s page marks Ada's item theirs"
        assert page_data(other)["topics"][ROOM]["state"]["myDraft"] == ""
        if who == "Bob":
            assert '<strong id="me" data-sc-text="me.name">Bob</strong>' in other
        # The session Ada's page carries is hers: another viewer's socket cannot take it.
        thief = Client(server.ws_url, headers=headers)
        reply, _ = thief.request({"op": "hello", "session": ada_session, "resume": {ROOM: 0}})
        assert reply["resumed"] is False, who
        assert DRAFT not in json.dumps(thief.received)
        thief.close()

    # Ada's own socket resumes it, from the rendered revision.
    rendered = page_data(body)["topics"][ROOM]["rev"]
    again = Client(server.ws_url, headers={"Cookie": ada_cookie})
    again.states[ROOM], again.revs[ROOM] = view, rendered
    reply, _ = again.request({"op": "hello", "session": ada_session, "resume": {ROOM: rendered}})
    assert reply["resumed"] is True
    assert again.states[ROOM]["myDraft"] == DRAFT
    again.close()
    ada.close()
