"""blogbuild serve: request paths without sockets, then a real server over a small site with real edits."""
from __future__ import annotations

import http.client
import io
import json
import os
import random
import shutil
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from blogbuild.commands.serve import ServeOptions
from blogbuild.core.errors import SourceError
from blogbuild.serve import DevServer, content_type, error_report, inject_reload_script, resolve_request_path
from blogbuild.serve.watch import ChangeBatcher, ChangeKind, WatchPlan, classify, is_ignored_name

FILES = {
    "index.html": object(),
    "404.html": object(),
    "posts/alpha/index.html": object(),
    "posts/beta/index.html": object(),
    "tags/分布式/index.html": object(),
    "css/style.css": object(),
    "index.xml": object(),
}


# ---- request paths -----------------------------------------------------------------------------------

@pytest.mark.parametrize("target, expected", [
    ("/", (200, "index.html")),
    ("/index.html", (200, "index.html")),
    ("/posts/alpha/", (200, "posts/alpha/index.html")),
    ("/posts/alpha/?utm=1#top", (200, "posts/alpha/index.html")),
    ("/posts/alpha/index.html", (200, "posts/alpha/index.html")),
    ("/css/style.css?blogbuild=3", (200, "css/style.css")),
    ("/tags/%E5%88%86%E5%B8%83%E5%BC%8F/", (200, "tags/分布式/index.html")),
    ("/tags/分布式/", (200, "tags/分布式/index.html")),
    ("/posts/", (404, "")),                   # a folder without index.html: no listing
    ("/posts/gamma/", (404, "")),
    ("/etc/passwd", (404, "")),
    ("/posts/alpha/index.htm", (404, "")),
])
def test_resolve_request_path_maps_urls_to_output_files(target, expected):
    resolved = resolve_request_path(target, FILES)
    assert (resolved.status, resolved.path) == expected


def test_resolve_request_path_redirects_a_folder_without_its_slash():
    resolved = resolve_request_path("/posts/alpha?x=1", FILES)
    assert (resolved.status, resolved.location) == (301, "/posts/alpha/?x=1")


@pytest.mark.parametrize("target", [
    "/../etc/passwd",
    "/posts/../../etc/passwd",
    "/posts/alpha/../beta/",
    "/%2e%2e/etc/passwd",
    "/%2E%2E/%2e%2E/etc/passwd",
    "/posts/%2e%2e/%2e%2e/index.html",
    "/posts/./alpha/",
    "/posts/..%2findex.html",
    "/posts/..%2Findex.html",
    "//etc/passwd",
    "/posts//alpha/",
    "http://evil.example/index.html",
    "index.html",
    "*",
    "/posts\\..\\index.html",
    "/posts/%5c..%5cindex.html",
    "/index.html\x00.css",
    "/index.html%00.css",
    "/%ff%fe/",                                # not UTF-8
    "/posts/%0aalpha/",                        # control character
])
def test_resolve_request_path_rejects_escapes(target):
    resolved = resolve_request_path(target, FILES)
    assert resolved.status in (400, 404)
    assert resolved.path == ""


def test_double_encoded_dots_are_not_decoded_twice():
    assert resolve_request_path("/%252e%252e/index.html", FILES).status == 404


@pytest.mark.parametrize("path, expected", [
    ("index.html", "text/html; charset=utf-8"),
    ("css/style.css", "text/css; charset=utf-8"),
    ("js/search.js", "text/javascript; charset=utf-8"),
    ("index.json", "application/json; charset=utf-8"),
    ("index.xml", "application/xml; charset=utf-8"),
    ("robots.txt", "text/plain; charset=utf-8"),
    ("images/logo.svg", "image/svg+xml; charset=utf-8"),
    ("images/photo.JPG", "image/jpeg"),
    ("fonts/x.woff2", "font/woff2"),
    ("blob.unknownext", "application/octet-stream"),
])
def test_content_type(path, expected):
    assert content_type(path) == expected


def test_inject_reload_script_goes_before_the_last_body_end():
    html = b"<html><body><p>x</p><code>&lt;/body&gt;</code></BODY></html>"
    injected = inject_reload_script(html, 7, "/tags/分布式/")
    assert injected.startswith(b"<html><body><p>x</p><code>&lt;/body&gt;</code><script ")
    assert injected.endswith(b"></script></BODY></html>")
    assert b'data-generation="7"' in injected
    assert b'data-page="/tags/%E5%88%86%E5%B8%83%E5%BC%8F/"' in injected
    assert inject_reload_script(b"<p>fragment</p>", 1, "/").startswith(b"<p>fragment</p><script ")


# ---- watching ----------------------------------------------------------------------------------------

@pytest.fixture
def plan(tmp_path):
    root = str(tmp_path)
    return WatchPlan(root=root, content_dir=os.path.join(root, "content"),
                     templates_dir=os.path.join(root, "templates"), static_dir=os.path.join(root, "static"),
                     config_path=os.path.join(root, "blogbuild.yaml"),
                     ignored_dirs=(os.path.join(root, "public"),))


@pytest.mark.parametrize("relative, kind", [
    ("content/posts/a.md", ChangeKind.CONTENT),
    ("content/posts/bundle/image.png", ChangeKind.CONTENT),
    ("templates/post.html", ChangeKind.TEMPLATE),
    ("static/css/style.css", ChangeKind.STATIC),
    ("blogbuild.yaml", ChangeKind.CONFIG),
    ("blogbuild.toml", ChangeKind.CONFIG),
    ("hugo.toml", ChangeKind.CONFIG),                  # Hugo's config is read when there is no blogbuild.yaml
    ("config.yml", ChangeKind.CONFIG),
    ("config/_default/menus.yaml", ChangeKind.CONFIG),
    ("public/posts/a/index.html", None),
    ("content/posts/.a.md.swp", None),
    ("content/posts/a.md~", None),
    ("content/posts/.#a.md", None),
    ("content/posts/4913", None),
    ("content/posts/#a.md#", None),
    ("README.md", None),
    ("contents/a.md", None),                   # a sibling whose name starts like content/
])
def test_classify(plan, relative, kind):
    assert classify(os.path.join(plan.root, relative), plan) is kind


@pytest.mark.parametrize("relative, kind", [
    ("data/people.yaml", ChangeKind.TEMPLATE),                    # read by the templates (site.Data), there or not
    ("themes/plain/data/x.yaml", ChangeKind.TEMPLATE),
    ("_vendor/example.org/paper/data/x.yaml", ChangeKind.TEMPLATE),
    ("themes/plain/static/a.txt", ChangeKind.STATIC),
    ("_vendor/example.org/paper/static/b.txt", ChangeKind.STATIC),
    ("_vendor/example.org/paper/hugo.toml", ChangeKind.CONFIG),   # a theme's params lie beneath the site's
    ("themes/plain/config.toml", ChangeKind.CONFIG),
    ("_vendor/modules.txt", ChangeKind.CONFIG),                   # where each theme is read from
    ("_vendor/example.org/other/layouts/x.html", None),          # a module the list does not name
    ("static/.nojekyll", ChangeKind.STATIC),                       # static/'s hidden files are published
    ("static/.well-known/security.txt", ChangeKind.STATIC),
    ("themes/plain/static/.htaccess", ChangeKind.STATIC),
    ("static/.DS_Store", None),
    ("static/a.txt.swp", None),
    ("content/.hidden.md", None),
])
def test_a_hugo_sites_data_themes_static_and_config_and_vendor_list_are_watched(tmp_path, relative, kind):
    from blogbuild.config import load_config
    from blogbuild.serve.watch import plan_for
    files = {"hugo.toml": 'baseURL = "https://example.org/"\ntitle = "W"\ntheme = ["example.org/paper", "plain"]\n',
             "themes/plain/layouts/_default/single.html": "x", "themes/plain/data/x.yaml": "a: 1\n",
             "_vendor/modules.txt": "# example.org/paper v1.0.0\n", "_vendor/example.org/paper/data/x.yaml": "a: 1\n",
             "_vendor/example.org/paper/layouts/_default/list.html": "x", "content/a.md": "---\ntitle: A\n---\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    plan = plan_for(load_config(None, root=tmp_path))
    assert classify(str(tmp_path / relative), plan) is kind


def test_editor_temp_names():
    assert is_ignored_name("/x/.post.md.swx")
    assert not is_ignored_name("/x/post.md")
    assert not is_ignored_name("/x/4913.md")


def test_batcher_coalesces_a_burst_into_one_batch():
    batcher = ChangeBatcher(quiet_seconds=0.05)
    batches = []
    thread = threading.Thread(target=lambda: batches.append(batcher.take()))
    thread.start()
    for name in ("a", "b", "a", "c"):
        batcher.add(name)
    thread.join(timeout=30)
    assert batches == [{"a", "b", "c"}]
    batcher.close()
    assert batcher.take() is None


# ---- error reports -----------------------------------------------------------------------------------

def test_error_report_reads_the_lines_around_the_error(tmp_path):
    source = tmp_path / "post.md"
    source.write_text("---\ntitle: a\ndate: [oops\n---\nbody\n", encoding="utf-8")
    report = error_report(SourceError(str(source), 3, "invalid YAML; fix the syntax", stage="front matter"))
    assert report.path == str(source) and report.line == 3
    assert report.excerpt == ((1, "---"), (2, "title: a"), (3, "date: [oops"), (4, "---"), (5, "body"))
    assert f"{source}:3: front matter: invalid YAML" in report.terminal_text()
    assert ">    3 | date: [oops" in report.terminal_text()
    data = report.to_json()
    assert data["excerpt"][2] == {"line": 3, "text": "date: [oops"}


def test_error_report_of_an_internal_error_says_so():
    report = error_report(KeyError("x"))
    assert report.path == "" and report.excerpt == ()
    assert report.text.startswith("internal error: KeyError")


# ---- a real server over a small site -----------------------------------------------------------------

SITE = {
    "blogbuild.yaml": "title: Serve test\nbase_url: https://example.org/blog/\npaginate: 3\n",
    "content/posts/alpha.md": ("---\ntitle: Alpha\ndate: 2024-01-01T10:00:00+08:00\ntags: [infra, 推理]\n"
                               "series: [serving]\nseries_order: 1\n---\n# First heading\n\nAlpha body text.\n"),
    "content/posts/beta.md": ("---\ntitle: Beta\ndate: 2024-02-01T10:00:00+08:00\ntags: [infra]\n"
                              "series: [serving]\nseries_order: 2\n---\n## Beta heading\n\nBeta body text.\n"),
    "content/posts/gamma.md": ("---\ntitle: Gamma\ndate: 2024-03-01T10:00:00+08:00\ntags: [memory]\n---\n"
                               "Gamma body with math $a_1 + b_2$.\n"),
    "content/posts/draft.md": ("---\ntitle: Draft in progress\ndate: 2024-04-01T10:00:00+08:00\ndraft: true\n"
                               "---\nNot finished.\n"),
    "static/css/custom.css": "body { color: #111; }\n",
}

WAIT_SECONDS = 60      # a bound on waiting for a rebuild, not a performance claim


def write_site(root: Path, files) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def save(path: Path, text: str) -> None:
    """Write a file the way an editor does: all at once, replacing the old bytes."""
    path.write_text(text, encoding="utf-8")


def wait_until(predicate, timeout: float = WAIT_SECONDS, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(0.05)


def fetch(server: DevServer, target: str, method: str = "GET"):
    """(status, headers, body) for a raw request target: no client-side path normalisation."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest(method, target, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def strip_injection(body: bytes) -> bytes:
    start = body.rfind(b'<script src="/__blogbuild/reload.js"')
    if start < 0:
        return body
    end = body.index(b"</script>", start) + len(b"</script>")
    return body[:start] + body[end:]


def status_of(server: DevServer, page: str = "") -> dict:
    query = "?page=" + urllib.parse.quote(page) if page else ""
    return json.loads(fetch(server, "/__blogbuild/status" + query)[2])


@pytest.fixture
def site(tmp_path) -> Path:
    return write_site(tmp_path / "site", SITE)


@pytest.fixture
def server(site):
    out = io.StringIO()
    dev = DevServer(ServeOptions(root=str(site), port=0), out=out)
    dev.start()
    dev.test_output = out
    try:
        yield dev
    finally:
        dev.stop()


def test_serves_the_build_from_memory_with_the_reload_script(server, site):
    status, headers, body = fetch(server, "/posts/alpha/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-store"
    assert int(headers["Content-Length"]) == len(body)
    assert "Alpha body text." in body.decode()
    assert body.count(b"/__blogbuild/reload.js") == 1
    assert strip_injection(body) == server.state.result.files["posts/alpha/index.html"].data
    # Served at the server's own address, whatever base_url the config names.
    assert server.config.base_url == server.url
    assert not (site / "public").exists()       # nothing written unless --output asks for it


def test_math_pages_need_nothing_from_outside(server):
    """serve with no network: the page is typeset already and every url it loads is the server's own."""
    import re

    from blogbuild.media import assets
    status, _, body = fetch(server, "/posts/gamma/")
    page = body.decode()
    assert status == 200 and 'class="katex"' in page
    urls = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert not [url for url in urls if "://" in url and not url.startswith(server.url)
                and not url.startswith(("https://x.com", "https://www.linkedin.com", "https://t.me"))]
    stylesheet = assets.ASSETS["katex_css"].local_url
    assert stylesheet in urls
    status, _, css = fetch(server, stylesheet)
    assert status == 200 and css == assets.ASSETS["katex_css"].source.read_bytes()
    font = re.search(rb"url\((fonts/[^)]+\.woff2)\)", css).group(1).decode()
    assert fetch(server, stylesheet.rsplit("/", 1)[0] + "/" + font)[0] == 200


def test_head_answers_headers_only(server):
    status, headers, body = fetch(server, "/posts/alpha/", method="HEAD")
    get_headers = fetch(server, "/posts/alpha/")[1]
    assert status == 200 and body == b""
    assert headers["Content-Length"] == get_headers["Content-Length"]


def test_drafts_are_served_by_default(server):
    status, _, body = fetch(server, "/posts/draft/")
    assert status == 200 and "Draft in progress" in body.decode()


def test_static_files_and_non_html_types(server):
    status, headers, body = fetch(server, "/css/custom.css?blogbuild=2")
    assert (status, headers["Content-Type"], body) == (200, "text/css; charset=utf-8",
                                                       b"body { color: #111; }\n")
    status, headers, body = fetch(server, "/index.xml")
    assert status == 200 and headers["Content-Type"] == "application/xml; charset=utf-8"
    assert b"/__blogbuild/" not in body          # only HTML gets the script


def test_missing_pages_get_the_site_404_with_status_404(server):
    status, headers, body = fetch(server, "/no/such/page/")
    assert status == 404 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert strip_injection(body) == server.state.result.files["404.html"].data


def test_folder_urls_without_slash_redirect(server):
    status, headers, _ = fetch(server, "/posts/alpha")
    assert status == 301 and headers["Location"] == "/posts/alpha/"


@pytest.mark.parametrize("target", ["/../blogbuild.yaml", "/%2e%2e/blogbuild.yaml", "//etc/passwd",
                                    "/posts/..%2f..%2fblogbuild.yaml", "/content/posts/alpha.md",
                                    "/static/css/custom.css", "/index.html%00", "/blogbuild.yaml"])
def test_nothing_outside_the_build_is_served(server, target):
    status, _, body = fetch(server, target)
    assert status in (400, 404)
    assert b"title: Alpha" not in body and b"base_url" not in body and b"color: #111" not in body


def test_editing_a_post_serves_the_new_html(server, site):
    post = site / "content/posts/alpha.md"
    save(post, post.read_text(encoding="utf-8").replace("Alpha body text.", "Alpha body, second draft."))
    wait_until(lambda: "second draft" in fetch(server, "/posts/alpha/")[2].decode(), message="the new text")
    assert status_of(server, "/posts/alpha/")["page_generation"] == server.state.generation


def test_broken_front_matter_shows_the_error_and_keeps_the_last_good_pages(server, site):
    post = site / "content/posts/beta.md"
    good = post.read_text(encoding="utf-8")
    save(post, good.replace("tags: [infra]", "tags: [infra\nbroken: yes: no"))
    status = wait_until(lambda: (lambda s: s if not s["ok"] else None)(status_of(server)), message="an error")
    error = status["errors"][0]
    assert error["path"].endswith("beta.md") and error["line"] >= 2
    assert f"{error['path']}:{error['line']}" in error["text"]
    assert any(row["line"] == error["line"] for row in error["excerpt"])
    code, _, body = fetch(server, "/posts/beta/")
    assert code == 200 and "Beta body text." in body.decode()
    assert "beta.md" in server.test_output.getvalue()      # the terminal shows it too
    save(post, good.replace("Beta body text.", "Beta fixed."))
    wait_until(lambda: status_of(server)["ok"], message="ok after the fix")
    wait_until(lambda: "Beta fixed." in fetch(server, "/posts/beta/")[2].decode(), message="the fixed page")


class EventReader:
    """Reads the server's event stream on a thread and keeps every (event, data) it sees."""

    def __init__(self, server: DevServer) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        self.sock.sendall(b"GET /__blogbuild/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        self.events: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.decode().splitlines()
                                  if ": " in line and not line.startswith(":"))
                    if "event" in fields:
                        with self.lock:
                            self.events.append((fields["event"], json.loads(fields.get("data", "{}"))))
        except OSError:
            return

    def find(self, name: str, predicate=lambda data: True):
        with self.lock:
            return next((data for event, data in self.events if event == name and predicate(data)), None)

    def close(self) -> None:
        self.sock.close()


def test_event_stream_pushes_reload_css_error_and_ok(server, site):
    reader = EventReader(server)
    try:
        wait_until(lambda: server.client_count, message="the subscription")
        post = site / "content/posts/gamma.md"
        save(post, post.read_text(encoding="utf-8").replace("Gamma body", "Gamma edited body"))
        reload = wait_until(lambda: reader.find("reload", lambda data: "/posts/gamma/" in data["pages"]),
                            message="a reload event naming /posts/gamma/")
        assert "/posts/alpha/" not in reload["pages"]        # an unrelated post does not reload
        assert reload["assets"] == []
        save(site / "static/css/custom.css", "body { color: #222; }\n")
        css = wait_until(lambda: reader.find("css"), message="a css event")
        assert css["stylesheets"] == ["/css/custom.css"]
        save(post, "---\ntitle: [unclosed\n---\nbody\n")
        error = wait_until(lambda: reader.find("error"), message="an error event")
        assert error["errors"][0]["path"].endswith("gamma.md")
        count = len([event for event, _ in reader.events if event == "ok"])
        save(post, "---\ntitle: Gamma again\n---\nbody\n")
        wait_until(lambda: len([event for event, _ in reader.events if event == "ok"]) > count,
                   message="an ok event")
    finally:
        reader.close()


def test_a_burst_of_saves_is_one_rebuild(site):
    # A long quiet period, so that even a slow CI machine writes the three files inside one.
    server = DevServer(ServeOptions(root=str(site), port=0, quiet=True), out=io.StringIO(), quiet_seconds=1.0)
    with server:
        before = server.rebuilds
        posts = [site / f"content/posts/{name}.md" for name in ("alpha", "beta", "gamma")]
        for index, post in enumerate(posts):
            save(post, post.read_text(encoding="utf-8") + f"\nburst {index}\n")
        wait_until(lambda: all(f"burst {index}" in fetch(server, f"/posts/{name}/")[2].decode()
                               for index, name in enumerate(("alpha", "beta", "gamma"))), message="all three")
        assert server.rebuilds - before == 1


def test_concurrent_requests_during_rebuilds_are_whole(server, site):
    post = site / "content/posts/alpha.md"
    original = post.read_text(encoding="utf-8")
    stop = threading.Event()
    problems: list[str] = []

    def edit() -> None:
        for round_number in range(12):
            save(post, original.replace("Alpha body text.", f"Alpha round {round_number}. " * 200))
            server.rebuild([str(post)])
        stop.set()

    def read(worker: int) -> None:
        targets = ["/posts/alpha/", "/", "/tags/infra/", "/index.xml", "/series/serving/"]
        for number in range(10):
            target = targets[(worker + number) % len(targets)]
            try:
                status, headers, body = fetch(server, target)
            except Exception as error:          # IncompleteRead on a truncated body lands here too
                problems.append(f"{target}: {error!r}")
                continue
            if status != 200 or int(headers["Content-Length"]) != len(body):
                problems.append(f"{target}: {status} {headers.get('Content-Length')} {len(body)}")
            elif target != "/index.xml" and not strip_injection(body).rstrip().endswith(b"</html>"):
                problems.append(f"{target}: truncated page")

    editor = threading.Thread(target=edit)
    readers = [threading.Thread(target=read, args=(worker,)) for worker in range(10)]
    editor.start()
    for thread in readers:
        thread.start()
    for thread in readers + [editor]:
        thread.join(timeout=120)
    assert stop.is_set()
    assert problems == []


def _random_edit(rng: random.Random, site: Path, step: int) -> list[Path]:
    posts_dir = site / "content/posts"
    posts = sorted(posts_dir.glob("*.md"))
    choice = rng.choice(["body", "title", "tags", "series", "new", "delete", "draft", "date"])
    if choice == "new" or len(posts) < 3:
        path = posts_dir / f"new-{step}.md"
        tags = rng.sample(["infra", "推理", "memory", "gpu"], k=rng.randint(0, 2))
        save(path, f"---\ntitle: New {step}\ndate: 2024-05-{step % 27 + 1:02d}T09:00:00+08:00\n"
                   f"tags: [{', '.join(tags)}]\n---\n## Part {step}\n\nNew post {step}.\n")
        return [path]
    path = rng.choice(posts)
    text = path.read_text(encoding="utf-8")
    if choice == "delete":
        path.unlink()
        return [path]
    if choice == "body":
        text += f"\nMore text {step} with $x_{step}$.\n"
    elif choice == "title":
        text = text.replace("title: ", f"title: R{step} ", 1)
    elif choice == "tags":
        text = text.replace("---\n", f"---\ntags: [{rng.choice(['infra', 'gpu', '推理'])}]\n", 1) \
            if "tags:" not in text else text.replace("tags: [", f"tags: [t{step}, ", 1)
    elif choice == "series":
        text = text.replace("---\n", f"---\nseries: [serving]\nseries_order: {step + 3}\n", 1) \
            if "series:" not in text else text.replace("series_order:", "weight: 1\nseries_order:", 1)
    elif choice == "draft":
        text = text.replace("draft: true\n", "") if "draft: true" in text else \
            text.replace("---\n", "---\ndraft: true\n", 1)
    elif choice == "date":
        text = text.replace("date: 2024-", "date: 2023-", 1)
    save(path, text)
    return [path]


def test_partial_rebuilds_equal_a_fresh_full_build(server, site):
    from blogbuild.pipeline import Builder

    rng = random.Random(20240601)
    for step in range(25):
        paths = _random_edit(rng, site, step)
        report = server.rebuild([str(path) for path in paths])
        assert report.ok, server.state.errors
    served = server.state.result.files
    fresh = Builder(server.config).build()
    assert fresh.ok, fresh.errors
    assert sorted(served) == sorted(fresh.files)
    for path, output in fresh.files.items():
        expected = Path(output.source).read_bytes() if output.source else output.data
        status, _, body = fetch(server, "/" + urllib.parse.quote(path))
        assert status == 200, path
        assert strip_injection(body) == expected, path


def test_port_in_use_moves_to_the_next_free_port(site):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = io.StringIO()
        dev = DevServer(ServeOptions(root=str(site), port=port, quiet=True), out=out)
        try:
            assert dev.bind() != port
            assert f"port {port} is in use" in out.getvalue()
            assert f"serving on port {dev.port} instead of {port}" in out.getvalue()
        finally:
            dev.stop()


def test_ctrl_c_stops_cleanly(site):
    import signal
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "blogbuild", "serve", "--root", str(site), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = process.stdout.readline()
            assert line, process.stderr.read()
        url = line.split(" at ", 1)[1].split()[0]
        port = int(urllib.parse.urlsplit(url).port)
        with socket.create_connection(("127.0.0.1", port), timeout=30):
            pass
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_batcher_hands_out_settled_saves_without_the_long_quiet_period():
    batcher = ChangeBatcher(quiet_seconds=600.0, settled_quiet_seconds=0.0)

    def take_within_bound(expected):
        batches = []
        thread = threading.Thread(target=lambda: batches.append(batcher.take()), daemon=True)
        thread.start()
        thread.join(timeout=30)                 # far below the 600 s an unsettled path would wait
        assert batches == [expected]

    batcher.add("a", settled=True)              # closed after writing: the save is complete
    take_within_bound({"a"})
    batcher.add("b")                            # modified: still being written...
    batcher.add("b", settled=True)              # ...and now closed
    take_within_bound({"b"})
    batcher.close()


# --- starting from the last build (serve/warm.py) ---------------------------------------------------------

@pytest.mark.parametrize("output", [[], ["-o", "public"], ["--output", "public/"]])
def test_after_a_build_the_first_page_is_the_published_one_before_anything_is_rendered(site, output):
    from blogbuild.pipeline import Builder
    from blogbuild.cli import main
    (site / "blogbuild.yaml").write_text("title: Serve test\nbase_url: https://example.org/\npaginate: 3\n",
                                         encoding="utf-8")
    # `-o public` is the default spelt out: the same build, which the server starts from.
    assert main(["build", "--root", str(site), "--quiet", *output]) == 0
    release = threading.Event()
    rendered: list[int] = []

    class HeldBuilder(Builder):
        """The server's builder, held before its first build until the test has its first page."""

        def build(self, changed_paths=None):
            release.wait(WAIT_SECONDS)
            result = super().build(changed_paths)
            rendered.append(result.stats.rendered_pages)
            return result

    dev = DevServer(ServeOptions(root=str(site), port=0), out=io.StringIO(),
                    builder_factory=lambda config, saved: HeldBuilder(config, jobs=1, use_cache=True))
    starter = threading.Thread(target=dev.start)
    starter.start()
    try:
        wait_until(lambda: dev.state.result is not None and dev.port, message="the published tree")
        status, _, body = fetch(dev, "/posts/alpha/")
        assert status == 200 and rendered == []   # answered while the server's builder has rendered nothing
        published = (site / "public" / "posts" / "alpha" / "index.html").read_bytes()
        assert b"https://example.org/" in published
        assert strip_injection(body) == published.replace(b"https://example.org", dev.url.rstrip("/").encode())
        release.set()
        starter.join(WAIT_SECONDS)
        assert rendered and rendered[0] > 0   # then its own build, whose pages are served from memory
        status, _, body = fetch(dev, "/posts/alpha/")
        assert strip_injection(body) == dev.state.result.files["posts/alpha/index.html"].data
        assert dev.state.rewrite is None
    finally:
        release.set()
        starter.join(WAIT_SECONDS)
        dev.stop()


def test_without_a_build_record_the_server_builds_before_it_answers(site):
    dev = DevServer(ServeOptions(root=str(site), port=0), out=io.StringIO())
    dev.start()
    try:
        assert dev.state.rewrite is None and dev.state.generation == 1
        assert fetch(dev, "/posts/alpha/")[0] == 200
    finally:
        dev.stop()


def test_after_a_save_the_saved_files_warnings_come_first_and_the_rest_is_one_line(site):
    """The first build lists every warning; a save shows the saved file's warnings and counts the others;
    --quiet shows none of them."""
    for name in ("gamma", "beta"):
        post = site / f"content/posts/{name}.md"
        post.write_text(post.read_text(encoding="utf-8") + f"\n{{{{< nothing{name} >}}}}\n", encoding="utf-8")
    out = io.StringIO()
    with DevServer(ServeOptions(root=str(site), port=0), out=out) as dev:
        first = out.getvalue()
        assert "unknown shortcode 'nothinggamma'" in first and "unknown shortcode 'nothingbeta'" in first
        alpha = site / "content/posts/alpha.md"
        count = dev.rebuilds
        save(alpha, alpha.read_text(encoding="utf-8") + "\n{{< nothingalpha >}}\n")
        wait_until(lambda: dev.rebuilds > count, message="the rebuild")
        after = out.getvalue()[len(first):]
        lines = after.splitlines()
        assert any("content/posts/alpha.md" in line and "nothingalpha" in line for line in lines), after
        assert "nothingbeta" not in after and "nothinggamma" not in after
        assert "2 more warnings in 2 other files (unchanged; `blogbuild build` lists them all)" in lines, after
    quiet = io.StringIO()
    with DevServer(ServeOptions(root=str(site), port=0, quiet=True), out=quiet) as dev:
        count = dev.rebuilds
        save(alpha, alpha.read_text(encoding="utf-8") + "\nmore\n")
        wait_until(lambda: dev.rebuilds > count, message="the rebuild")
    assert "warning" not in quiet.getvalue()


def _mermaid_checkable() -> bool:
    from blogbuild.pipeline.check import find_node_modules
    from blogbuild.config import SiteConfig
    return shutil.which("node") is not None and find_node_modules(SiteConfig(root="/nonexistent"), "mermaid") is not None


@pytest.mark.node
@pytest.mark.skipif(not _mermaid_checkable(), reason="needs node and mermaid (npm ci in tests/node)")
def test_a_mermaid_syntax_error_in_the_saved_file_is_a_warning_at_its_line(site):
    """After the rebuild (which shows the page at once), Node's mermaid parses the saved post's diagrams: the
    error reaches the terminal and the page's status at its file:line; a post that parses adds nothing."""
    out = io.StringIO()
    with DevServer(ServeOptions(root=str(site), port=0), out=out) as dev:
        post = site / "content/posts/gamma.md"
        count = dev.rebuilds
        save(post, post.read_text(encoding="utf-8") + "\n```mermaid\ngraph TD\n  A --> B\n  B --> {oops\n```\n")
        wait_until(lambda: dev.rebuilds > count, message="the rebuild")
        found = wait_until(lambda: [item for item in dev.status()["warnings"] if "mermaid" in item["message"]],
                           message="the mermaid warning")
        lines = post.read_text(encoding="utf-8").split("\n")
        assert found[0]["path"] == "content/posts/gamma.md" and lines[found[0]["line"] - 1] == "  B --> {oops"
        assert "content/posts/gamma.md:" in out.getvalue() and "mermaid:" in out.getvalue()


def test_a_saved_broken_link_is_the_saved_files_warning_and_the_fix_clears_it(server, site):
    """An edit keeps the site's structure (a partial rebuild): its own links are looked at again, at its lines."""
    post = site / "content/posts/gamma.md"
    original = post.read_text(encoding="utf-8")
    count = server.rebuilds
    save(post, original.replace("Gamma body", "Gamma body, see [setup](/posts/setup/)"))
    wait_until(lambda: server.rebuilds > count and any("'/posts/setup/' does not exist" in str(item["message"])
                                                      for item in server.state.saved_warnings),
               message="the link's warning after the save")
    count = server.rebuilds
    save(post, original.replace("Gamma body", "Gamma body, see [alpha](alpha.md)"))
    wait_until(lambda: server.rebuilds > count and server.state.ok, message="the fixed save's rebuild")
    assert not any("does not exist" in str(item["message"]) for item in server.state.saved_warnings)
