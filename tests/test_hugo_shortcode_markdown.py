"""A {{% %}} shortcode's output is markdown of the page, as Hugo renders it: its headings are in the page's table of
contents where the shortcode stands ({{< >}} output is HTML: not there), and nested in another's inner text its
.Inner is rendered as markdown on its own; a shortcode written literally
({{</* x */>}}) is text of the markdown, whose typographer reads its quotes. tests/hugo_sites/shortcode_markdown built
by the hugo binary and by blogbuild: every page the same DOM."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "shortcode_markdown"


def test_shortcode_markdown_is_the_pages(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    assert differing_pages(hugo, ours) == []
    toc = ours["posts/headings/index.html"].decode().split("</aside>")[0]
    assert toc.index("#before") < toc.index("#centred-heading") < toc.index("#between") < toc.index("#nested-one")
    # Not headings of the page: markdown inside the note's HTML block, a {{< >}} shortcode's HTML, and a nested
    # {{% %}} shortcode's inner text (rendered on its own, as its .Inner).
    assert "a-notes-heading" not in toc and "not-markdown" not in toc and "deeper" not in toc
    assert '<aside class="note"><h4 id="deeper">Deeper</h4>' in ours["posts/headings/index.html"].decode()
    assert "{{% music &ldquo;28196554&rdquo; %}}" in ours["posts/literal/index.html"].decode()
