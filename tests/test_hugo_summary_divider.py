"""Hugo's summary divider as its page lexer takes it: the first <!--more--> (a second one is a comment),
the white space after it eaten, so an indented ```lang after it opens a fence and an inline divider splits its
paragraph. tests/hugo_sites/summary_divider built by the hugo binary and by blogbuild: every page the same DOM
(summaries, truncation, content, word counts)."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

from blogbuild.markdown.goldmark import hugo_summary_divider

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "summary_divider"


def test_summary_divider_is_taken_as_hugo_takes_it(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 5
    assert differing_pages(hugo, ours) == []
    assert 'class="language-sequence"' in ours["posts/indented/index.html"].decode()


def test_a_divider_on_its_own_line_keeps_every_line_number() -> None:
    body = "Intro.\n\n<!--more-->\n\n    indented\n\nlast\n"
    assert hugo_summary_divider(body).split("\n").index("last") == body.split("\n").index("last")
    assert hugo_summary_divider("a <!--more--> b") == "a \n\n<!--more-->\n\nb"
    assert hugo_summary_divider("no divider") == "no divider"
