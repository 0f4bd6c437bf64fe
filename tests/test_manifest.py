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

from support.files import REPO, read_tree

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
    assert blogbuild(site, "--no-cache", "-o", "fresh").returncode == 0
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


def test_inputs_younger_than_the_racy_window_are_checked_by_content(tmp_path: Path) -> None:
    root = tmp_path / "site"
    # Fresh mtimes: an edit within the same clock tick would keep size and mtime, so their stat is not trusted.
    shutil.copytree(BASIC, root, copy_function=shutil.copy)
    assert blogbuild(root).returncode == 0
    record = json.loads(next((root / ".blogbuild-cache").glob("last-build-*.json")).read_text())
    young = [path for path, entry in record["inputs"].items() if entry and entry[-1] == "racy"]
    assert any(path.endswith(".md") for path in young)
    post = first_post(root)
    stat = post.stat()
    text = post.read_text(encoding="utf-8")
    changed = text[:-2] + ("X" if text[-2] != "X" else "Y") + text[-1]   # same size, same mtime: same tick
    post.write_text(changed, encoding="utf-8")
    os.utime(post, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    second = blogbuild(root)
    assert not second.stdout.startswith("Up to date"), second.stdout
    assert_same_as_fresh(root)


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


@pytest.mark.parametrize("spelling", [["-o", "public"], ["--output", "./public/"], ["--source", "content"],
                                      ["--base-url", "http://localhost:1313/"]])
def test_options_that_mean_the_default_are_the_default_build(site: Path, spelling: list[str]) -> None:
    (site / "blogbuild.yaml").write_text("title: Basic\nbase_url: http://localhost:1313/\n", encoding="utf-8")
    age(site)
    assert blogbuild(site).stdout.startswith("Built ")   # the config is new
    records = sorted((site / ".blogbuild-cache").glob("last-build-*.json"))
    assert blogbuild(site, *spelling).stdout.startswith("Up to date"), spelling   # the same build, spelt out
    assert blogbuild(site, *spelling).stdout.startswith("Up to date"), spelling   # remembered (build-keys.json)
    assert blogbuild(site).stdout.startswith("Up to date")
    # Spelt out first, then the default: one record between them.
    assert blogbuild(site, "--drafts").stdout.startswith("Built ")
    assert blogbuild(site, *spelling).stdout.startswith("Built ")
    assert blogbuild(site).stdout.startswith("Up to date")
    assert len(sorted((site / ".blogbuild-cache").glob("last-build-*.json"))) == len(records) + 1   # + --drafts


def test_an_output_the_config_moves_is_not_the_default_any_more(site: Path) -> None:
    assert blogbuild(site, "-o", "public").stdout.startswith("Up to date")
    (site / "blogbuild.yaml").write_text("title: Basic\noutput_dir: site-out\n", encoding="utf-8")
    age(site)
    assert blogbuild(site).stdout.startswith("Built ")    # into site-out/
    assert (site / "site-out" / "index.html").is_file()
    assert blogbuild(site, "-o", "public").stdout.startswith("Built ")   # public/ is not the default now
    assert blogbuild(site).stdout.startswith("Up to date")


def test_what_a_spelling_meant_is_forgotten_when_the_config_changes(site: Path) -> None:
    """`build` meant public/; the config moves the default to site-out/ and `-o public` rebuilds public/'s
    record: `build` is not 'up to date' with public/, it builds into site-out/."""
    with open(site / "blogbuild.yaml", "a", encoding="utf-8") as config:   # all else as it was
        config.write("output_dir: site-out\n")
    age(site)
    assert blogbuild(site, "-o", "public").stdout.startswith("Built ")
    result = blogbuild(site)
    assert result.stdout.startswith("Built ") and "-> site-out/" in result.stdout, result.stdout
    assert (site / "site-out" / "index.html").is_file()


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
    # The post must still be in the future after two builds: the margin follows how long a build takes here
    # (a loaded machine once took longer than a fixed 4 s), so the test never races the clock.
    started = time.monotonic()
    assert blogbuild(site).returncode == 0
    margin = max(4.0, 6 * (time.monotonic() - started))
    due = datetime.now(timezone.utc) + timedelta(seconds=margin)
    (site / "content" / "posts" / "soon.md").write_text(
        f"---\ntitle: Coming soon\ndate: {due.strftime('%Y-%m-%dT%H:%M:%SZ')}\n---\nSoon.\n", encoding="utf-8")
    age(site / "content", HOUR_AGO + 60)
    assert blogbuild(site).stdout.startswith("Built ")
    assert "Coming soon" not in (site / "public" / "index.html").read_text(encoding="utf-8")
    assert blogbuild(site).stdout.startswith("Up to date")
    time.sleep(max(0.0, due.timestamp() - time.time()) + 1.5)
    assert blogbuild(site).stdout.startswith("Built ")
    assert "Coming soon" in (site / "public" / "index.html").read_text(encoding="utf-8")


# --- carrying on from the last build's saved state (build.py: Builder keep_state / resume) -----------------

def first_post(site: Path) -> Path:
    return sorted(path for path in (site / "content" / "posts").glob("*.md") if not path.name.startswith("_"))[0]


def assert_same_as_fresh(site: Path) -> None:
    fresh = blogbuild(site, "--no-cache", "-o", "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert read_tree(site / "public") == read_tree(site / "fresh")
    shutil.rmtree(site / "fresh")


def test_a_body_edit_carries_on_from_the_saved_state(site: Path) -> None:
    post = first_post(site)
    for number in range(3):   # each build saves a state the next one carries on from
        post.write_text(post.read_text(encoding="utf-8") + f"\nEdit number {number}, 第 {number} 次.\n",
                        encoding="utf-8")
        result = blogbuild(site)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("Updated "), result.stdout
        assert "for 1 edited post, the rest as published" in result.stdout
        assert_same_as_fresh(site)
    # The edited file was younger than the racy window: it counts as changed once more, then settles.
    again = blogbuild(site)
    assert again.stdout.startswith(("Updated ", "Up to date")), again.stdout
    assert_same_as_fresh(site)


def test_a_front_matter_edit_resumes_but_plans_every_page(site: Path) -> None:
    post = first_post(site)
    text = post.read_text(encoding="utf-8")
    post.write_text(text.replace("title:", "title: Renamed", 1), encoding="utf-8")
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built "), result.stdout
    assert_same_as_fresh(site)


def test_an_error_in_an_edited_post_leaves_public_and_is_reported_until_fixed(site: Path) -> None:
    post = first_post(site)
    good = post.read_text(encoding="utf-8")
    before = read_tree(site / "public")
    post.write_text(good.replace("---\n", "---\ntitle: [unclosed\n", 1), encoding="utf-8")
    for _ in range(2):   # a failed build writes no record: the error is found again, not skipped
        result = blogbuild(site)
        assert result.returncode == 1
        assert f"{post.relative_to(site).as_posix()}:" in result.stderr
        assert read_tree(site / "public") == before
    post.write_text(good + "\nFixed.\n", encoding="utf-8")
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert_same_as_fresh(site)


@pytest.mark.parametrize("damage", ["state removed", "state from another build", "cache file garbage"])
def test_a_missing_or_foreign_state_means_a_full_build(site: Path, damage: str) -> None:
    cache = next((site / ".blogbuild-cache").glob("posts-*.cache"))
    if damage == "state removed":
        cache.unlink()
    elif damage == "state from another build":
        record = next((site / ".blogbuild-cache").glob("last-build-*.json"))
        data = json.loads(record.read_text())
        data["build_id"] = "0" * 32
        record.write_text(json.dumps(data))
    else:
        cache.write_bytes(b"\x80\x05garbage")
    post = first_post(site)
    post.write_text(post.read_text(encoding="utf-8") + "\nA later edit.\n", encoding="utf-8")
    result = blogbuild(site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Built "), result.stdout
    if damage == "cache file garbage":
        assert "not a blogbuild cache file of this version" in result.stderr
    assert_same_as_fresh(site)


def test_random_edits_between_cli_builds_always_equal_a_fresh_build(tmp_path: Path, capsys) -> None:
    """Thirty random steps (body edits keeping the size, front matter edits, new and deleted posts, a new
    static file, a template change), each followed by `blogbuild build` in-process with every mtime
    set into the past, so the record is trusted and the incremental paths (up to date, carry on from the
    saved state, full) are all taken; each result equals a --no-cache build of the same sources."""
    import random
    from blogbuild.cli import main

    root = tmp_path / "site"
    posts = root / "content" / "posts"
    posts.mkdir(parents=True)
    (root / "blogbuild.yaml").write_text("title: Random\npaginate: 3\n", encoding="utf-8")

    def post_text(number: int, version: int, tags: str) -> str:
        return (f"---\ntitle: Post {number}\ndate: 2024-03-{number + 1:02d}\ntags: {tags}\n"
                f"series: [s{number % 2}]\n---\nBody {version:04d} of post {number}, 第 {number} 篇 $x_{number}$.\n")

    for number in range(8):
        (posts / f"p{number:02d}.md").write_text(post_text(number, 0, "[t1, shared]"), encoding="utf-8")
    clock = [time.time() - 100000]

    def settle(paths) -> None:   # an old, distinct mtime for what a step wrote: stat must tell, not youth
        for path in paths:
            if path.exists():
                clock[0] += 1
                os.utime(path, (clock[0], clock[0]))

    settle([root, *root.rglob("*")])
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    generator = random.Random(11)
    taken = set()
    scripted = [("body", 1), ("nothing", 0), ("front matter", 2), ("new", 9), ("delete", 3)]
    for step in range(30):
        if step < len(scripted):   # every kind of step at least once, then chance
            action, number = scripted[step]
        else:
            action = generator.choice(["body", "body", "body", "front matter", "new", "delete", "static",
                                       "template", "nothing"])
            number = generator.randrange(10)
        path = posts / f"p{number:02d}.md"
        if action == "body" and path.exists():
            path.write_text(post_text(number, step + 1, "[t1, shared]"), encoding="utf-8")   # same size
        elif action == "front matter" and path.exists():
            path.write_text(post_text(number, step + 1, generator.choice(["[t2]", "[t1, t3]"])), encoding="utf-8")
        elif action == "new":
            path.write_text(post_text(number, step + 1, "[t1, shared]"), encoding="utf-8")
        elif action == "delete" and path.exists():
            path.unlink()
        elif action == "static":
            (root / "static").mkdir(exist_ok=True)
            path = root / "static" / f"file-{step}.txt"
            path.write_text(f"{step}\n", encoding="utf-8")
        elif action == "template":
            (root / "templates").mkdir(exist_ok=True)
            path = root / "templates" / "404.html"
            path.write_text(f"<!doctype html><title>gone {step}</title>\n")
        settle([path])
        capsys.readouterr()
        assert main(["build", "--root", str(root)]) == 0, f"step {step}: {action} p{number}"
        said = capsys.readouterr().out
        taken.add("resumed" if said.startswith("Updated ") else "up to date" if said.startswith("Up to date")
                  else "full")
        fresh = tmp_path / "fresh"
        shutil.rmtree(fresh, ignore_errors=True)
        assert main(["build", "--root", str(root), "--quiet", "--no-cache", "-o", str(fresh)]) == 0
        assert read_tree(root / "public") == read_tree(fresh), f"step {step}: {action} p{number}"
        taken.add(action)
    assert {"body", "front matter", "new", "delete", "resumed", "up to date", "full"} <= taken, taken


def test_an_unchanged_no_cache_build_keeps_its_pages_as_the_spare(site: Path) -> None:
    """A --no-cache build renders every page; when they equal the published ones nothing is written, and
    the rendered pages are kept beside public/ as the spare the next build starts from (never trusted)."""
    before = stats(site / "public")
    result = blogbuild(site, "--no-cache")
    assert result.returncode == 0, result.stderr
    assert stats(site / "public") == before
    spare = site / ".blogbuild-spare-public"
    assert spare.is_dir() and not [path for path in site.iterdir() if path.name.startswith(".blogbuild-stage-")]
    post = first_post(site)
    post.write_text(post.read_text(encoding="utf-8") + "\nAfter the spare.\n", encoding="utf-8")
    assert blogbuild(site).returncode == 0
    assert_same_as_fresh(site)


@pytest.mark.parametrize("config_file", ["hugo.toml", "config/_default/hugo.toml"])
def test_an_edited_hugo_config_is_noticed(tmp_path: Path, config_file: str) -> None:
    """With no blogbuild.yaml, Hugo's config is the site's: editing it (same size, an old mtime) rebuilds."""
    root = tmp_path / "site"
    (root / "content" / "posts").mkdir(parents=True)
    (root / "content" / "posts" / "p.md").write_text('---\ntitle: "P"\ndate: 2024-01-01\n---\nBody\n')
    config = root / config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('title = "One"\n', encoding="utf-8")
    age(root)
    assert blogbuild(root).stdout.startswith("Built ")
    assert blogbuild(root).stdout.startswith("Up to date")
    config.write_text('title = "Two"\n', encoding="utf-8")
    os.utime(config, (HOUR_AGO - 60, HOUR_AGO - 60))
    assert blogbuild(root).stdout.startswith("Built ")
    assert "<title>Two" in (root / "public" / "index.html").read_text(encoding="utf-8")


# --- a fresh clone (another folder, new mtimes) with the last build's cache and public/ restored -----------

def clone(site: Path, target: Path) -> Path:
    """The site as CI sees it: sources checked out afresh (new mtimes, another folder), the cache folder
    and public/ restored as actions/cache restores them (with their mtimes)."""
    target.mkdir(parents=True)
    for name in ("content", "templates", "static"):
        if (site / name).exists():
            shutil.copytree(site / name, target / name, copy_function=shutil.copy)
    shutil.copy(site / "blogbuild.yaml", target / "blogbuild.yaml")
    for name in (".blogbuild-cache", "public"):
        shutil.copytree(site / name, target / name, copy_function=shutil.copy2)
    return target


def test_a_fresh_clone_with_the_cache_restored_re_renders_only_the_edited_post(site: Path, tmp_path: Path) -> None:
    copy = clone(site, tmp_path / "elsewhere" / "clone")
    post = first_post(copy)
    post.write_text(post.read_text(encoding="utf-8") + "\nEdited after the clone.\n", encoding="utf-8")
    result = blogbuild(copy)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Updated "), result.stdout
    assert "for 1 edited post, the rest as published" in result.stdout
    assert_same_as_fresh(copy)
    assert blogbuild(copy).stdout.startswith("Up to date")


def test_deploys_one_after_another_save_the_state_as_a_delta_of_the_full_state_file(site: Path,
                                                                                     tmp_path: Path) -> None:
    """Each deploy (a fresh clone, its cache restored from the one before, one post edited) carries on from the
    full state file the first build wrote and its delta, and writes only the delta: more edits of one post
    than the posts cache keeps versions of (the full file names the first), each output a fresh build's."""
    cache = site / ".blogbuild-cache"
    full = next(path for path in cache.glob("state-*.cache") if ".delta." not in path.name)
    written = full.read_bytes()
    previous = site
    for number in range(6):
        copy = clone(previous, tmp_path / f"deploy-{number}")
        post = first_post(copy) if number % 2 else sorted((copy / "content" / "posts").glob("*.md"))[-1]
        post.write_text(post.read_text(encoding="utf-8") + f"\nDeploy {number}.\n", encoding="utf-8")
        result = blogbuild(copy)
        assert result.returncode == 0, result.stderr
        assert "for 1 edited post, the rest as published" in result.stdout, result.stdout
        assert (copy / ".blogbuild-cache" / full.name).read_bytes() == written
        assert (copy / ".blogbuild-cache" / full.name.replace(".cache", ".delta.cache")).is_file()
        previous = copy
    assert_same_as_fresh(previous)


def test_a_deploy_s_state_delta_names_the_search_index_ranges_it_did_not_change(tmp_path: Path) -> None:
    """With search_index: sharded, a deploy that edits one post of 600 (three ranges of 256) writes in its
    delta the index's one changed range, not the whole index: the others are the full state's objects,
    named by reference. The output is a fresh build's."""
    root = tmp_path / "site"
    posts = root / "content" / "posts"
    posts.mkdir(parents=True)
    (root / "blogbuild.yaml").write_text("title: Many\nbase_url: https://example.org/\nsearch_index: sharded\n"
                                         "cards: false\n", encoding="utf-8")
    for number in range(600):
        (posts / f"p{number:03}.md").write_text(
            f"---\ntitle: Post {number}\ndate: 2024-01-01T00:{number // 60:02}:{number % 60:02}Z\n---\n"
            f"显存 带宽 {number} kernel scheduler word{number} 模型训练第{number}篇\n", encoding="utf-8")
    age(root)
    assert blogbuild(root).returncode == 0
    copy = clone(root, tmp_path / "deploy")
    post = posts.relative_to(root) / "p300.md"
    (copy / post).write_text((copy / post).read_text(encoding="utf-8") + "\n新的一段 rewritten.\n", encoding="utf-8")
    result = blogbuild(copy)
    assert result.returncode == 0, result.stderr
    cache = copy / ".blogbuild-cache"
    full = next(path for path in cache.glob("state-*.cache") if ".delta." not in path.name)
    delta = full.with_name(full.name.replace(".cache", ".delta.cache"))
    assert delta.is_file()
    # The index is most of the state: its changed range is a fifth of the full file (a whole index a third).
    assert delta.stat().st_size < full.stat().st_size / 4, (delta.stat().st_size, full.stat().st_size)
    assert_same_as_fresh(copy)


def test_a_fresh_clone_with_nothing_edited_is_up_to_date(site: Path, tmp_path: Path) -> None:
    copy = clone(site, tmp_path / "clone")
    before = stats(copy / "public")
    result = blogbuild(copy)
    assert result.stdout.startswith("Up to date"), result.stdout
    assert stats(copy / "public") == before
    # The record now holds the clone's own mtimes: the next check is a stat pass again.
    record = json.loads(next((copy / ".blogbuild-cache").glob("last-build-*.json")).read_text())
    post = first_post(copy)
    assert record["inputs"][post.relative_to(copy).as_posix()][1] == post.stat().st_mtime_ns


def test_a_fresh_clone_without_public_reuses_every_rendered_post(site: Path, tmp_path: Path) -> None:
    from blogbuild.pipeline import Builder
    from blogbuild.config import load_config
    copy = clone(site, tmp_path / "clone")
    shutil.rmtree(copy / "public")
    result = Builder(load_config(None, root=copy), use_cache=True).build()
    assert result.ok, result.errors
    assert result.stats.markdown_rendered == 0
    assert result.stats.markdown_reused == len(list((copy / "content").rglob("*.md")))


def restore_with_links(site: Path, target: Path, names: tuple[str, ...]) -> None:
    """Restore the folders as the deploy benchmark does (bench/bench_build.py restore_archive): as one tar
    archive (actions/cache) restores them, mtimes and the hard links across the folders kept."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_build_for_manifest", REPO / "bench" / "bench_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclasses need the module registered
    spec.loader.exec_module(module)
    module.restore_archive(site, target, names)


def test_the_spare_is_kept_in_the_cache_folder_and_a_fresh_clone_takes_it_up(site: Path, tmp_path: Path) -> None:
    """A build with the cache keeps the tree its swap replaced in .blogbuild-cache/ (what a deploy restores),
    not beside public/; a fresh clone restored with it updates that spare instead of making a folder per page,
    and its output equals a --no-cache build; the spare is never written through (public/ kept its bytes)."""
    post = site / "content" / "posts" / "ring.md"   # a published post (the first is a draft)
    post.write_text(post.read_text(encoding="utf-8") + "\nA second build.\n", encoding="utf-8")
    assert blogbuild(site).returncode == 0
    kept = site / ".blogbuild-cache" / "spare-public"
    assert kept.is_dir() and not (site / ".blogbuild-spare-public").exists()
    assert (kept / "index.html").stat().st_ino == (site / "public" / "index.html").stat().st_ino or \
        (kept / "index.html").read_bytes() != (site / "public" / "index.html").read_bytes()

    copy = tmp_path / "elsewhere" / "clone"
    for name in ("content", "templates", "static"):
        if (site / name).exists():
            shutil.copytree(site / name, copy / name, copy_function=shutil.copy)
    shutil.copy(site / "blogbuild.yaml", copy / "blogbuild.yaml")
    restore_with_links(site, copy, (".blogbuild-cache", "public"))
    spare_folders = {path for path in (copy / ".blogbuild-cache" / "spare-public").rglob("*") if path.is_dir()}
    published = read_tree(copy / "public")
    edited = copy / "content" / "posts" / "ring.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nEdited after the clone.\n", encoding="utf-8")
    spare_inode = (copy / ".blogbuild-cache" / "spare-public").stat().st_ino
    result = blogbuild(copy)
    assert result.returncode == 0, result.stderr
    assert_same_as_fresh(copy)
    assert (copy / "public").stat().st_ino == spare_inode, "the restored spare became the new tree"
    assert spare_folders, "the spare had folders to reuse"
    assert read_tree(copy / ".blogbuild-cache" / "spare-public") == published, "the replaced tree is the spare"


def test_a_spare_beside_public_is_taken_up_and_moved_into_the_cache(site: Path) -> None:
    """A --no-cache build keeps its spare beside public/ (it writes nothing in the cache folder); the next
    build with the cache starts from it and keeps the replaced tree in the cache folder: one spare, not two."""
    post = site / "content" / "posts" / "ring.md"   # a published post (the first is a draft)
    post.write_text(post.read_text(encoding="utf-8") + "\nA no-cache build.\n", encoding="utf-8")
    assert blogbuild(site, "--no-cache").returncode == 0
    beside = site / ".blogbuild-spare-public"
    assert beside.is_dir()
    post.write_text(post.read_text(encoding="utf-8") + "\nThen a cached one.\n", encoding="utf-8")
    assert blogbuild(site).returncode == 0
    assert not beside.exists()
    assert (site / ".blogbuild-cache" / "spare-public").is_dir()
    assert_same_as_fresh(site)


@pytest.mark.parametrize("path", ["{root}/public/posts/a/index.html", "public/posts/a/index.html", "{root}",
                                  "{root}/", "./public/a", "public/a/../b", "public//a", "{root}/./a",
                                  "{root}x/a", "../elsewhere/a", "/elsewhere/a", "{theme}/templates/base.html"])
def test_recorded_paths_are_kept_as_the_normalising_functions_give_them(path: str, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """_portable and _local take string shortcuts for paths already in normal form: every kind of path
    comes out as os.path's abspath/relpath/normpath would make it."""
    from blogbuild.disk import manifest
    root = str(tmp_path / "site")
    os.makedirs(root)
    monkeypatch.chdir(root)
    path = path.format(root=root, theme=manifest._THEME)
    absolute = os.path.abspath(path)
    if absolute == root or absolute.startswith(root + os.sep):
        expected = os.path.relpath(absolute, root) if absolute != root else "."
    elif absolute.startswith(manifest._THEME + os.sep):
        expected = "<theme>/" + os.path.relpath(absolute, manifest._THEME)
    else:
        expected = absolute
    if os.path.split(path)[1] and absolute == root:   # a path naming the site folder itself, as a file
        expected = root
    assert manifest._portable(path, root) == expected
    assert manifest._portable_all({path: [1, 2]}, root) == {expected: [1, 2]}
    if not os.path.isabs(expected) and not expected.startswith("<theme>"):
        assert manifest._local(expected, root) == os.path.normpath(os.path.join(root, expected))
        assert manifest._local(expected, ".") == os.path.normpath(expected)
    for local_root in (root, "."):
        assert manifest._local_all({expected: [1, 2]}, local_root) == {manifest._local(expected, local_root): [1, 2]}


def test_a_killed_removers_trash_in_the_cache_folder_is_removed_by_the_next_build(site: Path) -> None:
    """A spare kept in the cache folder is trashed beside itself; trash a killed remover left there is removed
    by the next build that writes the output, as trash beside public/ is."""
    dead = site / ".blogbuild-cache" / ".blogbuild-trash-spare-public-0badc0de"
    (dead / "posts").mkdir(parents=True)
    (dead / "posts" / "index.html").write_text("left by a killed rm")
    post = site / "content" / "posts" / "ring.md"
    post.write_text(post.read_text(encoding="utf-8") + "\nOne more build.\n", encoding="utf-8")
    assert blogbuild(site).returncode == 0
    for _ in range(300):   # removed by a detached rm -rf: wait for it, never for long
        if not dead.exists():
            break
        time.sleep(0.1)
    assert not dead.exists()


def test_the_record_watches_the_shipped_theme_folder() -> None:
    """The theme folder the record stats is the one the build reads templates and static files from."""
    import os

    from blogbuild.disk import manifest
    from blogbuild.themes.default import THEME_DIR
    assert THEME_DIR.is_dir() and os.path.realpath(manifest._THEME) == os.path.realpath(THEME_DIR)


def test_a_build_reads_the_config_the_no_op_check_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config the no-op check read is the build's (a Hugo site's config reads its layouts: once is enough),
    while the config files are what it read; a config file changed since is read again."""
    from blogbuild import config as config_module
    from blogbuild.cli import main
    from blogbuild.core.options import SiteLocation
    from blogbuild.disk import manifest
    root = tmp_path / "site"
    shutil.copytree(BASIC, root)
    reads: list[str] = []
    real = config_module.load_config

    def counted(*args, **kwargs):
        reads.append("read")
        return real(*args, **kwargs)

    monkeypatch.setattr(config_module, "load_config", counted)
    monkeypatch.chdir(root)
    assert main(["build", "-j", "1", "--quiet"]) == 0
    assert reads == ["read"]
    location = SiteLocation(root=str(tmp_path / "fresh"))
    shutil.copytree(BASIC, tmp_path / "fresh")
    candidates = manifest.config_candidates(location)
    assert manifest._record_key(location) is not None and len(reads) == 2
    unchanged = manifest.examined_config(location, manifest.stat_files(candidates))
    assert unchanged is not None and unchanged.root == str(tmp_path / "fresh")
    assert manifest.examined_config(location, manifest.stat_files(candidates)) is None   # taken once
    shutil.rmtree(tmp_path / "fresh" / ".blogbuild-cache")   # what the spelling meant is forgotten: read again
    assert manifest._record_key(location) is not None and len(reads) == 3
    config_file = Path(next(path for path in candidates if Path(path).is_file()))
    config_file.write_text(config_file.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert manifest.examined_config(location, manifest.stat_files(candidates)) is None
