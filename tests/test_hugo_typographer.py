"""What goldmark's typographer writes, on a Hugo site its own layouts render: its quotes, dashes, ellipses and
guillemets as entities (`&rsquo;`, `&ldquo;`, `&ndash;`, `&hellip;`, `&laquo;`), a character typed as it is (’ “)
kept; its quotes decided as goldmark decides each one (apostrophes in Alice's, '90s, 'twas, rock 'n' roll,
Smiths', doin', a Dutch 's; opening and closing quotes by the characters around them and the quotes left open
before them in the page, in any block but code: goldmark's count runs through the document), where markdown-it's
smart quotes pair them; so on a CJK page (hasCJKLanguage) the automatic summary and .WordCount, which count a word of ASCII once and
any other word by its characters, end where Hugo's do. So does highlighted code: Chroma escapes it as Go does
(`&#34;`, `&#39;`) and nothing follows the block (`</div></li>`, `</div><p>`). tests/hugo_sites/typographer built
by the hugo binary and by blogbuild: the same bytes in every page."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "typographer"
_GENERATOR = re.compile(rb'\s*<meta name="generator" content="[^"]*">')


def test_the_typographer_writes_goldmarks_entities(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "posts/proverbs/index.html" in pages
    assert {path: _GENERATOR.sub(b"", ours[path]) for path in pages} == \
        {path: _GENERATOR.sub(b"", hugo[path]) for path in pages}
    page = ours["posts/proverbs/index.html"].decode()
    assert "A person&rsquo;s &ldquo;temperament&rdquo; &ndash; and health&hellip;" in page
    assert "Typed as it is: ’ “中” stays a character." in page
    quotes = ours["posts/quotes/index.html"].decode()
    assert "praat &rsquo;s middags met collega&rsquo;s" in quotes and "the dogs&rsquo; bones" in quotes
    assert "&#34;你的项目ID&#34;</span>\n</span></span></code></pre></div></li>" in page
    carried = ours["posts/open-quotes/index.html"].decode()
    assert "必须做&quot;减法&rdquo;。The quote" in carried and "必须做&quot;减法&quot;。Nothing" in carried
