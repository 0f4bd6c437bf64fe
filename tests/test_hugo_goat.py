"""GoAT diagrams on a Hugo site its own layouts render are drawn as Hugo 0.168 draws them (bep/goat v0.5.0):
tests/hugo_sites/goat_diagrams (```goat blocks of lines in every direction, corners square and rounded, curves,
bridges, arrows, circles and dots, text among the lines, unicode and markdeep's shading, empty lines inside and
around, a tab, a long diagram, width/height/class attributes, blocks in lists and quotes, ```GOAT which is code;
a layout calling diagrams.Goat with .Inner, .Wrapped, .Width and .Height) built by the hugo binary and by
blogbuild: with Hugo's embedded render-codeblock-goat.html, with the site's own goat hook, and with a site hook
for every language (which Hugo's embedded goat hook comes before). Every diagram is Hugo's, byte for byte, and
so are 600 diagrams drawn at random from goat's characters (a fixed seed), and lines too long for
goat's line reader."""
from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

from blogbuild.hugo.gotemplate.goat import build_svg
from blogbuild.hugo.gotemplate.functions import NAMESPACES

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "goat_diagrams"
PAGES = ("posts/boxes/index.html", "posts/lines/index.html", "posts/text/index.html", "posts/long/index.html",
         "posts/lists/index.html")
# A diagram as each writer puts it on the page: the embedded hook's div, the site's hook's figure, the <svg>s and
# the sizes the fixture's layout writes.
_DIAGRAM = re.compile(r'<div class="goat svg-container.*?</div>|<figure.*?</figure>|<svg.*?</svg>'
                      r'|<p(?: class="\w+")?>[^<]*(?:<g .*?</g>\n)?\]?</p>', re.S)

_OWN_HOOK = """{{- $d := diagrams.Goat .Inner -}}
<figure class="sketch" data-ordinal="{{ .Ordinal }}" style="max-width: {{ $d.Width }}px">{{ $d.Wrapped }}<figcaption>
{{- .Attributes.class | default "untitled" }} {{ $d.Height }}</figcaption></figure>
"""
_EVERY_LANGUAGE_HOOK = '<pre data-type="{{ .Type }}">{{ .Inner }}</pre>\n'
_HOOKS = {"embedded": {}, "own": {"render-codeblock-goat.html": _OWN_HOOK},
          "every-language": {"render-codeblock.html": _EVERY_LANGUAGE_HOOK}}


def _built(tmp_path: Path, extra: dict[str, str]) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    """The fixture with extra files (path -> text) built by hugo and by blogbuild, each from its own copy."""
    sites = []
    for name in ("hugo-site", "blogbuild-site"):
        site = copy_site(FIXTURE, tmp_path / name)
        for path, text in extra.items():
            (site / path).parent.mkdir(parents=True, exist_ok=True)
            (site / path).write_text(text, encoding="utf-8")
        sites.append(site)
    hugo = hugo_files(sites[0], tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(sites[1])
    return hugo, ours, warnings


@pytest.fixture(scope="module", params=sorted(_HOOKS))
def both(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    hooks = {f"layouts/_markup/{name}": text for name, text in _HOOKS[request.param].items()}
    return _built(tmp_path_factory.mktemp("goat"), hooks)


@pytest.mark.parametrize("page", PAGES)
def test_every_diagram_is_the_svg_hugo_writes(both, page: str) -> None:
    hugo, ours, _warnings = both
    theirs, mine = _DIAGRAM.findall(hugo[page].decode()), _DIAGRAM.findall(ours[page].decode())
    assert len(theirs) > 3 and len(mine) == len(theirs)
    for index, (expected, got) in enumerate(zip(theirs, mine, strict=True)):
        assert got == expected, f"{page} diagram {index}"
    assert dom_tokens(ours[page].decode()) == dom_tokens(hugo[page].decode())


def test_the_diagrams_are_drawn_and_nothing_is_said(both) -> None:
    _hugo, ours, warnings = both
    assert not [warning for warning in warnings if "goat" in warning.message.lower()
                or "diagrams" in warning.message]
    boxes = ours["posts/boxes/index.html"].decode()
    assert "<svg class='diagram' xmlns='http://www.w3.org/2000/svg' version='1.1' height='137' width='128'" in boxes
    assert "<p>72x57</p>" in boxes and "language-goat" not in boxes


def _random_diagram(chance: random.Random) -> str:
    """A small diagram of goat's characters (and a few letters and others), mostly spaces."""
    drawn = "-|/\\_+.'*o<>^v()"
    others = "ab xé╱╲╳▉░&<"
    rows = []
    for _ in range(chance.randint(1, 12)):
        width = chance.randint(0, 20)
        rows.append("".join(chance.choice(drawn) if roll < 0.45 else chance.choice(others) if roll < 0.5 else " "
                            for roll in (chance.random() for _ in range(width))))
    return "\n".join(rows)


def test_random_diagrams_and_overlong_lines_are_drawn_as_hugo_draws_them(tmp_path: Path) -> None:
    chance = random.Random(20240301)
    diagrams = [_random_diagram(chance) for _ in range(600)]
    # goat reads lines of at most 65535 bytes: a longer one ends the diagram (the lines before it are drawn).
    diagrams += ["+--+\n" + "-" * 65535 + "\n|  |", "+--+\n" + "-" * 65534 + "é\no--o", "*\n" + "-" * 65536 + "\n*"]
    body = "".join(f"\n```goat\n{diagram}\n```\n" for diagram in diagrams)
    page = f"---\ntitle: Random\ndate: 2024-03-06\n---\n{body}"
    hugo, ours, _warnings = _built(tmp_path, {"content/posts/random.md": page})
    path = "posts/random/index.html"
    theirs, mine = _DIAGRAM.findall(hugo[path].decode()), _DIAGRAM.findall(ours[path].decode())
    assert len(theirs) == len(diagrams) + 4 and len(mine) == len(theirs)
    for index, (expected, got) in enumerate(zip(theirs, mine, strict=True)):
        assert got == expected, f"diagram {index}"


def test_a_huge_diagram_is_drawn_in_time_its_drawing_grows_with() -> None:
    # A character far from another makes a canvas of 60000 × 5000 cells; goat's walks visit what is drawn.
    started = time.monotonic()
    svg = build_svg("x" * 60000 + "\n" * 5000 + "o")
    assert (svg.width, svg.height) == (480008, 80025)
    assert svg.body.count("<text ") == 60000 and svg.body.count("<circle ") == 1
    assert time.monotonic() - started < 20


def test_goats_own_sizes_and_wrapper() -> None:
    empty = build_svg("")
    assert (empty.width, empty.height, empty.body) == (8, 9, "<g transform='translate(8,16)'>\n</g>\n")
    assert build_svg("ab\r\ncd\n").height == build_svg("ab\ncd").height == 41     # a carriage return is no line
    assert build_svg("o-->").wrapped().startswith(
        "<svg class='diagram' xmlns='http://www.w3.org/2000/svg' version='1.1' height='25' width='40' "
        "font-family='Menlo,Lucida Console,monospace'>\n<g transform='translate(8,16)'>\n")


def test_diagrams_goat_reads_what_cast_to_string_reads() -> None:
    goat = NAMESPACES["diagrams"].Goat
    assert goat(42).Inner == build_svg("42").body and goat(b"o--o").Width == build_svg("o--o").width == 40
    assert goat(None).Width == goat(["o--o"]).Width == goat({"a": "o"}).Width == 8     # no string: no diagram
