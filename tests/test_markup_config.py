"""The `markup:` section (Hugo's names) read into MarkupConfig: values, Hugo's defaults, errors at path:line."""
from __future__ import annotations

from pathlib import Path

import pytest

from blogbuild.config import load_config
from blogbuild.core.errors import SourceError
from blogbuild.config.markup import MarkupConfig, markup_from_mapping

FULL = r"""title: x
markup:
  goldmark:
    renderer:
      hardWraps: true
      unsafe: true
    extensions:
      linkify: true
      linkifyProtocol: http
      typographer:
        disable: false
      passthrough:
        enable: true
        delimiters:
          block: [['\[', '\]'], ['$$', '$$']]
          inline: [['\(', '\)']]
    parser:
      autoHeadingIDType: github-ascii
      attribute: {block: true, title: false}
  tableOfContents: {startLevel: 2, endLevel: 4, ordered: true}
  highlight: {lineNos: true, lineNoStart: 5, lineNumbersInTable: false, style: monokai}
enableEmoji: true
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "blogbuild.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_setting_is_read(tmp_path: Path) -> None:
    markup = load_config(write(tmp_path, FULL)).markup
    assert markup == MarkupConfig(
        hard_wraps=True, linkify=True, linkify_protocol="http", typographer=True, block_attributes=True,
        title_attributes=False, heading_id_type="github-ascii", inline_math=(("\\(", "\\)"),),
        block_math=(("\\[", "\\]"), ("$$", "$$")), passthrough=True, toc_start_level=2, toc_end_level=4,
        toc_ordered=True, line_numbers=True, line_number_start=5, line_numbers_in_table=False, enable_emoji=True,
        math_config="blogbuild.yaml", ignored=("markup.highlight.style",), goldmark_unsafe=True,
        # the whole of markup.highlight, for Chroma on a site its own layouts render
        highlight=(("linenos", True), ("linenostart", 5), ("linenumbersintable", False), ("style", "monokai")))


def test_keys_are_matched_in_any_case_as_hugo_does() -> None:
    markup = markup_from_mapping({"Goldmark": {"Renderer": {"HARDWRAPS": True}}})
    assert markup.hard_wraps


def test_defaults_blogbuild_and_hugo() -> None:
    assert markup_from_mapping(None) == MarkupConfig()
    hugo = markup_from_mapping({}, hugo=True)
    assert (hugo.typographer, hugo.linkify, hugo.heading_id_type, hugo.toc_start_level, hugo.toc_end_level,
            hugo.line_numbers_in_table) == (True, True, "github", 2, 3, True)
    assert markup_from_mapping({"goldmark": {"extensions": {"typographer": {"disable": True}}}}, hugo=True).typographer is False


@pytest.mark.parametrize("text, line, message", [
    ("markup:\n  goldmark:\n    renderer:\n      hardwrap: true\n", 4, "did you mean 'hardWraps'?"),
    ("markup:\n  goldmarc: {}\n", 2, "did you mean 'goldmark'?"),
    ("markup:\n  tableOfContents:\n    startLevel: 9\n", 3, "startLevel must be a heading level from 1 to 6"),
    ("markup:\n  tableOfContents:\n    startLevel: 4\n    endLevel: 2\n", 3, "make startLevel <= endLevel"),
    ("markup:\n  goldmark:\n    parser:\n      autoHeadingIDType: gitlab\n", 4, "github, github-ascii, blackfriday"),
    ("markup:\n  goldmark:\n    renderer:\n      hardWraps: 'yes'\n", 4, "must be true or false"),
    ("markup:\n  goldmark:\n    extensions:\n      passthrough:\n        enable: true\n        delimiters:\n"
     "          inline: [['@@', '@@']]\n", 7, "is not a math delimiter blogbuild knows"),
    ("markup: 3\n", 1, "markup must be a mapping"),
])
def test_errors_name_the_line_and_the_fix(tmp_path: Path, text: str, line: int, message: str) -> None:
    with pytest.raises(SourceError) as caught:
        load_config(write(tmp_path, text))
    assert caught.value.line == line
    assert message in str(caught.value)


def test_settings_read_but_not_applied_are_one_notice(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "markup:\n  highlight: {style: monokai, noClasses: false}\n"))
    assert config.notices == ("markup settings blogbuild reads but does not apply: markup.highlight.style, "
                              "markup.highlight.noClasses",)
    assert load_config(write(tmp_path, "markup:\n  highlight: {lineNos: true}\n")).notices == ()


def test_extensions_blogbuild_always_has_are_not_reported_when_on() -> None:
    # Hugo's defaults, as `hugo config` prints them: every one is what blogbuild does anyway.
    on = {"goldmark": {"extensions": {
        "table": True, "strikethrough": True, "taskList": True, "definitionList": True,
        "footnote": {"enable": True, "backlinkHTML": "&#x21a9;&#xfe0e;"},
        "extras": {"delete": {"enable": False}, "insert": {"enable": False}, "mark": {"enable": False},
                   "subscript": {"enable": False}, "superscript": {"enable": False}}}}}
    assert markup_from_mapping(on).ignored == ()
    assert markup_from_mapping({"goldmark": {"extensions": {"footnote": True}}}).ignored == ()


def test_extensions_turned_off_or_changed_are_reported() -> None:
    changed = {"goldmark": {"extensions": {
        "table": False, "footnote": {"enable": True, "backlinkHTML": "^"}, "extras": {"mark": {"enable": True}}}}}
    assert markup_from_mapping(changed).ignored == (
        "markup.goldmark.extensions.table", "markup.goldmark.extensions.footnote.backlinkHTML",
        "markup.goldmark.extensions.extras.mark")
