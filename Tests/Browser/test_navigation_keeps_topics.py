"""Live navigation between two pages that bind the same per-tab topic, in Chromium: the
topic's membership and store stay as they are (no leave, no join, no second snapshot),
so what the tab changed on one page is there on the other and back, and its patches
run on without a gap. A topic only one of the pages binds is joined and left as usual."""

import json
import re
import shutil

from playwright.sync_api import expect

from demo_binary import ROOT

PAGE = """<!doctype html>
<html lang="en">
<head>
  <script src="/statecast/early.js"></script>
  <meta charset="utf-8">
  <title>{title}</title>
</head>
<body>
  <h1>{title}</h1>
  <div data-sc-topic="counter">
    <output id="count" data-sc-text="count" data-sc-cloak>?</output>
    <button id="increment" data-sc-on-click="increment">+</button>
  </div>
  {extra}
  <nav data-sc-navigate><a id="next" href="{link}">next</a></nav>
</body>
</html>
"""

# Only the second page binds the recruitment topic: it is joined there and left on the
# way back.
RECRUITMENT = '<div data-sc-topic="recruitment"><p id="status" data-sc-text="status">?</p></div>'


def topic_frames(frames, topic, *ops):
    return [frame for frame in frames if frame.get("topic") == topic and frame.get("op") in ops]


def test_a_topic_both_pages_bind_keeps_its_membership_and_state(start_server, tmp_path, context, problems):
    public = tmp_path / "Public"
    shutil.copytree(ROOT / "Public", public)
    (public / "twin-a.html").write_text(PAGE.format(title="Page A", extra="", link="/twin-b.html"))
    (public / "twin-b.html").write_text(PAGE.format(title="Page B", extra=RECRUITMENT, link="/twin-a.html"))
    server = start_server("--public", str(public))

    page = context.new_page()
    page.on("pageerror", lambda error: problems.messages.append(f"page error: {error}"))
    sockets, sent, received = [], [], []

    def watch(socket):
        sockets.append(socket)
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    page.goto(f"{server.origin}/twin-a.html")
    expect(page.locator("html")).to_have_class(re.compile(r"\bsc-connected\b"))
    expect(page.locator("#count")).to_have_text("0")
    page.click("#increment")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("2")
    before = len(sent), len(received)

    page.click("#next")
    expect(page.locator("h1")).to_have_text("Page B")
    expect(page).to_have_url(f"{server.origin}/twin-b.html")
    # The state the tab made on page A, at once, and the topic only B binds.
    expect(page.locator("#count")).to_have_text("2")
    expect(page.locator("#status")).not_to_have_text("?")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("3")

    page.go_back()
    expect(page.locator("h1")).to_have_text("Page A")
    expect(page.locator("#count")).to_have_text("3")
    page.click("#increment")
    expect(page.locator("#count")).to_have_text("4")

    sent_after, received_after = sent[before[0]:], received[before[1]:]
    navigates = [frame for frame in sent_after if frame.get("op") == "navigate"]
    assert len(navigates) == 2, sent_after
    # Each page came rendered with the kept topic's current state, at the revision of
    # the last patch the socket had been sent for it.
    for navigate, count in zip(navigates, ("2", "3")):
        at = next(i for i, frame in enumerate(received) if frame.get("op") == "reply" and frame.get("ref") == navigate["ref"])
        html = received[at]["html"]
        assert re.search(r'<output id="count"[^>]*>' + count + "</output>", html), html
        data = json.loads(re.search(r'id="statecast-page">(.*?)</script>', html, re.S).group(1))
        last = [frame["rev"] for frame in topic_frames(received[:at], "counter", "patch")][-1]
        assert data["topics"]["counter"]["rev"] == last, (data, last)
    assert topic_frames(sent_after, "counter", "join", "leave") == [], sent_after
    assert topic_frames(received_after, "counter", "snapshot") == [], received_after
    # Its patches ran on, one revision after another.
    revisions = [frame["rev"] for frame in topic_frames(received, "counter", "patch")]
    assert len(revisions) >= 4 and revisions == list(range(revisions[0], revisions[0] + len(revisions))), revisions
    # The other page's topic was joined by the navigation to B and left on the way back.
    assert len(topic_frames(received_after, "recruitment", "snapshot")) == 1, received_after
    leaves = topic_frames(sent_after, "recruitment", "leave")
    assert len(leaves) == 1, sent_after
    assert len(sockets) == 1, "live navigation opened another socket"
    assert problems.unexpected() == []
