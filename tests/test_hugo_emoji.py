"""Emoji as Hugo 0.168 writes them, on a Hugo site its own layouts render: tests/hugo_sites/emoji built by the
hugo binary and by blogbuild, every page the same bytes.

- Markdown with enableEmoji: goldmark-emoji 1.0.6's GitHub set (`:kiss:` 💋, `:couplekiss:` 💏; the names
  other tables add, `:person_with_pouting_face:`, `:t_rex:`, skin tones, stay text), each code point written
  as an entity (`&#x1f604;`, `&zwj;`); names beside each other, inside words, links, headings (their ids and the
  table of contents), tables (the DOM: Hugo indents a table's rows) and lists; none in code, escaped colons or a link's address.
- The `emojify` function in a layout and a shortcode: kyokomi/emoji 2.2.14's code map (`:AB_button_(blood_type):`,
  `:thumbsup_tone5:`) scanned as helpers.Emojify scans, whose pairing of colons depends on the text before them.
"""
from __future__ import annotations

import re
from pathlib import Path

from support.dom import dom_tokens
from support.hugo_build import built_by_both

from blogbuild.config import SiteConfig
from blogbuild.config.markup import markup_from_mapping
from blogbuild.markdown import render_markdown
from blogbuild.markdown.emoji import emoji_entities, emojify, github_emoji

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "emoji"
_GENERATOR = re.compile(rb'\s*<meta name="generator" content="[^"]*">')


def test_every_page_is_the_bytes_hugo_writes(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert {"posts/markdown/index.html", "posts/emojify/index.html"} <= set(pages)
    for page in pages:
        theirs, mine = _GENERATOR.sub(b"", hugo[page]).decode(), _GENERATOR.sub(b"", ours[page]).decode()
        if page == "posts/tables/index.html":
            # Hugo's embedded table hook indents its rows with tabs: the same DOM, cells with and without
            # alignment (a cell its row left out has none) holding emoji.
            assert dom_tokens(mine) == dom_tokens(theirs), page
        else:
            assert mine == theirs, page
    markdown = ours["posts/markdown/index.html"].decode()
    assert "&#x1f48b; &#x1f48f;" in markdown and ":person_with_pouting_face:" in markdown
    assert "<li>💏 :kiss: ☂️ ☃️" in ours["posts/emojify/index.html"].decode()


def test_the_tables_are_hugos() -> None:
    names = github_emoji()
    assert names["kiss"].characters == "\U0001f48b" and names["couplekiss"].characters == "\U0001f48f"
    assert "person_with_pouting_face" not in names and "thumbsup_tone5" not in names
    assert emojify(":person_with_pouting_face:") == "🙎‍♀️" and emojify(":thumbsup_tone5:") == "👍🏿"
    # The scan goes on from the name's length past where it started, counted in the text before the change.
    assert emojify(":thumbsup_tone5: :person_with_pouting_face:") == "👍🏿 :person_with_pouting_face:"
    assert emoji_entities("👩‍💻") == "&#x1f469;&zwj;&#x1f4bb;"


def test_emojify_pairs_colons_as_hugo_does() -> None:
    assert emojify(":smile::smile::smile:") == "😄:smile:😄"
    assert emojify("::smile::") == ":😄:"
    assert emojify("a :smile b :smile:") == "a :smile b 😄"
    assert emojify("12:30:smile:") == "12:30😄"
    assert emojify(":couplekiss: :kiss: :umbrella:") == "💏 :kiss: ☂️"   # the second pair of colons is " "


def test_the_default_theme_writes_the_characters_of_githubs_names() -> None:
    config = SiteConfig(markup=markup_from_mapping({"enableEmoji": True}, hugo=True))
    html = render_markdown(":kiss: :couplekiss: :person_with_pouting_face: :+1:", config=config).html
    assert html == "<p>💋 💏 :person_with_pouting_face: 👍</p>\n"


def test_the_generator_reads_the_go_sources() -> None:
    """scripts/vendor_emoji.py: Go string literals, github.gen.go's packed fields and the code map's pairs."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("vendor_emoji", FIXTURE.parents[2] / "scripts" / "vendor_emoji.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.go_string(r"\x0d\u00e9é\"\\\U0001f604") == b"\r\xc3\xa9\xc3\xa9\"\\\xf0\x9f\x98\x84"
    generated = "\n".join([
        "const _githubLength = 2",
        'const _githubName string = "grinning facered heart"',
        r'const _githubNameIndex  = "\x0d\x09"',
        'var _githubShortNames = [...]string{"grinning", "heart", "red_heart"}',
        r'var _githubShortNamesIndex  = "\x01\x02"',
        "var _githubUnicode = [...]int32{128512, 10084, 65039}",
        r'var _githubUnicodeIndex  = "\x01\x02"',
    ])
    assert script.goldmark_emoji_table(generated) == [["grinning face", "😀", "grinning"],
                                                      ["red heart", "❤️", "heart", "red_heart"]]
    code_map = ('\t\temojiCodeMap = map[string]string{\n\t\t\t":+1:":  "\\U0001f44d",\n'
                '\t\t\t":hash:": "#\\ufe0f\\u20e3",\n\t\t}\n')
    assert script.kyokomi_code_map(code_map) == {":+1:": "👍", ":hash:": "#\ufe0f\u20e3"}
