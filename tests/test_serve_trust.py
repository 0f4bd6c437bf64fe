"""The drafting server trusts no one: foreign Host and Origin headers are refused (DNS rebinding), a copied file
swapped for a link out of the site is never served, connections are kept alive, capped and timed out.

A real DevServer on 127.0.0.1, real sockets and real file changes; the rebinding page runs in a real Chromium
whose resolver maps a foreign name to 127.0.0.1, as a rebinding DNS answer does."""
from __future__ import annotations

import http.client
import io
import os
import socket
import time
from pathlib import Path

import pytest

from blogbuild.commands.serve import ServeOptions
from blogbuild.serve import DevServer
from blogbuild.serve import http as serve_http
from blogbuild.serve.trust import allowed_names, host_name, name_allowed, refusal
from support.browser import CHROMIUM, CHROMIUM_ARGS

WAIT_SECONDS = 60.0   # a bound on waiting for a rebuild, not a performance claim
SECRET = "root:x:0:0:the secret outside the site"
SITE = {
    "blogbuild.yaml": "title: Trust test\n",
    "content/posts/public.md": "---\ntitle: Public\ndate: 2024-01-01T10:00:00+08:00\n---\nPublic words.\n",
    "content/posts/secret-draft.md": ("---\ntitle: Secret draft\ndate: 2024-01-02T10:00:00+08:00\ndraft: true\n"
                                      "---\nUnpublished secret words.\n"),
    "static/notes.txt": "plain static notes\n",
}


@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "site"
    for relative, text in SITE.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "outside.txt").write_text(SECRET, encoding="utf-8")
    return root


@pytest.fixture
def server(site):
    dev = DevServer(ServeOptions(root=str(site), port=0, allowed_hosts=("blog.example.test",)),
                    out=io.StringIO(), quiet_seconds=0.05)
    dev.start()
    try:
        yield dev
    finally:
        dev.stop()


def get(server: DevServer, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True)
        sent = {"Host": f"127.0.0.1:{server.port}", **(headers or {})}
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def wait_until(predicate, message: str):
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(0.02)


@pytest.mark.parametrize("header, expected", [
    ("127.0.0.1:1313", "127.0.0.1"), ("LOCALHOST", "localhost"), ("[::1]:1313", "::1"),
    ("example.test.", "example.test"), ("evil.test:80", "evil.test"), ("::1", "::1"),
])
def test_host_name_drops_the_port_case_and_final_dot(header, expected):
    assert host_name(header) == expected


@pytest.mark.parametrize("name, allowed", [
    ("127.0.0.1", True), ("::1", True), ("192.168.1.20", True), ("localhost", True), ("app.localhost", True),
    ("blog.example.test", True), ("a.wild.test", True), ("wild.test", True),
    ("evil.test", False), ("127.0.0.1.nip.io", False), ("localhost.evil.test", False), ("", False),
])
def test_only_addresses_localhost_and_the_named_hosts_are_answered(name, allowed):
    assert name_allowed(name, allowed_names("127.0.0.1", ("blog.example.test", ".wild.test"))) is allowed


def test_the_bind_address_is_answered_and_0000_adds_no_name():
    assert "myhost.lan" in allowed_names("myhost.lan", ())
    assert allowed_names("0.0.0.0", ()) == frozenset({"localhost"})


def test_a_refusal_says_what_to_do():
    allowed = allowed_names("127.0.0.1", ())
    message = refusal("rebind.evil.test:1313", None, allowed)
    assert message is not None and "--allowed-host rebind.evil.test" in message and "\n" not in message
    assert refusal("127.0.0.1:1313", "http://evil.test", allowed) is not None
    assert refusal("127.0.0.1:1313", "null", allowed) is not None
    assert refusal("127.0.0.1:1313", "http://localhost:1313", allowed) is None
    assert refusal(None, None, allowed) is None   # an HTTP/1.0 tool without Host: not a browser


@pytest.mark.parametrize("path", ["/posts/secret-draft/", "/__blogbuild/status", "/__blogbuild/events",
                                  "/__blogbuild/reload.js", "/", "/no-such-page/"])
def test_a_foreign_host_is_refused_on_every_path(server, path):
    status, body = get(server, path, {"Host": f"rebind.evil.test:{server.port}"})
    assert status == 403
    assert b"rebind.evil.test" in body and b"Unpublished secret" not in body


def test_own_names_are_answered(server):
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "blog.example.test"):
        status, body = get(server, "/posts/secret-draft/", {"Host": host})
        assert status == 200 and b"Unpublished secret words" in body, host


def test_a_foreign_origin_is_refused_on_the_event_stream_and_pages(server):
    for path in ("/__blogbuild/events", "/__blogbuild/status", "/posts/secret-draft/"):
        status, body = get(server, path, {"Origin": "http://evil.test"})
        assert status == 403 and b"Unpublished" not in body, path


def test_a_static_file_swapped_for_a_link_out_is_never_served(server, site, tmp_path):
    assert get(server, "/notes.txt") == (200, b"plain static notes\n")
    rebuilds = server.rebuilds
    target = site / "static/notes.txt"
    target.unlink()
    target.symlink_to(tmp_path / "outside.txt")
    answers = []
    deadline = time.monotonic() + WAIT_SECONDS
    while server.rebuilds <= rebuilds and time.monotonic() < deadline:
        answers.append(get(server, "/notes.txt"))
    answers += [get(server, "/notes.txt") for _ in range(5)]
    assert server.rebuilds > rebuilds, "the swap never reached the server"
    assert all(SECRET.encode() not in body for _, body in answers)
    assert all(status in (404, 503) for status, _ in answers[-5:])


def test_a_swap_while_a_build_fails_is_not_served_and_the_fix_picks_up_new_files(server, site, tmp_path):
    post = site / "content/posts/public.md"
    count = server.rebuilds
    post.write_text("---\ntitle: [unclosed\n---\nbody\n", encoding="utf-8")
    wait_until(lambda: server.rebuilds > count and not server.state.ok, "the failed build")
    count = server.rebuilds
    target = site / "static/notes.txt"
    target.unlink()
    target.symlink_to(tmp_path / "outside.txt")
    (site / "static/added.txt").write_text("added while failing\n", encoding="utf-8")
    wait_until(lambda: server.rebuilds > count, "the rebuild after the swap")
    for _ in range(20):
        status, body = get(server, "/notes.txt")
        assert SECRET.encode() not in body and status in (404, 503)
    count = server.rebuilds
    post.write_text(SITE["content/posts/public.md"], encoding="utf-8")
    wait_until(lambda: server.rebuilds > count and server.state.ok, "the good build after the fix")
    assert get(server, "/added.txt") == (200, b"added while failing\n")
    status, body = get(server, "/notes.txt")
    assert SECRET.encode() not in body and status == 404


def test_one_connection_carries_many_requests(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for path in ("/", "/posts/public/", "/notes.txt", "/__blogbuild/reload.js", "/no-such-page/"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.version == 11 and not response.will_close, path
        first = connection.sock
        connection.request("GET", "/")
        connection.getresponse().read()
        assert connection.sock is first   # the same socket all along
    finally:
        connection.close()


def test_an_idle_or_half_sent_connection_is_closed(server, monkeypatch):
    monkeypatch.setattr(serve_http.Handler, "timeout", 0.5)
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as half_sent:
        half_sent.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # the headers never end
        assert half_sent.recv(1024) == b""   # closed by the server, not by this test's own timeout
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as idle:
        idle.sendall(b"GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while True:
            chunk = idle.recv(65536)
            if not chunk:
                break
            received += chunk
        assert received.startswith(b"HTTP/1.1 200") and received.endswith(b"plain static notes\n")


def test_event_streams_are_capped(server, monkeypatch):
    monkeypatch.setattr(serve_http, "MAX_EVENT_STREAMS", 2)
    streams = []
    try:
        for _ in range(2):
            stream = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            stream.sendall(b"GET /__blogbuild/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(stream)
        wait_until(lambda: server.client_count == 2, "two open streams")
        status, _ = get(server, "/__blogbuild/events")
        assert status == 503
    finally:
        for stream in streams:
            stream.close()


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_a_rebinding_page_in_chromium_reads_nothing(server):
    playwright_api = pytest.importorskip("playwright.sync_api")
    # The rebinding name resolves to this server, as the attacker's DNS answers once the page has loaded.
    args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP rebind.evil.test 127.0.0.1"]
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            page = browser.new_page()
            origin = f"http://rebind.evil.test:{server.port}"
            response = page.goto(origin + "/")
            assert response is not None and response.status == 403
            read = page.evaluate("""async () => {
                const out = [];
                for (const path of ['/posts/secret-draft/', '/__blogbuild/status']) {
                    const answer = await fetch(path);
                    out.push([answer.status, await answer.text()]);
                }
                return out;
            }""")
            assert [status for status, _ in read] == [403, 403]
            assert all("Unpublished secret" not in text and '"errors"' not in text for _, text in read)
            own = browser.new_page()
            assert own.goto(server.url + "posts/secret-draft/").status == 200   # the writer's own tab reads it
            assert "Unpublished secret words" in own.inner_text("body")
        finally:
            browser.close()


def _plant_link(page: Path, outside: Path) -> None:
    """Replace a published page with a link to a file outside the site, alike in size and mtime."""
    info = page.stat()
    outside.write_bytes(SECRET.encode().ljust(info.st_size, b"."))
    os.utime(outside, ns=(info.st_atime_ns, info.st_mtime_ns))
    page.unlink()
    page.symlink_to(outside)
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns), follow_symlinks=False)


def _build(site: Path) -> None:
    import subprocess
    import sys
    completed = subprocess.run([sys.executable, "-m", "blogbuild", "build", "-q", "-j", "1"], cwd=site,
                               capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr


def test_a_link_planted_in_public_is_replaced_by_the_next_build_and_never_served(site, tmp_path):
    _build(site)
    page = site / "public/posts/public/index.html"
    good = page.read_bytes()
    _plant_link(page, tmp_path / "planted.html")
    # The server starts from the published tree when its record says the tree is intact: the link must not pass.
    dev = DevServer(ServeOptions(root=str(site), port=0), out=io.StringIO(), quiet_seconds=0.05)
    dev.start()
    try:
        status, body = get(dev, "/posts/public/")
        assert status == 200 and SECRET.encode() not in body and b"Public words" in body
    finally:
        dev.stop()
    _build(site)
    page = site / "public/posts/public/index.html"
    assert not page.is_symlink() and page.read_bytes() == good
