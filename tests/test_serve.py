"""blogbuild serve: request paths without sockets, then a real server over a small site with real edits."""
from __future__ import annotations

import http.client
import io
import json
import os
import random
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from blogbuild.cli import ServeOptions
from blogbuild.errors import SourceError
from blogbuild.serve import (DevServer, content_type, error_report, inject_reload_script,
                             resolve_request_path, url_of)
from blogbuild.watch import ChangeBatcher, ChangeKind, WatchPlan, classify, is_ignored_name

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


def test_url_of():
    assert url_of("index.html") == "/"
    assert url_of("posts/x/index.html") == "/posts/x/"
    assert url_of("css/style.css") == "/css/style.css"


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
