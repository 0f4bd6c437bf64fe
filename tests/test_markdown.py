"""The markdown stage: fixture files (input and expected HTML), TOC, flags, warnings, robustness."""
from __future__ import annotations

from pathlib import Path

import json
import os
import shutil
import subprocess
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blogbuild.config import SiteConfig, config_from_mapping
from blogbuild.hugo.config import convert
from blogbuild.markdown import MAX_NESTING, highlight_css, render_markdown
from blogbuild.core.model import TocEntry
from support.fixtures import read_fixtures
from support.tools import missing_tool

FIXTURES = Path(__file__).parent / "fixtures" / "markdown"
NODE_MODULES = Path(__file__).parent / "node" / "node_modules"


def fixture_cases():
    for path in sorted(FIXTURES.glob("*.md")):
        for title, source, expected in read_fixtures(path):
            yield pytest.param(path.name, source, expected, id=f"{path.stem}: {title[:60]}")


# Files named math_goldmark* run as on a Hugo site without passthrough (its math is goldmark's text), and
# math_template* as on one whose passthrough names \( and \[ while its templates' KaTeX typesets $ and $$ too.
_HUGO_MARKUP: dict[str, dict[str, Any]] = {
    "math_goldmark": {},
    "math_template": {"goldmark": {"extensions": {"passthrough": {"enable": True, "delimiters": {
        "inline": [["\\(", "\\)"]], "block": [["\\[", "\\]"]]}}}},
        "templateMath": {"inline": [["$", "$"]], "block": [["$$", "$$"]], "file": "layouts/partials/math.html"}},
}


def _fixture_config(file_name: str) -> SiteConfig:
    # Files named *emphasis_off* run with the CJK emphasis switch off; all others with the default.
    for prefix, markup in _HUGO_MARKUP.items():
        if file_name.startswith(prefix):
            values, _ = convert({"title": "x", "markup": markup})
            return config_from_mapping(values)
    return SiteConfig(cjk_emphasis="emphasis_off" not in file_name)


@pytest.mark.parametrize("file_name, source, expected", list(fixture_cases()))
def test_fixture(file_name: str, source: str, expected: str) -> None:
    assert render_markdown(source, config=_fixture_config(file_name)).html == expected


def test_every_fixture_file_has_cases() -> None:
    names = {path.name for path in FIXTURES.glob("*.md")}
    assert {"math.md", "mermaid.md", "cjk.md", "cjk_emphasis_off.md", "gfm.md", "headings.md", "code.md"} <= names
    for path in FIXTURES.glob("*.md"):
        assert read_fixtures(path), path.name


def test_default_config_has_cjk_emphasis_on() -> None:
    assert "<strong>真，</strong>" in render_markdown("**真，**她").html
    assert "<strong>" not in render_markdown("**真，**她", config=SiteConfig(cjk_emphasis=False)).html


def test_toc_entries_keep_math_and_cjk() -> None:
    body = "# 标题一\n\n## Cost of $O(n^2)$\n\ntext\n\n### Intro\n\n### Intro\n\n## 显示 $$x_1$$ 公式\n"
    toc = render_markdown(body).toc
    assert toc == (
        TocEntry(1, "标题一", "标题一"),
        TocEntry(2, "cost-of-on2", "Cost of \\(O(n^2)\\)", 'Cost of <span class="math inline">O(n^2)</span>'),
        TocEntry(3, "intro", "Intro"),
        TocEntry(3, "intro-1", "Intro"),
        TocEntry(2, "显示-x_1-公式", "显示 \\[x_1\\] 公式", '显示 <span class="math display">x_1</span> 公式'),
    )


def test_toc_text_drops_markup_but_keeps_code_text() -> None:
    toc = render_markdown("## The **bold** `run()` [link](/x) <em>raw</em>\n").toc
    assert toc == (TocEntry(2, "the-bold-run-link-raw", "The bold run() link raw"),)


def test_flags() -> None:
    assert render_markdown("$x$").has_math
    assert render_markdown("\\(x\\)").has_math
    assert not render_markdown("costs $5 and $10").has_math
    assert render_markdown("```mermaid\ngraph TD\n```\n").has_mermaid
    assert not render_markdown("```mermaid\ngraph TD\n```\n").has_code
    assert render_markdown("```python\nx = 1\n```\n").has_code
    assert render_markdown("    indented\n").has_code
    plain = render_markdown("Just *text*.")
    assert (plain.has_math, plain.has_mermaid, plain.has_code, plain.warnings) == (False, False, False, ())


def test_unclosed_fence_warning_names_the_file_line() -> None:
    # The body starts on line 5 of the file (4 lines of front matter): line_offset = 4.
    body = "Intro.\n\n```python\nx = 1\n"
    result = render_markdown(body, path="content/posts/a.md", line_offset=4)
    assert [str(warning) for warning in result.warnings] == [
        "content/posts/a.md:7: warning: code fence '```' is never closed; add a closing '```' line"]
    assert "<span class=\"n\">x</span>" in result.html


def test_closed_fences_do_not_warn_even_inside_containers() -> None:
    body = "> ```\n> code\n> ```\n\n- item\n\n  ~~~~\n  code\n  ~~~~\n"
    assert render_markdown(body).warnings == ()


def test_unbalanced_display_math_warnings_name_the_line() -> None:
    body = "One.\n\n$$\na + b\n\nTwo.\n\nLine one\nline two $$c + d\n"
    result = render_markdown(body, path="p.md", line_offset=10)
    assert [(warning.line, warning.message.split(";")[0]) for warning in result.warnings] == [
        (13, "'$$' opens display math that is never closed in this paragraph"),
        (19, "'$$' opens display math that is never closed in this paragraph"),
    ]
    assert not result.has_math


def test_math_tex_is_byte_for_byte() -> None:
    tex = r"\mathbf{x}_i^\top \Sigma^{-1} * \mathbf{x}_j \; \text{for } i \neq j \\ \_ \*"
    assert render_markdown(f"${tex}$").html == f'<p><span class="math inline">{tex}</span></p>\n'
    assert render_markdown(f"$$\n{tex}\n$$\n").html == f'<div class="math display">{tex}</div>\n'


def test_shortcode_syntax_in_code_is_left_alone() -> None:
    body = "```\n{{< figure src=\"a.png\" >}}\n```\n\nInline `{{% details %}}` code.\n"
    result = render_markdown(body)
    assert "{{&lt; figure src=&quot;a.png&quot; &gt;}}" in result.html
    assert "<code>{{% details %}}</code>" in result.html
    assert "<figure" not in result.html and result.warnings == ()


def test_highlight_css_has_light_and_both_dark_selectors() -> None:
    css = highlight_css("friendly", "monokai")
    light, _, rest = css.partition("@media (prefers-color-scheme: dark) {")
    assert ".highlight .k {" in light
    system, _, toggled = rest.partition("\n}\n")
    assert ":root:not([data-theme=light]) .highlight .k {" in system
    assert "[data-theme=dark] .highlight .k {" in toggled
    assert "[data-theme" not in light
    # The two schemes really differ (a keyword colour from each style).
    assert light.split(".highlight .k {", 1)[1].split("}")[0] != toggled.split(".highlight .k {", 1)[1].split("}")[0]


def test_rendering_twice_gives_identical_output() -> None:
    body = (FIXTURES / "math.md").read_text(encoding="utf-8") + (FIXTURES / "gfm.md").read_text(encoding="utf-8")
    assert render_markdown(body) == render_markdown(body)


@pytest.mark.parametrize("body, kept", [
    (">" * 3000 + " deep quote", "deep quote"),
    ("".join("  " * depth + f"- item{depth}\n" for depth in range(3000)), "item2999"),
    ("".join("> " * (depth % 40) + "- a\n" for depth in range(3000)), "a"),
    ("[" * 5000 + "x" + "](y)" * 5000, "x"),
    ("*" * 20000 + "x" + "*" * 20000, "x"),
    ("$" * 10000 + "{{<" * 3000 + "`" * 3000, "{{&lt;"),
    ("<details>" * 3000, "<details>"),
], ids=["quotes", "lists", "quoted-lists", "links", "emphasis", "markers", "html"])
def test_deep_nesting_does_not_crash_or_lose_text(body: str, kept: str) -> None:
    assert kept in render_markdown(body).html


NESTING_MESSAGE = (f"nesting {MAX_NESTING} levels deep or more (a quote counts one level, a list two) is flattened "
                   "into plain paragraphs from here; nest the lists and quotes less deeply")


def test_deep_quote_is_flattened_with_one_warning_at_its_line() -> None:
    body = "Intro.\n\n" + ">" * 3000 + " deep *text*\n" + ">" * 3000 + " more\n\nAfter.\n"
    result = render_markdown(body, path="content/posts/q.md", line_offset=4)
    assert [str(warning) for warning in result.warnings] == [f"content/posts/q.md:7: warning: {NESTING_MESSAGE}"]
    assert "<p>deep <em>text</em>\nmore</p>" in result.html
    assert result.html.count("<blockquote>") == MAX_NESTING
    assert result.html.endswith("<p>After.</p>\n")


def test_deep_lists_keep_their_text_without_the_markers() -> None:
    body = "- " * 3000 + "deep\n\n" + "1. " * 3000 + "numbered\n"
    result = render_markdown(body, path="p.md")
    assert [(warning.line, warning.message) for warning in result.warnings] == [(1, NESTING_MESSAGE),
                                                                              (3, NESTING_MESSAGE)]
    assert "<li>deep</li>" in result.html and "<li>numbered</li>" in result.html
    assert "- -" not in result.html and "1. 1." not in result.html


def test_nesting_just_below_the_limit_does_not_warn() -> None:
    body = ">" * (MAX_NESTING - 1) + " below the limit\n\n" + "- " * (MAX_NESTING // 2 - 1) + "list below\n"
    result = render_markdown(body)
    assert result.warnings == ()
    assert result.html.count("<blockquote>") == MAX_NESTING - 1
    assert result.html.count("<ul>") == MAX_NESTING // 2 - 1
    assert len(render_markdown(">" * MAX_NESTING + " at the limit\n").warnings) == 1


def test_big_input_renders() -> None:
    block = ("## Section $x_1$\n\nParagraph with **bold**, `code`, $a_b$ and 中文\n换行。\n\n"
             "```python\nprint(1)\n```\n\n- item\n- [ ] task\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
    body = block * 1500   # about 200 KB, 1,500 equal headings
    result = render_markdown(body)
    assert result.html.count('<span class="math inline">a_b</span>') == 1500
    assert len(result.toc) == 1500 and result.toc[-1].id == "section-x_1-1499"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab中，$`*_~\\[](){}<>%/#>-+|:!\n ")), max_size=300))
def test_any_text_renders(body: str) -> None:
    result = render_markdown(body)
    assert isinstance(result.html, str)
    for warning in result.warnings:
        assert 1 <= warning.line <= body.count("\n") + 1


# --- raw HTML that would break the page around the post --------------------------------------------------

COMMENT_MESSAGE = ("'<!--' opens an HTML comment that is never closed, which would hide the rest of the page; "
                   "it is shown as text; close it with '-->'")


def test_unclosed_html_warnings_name_each_line() -> None:
    # The body of tests/hostile/unclosed_html: the front matter takes 4 lines.
    body = '<div class="note">\n\nStill open <span>and <b>bold\n\n<!-- a comment that never ends\n'
    result = render_markdown(body, path="content/posts/html.md", line_offset=4)
    assert [str(warning) for warning in result.warnings] == [
        "content/posts/html.md:5: warning: '<div>' is never closed; it is closed at the end of the post; "
        "add '</div>' where it should end",
        "content/posts/html.md:7: warning: '<span>' is never closed; it is closed at the end of the post; "
        "add '</span>' where it should end",
        "content/posts/html.md:7: warning: '<b>' is never closed; it is closed at the end of the post; "
        "add '</b>' where it should end",
        f"content/posts/html.md:9: warning: {COMMENT_MESSAGE}",
    ]


@pytest.mark.parametrize("name", ["script", "style", "textarea", "title", "xmp", "iframe", "noscript", "noembed",
                                  "noframes"])
def test_unclosed_raw_text_element_is_warned_and_shown_as_text(name: str) -> None:
    result = render_markdown(f"Intro.\n\nText <{name}> here\n\nAfter *this*.\n", path="p.md")
    assert [(warning.line, warning.message) for warning in result.warnings] == [
        (3, f"'<{name}>' is never closed with '</{name}>', which would swallow the rest of the page; "
            f"it is shown as text; add '</{name}>'")]
    assert f"<p>Text &lt;{name}> here</p>" in result.html
    assert "<p>After <em>this</em>.</p>" in result.html
    closed = render_markdown(f"Text <{name}>x</{name.upper()}> here\n")
    assert closed.warnings == () and f"<{name}>x</{name.upper()}>" in closed.html


def test_unclosed_comment_inside_a_shortcode_is_warned_at_its_file_line() -> None:
    body = 'Intro.\n\n{{% details summary="More" %}}\n<!-- never closed\n{{% /details %}}\n'
    result = render_markdown(body, path="p.md", line_offset=10)
    assert [(warning.line, warning.message) for warning in result.warnings] == [(14, COMMENT_MESSAGE)]
    assert "<p>&lt;!-- never closed</p>\n</details>" in result.html


def test_element_balance_is_not_judged_when_shortcodes_may_open_or_close() -> None:
    body = '{{< rawhtml >}}<div class="wide">{{< /rawhtml >}}\n\nText.\n\n</div>\n'
    result = render_markdown(body)
    assert result.warnings == ()
    assert result.html == '<div class="wide">\n<p>Text.</p>\n</div>\n'


def test_many_unclosed_comments_give_ten_warnings_and_a_count() -> None:
    result = render_markdown("<!-- x\n" * 25, path="p.md")
    assert [warning.line for warning in result.warnings] == list(range(1, 11)) + [10]
    assert result.warnings[-1].message.startswith('15 more warnings like "\'<!--\' opens an HTML comment')
    assert result.html.count("&lt;!--") == 25


_PAGE_CHECK = r"""
const { JSDOM } = require("jsdom");
const bodies = JSON.parse(require("fs").readFileSync(0, "utf8"));
const results = bodies.map((html) => {
  const dom = new JSDOM("<!doctype html><body><main><article>" + html
                        + "</article><footer>SITE FOOTER</footer></main></body>");
  const main = dom.window.document.querySelector("body > main");
  const footer = dom.window.document.querySelector("body > main > footer");
  return Boolean(main && main.children.length === 2 && main.children[0].tagName === "ARTICLE"
                 && footer && footer.innerHTML === "SITE FOOTER");
});
process.stdout.write(JSON.stringify(results));
"""


def page_survives(bodies: list[str]) -> list[bool]:
    """For each post HTML, whether a browser's parser (jsdom) still sees the page's footer after the
    article, outside any comment, raw text or formatting element the post left open."""
    node = shutil.which("node")
    if node is None or not (NODE_MODULES / "jsdom").is_dir():
        missing_tool("node and tests/node/node_modules/jsdom are needed (npm ci in tests/node)")
    result = subprocess.run([node, "-e", _PAGE_CHECK], input=json.dumps(bodies), capture_output=True, text=True,
                            env={**os.environ, "NODE_PATH": str(NODE_MODULES)}, timeout=120, check=True)
    return json.loads(result.stdout)


HOSTILE_BODIES = [
    '<div class="note">\n\nStill open <span>and <b>bold\n\n<!-- a comment that never ends\n',
    "> <!-- start\n> hidden\n\n-->\n\nafter\n",
    "<!-- a --> <!-- b\n\ntext\n",
    "<div>\n<!-- start\n\nhidden\n\n-->\n</div>\n",
    "<script>\nalert(1)\n\n## Next\n",
    "a <script> b\n", "<style>\np {}\n", "a <textarea> b\n", "<title>x\n", "<xmp>\n", '<iframe src="/x">\n',
    "a <noscript> b\n", "<plaintext>\n",
    '<div class="x\n\ntext\n', "text\n\n</div>\n\n</main>\n\n</article>\n", "<div><b>x</div>\n",
    '<a href="/x">link\n', "<section>\n\n<div>\n\n<em>x\n", "a[^1]\n\n[^1]: <b>x\n",
    "<details>" * 3000,
]


def test_hostile_raw_html_leaves_the_page_around_the_post_intact() -> None:
    """Rendered and set in a page, each hostile body leaves the footer where the theme put it; the same
    bodies passed through raw would not, so the check can fail."""
    rendered = [render_markdown(body).html for body in HOSTILE_BODIES]
    raw = ["<!-- x", "<b>x", "</main>", "<script>", "<title>", '<div class="x', "<a href=/x>y"]
    survived = page_survives(rendered + raw)
    assert dict(zip(HOSTILE_BODIES, survived[:len(rendered)], strict=True)) == dict.fromkeys(HOSTILE_BODIES, True)
    assert survived[len(rendered):] == [False] * len(raw)


def test_marks_carry_the_lines_of_the_tokens() -> None:
    """What check needs to name path:line: URLs, formulas, diagrams, at the file lines they were written on."""
    from blogbuild.core.model import SourceMark
    body = ("> quote with [a link](/a/)\n\n"                  # body line 0 -> file line 4
            "```mermaid\ngraph TD\n  A-->B\n```\n\n"         # fence at body line 2
            "- one\n- two $x_1$\n  ![img](i.png)\n\n"        # body lines 7-9
            "\\[\n\\alpha\n\\]\n\n"                            # TeX at body line 12
            "<img src=\"raw.png\">\n")                       # body line 15
    marks = render_markdown(body, line_offset=3).marks
    assert SourceMark("url", "/a/", 4) in marks
    assert SourceMark("mermaid", "graph TD\n  A-->B\n", 6) in marks
    assert SourceMark("math", "x_1", 12) in marks
    assert SourceMark("url", "i.png", 13) in marks
    assert SourceMark("math", "\\alpha", 16) in marks
    assert SourceMark("url", "raw.png", 19) in marks


def test_math_no_delimiter_of_the_site_covers_is_named_once_with_what_to_do() -> None:
    values, _ = convert({"title": "x", "markup": {"goldmark": {"extensions": {"passthrough": {
        "enable": True, "delimiters": {"inline": [["\\(", "\\)"]], "block": [["\\[", "\\]"]]}}}}}})
    config = config_from_mapping(values, path="site/hugo.toml")
    rendered = render_markdown("Costs $5 and $10.\n\nThen $x^2 + y^2$ and $\\alpha$.\n", config=config, path="p.md")
    messages = [str(warning) for warning in rendered.warnings]
    assert len(messages) == 1, messages
    assert messages[0].startswith("p.md:3") and "'$x^2 + y^2$' looks like math" in messages[0]
    assert "hugo.toml" in messages[0] and "['$', '$'] to passthrough.delimiters.inline" in messages[0]
    assert '<span class="math' not in rendered.html
