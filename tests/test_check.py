"""`blogbuild check` on small sites written to tmp_path, run in-process through the CLI."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blogbuild.pipeline.check import find_node_modules, resolve_link, tex_balance_problem
from blogbuild.cli import main
from blogbuild.config import SiteConfig

# A real 2x2 PNG: the build reads every local image for its size (and warns about one it cannot read).
TINY_PNG = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00\xfd\xd4\x9as\x00\x00\x00\x16IDATx\x9cc\xfc\xcf\xc0\xc0\xc0\xc0\xc0\xc4\xc0\xc0\xc0\xc0\xc0\x00\x00\r\x1d\x01\x03j\xc2\x9b\xe9\x00\x00\x00\x00IEND\xaeB`\x82'
CLEAN = {
    "content/posts/first.md": (
        "---\ntitle: First\ndate: 2024-01-01\ntags: [infra]\n---\n"
        "## 背景\n\n"
        "见[第二篇](/posts/second/#细节)和[本文背景](#背景)，还有[外部](https://example.org/x)。\n"
    ),
    "content/posts/second/index.md": (
        "---\ntitle: Second\ndate: 2024-01-02\n---\n"
        "## 细节\n\n![图](diagram.png)\n\n[back](../first/)\n"
    ),
    "content/posts/second/diagram.png": TINY_PNG,
}


@pytest.fixture
def no_node(tmp_path, monkeypatch):
    """Hide node, as on a machine without it (PATH is the process boundary)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("NODE_PATH", raising=False)


def check(site: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["check", "--root", str(site), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def once(lines: list[str], start: str) -> bool:
    """Exactly one printed line starts so (the build's warning, which says what to do)."""
    return len([line for line in lines if line.startswith(start)]) == 1


def test_clean_site_passes(make_site, capsys, no_node):
    code, out, err = check(make_site(CLEAN), capsys)
    assert code == 0, out + err
    assert "no problems" in out


def test_broken_links_anchors_and_images_name_the_content_line(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["content/posts/third.md"] = (
        "---\ntitle: Third\ndate: 2024-01-03\n---\n"
        "intro\n\n"
        "[gone](/posts/nowhere/)\n\n"                  # line 7
        "[bad anchor](/posts/second/#nope)\n\n"        # line 9
        "[here](#missing)\n\n"                         # line 11
        "![missing](missing.png)\n"                    # line 13
    )
    code, out, err = check(make_site(files), capsys)
    assert code == 1
    lines = out.splitlines()
    assert once(lines, "content/posts/third.md:7: warning: link '/posts/nowhere/' does not exist in the built site")
    assert once(lines, "content/posts/third.md:9: warning: link '/posts/second/#nope' has no element with id 'nope'")
    assert once(lines, "content/posts/third.md:11: warning: link '#missing' has no element with id 'missing'")
    # The build warned of the missing image at the same line, with what to do: that line is printed, once.
    assert [line for line in lines if ":13:" in line] == [
        "content/posts/third.md:13: warning: image 'missing.png' not found (looked for posts/third/missing.png in "
        "the site's output); check the file name, or put the file beside the post or in static/"]
    assert "4 problems" in err, out
    assert "first.md" not in out and "second" not in out.replace("/posts/second/#nope", "")


def test_a_bundle_resource_that_is_missing_is_reported(make_site, capsys, no_node):
    files = dict(CLEAN)
    del files["content/posts/second/diagram.png"]
    code, out, _ = check(make_site(files), capsys)
    assert code == 1
    assert "content/posts/second/index.md:7: warning: image 'diagram.png' not found" in out


def test_two_pages_claiming_one_url_fail(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["content/posts/other.md"] = "---\ntitle: Other\ndate: 2024-01-05\nslug: first\n---\nx\n"
    code, out, err = check(make_site(files), capsys)
    assert code == 1
    assert "/posts/first/" in out and "also claimed by" in out
    assert "links and anchors not checked" in out


def test_unbalanced_math_is_an_error_at_its_line(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["content/posts/math.md"] = (
        "---\ntitle: Math\ndate: 2024-01-04\nmath: true\n---\n"
        "fine $a_{i}$ here\n\n"                   # line 6
        "broken $\\frac{a}{b$ here\n\n"           # line 8
        "$$\n\\begin{aligned} a &= b \\end{align}\n$$\n"   # line 10-12
    )
    code, out, err = check(make_site(files), capsys)
    assert code == 1
    assert "content/posts/math.md:8: math '\\frac{a}{b': 1 '{' never closed; add '}'" in out
    assert "content/posts/math.md:11: math '\\begin{aligned} a &= b \\end{align}': \\end{align} closes " \
           "\\begin{aligned}" in out
    assert "math.md:6" not in out


def test_lines_come_from_the_markdown_not_from_searching_the_file(make_site, capsys, no_node):
    # A text search finds the first line holding the URL or the formula: here the code block, the
    # comment-like text and the earlier '$$' would all have given wrong lines.
    files = dict(CLEAN)
    files["content/posts/lines.md"] = (
        "---\ntitle: Lines\ndate: 2024-01-08\nmath: true\n---\n"
        "```text\n[gone](/posts/nowhere/) and $\\frac{a}{b$\n```\n\n"    # lines 6-8, code: not links
        "$$\na^2\n$$\n\n"                                                # lines 10-12, fine
        "See\n[gone](/posts/nowhere/)\n\n"                                  # line 15
        "a list:\n\n- item\n- broken $\\frac{a}{b$\n\n"                    # line 20
        "<p>raw <a href=\"/raw/missing/\">x</a></p>\n\n"                     # line 22
        "{{< figure src=\"fig.png\" >}}\n\n"                                 # line 24
        "open $$ never closed\n"                                            # line 26
    )
    code, out, err = check(make_site(files), capsys)
    assert code == 1
    lines = out.splitlines()
    assert once(lines, "content/posts/lines.md:15: warning: link '/posts/nowhere/' does not exist in the built site")
    assert "content/posts/lines.md:20: math '\\frac{a}{b': 1 '{' never closed; add '}'" in lines
    assert once(lines, "content/posts/lines.md:22: warning: link '/raw/missing/' does not exist in the built site")
    assert any(line.startswith("content/posts/lines.md:24: warning: image 'fig.png' not found") for line in lines), out
    # The build warned of the unclosed '$$' at its line: that warning, with its fix, is the one printed.
    assert [line for line in lines if line.startswith("content/posts/lines.md:26:")] == [
        next(line for line in lines if line.startswith("content/posts/lines.md:26: warning: '$$' opens display math"))]


def test_repaired_headers_are_listed_but_do_not_fail(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["content/posts/damaged.md"] = "math: true\n---\ntitle: Damaged\ndate: 2024-01-06\n---math: true\n---\n\nbody\n"
    code, out, _ = check(make_site(files), capsys)
    assert code == 0, out
    assert "Repaired headers (2)" in out
    assert "content/posts/damaged.md:1:" in out and "content/posts/damaged.md:5:" in out


def test_without_node_diagrams_are_skipped_with_a_note(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["content/posts/diagram.md"] = "---\ntitle: D\ndate: 2024-01-07\n---\n```mermaid\ngraph TD\n  A-->\n```\n"
    code, out, _ = check(make_site(files), capsys)
    assert code == 0
    assert "note: mermaid diagrams not checked: node is not installed" in out


def test_relative_links_work_under_a_base_path(make_site, capsys, no_node):
    files = dict(CLEAN)
    files["blogbuild.yaml"] = "base_url: https://example.org/blog/\n"
    files["content/posts/first.md"] = files["content/posts/first.md"].replace("/posts/second/#细节",
                                                                              "../second/#细节")
    code, out, err = check(make_site(files), capsys)
    assert code == 0, out + err


def test_links_outside_the_base_path_are_reported():
    from blogbuild.pipeline.check import _target_file
    from blogbuild.core.model import OutputFile
    config = SiteConfig(base_url="https://example.org/blog/")
    files = {"posts/x/index.html": OutputFile("posts/x/index.html", b"<p></p>")}
    assert _target_file("/blog/posts/x/", config, files) == ("posts/x/index.html", "")
    assert _target_file("/blog/posts/x", config, files) == ("posts/x/index.html", "")
    assert _target_file("/posts/x/", config, files) == (None, "is outside the site's base path /blog/")
    assert _target_file("/blog/posts/y/", config, files) == (None, "does not exist in the built site")


# --- units ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("tex, problem", [
    ("\\frac{a}{b}", ""),
    ("\\{ x \\}", ""),
    ("\\left( x \\right)", ""),
    ("a \\rightarrow b", ""),
    ("50\\% of {x}", ""),
    ("a_{i", "1 '{' never closed; add '}'"),
    ("x}", "'}' closes a brace that was never opened"),
    ("\\left( x", "\\left has no \\right; add \\right. or \\right)"),
    ("\\begin{matrix} a", "\\begin{matrix} is never ended; add \\end{matrix}"),
    ("\\end{matrix}", "\\end{matrix} has no \\begin{matrix}"),
])
def test_tex_balance(tex, problem):
    assert tex_balance_problem(tex) == problem


@pytest.mark.parametrize("url, expected", [
    ("/blog/posts/x/#a", ("/blog/posts/x/", "a")),
    ("../y/", ("/blog/posts/y/", "")),
    ("#sec", ("/blog/posts/z/", "sec")),
    ("https://example.org/blog/a/", ("/blog/a/", "")),
    ("%E6%98%87/", ("/blog/posts/z/昇/", "")),
    ("https://other.org/", None),
    ("https://example.org/other-site/", None),
    ("mailto:a@example.org", None),
    ("", None),
])
def test_resolve_link(url, expected):
    config = SiteConfig(base_url="https://example.org/blog/")
    assert resolve_link(url, "/posts/z/", config) == expected


# --- with node --------------------------------------------------------------------------------------

def _node_ready(package: str) -> bool:
    return shutil.which("node") is not None and find_node_modules(SiteConfig(root="/nonexistent"), package) is not None


@pytest.mark.node
@pytest.mark.skipif(not _node_ready("mermaid"), reason="needs node and mermaid (npm ci in tests/node)")
def test_mermaid_syntax_errors_point_into_the_fence(make_site, capsys):
    files = dict(CLEAN)
    files["content/posts/diagram.md"] = (
        "---\ntitle: D\ndate: 2024-01-07\n---\n"
        "```mermaid\ngraph TD\n  A[训练] --> B[推理]\n```\n\n"      # fence at line 5
        "```mermaid\ngraph TD\n  A --> B\n  B --> {oops\n```\n"     # fence at line 10, error on its line 3
    )
    code, out, err = check(make_site(files), capsys)
    assert code == 1, out + err
    errors = [line for line in out.splitlines() if line.startswith("content/posts/diagram.md:")]
    assert len(errors) == 1, out
    assert errors[0].startswith("content/posts/diagram.md:13: mermaid: ")
    assert "2 diagrams" in err


def test_katex_errors_are_reported_without_node(make_site, capsys, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")   # no node on the PATH: math is checked in-process
    files = dict(CLEAN)
    files["content/posts/math.md"] = (
        "---\ntitle: Math\ndate: 2024-01-04\nmath: true\n---\n"
        "fine $\\frac{a}{b}$ and 中文 $x^2$\n\n"
        "unknown $\\notacommand{x}$ here\n"       # line 8
    )
    code, out, err = check(make_site(files), capsys)
    assert code == 1, out + err
    assert "content/posts/math.md:8: math '\\notacommand{x}': " in out
    assert out.count("math.md:") == 1


def test_diagrams_that_cannot_be_checked_say_exactly_what_to_install(make_site, capsys, monkeypatch) -> None:
    """Without mermaid and jsdom in reach, check names the one command that installs them (the versions the
    checker is tested with) and does not count the diagrams as checked."""
    import json as json_module

    import blogbuild.pipeline.check as check_module
    monkeypatch.setattr(check_module, "_REPO_NODE_MODULES", Path("/nonexistent/node_modules"))
    monkeypatch.setenv("NODE_PATH", "")
    files = dict(CLEAN)
    files["content/posts/diagram.md"] = "---\ntitle: D\ndate: 2024-01-09\n---\n```mermaid\nflowchart LR\n  A --> B\n```\n"
    code, out, err = check(make_site(files), capsys)
    assert code == 0, out + err
    if shutil.which("node") is None:
        assert "mermaid diagrams not checked: node is not installed" in out
        return
    note = next(line for line in out.splitlines() if line.startswith("note: mermaid diagrams not checked"))
    pinned = json_module.loads((Path(__file__).parent / "node" / "package.json").read_text())["dependencies"]
    assert f"`npm install --no-save mermaid@{pinned['mermaid']} jsdom@{pinned['jsdom']}`" in note, note
    assert "--node-modules" not in note
    assert "1 diagrams (not checked: see the note above)" in out


def test_check_after_a_build_takes_posts_and_images_from_the_cache_and_saves_nothing_but_media(
        make_site, capsys, monkeypatch):
    """check builds with the site's cache: an image the build sized is not read again, the posts and state
    files the build saved are left as they were, and the report is the one a check without a cache gives."""
    from PIL import Image

    from blogbuild.media import images
    root = make_site({"blogbuild.yaml": "title: T\nbase_url: https://example.org/\ncards: false\n",
                      "content/posts/a/index.md": "---\ntitle: A\ndate: 2024-01-02\n---\n![wide](wide.jpg)\n"})
    Image.new("RGB", (1200, 600), (10, 20, 30)).save(root / "content" / "posts" / "a" / "wide.jpg")
    fresh = root.parent / "fresh"
    shutil.copytree(root, fresh)
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    saved = {path: path.read_bytes() for path in (root / ".blogbuild-cache").glob("*.cache")}
    assert saved
    made = []
    monkeypatch.setattr(images.ImageCache, "_make", lambda self, path, key, stats: made.append(path))
    after_build = check(root, capsys)
    assert made == [] and after_build[0] == 0
    assert {path: path.read_bytes() for path in (root / ".blogbuild-cache").glob("*.cache")} == saved
    monkeypatch.undo()
    assert check(fresh, capsys) == after_build


def test_check_of_a_site_it_cannot_write_to_builds_without_the_cache(make_site, capsys, monkeypatch):
    """A read-only checkout: check adds nothing to it (no cache folder made) and reports as usual."""
    import os

    from PIL import Image

    from blogbuild.commands import check as check_command
    root = make_site({"blogbuild.yaml": "title: T\nbase_url: https://example.org/\ncards: false\n",
                      "content/posts/a/index.md": "---\ntitle: A\ndate: 2024-01-02\n---\n![wide](wide.jpg)\n"})
    Image.new("RGB", (1200, 600), (10, 20, 30)).save(root / "content" / "posts" / "a" / "wide.jpg")
    assert check_command._cache_writable(root) == os.access(root, os.W_OK | os.X_OK)
    monkeypatch.setattr(check_command, "_cache_writable", lambda root: False)
    assert check(root, capsys)[0] == 0
    assert not (root / ".blogbuild-cache").exists()
