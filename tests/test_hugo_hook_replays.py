"""A render hook that reads what the page's layouts set in its Store, run again alone.

Hugo renders a page's content when a layout first reads it, so a code block's or a block formula's hook that reads
`.Page.Scratch.Get "params"` (LoveIt's code blocks) sees what the page's init partial set. blogbuild renders the
content in its markdown stage, before any layout runs, and keeps each such hook call that wrote nothing to the
Store; when the layout reads the content, only those calls run again with the layouts' Store and their HTML takes
the place of what they drew. A call that would now write to the Store, draw a link, sit inside what a blockquote's
hook measures, or a page with another read of the Store (a shortcode's), has its whole content rendered again
instead. tests/hugo_sites/hook_replays built by the hugo binary and by blogbuild: the same bytes; and which pages
were rendered whole again."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from support.hugo_build import built_by_both

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "hook_replays"
_GENERATOR = re.compile(rb'\t<meta name="generator" content="[^"]*">')   # Hugo's on the home page


def test_hooks_run_again_alone_draw_what_hugo_draws(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 8
    assert [path for path in pages if _GENERATOR.sub(b"", ours[path]) != _GENERATOR.sub(b"", hugo[path])] == []
    blocks, raised = ours["notes/blocks/index.html"].decode(), ours["notes/raised/index.html"].decode()
    assert blocks.count(' open" data-max="3" data-lang="text"') == 2 and '-characters" data-max="3"' in blocks
    assert "<footer>mermaid: true; counted: 0</footer>" in blocks   # a write of a call that is not run again
    assert '<div class="formula" data-engine="katex">' in raised and ' open" data-max="6"' in raised
    assert '<div class="formula" data-engine="katex">' in blocks
    assert "counted: 2</footer>" in ours["notes/counted/index.html"].decode()
    assert '<a href="/notes/blocks/">source</a>' in ours["notes/linked/index.html"].decode()
    assert '<span class="badge">limit 3</span>' in ours["notes/badged/index.html"].decode()


def test_only_the_pages_whose_hooks_cannot_run_alone_are_rendered_whole(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The markdown of a page is rendered again (render_source given the page's Store) only where a kept call
    cannot stand for it: a write to the Store, a link drawn, a block inside a measured quote, a shortcode that
    reads the Store too. The calls run again highlight no code: they are given the HTML they highlighted before."""
    import blogbuild.pipeline.pools as pools
    rendered_whole: list[str] = []
    render_source = pools.render_source

    def counting(source, config, shortcodes, fingerprint, publishing=None, store=None, **options):  # type: ignore[no-untyped-def]
        if store is not None:
            rendered_whole.append(source.rel_path)
        return render_source(source, config, shortcodes, fingerprint, publishing, store, **options)

    monkeypatch.setattr(pools, "render_source", counting)
    # A call run again is given the HTML of the transform.Highlight it made before: no code is highlighted again.
    import blogbuild.markdown.chroma.hugo as chroma
    highlight, spliced, replaying, highlighted_again = chroma.highlight, pools._spliced, [], []

    def replayed(post, hooks):  # type: ignore[no-untyped-def]
        replaying.append(post.rel_path)
        try:
            return spliced(post, hooks)
        finally:
            replaying.pop()

    def highlighting(*args, **options):  # type: ignore[no-untyped-def]
        highlighted_again.extend(replaying[-1:])
        return highlight(*args, **options)

    monkeypatch.setattr(pools, "_spliced", replayed)
    monkeypatch.setattr(chroma, "highlight", highlighting)
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    assert sorted(rendered_whole) == ["notes/badged.md", "notes/counted.md", "notes/linked.md", "notes/quoted.md"]
    assert highlighted_again == []
    assert b' open" data-max="6"' in (result.files["notes/raised/index.html"].data or b"")
