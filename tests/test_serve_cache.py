"""`blogbuild serve` and `blogbuild build` share the disk cache (build/state.py DiskCache): the server starts
from the posts the last build rendered, saves its own state when it stops (Ctrl-C, SIGTERM), and the next
build or server carries on from it; a damaged or torn cache is never trusted. Real processes, real HTTP on
127.0.0.1, real signals, on a copy of tests/sites/basic (base URL under a path, an image bundle, math)."""
from __future__ import annotations

import os
import shutil
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from support.files import REPO, read_tree
from support.processes import HOUR_AGO, Server, age, blogbuild, free_port

BASIC = REPO / "tests" / "sites" / "basic"
CACHE = ".blogbuild-cache"
EDIT = "\nA paragraph written while the server ran.\n"


def assert_same_as_fresh(site: Path, *args: str) -> None:
    fresh = blogbuild(site, "--no-cache", "-o", "fresh", *args)
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(site / "fresh")
    shutil.rmtree(site / "fresh")


def read_whole(path: Path) -> object:
    """Reads any of the cache's files to its end (a saved state names its posts by fingerprint)."""
    from blogbuild.pipeline.state import CACHE_RECORDS
    from blogbuild.disk.cache_codec import loads
    kind = path.name.split("-", 1)[0]
    if path.name.endswith(".delta.cache"):   # the posts file's delta, or a state's or pages file's
        kind = "delta" if kind == "posts" else f"{kind}-delta"
    return loads(path.read_bytes(), kind, CACHE_RECORDS, str)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(BASIC, root)
    # A full-content feed carries each post's body: one more output that must not keep the server's address.
    with open(root / "blogbuild.yaml", "a", encoding="utf-8") as config:
        config.write("feed_content: full\n")
    age(root)
    result = blogbuild(root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built "), result.stdout
    return root


def edit(site: Path) -> Path:
    post = site / "content" / "posts" / "ring.md"
    post.write_text(post.read_text(encoding="utf-8") + EDIT, encoding="utf-8")
    return post


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_build_after_the_server_renders_no_post_and_equals_a_fresh_build(site: Path, how: int) -> None:
    edit(site)
    server = Server(site)
    try:
        # The server's own build renders only the edited post: the others come from the build's posts cache
        # (the server's base URL, its own address, is not part of a rendered post's key).
        assert "1 post and " in server.start_line, server.lines
        assert b"written while the server ran" in server.get("/posts/ring/")
    finally:
        rest = server.stop(how)
    assert "saved the build state" in rest
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    # The build carries on from its own saved state, which the server's save kept, and takes the edited
    # post's render from the posts cache the server saved.
    assert result.stdout.startswith("Updated "), result.stdout
    assert "for 1 edited post, the rest as published, 0 of " in result.stdout, result.stdout
    assert_same_as_fresh(site)


def test_a_server_started_as_a_background_job_stops_on_sigint_and_saves_its_state(site: Path) -> None:
    """A shell script's `blogbuild serve &` starts the server ignoring SIGINT; `kill -INT` still stops it."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)   # what the job inherits from its shell
    try:
        server = Server(site)
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        assert b"<html" in server.get("/")
    finally:
        rest = server.stop(signal.SIGINT)
    assert "saved the build state" in rest


def strip_injection(body: bytes) -> bytes:
    start = body.rfind(b'<script src="/__blogbuild/reload.js"')
    return body if start < 0 else body[:start] + body[body.index(b"</script>", start) + len(b"</script>"):]


def test_the_next_server_starts_from_the_pages_and_state_the_last_one_saved(site: Path) -> None:
    port = free_port()   # the same address: the same configuration (the base URL is the server's address)
    first = Server(site, port)
    first.stop()
    posts_file = next((site / CACHE).glob("posts-*.cache"))
    before = posts_file.stat()
    second = Server(site, port)
    second.stop()
    after = posts_file.stat()   # no post was rendered: the shared posts file is not written again
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    # Nothing changed: the second server answered from the first one's pages and rendered nothing.
    assert any("serving the last server's pages" in line for line in second.lines), second.lines
    assert "0 posts and 0 pages rendered" in second.start_line, second.lines
    edit(site)
    third = Server(site, port)
    try:
        # Only the edited post and the pages that show it are rendered; every other page is the saved one.
        assert "1 post and " in third.start_line, third.lines
        rendered = int(third.start_line.split("1 post and ", 1)[1].split()[0])
        assert 0 < rendered < len(list((site / "public").rglob("index.html"))) // 2, third.lines
        served = {path: strip_injection(third.get(path)) for path in ("/", "/posts/ring/", "/tags/vllm/")}
    finally:
        third.stop()
    fresh = blogbuild(site, "--no-cache", "--drafts", "--base-url", third.url, "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    for path, body in served.items():
        assert body == (site / "fresh" / path.lstrip("/") / "index.html").read_bytes(), path
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert "0 of " in result.stdout, result.stdout
    assert_same_as_fresh(site)


def planned(line: str) -> int:
    """How many pages a server's build line says were planned (rendered or reused)."""
    return int(line.split(" planned)", 1)[0].rsplit("(", 1)[1])


def assert_served_as_fresh(site: Path, url: str) -> None:
    """The tree the last server saved (the newest) is what a fresh build for its address publishes."""
    saved = max((path for path in (site / CACHE).glob("served-*") if path.is_dir()),
                key=lambda path: path.stat().st_mtime_ns)
    fresh = blogbuild(site, "--no-cache", "--drafts", "--base-url", url, "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(saved) == read_tree(site / "fresh")
    shutil.rmtree(site / "fresh")


def wait_for(server: Server, path: str, text: bytes) -> None:
    """Until the server answers path with text in it (its rebuild after a save is done)."""
    for _ in range(600):
        if text in server.get(path):
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} never showed {text!r}")


def test_a_server_restarted_with_nothing_changed_plans_no_page(site: Path) -> None:
    """The next server compares the inputs with those the saved state was built from: nothing changed, it
    takes that build as it is ("start" names no changed file). A post edited while a server runs is noted
    as read when it was rebuilt."""
    port = free_port()
    first = Server(site, port)
    first.stop()
    assert planned(first.start_line) > 0, first.lines
    second = Server(site, port)
    try:
        assert ": start; 0 posts and 0 pages rendered (0 planned)" in second.start_line, second.lines
        edit(site)
        wait_for(second, "/posts/ring/", b"written while the server ran")
    finally:
        second.stop()
    third = Server(site, port)
    third.stop()
    assert ": start; 0 posts and 0 pages rendered (0 planned)" in third.start_line, third.lines
    assert_served_as_fresh(site, third.url)


def test_a_server_restarted_after_an_edit_plans_only_what_the_post_reaches(site: Path) -> None:
    """A post edited while no server ran: the next one renders that post and re-plans only the pages that
    can show it; a post added: it builds in full. Each time its tree is what a fresh build publishes."""
    port = free_port()
    first = Server(site, port)
    first.stop()
    every_page = planned(first.start_line)
    edit(site)
    second = Server(site, port)
    second.stop()
    assert "1 post and " in second.start_line, second.lines
    assert 0 < planned(second.start_line) < every_page // 2, second.lines
    assert_served_as_fresh(site, second.url)
    (site / "content" / "posts" / "added.md").write_text("---\ntitle: Added\ndate: 2024-01-02\n---\nNew.\n",
                                                         encoding="utf-8")
    third = Server(site, port)
    third.stop()
    assert planned(third.start_line) > every_page, third.lines   # every page, the new post's too
    assert_served_as_fresh(site, third.url)


@pytest.mark.parametrize("change", ["# a comment\n", "description: Another description\n"])
def test_a_server_restarted_after_a_config_change_builds_in_full(site: Path, change: str) -> None:
    """Any change to the config file plans every page again: one that leaves the configuration as it was
    (a comment) as well as one that changes it (another configuration: no saved tree of its own)."""
    port = free_port()
    first = Server(site, port)
    first.stop()
    with open(site / "blogbuild.yaml", "a", encoding="utf-8") as config:
        config.write(change)
    second = Server(site, port)
    second.stop()
    assert planned(second.start_line) == planned(first.start_line), second.lines
    assert_served_as_fresh(site, second.url)


def test_a_server_without_drafts_does_not_answer_from_a_tree_that_shows_them(site: Path) -> None:
    port = free_port()
    first = Server(site, port)
    try:
        assert b"Draft post" in first.get("/posts/draft/")
    finally:
        first.stop()
    server = Server(site, port, "--no-drafts")
    try:
        assert not any("serving the last server's pages" in line for line in server.lines), server.lines
        with pytest.raises(urllib.error.HTTPError, match="404"):
            server.get("/posts/draft/")
    finally:
        server.stop()


def test_a_page_of_the_saved_tree_changed_by_hand_is_neither_served_nor_reused(site: Path) -> None:
    port = free_port()
    Server(site, port).stop()
    page = next((site / CACHE).glob("served-*/posts/ring/index.html"))
    text = page.read_bytes()
    page.write_bytes(text.replace(b"Ring", b"Gong"))   # the same size, another mtime
    server = Server(site, port)
    try:
        assert not any("serving the last server's pages" in line for line in server.lines), server.lines
        assert b"Gong" not in server.get("/posts/ring/") and b"Ring" in server.get("/posts/ring/")
        assert " 0 pages rendered" not in server.start_line, server.lines
    finally:
        server.stop()


@pytest.mark.parametrize("damage", [b"", b"\x80\x05garbage", "truncated"])
def test_a_damaged_saved_state_is_ignored_with_a_warning(site: Path, damage: bytes | str) -> None:
    Server(site).stop()
    for path in (site / CACHE).glob("*.cache"):
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2] if damage == "truncated" else damage)
    edit(site)
    server = Server(site)
    try:
        assert any("not a blogbuild cache file of this version" in line for line in server.lines), server.lines
        assert b"written while the server ran" in server.get("/posts/ring/")
    finally:
        server.stop()
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert_same_as_fresh(site)


def test_a_killed_server_leaves_a_cache_that_is_whole_or_absent(site: Path) -> None:
    for attempt in range(3):
        edit(site)
        server = Server(site)
        try:
            server.process.send_signal(signal.SIGINT)   # saving begins...
            if attempt:                                  # ...and is cut short at some point, or not at all
                time.sleep(0.05 * attempt)
            server.process.kill()
        finally:
            server.kill()
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert not list((site / CACHE).glob("*.pickle"))
    for path in (site / CACHE).glob("*.cache"):   # every file there is a whole cache file
        read_whole(path)
    assert_same_as_fresh(site)


def test_builds_with_other_base_urls_share_posts_and_keep_each_others_state(site: Path) -> None:
    other = ("--base-url", "https://mirror.example.net/")
    result = blogbuild(site, *other, "-o", "mirror")
    assert result.returncode == 0, result.stderr
    assert "0 of " in result.stdout, result.stdout   # every post from the first build's cache
    fresh = blogbuild(site, "--no-cache", "-o", "fresh", *other)
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "mirror") == read_tree(site / "fresh")
    edit(site)
    result = blogbuild(site)   # the first configuration's state survived the other one's save
    assert result.stdout.startswith("Updated "), result.stdout
    assert_same_as_fresh(site)


def test_saving_removes_other_codes_files_and_the_oldest_configurations(tmp_path: Path) -> None:
    from blogbuild.pipeline.state import KEEP_CONFIGURATIONS, KEEP_SERVED_TREES, DiskCache
    folder = tmp_path / CACHE
    folder.mkdir()
    # Other code's files, and files of formats this code never reads (pickles, compiled templates), even
    # under this code's names.
    foreign = [folder / "posts-0dadcd231ae4a81a.cache", folder / "state-ffffffff-0dadcd231ae4a81a.cache",
               folder / "state-aaaaaaaa-0dadcd231ae4a81a.pickle", folder / "jinja-aaaaaaaa-0dadcd231ae4a81a"]
    mine = [folder / f"state-aaaaaaaa-{number:016x}.cache" for number in range(KEEP_CONFIGURATIONS + 2)]
    for number, path in enumerate([*foreign, *mine]):
        path.write_bytes(b"x")
        os.utime(path, (HOUR_AGO + number, HOUR_AGO + number))
    torn = folder / ".posts-aaaaaaaa-1.cache.x1y2.tmp"   # a killed save's temporary file
    torn.write_bytes(b"half")
    os.utime(torn, (HOUR_AGO, HOUR_AGO))
    trees = [folder / f"served-aaaaaaaa-{number:016x}" for number in range(3)]
    for number, tree in enumerate(trees):
        (tree / "posts").mkdir(parents=True)
        os.utime(tree, (HOUR_AGO + number, HOUR_AGO + number))
    (folder / ".blogbuild-spare-served-aaaaaaaa-0000000000000000").mkdir()   # the spare of a tree that goes
    cache = DiskCache(folder, "c" * 32, "p" * 32, "aaaaaaaa" + "0" * 24)
    cache.save_posts({}, None)
    left = {path.name for path in folder.iterdir()}
    # The newest of the other configurations stay beside this one's files (of the servers' trees, the size
    # of the site's output, fewer); other code's files, the torn one and a gone tree's spare go.
    assert left == ({cache.posts_file.name} | {path.name for path in mine[-(KEEP_CONFIGURATIONS - 1):]}
                    | {tree.name for tree in trees[-(KEEP_SERVED_TREES - 1):]})


def _outcome(text: str):
    from blogbuild.pipeline.state import RenderOutcome
    from blogbuild.core.errors import SourceWarning
    return RenderOutcome(None, (SourceWarning("content/posts/a.md", 1, text),), ())


def test_a_few_new_posts_are_saved_alone_and_read_back_with_the_full_file(tmp_path: Path) -> None:
    """After a full save, a save that adds a few posts writes them in the delta file and leaves the full
    file untouched; a new process reads both; many new posts (or a delta of another full file) make the
    full file again."""
    from blogbuild.pipeline.state import DELTA_POSTS, DiskCache
    folder = tmp_path / CACHE
    posts = {f"post{number}": _outcome(f"body {number}") for number in range(40)}
    first = DiskCache(folder, "c" * 32, "p" * 32, "a" * 32)
    first.save_posts(posts, None)
    full = first.posts_file.stat()
    assert not first.delta_file.exists()

    second = DiskCache(folder, "c" * 32, "p" * 32, "a" * 32)
    assert second.load().rendered == posts
    edited = {**posts, "post3-edited": _outcome("edited")}
    del edited["post3"]
    second.save_posts(edited, None)
    assert second.delta_file.exists()
    assert (first.posts_file.stat().st_ino, first.posts_file.stat().st_mtime_ns) == (full.st_ino, full.st_mtime_ns)
    third = DiskCache(folder, "c" * 32, "p" * 32, "a" * 32)
    # The edited post's old render is kept a few saves (a state saved earlier may still name it).
    assert third.load().rendered == {**edited, "post3": posts["post3"]}

    many = {f"new{number}": _outcome(f"new {number}") for number in range(DELTA_POSTS + 40)}
    third.save_posts(many, None)
    assert not third.delta_file.exists() and first.posts_file.stat().st_mtime_ns != full.st_mtime_ns
    assert set(DiskCache(folder, "c" * 32, "p" * 32, "a" * 32).load().rendered) >= set(many)


def test_a_delta_of_another_full_file_is_not_applied(tmp_path: Path) -> None:
    """The delta names the full file it follows: beside another full file (a cache put together from two
    saves), it is ignored and only that full file's posts are read."""
    import shutil
    from blogbuild.pipeline.state import DiskCache
    folder = tmp_path / CACHE
    posts = {f"post{number}": _outcome(f"body {number}") for number in range(40)}
    cache = DiskCache(folder, "c" * 32, "p" * 32, "a" * 32)
    cache.save_posts(posts, None)
    cache.save_posts({**posts, "extra": _outcome("extra")}, None)
    old_delta = tmp_path / "old-delta.cache"
    shutil.copy2(cache.delta_file, old_delta)
    others = {f"other{number}": _outcome("o") for number in range(200)}
    # Another full file, by a process that did not read this one (so it keeps none of its posts).
    DiskCache(folder, "c" * 32, "p" * 32, "a" * 32).save_posts(others, None)
    assert not cache.delta_file.exists()
    shutil.copy2(old_delta, cache.delta_file)
    loaded = DiskCache(folder, "c" * 32, "p" * 32, "a" * 32).load().rendered
    assert "extra" not in loaded and set(others) <= set(loaded)
