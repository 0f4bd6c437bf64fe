"""text.py: plain text, CJK-aware counts, reading time, summaries from fixtures."""
from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from blogbuild.config import SiteConfig
from blogbuild.config.markup import MarkupConfig
from blogbuild.content.text import count_words, plain_text, reading_minutes, summarize, text_metrics

FIXTURES = Path(__file__).parent / "fixtures" / "text"


def load_summary_cases(path: Path) -> list:
    """Cases of the markdown-it fixture format: title, '.', input, '.', expected, '.'."""
    lines = [line for line in path.read_text(encoding="utf-8").split("\n")]
    cases = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip() or line.startswith("#"):
            index += 1
            continue
        title = line
        assert lines[index + 1] == ".", f"line {index + 2}: expected '.' after the title"
        blocks: list[list[str]] = [[], []]
        position = index + 2
        for block in blocks:
            while lines[position] != ".":
                block.append(lines[position])
                position += 1
            position += 1
        length = int(re.search(r"length (\d+)", title).group(1))
        truncated = title.rstrip().endswith("truncated")
        assert truncated or title.rstrip().endswith("whole"), title
        cases.append(pytest.param("\n".join(blocks[0]), "\n".join(blocks[1]), length, truncated,
                                  id=title.split(",")[0]))
        index = position
    return cases


SUMMARY_CASES = load_summary_cases(FIXTURES / "summaries.txt")


def test_fixture_file_has_the_cases_the_issue_asks_for():
    titles = " ".join(case.id for case in SUMMARY_CASES)
    for topic in ("cjk", "english", "mixed", "math", "code", "more marker"):
        assert topic in titles


@pytest.mark.parametrize("source, expected, length, truncated", SUMMARY_CASES)
def test_summary_fixture(source, expected, length, truncated):
    summary, was_truncated = summarize(source, length=length)
    assert summary == expected
    assert was_truncated is truncated
    assert unbalanced_tags(summary) == []


class _BalanceChecker(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()

    def handle_comment(self, data):
        self.problems.append(f"comment <!--{data}--> left in")


def unbalanced_tags(fragment: str) -> list[str]:
    """Problems with the nesting of an HTML fragment; [] when every opened tag is closed in order."""
    checker = _BalanceChecker()
    checker.feed(fragment)
    checker.close()
    # A "<" that the parser kept as text would mean a broken tag in the output.
    if checker.rawdata:
        checker.problems.append(f"unparsed rest: {checker.rawdata!r}")
    return checker.problems + [f"<{tag}> never closed" for tag in checker.stack]


def test_balance_checker_catches_broken_html():
    assert unbalanced_tags("<p><em>x</p>") != []
    assert unbalanced_tags("<p>x") != []
    assert unbalanced_tags("<p>x<br></p>") == []


# --- counts and reading time ---------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("你好 world", 3),
    ("你好world", 3),
    ("Hello, world!", 2),
    ("大模型训练。", 5),                 # 。 is punctuation, not a word
    ("「引号」、逗号，句号。", 6),
    ("こんにちは世界", 7),               # kana and kanji: one each
    ("안녕하세요", 5),
    ("Ascend 910B 上的 Ring Attention", 6),
    ("don't stop", 2),
    ("café naïve", 2),
    ("", 0),
    ("  \n ", 0),
    ("𠀀𠀁", 2),                         # extension B ideographs are CJK characters too
])
def test_count_words(text, words):
    assert count_words(text) == words


def test_reading_minutes_uses_separate_rates():
    cjk = "字" * 600
    latin = " ".join(["word"] * 400)
    assert reading_minutes(cjk, cjk_rate=300, latin_rate=200) == 2
    assert reading_minutes(latin, cjk_rate=300, latin_rate=200) == 2
    assert reading_minutes(cjk + " " + latin, cjk_rate=300, latin_rate=200) == 4
    # 301 characters is just over a minute: rounds up.
    assert reading_minutes("字" * 301, cjk_rate=300, latin_rate=200) == 2
    # Exactly at the rate is exactly one minute, not two.
    assert reading_minutes("字" * 300, cjk_rate=300, latin_rate=200) == 1


def test_reading_minutes_is_at_least_one_and_survives_a_zero_rate():
    assert reading_minutes("", cjk_rate=300, latin_rate=200) == 1
    assert reading_minutes("字" * 10, cjk_rate=0, latin_rate=0) == 10


# --- plain text -----------------------------------------------------------------------------------

def test_plain_text_drops_anchors_shows_math_as_read_and_folds_cjk_line_breaks():
    html = ('<h2 id="x">背景 <a class="anchor" href="#x" aria-hidden="true">#</a></h2>\n'
            '<p>中文\n段落里有 <span class="math inline">a &lt; b_{i}</span> 和 &amp; 符号。</p>\n'
            '<div class="math display">\\sum_i x_i</div>\n'
            '<p>English <em>words</em> stay\nspaced.<sup class="footnote-ref"><a href="#fn1">[1]</a></sup></p>')
    assert plain_text(html) == ("背景\n"
                                "中文段落里有 a < b_i 和 & 符号。\n"
                                "∑_i x_i\n"
                                "English words stay spaced.")


def test_plain_text_separates_blocks_and_cells():
    html = "<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table><p>x<br>y</p>"
    assert plain_text(html).split("\n") == ["one", "two", "a", "b", "x", "y"]


def test_plain_text_of_broken_html_does_not_raise():
    assert plain_text("<p>unclosed <em>tags & <b") .startswith("unclosed tags &")


def test_text_metrics_puts_it_together():
    config = SiteConfig(summary_length=10, cjk_reading_rate=300, latin_reading_rate=200)
    html = "<p>第一段文字。</p>\n<p>第二段文字比较长一些。</p>"
    metrics = text_metrics(html, config=config)
    assert metrics.plain_text == "第一段文字。\n第二段文字比较长一些。"
    assert metrics.word_count == 15
    assert metrics.reading_minutes == 1
    # The second block does not fit whole, but half the budget is left: it is cut, not dropped.
    assert metrics.summary_html == "<p>第一段文字。</p>\n<p>第二段文字…</p>"
    assert metrics.truncated is True


# --- properties -----------------------------------------------------------------------------------

_fragments = st.sampled_from([
    "<p>", "</p>", "<em>", "</em>", "<strong>", "</strong>", "<a href=\"/x/\">", "<a href=\"rel\">", "</a>",
    "<span class=\"math inline\">", "</span>", "<code>", "</code>", "<ul>", "<li>", "</li>", "</ul>",
    "<div class=\"highlight\"><pre>", "</pre></div>", "<h2 id=\"h\">", "</h2>", "<a class=\"anchor\" href=\"#h\">#</a>",
    "<br>", "<img src=\"x.png\">", "<!--more-->", "<!-- c -->", "<", ">", "&amp;", "&lt;", "&", "\"",
    "<blockquote>", "</blockquote>", "<table><tr><td>", "</td></tr></table>", "<sup class=\"footnote-ref\">",
    "</sup>", "<br/>", "<em/>", "</div>", "<a<b>", "<p class='x\"y'>",
    "。", "！", ".", " ", "\n", "中文", "字", "word", "Ring Attention", "x_i^2", "\\alpha",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_fragments, max_size=40), st.integers(min_value=0, max_value=200))
def test_summarize_never_raises_and_is_balanced(parts, length):
    summary, truncated = summarize("".join(parts), length=length)
    assert isinstance(truncated, bool)
    assert unbalanced_tags(summary) == []


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.integers(min_value=0, max_value=200))
def test_summarize_of_any_text_is_balanced(source, length):
    summary, _ = summarize(source, length=length)
    assert unbalanced_tags(summary) == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_count_words_never_exceeds_the_characters(text):
    assert 0 <= count_words(text) <= len(text)


@settings(max_examples=100, deadline=None)
@given(st.lists(_fragments, max_size=30))
def test_text_metrics_agrees_with_the_separate_functions(parts):
    # text_metrics parses once and shares the tree; it must give what the single functions give.
    html = "".join(parts)
    config = SiteConfig(summary_length=20)
    metrics = text_metrics(html, config=config)
    assert metrics.plain_text == plain_text(html)
    assert metrics.word_count == count_words(plain_text(html, tex=True))   # words are counted in the TeX
    assert (metrics.summary_html, metrics.truncated) == summarize(html, length=20)


# --- the measures from tokens against the implementation they replaced -----------------------------
# A build measures a post from the tokens its markdown pass already has (markdown/text_tree.py builds
# the tree without parsing the HTML), and text_metrics(html) parses any HTML with html.parser. Every
# result must be what the old code (tests/support/text_reference.py, html.parser over the rendered
# HTML) gives.

sys.path.insert(0, str(Path(__file__).parent / "support"))
import text_reference as reference  # noqa: E402

from blogbuild.content import text as text_module  # noqa: E402

BENCH = Path(__file__).resolve().parent.parent / "bench"
REPO = Path(__file__).resolve().parent.parent


def _load_synth():
    spec = importlib.util.spec_from_file_location("bench_synth_for_text", BENCH / "synth.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses need the module registered
    spec.loader.exec_module(module)
    return module


def _tree_shape(node):
    """A comparable picture of either module's tree."""
    name = type(node).__name__
    if name == "_Text":
        return ("text", node.text)
    if name == "_Comment":
        return ("comment", node.text)
    return (node.tag, tuple(node.attrs), tuple(_tree_shape(child) for child in node.children))


def _reference_tree(html: str):
    builder = reference._TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def _assert_same_as_reference(html: str, config: SiteConfig) -> None:
    expected = reference.text_metrics(html, config=config)
    metrics = text_metrics(html, config=config)
    assert metrics.plain_text == expected.plain_text
    assert metrics.word_count == expected.word_count
    assert metrics.reading_minutes == expected.reading_minutes
    assert metrics.summary_html == expected.summary_html
    assert metrics.truncated == expected.truncated
    # The summary's text is what plain_text() of the summary HTML gave (render.py parsed it for that).
    assert metrics.summary_text == reference.plain_text(expected.summary_html)
    assert plain_text(html) == reference.plain_text(html)
    assert summarize(html, length=config.summary_length) == reference.summarize(html, length=config.summary_length)


def _assert_tokens_measure_as_reference(body: str, config: SiteConfig, shortcodes=None) -> None:
    """render_post's measures (from tokens) equal the reference's measures of its HTML."""
    from blogbuild.markdown import render_post
    rendered, metrics = render_post(body, config=config, shortcodes=shortcodes)
    expected = reference.text_metrics(rendered.html, config=config)
    assert metrics.plain_text == expected.plain_text
    assert metrics.word_count == expected.word_count
    assert metrics.reading_minutes == expected.reading_minutes
    assert metrics.summary_html == expected.summary_html
    assert metrics.truncated == expected.truncated
    assert metrics.summary_text == reference.plain_text(expected.summary_html)


def _builder_of(body: str, config: SiteConfig | None = None):
    """The TextTreeBuilder a build fills for body (to see how it was filled)."""
    from blogbuild.markdown.render import _render_body
    from blogbuild.markdown.text_tree import TextTreeWalker
    _, top, _ = _render_body(body, path="p.md", line_offset=0, config=config or SiteConfig(), shortcodes=None)
    builder = text_module.TextTreeBuilder()
    TextTreeWalker(top.md, top.env, builder).walk(top.tokens)
    return builder


@pytest.fixture(scope="module")
def synthetic_bodies() -> list[str]:
    synth = _load_synth()
    return [synth.front_matter_text(post).split("\n---\n", 1)[1] for post in synth.generate(n=120, seed=5)]


def test_synthetic_posts_are_measured_without_parsing_html(synthetic_bodies):
    # Otherwise the comparison below would only compare html.parser with itself.
    assert not any(_builder_of(body).read_html for body in synthetic_bodies)


@pytest.mark.parametrize("summary_length", [5, 70, 140])
def test_measures_from_tokens_equal_the_reference_on_the_synthetic_corpus(synthetic_bodies, summary_length):
    config = SiteConfig(summary_length=summary_length)
    for body in synthetic_bodies:
        _assert_tokens_measure_as_reference(body, config)


# A Hugo site its own layouts render writes text as goldmark does (the typographer's characters as entities).
_HUGO_MARKUP = SiteConfig(markup=MarkupConfig(render_hooks=True, typographer=True))
_HUGO_CLASSES = SiteConfig(markup=MarkupConfig(render_hooks=True, typographer=True, highlight=(("noclasses", False),)))


_HUGO_BODIES = [
    "He said \"it's 1--2...\" to 'them'.\n\n- a's\n",
    "Intro.\n\n```python {linenos=table,hl_lines=[2]}\nx = 1\ny = 2\n```\nAfter.\n",
    "- item\n  ```go {linenos=inline}\n  a := 1\n  ```\n- next *one*\n\n```bash {.wide #run}\necho hi\n```\n",
]


def test_hugo_markup_posts_are_measured_without_parsing_html(synthetic_bodies):
    assert not any(_builder_of(body, _HUGO_MARKUP).read_html for body in synthetic_bodies)
    for body in _HUGO_BODIES[:1]:
        assert not _builder_of(body, _HUGO_MARKUP).read_html, body
    # Line numbers are text where Chroma styles them inline (Hugo's default): that block is parsed; with classes
    # (ln, lnt) they are not text, and nothing is.
    assert _builder_of(_HUGO_BODIES[1], _HUGO_MARKUP).read_html
    assert not any(_builder_of(body, _HUGO_CLASSES).read_html for body in _HUGO_BODIES)


@pytest.mark.parametrize("summary_length", [5, 70])
def test_hugo_markup_measures_equal_those_of_the_html(synthetic_bodies, summary_length):
    # Chroma's line numbers are not text (text.py skips its ln/lnt spans; the reference predates them).
    from blogbuild.markdown import render_post
    for hugo in (_HUGO_MARKUP, _HUGO_CLASSES):
        config = replace(hugo, summary_length=summary_length)
        for body in [*synthetic_bodies, *_HUGO_BODIES, "He said \"it's\" to <b>us</b>.\n\n```go\nx\n```\n"]:
            rendered, metrics = render_post(body, config=config)
            assert metrics == text_metrics(rendered.html, config=config), body


def test_measures_from_tokens_equal_the_reference_on_the_bundled_posts():
    posts = sorted((REPO / "content").rglob("*.md"))
    assert posts
    for path in posts:
        text = path.read_text(encoding="utf-8")
        body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
        for length in (40, 140, 300):
            _assert_tokens_measure_as_reference(body, SiteConfig(summary_length=length))


MARKDOWN_FIXTURES = sorted((Path(__file__).parent / "fixtures" / "markdown").glob("*.md"))


@pytest.mark.parametrize("path", MARKDOWN_FIXTURES, ids=[path.stem for path in MARKDOWN_FIXTURES])
def test_text_metrics_equal_the_reference_on_markdown_fixtures(path):
    from blogbuild.markdown import render_markdown
    source = path.read_text(encoding="utf-8")
    # The fixture file itself (raw HTML, stray "<", entities) and the HTML markdown makes of it.
    for html in (source, render_markdown(source).html):
        assert _tree_shape(text_module._parse(html)) == _tree_shape(_reference_tree(html))
        _assert_same_as_reference(html, SiteConfig(summary_length=60))
    # Each case alone, and the whole file, measured from tokens.
    for case in [source] + source.split("\n.\n"):
        for length in (3, 60, 300):
            _assert_tokens_measure_as_reference(case, SiteConfig(summary_length=length))


_html_pieces = st.sampled_from([
    "<p>", "</p>", "<P>", "</P >", "<em>", "</em>", "<strong>", "</strong>", "<a href=\"/x/\">", "<a href=\"rel\">",
    "</a>", "<A HREF=\"/y/\" Title=\"a &amp; b\">", "<span class=\"math inline\">", "</span>", "<code>", "</code>",
    "<ul>", "<li>", "</li>", "</ul>", "<div class=\"highlight\"><pre>", "</pre></div>", "<h2 id=\"h\">", "</h2>",
    "<a class=\"anchor\" href=\"#h\">#</a>", "<a class=\"footnote-backref\" href=\"#r\">↩</a>", "<br>", "<br />",
    "<hr/>", "<img src=\"x.png\" alt=\"\">", "<input type=\"checkbox\" disabled checked>", "<!--more-->",
    "<!-- MORE -->", "<!-- c -->", "<!---->", "<!-- a-b -->", "<", ">", "&amp;", "&lt;", "&lt;!--more--&gt;",
    "&#60;", "&#x3c;", "&nbsp;", "&bogus;", "&", "\"", "<blockquote>", "</blockquote>", "<table><tr><td>",
    "</td></tr></table>", "<sup class=\"footnote-ref\">", "</sup>", "<em/>", "</div>", "<a<b>", "<p class='x'>",
    "<p class=\"a\"class=\"b\">", "<p data-x=a>", "<script>", "</script>", "<style>x<p></style>", "<template>",
    "</template>", "<noscript>", "<textarea>", "<title>", "<dl><dt>", "</dt><dd>", "</dd></dl>", "<math>",
    "<details><summary>", "</summary>", "</details>", "<p\tid=\"t\">", "<p\x0bid=\"v\">", "</ p>", "<?pi?>",
    "<!DOCTYPE html>", "\ue000", "\xa0", "\u3000", "。", "！", "”", ".", "?", " ", "\n", "\r\n", "中文", "字", "かな",
    "word", "don't", "Ring Attention", "3.14", "x_i^2", "\\alpha", "more", "café", "e\u0301", "𠀀",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(_html_pieces, max_size=40).map("".join), st.integers(min_value=1, max_value=120))
# Escaped more-markers (markdown with raw HTML off), also split by a tag.
@example("<p>one two three</p>\n<p>&lt;!--more--&gt;</p>\n<p>four</p>", 100)
@example("<p>one</p><p> &lt;!--MO<em>re--&gt;</em></p><p>four five six</p>", 100)
@example("<p>one</p><!-- more --><p>four five six</p>", 100)
def test_text_metrics_equal_the_reference_on_any_html(html, summary_length):
    assert _tree_shape(text_module._parse(html)) == _tree_shape(_reference_tree(html))
    _assert_same_as_reference(html, SiteConfig(summary_length=summary_length))


# Markdown that mixes what goes into the tree as events with what goes in as HTML (raw HTML, an
# unclosed <script>, a trailing '&', footnotes, images, task items, shortcodes).
_markdown_pieces = st.sampled_from([
    "Some words here. ", "中文句子。", "**bold** ", "*em* ", "`code` ", "$x^2$ ", "$$\\sum_i x_i$$ ",
    "[link](/a/ \"t\") ", "![alt *x*](i.png) ", "text[^1] ", "\n\n[^1]: a note\n\n", "\n\n", "\n", "  \n",
    "\n\n# Heading {x}\n\n", "\n\n## 标题\n\n", "\n\n- item\n- [x] done\n- [ ] todo\n\n", "\n\n1. one\n2. two\n\n",
    "\n\n> quote\n\n", "\n\n```python\nx = 1 < 2\n```\n\n", "\n\n```mermaid\ngraph TD; A-->B\n```\n\n",
    "\n\n```math\na+b\n```\n\n", "\n\n    indented code\n\n", "\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n",
    "\n\nTerm\n: definition\n\n", "<b>raw</b> ", "<span>", "</span>", "\n\n<div>\n\n", "\n\n</div>\n\n",
    "<!--more-->", "\n\n<!--more-->\n\n", "<script>x</script>", "\n\n<script>\nvar a = 1;\n", "</script>",
    "a &amp b ", "&", "&copy; ", "\n\n<p>raw para &amp</p>\n\n", "<em>", "</em>", "\n\n---\n\n",
    "{{< figure src=\"a.png\" caption=\"Cap *x*\" >}}", "{{< details summary=\"S\" >}}inner **md**{{< /details >}}",
    "{{< highlight python >}}y = 2{{< /highlight >}}", "\n\n{{< figure src=\"b.png\" >}}\n\n",
    "[ref]({{< ref \"x.md\" >}}) ", "`{{< figure >}}` ", "\ufeff", "\ue000", "\u3000",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_markdown_pieces, max_size=30).map("".join), st.integers(min_value=1, max_value=200))
@example("<script>\nx\n\npara *em*\n\n</script>\n\nafter", 50)
@example("```python\n\ufeffx = 1\n```\n", 50)
@example("text &\n\n- a\n- b\n", 50)
def test_measures_from_tokens_equal_the_reference_on_any_markdown(body, summary_length):
    _assert_tokens_measure_as_reference(body, SiteConfig(summary_length=summary_length))


_HIGHLIGHTED_MARKDOWN = [
    "```python\ndef f(x):\n    return x < 1 & \"y\"  # 中文\n```\n",
    "Intro.\n\n```bash\necho \"$HOME\" > /tmp/a && ls\n```\n\n<!--more-->\n\nAfter.\n",
    "- item\n\n  ```cpp\n  int main() { return 0; }\n  ```\n- next item with more words\n",
    "> quote\n>\n> ```yaml\n> a: [1, 2]\n> ```\n",
    "<a class=\"anchor\">\n\n```python\nx = 1\n```\n\n</a>\n\ntext\n",
    "```python\n```\n\n```python\n\n\n```\n",
    "```text\nplain \ue000 text\n```\n",
    "```python\n\ufeffx = 1\n```\n",
]


@pytest.mark.parametrize("markdown_text", _HIGHLIGHTED_MARKDOWN)
def test_highlighted_code_blocks_measure_as_the_reference(markdown_text):
    from blogbuild.markdown import render_markdown
    html = render_markdown(markdown_text).html
    assert '<div class="highlight">' in html
    for length in (3, 40, 200):
        _assert_same_as_reference(html, SiteConfig(summary_length=length))
        _assert_tokens_measure_as_reference(markdown_text, SiteConfig(summary_length=length))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_counts_equal_the_reference(text):
    assert count_words(text) == reference.count_words(text)
    assert text_module._cost(text) == reference._cost(text)


def test_post_summary_text_is_the_plain_text_of_its_summary(tmp_path):
    from blogbuild.disk.frontmatter import parse_front_matter
    from blogbuild.markdown import render_markdown
    from blogbuild.core.model import SourceFile
    from blogbuild.content.posts import make_post
    config = SiteConfig(summary_length=12)
    for header, expected in [
        ("title: a", "第一段文字。\nEnglish…"),
        ("title: b\nsummary: \"写好的  摘要\n  text &amp; <b>\"", "写好的摘要 text &amp; <b>"),
    ]:
        text = f"---\n{header}\n---\n第一段文字。\n\nEnglish *words* here and more words after them.\n"
        source = SourceFile(path="p.md", rel_path="posts/p.md", text=text)
        front_matter = parse_front_matter(source)
        rendered = render_markdown(front_matter.body)
        post, _ = make_post(source, front_matter, rendered, text_metrics(rendered.html, config=config), config, "f")
        assert post.summary_text == expected == plain_text(post.summary_html)
