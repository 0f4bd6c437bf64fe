"""Hugo 0.168's automatic summary: whole paragraphs until summaryLength words are counted, and when the words run
out inside a container (a list item, a blockquote) the summary goes on to the end of the outermost one, so it never
leaves one open. tests/hugo_sites/summaries built by the hugo binary and by blogbuild: the same bytes in every page."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "summaries"
_GENERATOR = re.compile(rb'\s*<meta name="generator" content="[^"]*">')


def test_a_summary_closes_what_it_opens(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert {path: _GENERATOR.sub(b"", ours[path]) for path in pages} == \
        {path: _GENERATOR.sub(b"", hugo[path]) for path in pages}
    assert "<li>A nested item.</li>\n</ul>\n</li>\n</ol></aside>" in ours["posts/list/index.html"].decode()
    assert "<p>The quote goes on here.</p>\n</blockquote></aside>" in ours["posts/quote/index.html"].decode()
    assert "eleven.</p></aside>" in ours["posts/plain/index.html"].decode()
