"""A flood of page requests without sockets (crawlers, prefetches, link previews) costs
a bounded amount: each request's session and stores are dropped after the page grace,
and after 10,000 requests the server's memory is back where it was."""

import concurrent.futures
import http.client
import re
import time

REQUESTS = 10_000
WORKERS = 4


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def sessions(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    found = dict(re.findall(r'^statecast_sessions\{state="(\w+)"\} (\d+)', text, re.M))
    return sum(int(value) for value in found.values())


def fetch_pages(server, count, worker):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for index in range(count):
        # Each request names its own room: a new store per request, the costly case.
        connection.request("GET", f"/counter.html?room=flood-{worker}-{index % 500}")
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200 and b'id="statecast-page"' in body
    connection.close()


def flood(server, total):
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        for future in [pool.submit(fetch_pages, server, total // WORKERS, worker) for worker in range(WORKERS)]:
            future.result(timeout=300)


def wait_until_no_sessions(server):
    deadline = time.monotonic() + 30
    while sessions(server) > 0:
        assert time.monotonic() < deadline, "page sessions outlived their grace"
        time.sleep(0.2)


def test_ten_thousand_requests_without_sockets_leave_memory_where_it_was(start_server):
    server = start_server("--page-session-grace", "0.5")
    # Warm up: the allocator's arenas and the caches reach their working size first.
    flood(server, 2_000)
    wait_until_no_sessions(server)
    before = resident_kib(server.process.pid)
    flood(server, REQUESTS)
    wait_until_no_sessions(server)
    after = resident_kib(server.process.pid)
    print(f"resident memory: {before} KiB before, {after} KiB after {REQUESTS} page requests")
    # Memory back where it was: a leak of a session's stores per request would be
    # several kilobytes each, tens of megabytes in all.
    assert after <= before + 8 * 1024, f"{before} KiB before, {after} KiB after"
