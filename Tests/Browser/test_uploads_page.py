"""The uploads demo in Chromium: progress to 100 %, the server's SHA-256, a socket
dropped mid-upload, and a file over the limit refused with nothing kept."""

import hashlib
import pathlib
import time

from playwright.sync_api import expect

# Keeps the page's WebSockets within reach, to drop one as a network failure would.
RECORD_SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.openedSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.openedSockets.push(this);
    }
  };
})()"""

# Records every progress value each row showed; optionally drops the socket once a row
# passes `dropAt` percent (once).
WATCH_PROGRESS = """(dropAt) => {
  window.progressSeen = {};
  window.dropped = false;
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('.sc-upload')) {
      const name = row.querySelector('.sc-upload-name').textContent;
      const value = Number(row.querySelector('progress').value);
      const seen = (window.progressSeen[name] ??= []);
      if (seen.at(-1) !== value) seen.push(value);
      if (dropAt !== null && !window.dropped && value >= dropAt && value < 100) {
        window.dropped = true;
        window.openedSockets.at(-1).close();
      }
    }
  }).observe(document.querySelector('#progress'), { subtree: true, childList: true, attributes: true });
}"""


# Chooses files made in the page (sending 20 MB from the test into the browser would
# take longer than the upload) and returns the SHA-256 of each, computed by the browser
# from the bytes it holds.
CHOOSE_FILES = """async (specs) => {
  const transfer = new DataTransfer();
  const hashes = {};
  for (const [name, size, seed] of specs) {
    const bytes = new Uint8Array(size);
    let x = seed;
    for (let i = 0; i < size; i++) {
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      bytes[i] = x & 255;
    }
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    hashes[name] = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
  }
  const input = document.querySelector('#files');
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return hashes;
}"""


def received(page):
    return page.eval_on_selector_all(
        "#received .received-file",
        "rows => rows.map(r => [r.querySelector('.file-name').textContent, r.querySelector('.file-sha').textContent])",
    )


def test_three_files_arrive_with_progress_and_the_servers_hashes(server, context, open_page):
    page = open_page(f"{server.origin}/uploads.html")
    page.evaluate(WATCH_PROGRESS, None)
    hashes = page.evaluate(CHOOSE_FILES, [["big.bin", 20 << 20, 7], ["notes.txt", 1400, 11], ["empty.txt", 0, 13]])
    assert hashes["empty.txt"] == hashlib.sha256(b"").hexdigest()
    rows = page.locator(".sc-upload")
    expect(rows).to_have_count(3)
    for index in range(3):
        expect(rows.nth(index)).to_have_attribute("data-state", "done", timeout=30_000)
        expect(rows.nth(index).locator(".sc-upload-percent")).to_have_text("100 %")
    expect(page.locator("#received .received-file")).to_have_count(3)
    assert sorted(received(page)) == sorted([name, digest] for name, digest in hashes.items())
    seen = page.evaluate("window.progressSeen['big.bin']")
    assert seen[-1] == 100 and any(0 < value < 100 for value in seen), seen


def test_a_socket_dropped_mid_upload_resumes_and_the_hash_matches(server, context, open_page):
    context.add_init_script(RECORD_SOCKETS)
    page = open_page(f"{server.origin}/uploads.html")
    page.evaluate(WATCH_PROGRESS, 30)
    hashes = page.evaluate(CHOOSE_FILES, [["resumed.bin", 20 << 20, 17]])
    expect(page.locator(".sc-upload")).to_have_attribute("data-state", "done", timeout=30_000)
    assert page.evaluate("window.dropped") and page.evaluate("window.openedSockets.length") == 2
    assert received(page) == [["resumed.bin", hashes["resumed.bin"]]]
    # It went on from what the server had, not from the start.
    seen = page.evaluate("window.progressSeen['resumed.bin']")
    first = next(i for i, value in enumerate(seen) if value >= 30)
    assert all(value >= 30 for value in seen[first:]), seen


def test_a_file_over_the_limit_is_refused_with_its_reason_and_nothing_is_kept(server, open_page):
    page = open_page(f"{server.origin}/uploads.html")
    page.evaluate(
        """() => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([new Uint8Array(26 << 20)], 'huge.iso'));
          const zone = document.querySelector('#drop');
          zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        }"""
    )
    row = page.locator(".sc-upload")
    expect(row).to_have_attribute("data-state", "failed")
    expect(row.locator(".sc-upload-message")).to_have_text("huge.iso is 26 MB; files may be at most 25 MB")
    expect(page.locator("#received .received-file")).to_have_count(0)
    uploads = pathlib.Path(server.data.name) / "uploads"
    assert not uploads.exists() or list(uploads.iterdir()) == []


def test_cancel_stops_an_upload_and_the_server_keeps_nothing(server, open_page):
    page = open_page(f"{server.origin}/uploads.html")
    # Pressed by the page itself once the upload is under way: a test's click could come
    # after the last byte on a fast machine.
    page.evaluate(
        """() => new MutationObserver((_, observer) => {
          const row = document.querySelector('.sc-upload');
          const value = Number(row?.querySelector('progress').value);
          if (value >= 5 && value < 100) {
            observer.disconnect();
            row.querySelector('.sc-upload-cancel').click();
          }
        }).observe(document.querySelector('#progress'), { subtree: true, childList: true, attributes: true })"""
    )
    page.evaluate(CHOOSE_FILES, [["cancelled.bin", 20 << 20, 23]])
    row = page.locator(".sc-upload")
    expect(row).to_have_attribute("data-state", "cancelled")
    expect(row.locator(".sc-upload-cancel")).to_be_hidden()
    uploads = pathlib.Path(server.data.name) / "uploads"
    deadline = time.monotonic() + 10
    while list(uploads.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(uploads.iterdir()) == []
    expect(page.locator("#received .received-file")).to_have_count(0)


def test_an_upload_goes_on_after_the_server_restarts(restartable_server, open_page, problems):
    server = restartable_server()
    page = open_page(f"{server.origin}/uploads.html")
    # Once a tenth is acknowledged, the page stops putting chunks on the wire (as a
    # stalled network would), so the restart surely comes in the middle of the file.
    page.evaluate(
        """() => {
          const send = WebSocket.prototype.send;
          WebSocket.prototype.send = function (data) {
            if (window.holdChunks && typeof data !== 'string') return;
            return send.call(this, data);
          };
          new MutationObserver((_, observer) => {
            if (Number(document.querySelector('.sc-upload progress')?.value) >= 10) {
              window.holdChunks = true;
              observer.disconnect();
            }
          }).observe(document.querySelector('#progress'), { subtree: true, childList: true, attributes: true });
        }"""
    )
    hashes = page.evaluate(CHOOSE_FILES, [["restarted.bin", 24 << 20, 29]])
    page.wait_for_function("() => window.holdChunks === true")
    problems.allow(r"WebSocket connection to .* failed")
    assert server.stop() == 0  # a deploy: the socket is closed with 1012, the partial file kept
    assert page.evaluate("() => Number(document.querySelector('.sc-upload progress').value)") < 100
    page.evaluate("() => { window.holdChunks = false; }")
    server.start()
    row = page.locator(".sc-upload")
    expect(row).to_have_attribute("data-state", "done", timeout=30_000)
    assert received(page) == [["restarted.bin", hashes["restarted.bin"]]]
