"""A page's content reads what its layouts set in its Store, as in Hugo: Hugo renders a page's content when a
layout first reads it (`.Content`), so a render hook or shortcode that reads `.Page.Scratch.Get "params"` or
`.Page.Store.Get "accent"` sees what the page's init partial set before, and what it writes there (SetInMap into
a map the layouts made) is there for the layouts after. blogbuild renders content in its markdown stage; a page
whose shortcodes or hooks read a key of the Store that was not set then has its content rendered again when
its layout reads it. tests/hugo_sites/layout_store built by the hugo binary and by blogbuild: the same bytes."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "layout_store"
_GENERATOR = re.compile(rb'\t<meta name="generator" content="[^"]*">')   # Hugo's on the home page


def test_content_sees_the_store_its_layouts_set(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 5
    assert [path for path in pages if _GENERATOR.sub(b"", ours[path]) != _GENERATOR.sub(b"", hugo[path])] == []
    short, raised = ours["notes/short/index.html"].decode(), ours["notes/raised/index.html"].decode()
    # The site's limit (3 lines) and a page's own (6), read from the Scratch by the code block hook.
    assert short.count('<div class="code open" data-max="3"') == 2 and '<div class="code" data-max="3"' in short
    assert '<div class="code open" data-max="6" data-lang="text"><pre><code>one' in raised
    assert '<span class="badge badge-warm">hot</span>' in raised          # a shortcode reads the layouts' Store
    assert "<footer>blocks: block0=5 block1=7 </footer>" in raised         # the hook's SetInMap reaches the layout
    assert '<span class="unset">fallback</span>' in raised                # a key no layout sets stays unset
