"""The no-op fast path (manifest.py): a build with nothing to do stops after a stat pass, and anything a full
build would act on (an edit, a new or deleted file, a tampered or stray output, a post coming due, a damaged
record, other options) makes it build in full. Real `blogbuild build` processes on a copy of tests/sites/basic."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from blogbuild import config as config_module
from blogbuild import manifest
from conftest import REPO, read_tree

BASIC = REPO / "tests" / "sites" / "basic"
HOUR_AGO = time.time() - 3600


def blogbuild(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blogbuild", "build", "-j", "1", *args], cwd=site,
                          capture_output=True, text=True, timeout=300)


def age(folder: Path, when: float = HOUR_AGO) -> None:
    """Date every input back, as files edited well before a build are (younger ones are 'racy')."""
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (when, when))


def stats(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(folder)): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in folder.rglob("*")}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(BASIC, root)
    age(root)
    result = blogbuild(root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built "), result.stdout
    return root


def test_nothing_changed_stops_after_the_stat_pass_and_touches_nothing(site: Path) -> None:
    before = stats(site / "public")
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Up to date: nothing changed since the last build ("), result.stdout
    assert stats(site / "public") == before


def test_an_edit_keeping_size_and_an_old_mtime_still_rebuilds(site: Path) -> None:
    post = next((site / "content" / "posts").glob("*.md"))
    text = post.read_text(encoding="utf-8")
    changed = text[:-2] + ("X" if text[-2] != "X" else "Y") + text[-1]   # the body's last character
    assert len(changed) == len(text) and changed != text
    post.write_text(changed, encoding="utf-8")
    os.utime(post, (HOUR_AGO + 10, HOUR_AGO + 10))   # another old mtime: still not the recorded one
    result = blogbuild(site)
    assert result.stdout.startswith("Built "), result.stdout
    fresh = blogbuild(site, "--no-cache", "-o", "fresh")
    assert read_tree(site / "public") == read_tree(site / "fresh")


@pytest.mark.parametrize("change", ["new post", "new post, folder mtime restored", "deleted post", "template",
                                    "config", "static file"])
def test_input_changes_rebuild(site: Path, change: str) -> None:
    posts = site / "content" / "posts"
    if change == "new post, folder mtime restored":   # as `rsync -a` or `tar x` leave it
        (posts / "zz-new.md").write_text("---\ntitle: Copied in\ndate: 2020-01-01\n---\nHi.\n", encoding="utf-8")
        age(site / "content", HOUR_AGO)
    elif change == "new post":
        (posts / "zz-new.md").write_text("---\ntitle: Brand new\ndate: 2020-01-01\n---\nHello.\n", encoding="utf-8")
    elif change == "deleted post":
        next(posts.glob("*.md")).unlink()
    elif change == "template":
        (site / "templates").mkdir(exist_ok=True)
        (site / "templates" / "404.html").write_text("<!doctype html><title>gone</title><p>gone</p>\n")
    elif change == "config":
        config = site / "blogbuild.yaml"
        config.write_text(config.read_text(encoding="utf-8").replace("title:", "title: X", 1), encoding="utf-8")
    else:
        (site / "static" / "extra.txt").write_text("extra\n")
    if change != "new post, folder mtime restored":
        age(site / "content", HOUR_AGO + 60)   # old mtimes everywhere: the change must be seen all the same
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built "), (change, result.stdout)
    fresh = blogbuild(site, "--no-cache", "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(site / "fresh")


@pytest.mark.parametrize("change", ["edited", "deleted", "stray"])
def test_output_changes_rebuild_and_are_undone(site: Path, change: str) -> None:
    expected = read_tree(site / "public")
    page = next((site / "public" / "posts").glob("*/index.html"))
    if change == "edited":
        page.write_text("defaced")
    elif change == "deleted":
        page.unlink()
    else:
        (page.parent / "stray.html").write_text("not ours")
    result = blogbuild(site)
    assert result.stdout.startswith("Built "), result.stdout
    assert read_tree(site / "public") == expected


def test_no_record_when_an_input_is_younger_than_the_racy_window(tmp_path: Path) -> None:
    root = tmp_path / "site"
    # Fresh mtimes: an edit within the same clock tick would be invisible, so no record may be written.
    shutil.copytree(BASIC, root, copy_function=shutil.copy)
    assert blogbuild(root).returncode == 0
    assert not list((root / ".blogbuild-cache").glob("last-build-*.json"))
    assert blogbuild(root).stdout.startswith("Built ")


def test_a_damaged_record_is_ignored_with_a_warning(site: Path) -> None:
    record = next((site / ".blogbuild-cache").glob("last-build-*.json"))
    record.write_text('{"format": 1, "inputs": ')
    result = blogbuild(site)
    assert result.returncode == 0
    assert "build record unreadable; ignored, building in full" in result.stderr
    assert result.stdout.startswith("Built ")
    json.loads(record.read_text())   # rewritten whole


def test_a_record_from_other_code_is_not_trusted(site: Path) -> None:
    record = next((site / ".blogbuild-cache").glob("last-build-*.json"))
    data = json.loads(record.read_text())
    data["code"] = "0" * 32
    record.write_text(json.dumps(data))
    assert blogbuild(site).stdout.startswith("Built ")


def test_other_options_do_not_reuse_the_record(site: Path) -> None:
    assert blogbuild(site, "--drafts").stdout.startswith("Built ")
    assert blogbuild(site, "--drafts").stdout.startswith("Up to date")
    assert blogbuild(site).stdout.startswith("Built ")   # public/ now holds the --drafts build
    assert blogbuild(site, "--no-cache").stdout.startswith("Built ")


def test_warnings_are_repeated_on_a_no_op(site: Path) -> None:
    (site / "content" / "posts" / "warned.md").write_text(
        "---\ntitle: Warned\ndate: 2020-01-01\nunknown_key_xyz: 1\n---\n[dangling][nowhere]\n\n{{< nosuch >}}\n",
        encoding="utf-8")
    age(site / "content", HOUR_AGO + 60)
    first = blogbuild(site)
    assert first.returncode == 0, first.stderr
    assert first.stderr, "the fixture post should warn"
    second = blogbuild(site)
    assert second.stdout.startswith("Up to date"), second.stdout
    assert second.stderr == first.stderr


def test_a_post_dated_in_the_future_appears_when_it_comes_due(site: Path) -> None:
    due = datetime.now(timezone.utc) + timedelta(seconds=4)
    (site / "content" / "posts" / "soon.md").write_text(
        f"---\ntitle: Coming soon\ndate: {due.strftime('%Y-%m-%dT%H:%M:%SZ')}\n---\nSoon.\n", encoding="utf-8")
    age(site / "content", HOUR_AGO + 60)
    assert blogbuild(site).stdout.startswith("Built ")
    assert "Coming soon" not in (site / "public" / "index.html").read_text(encoding="utf-8")
    assert blogbuild(site).stdout.startswith("Up to date")
    time.sleep(max(0.0, due.timestamp() - time.time()) + 1.5)
    assert blogbuild(site).stdout.startswith("Built ")
    assert "Coming soon" in (site / "public" / "index.html").read_text(encoding="utf-8")


def test_the_config_names_match_config_py() -> None:
    assert manifest._CONFIG_NAMES == config_module.CONFIG_NAMES
