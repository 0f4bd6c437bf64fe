"""Hugo's `.TableOfContents` as its tableofcontents package writes it: the headings in a tree rooted at the h1
level, each h1 (and the first heading) starting a row, a level a heading skips an item without a link; the lists
from markup.tableOfContents' startLevel to endLevel. tests/hugo_sites/toc_tree (posts starting at h2, with several
h1, skipping levels, without headings; a section's _index.md, a home page of no content) built by the hugo binary and by blogbuild with several level settings: the
table of contents byte for byte, every page the same DOM."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "toc_tree"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_TOC = re.compile(r'<pre class="toc">(.*?)</pre>', re.S)
LEVELS = {"default": "", "from-h1": "startLevel = 1\nendLevel = 6\n", "h2-to-h4": "endLevel = 4\n",
          "ordered-h3": "startLevel = 3\nendLevel = 6\nordered = true\n"}


@pytest.mark.parametrize("levels", list(LEVELS), ids=list(LEVELS))
def test_table_of_contents_is_hugos(tmp_path: Path, levels: str) -> None:
    setting = LEVELS[levels]
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path, lambda text: text + (
        f"[markup.tableOfContents]\n{setting}" if setting else ""))
    posts = sorted(path for path in hugo if path.endswith("index.html") and "/page/" not in path)
    assert len(posts) == 6   # the four posts, their section (its _index.md's headings) and the home page (none)
    assert '<nav id="TableOfContents"></nav>' in ours["index.html"].decode()
    for path in posts:
        assert _TOC.findall(ours[path].decode()) == _TOC.findall(hugo[path].decode()), path
    assert [path for path in hugo if path.endswith(".html")
            and dom_tokens(ours[path].decode(), drop=_GENERATOR) != dom_tokens(hugo[path].decode(), drop=_GENERATOR)
            ] == []
