"""Shortcodes: built-ins, site templates, unknown ones, code immunity, refs, line numbers."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blogbuild.core.errors import SourceError
from blogbuild.markdown import render_markdown
from blogbuild.markdown.shortcodes import builtin_shortcodes, load_shortcodes, parse_arguments, resolve_refs

from support.fixtures import read_fixtures

FIXTURES = Path(__file__).parent / "fixtures" / "shortcodes"
# The site's templates first, the theme's second: the site wins.
TEMPLATE_DIRS = (FIXTURES / "site", FIXTURES / "theme")


@pytest.fixture(scope="module")
def shortcodes():
    return load_shortcodes(TEMPLATE_DIRS)


@pytest.mark.parametrize("source, expected", [
    pytest.param(source, expected, id=title[:70]) for title, source, expected in read_fixtures(FIXTURES / "cases.md")])
def test_fixture(shortcodes, source: str, expected: str) -> None:
    assert render_markdown(source, path="post.md", shortcodes=shortcodes).html == expected


def test_earlier_template_dir_wins(shortcodes) -> None:
    html = render_markdown("{{< note >}}x{{< /note >}}", shortcodes=shortcodes).html
    assert '<aside class="note' in html and "theme-note" not in html
    only_theme = load_shortcodes([FIXTURES / "theme"])
    assert '<div class="theme-note">x</div>' in render_markdown("{{< note >}}x{{< /note >}}", shortcodes=only_theme).html


def test_site_template_overrides_builtin(tmp_path: Path) -> None:
    (tmp_path / "shortcodes").mkdir()
    (tmp_path / "shortcodes" / "figure.html").write_text('<img class="mine" src="{{ params.src }}">\n', encoding="utf-8")
    result = render_markdown('{{< figure src="a.png" >}}', shortcodes=load_shortcodes([tmp_path]))
    assert result.html == '<img class="mine" src="a.png">\n'


def test_none_means_builtins_only() -> None:
    html = render_markdown('{{< figure src="a.png" >}}').html
    assert html.startswith('<figure><img src="a.png"')
    assert builtin_shortcodes().templates == {}


def test_unknown_shortcode_warns_with_file_line() -> None:
    body = "Intro.\n\n{{% mystery %}}\nStill **here**.\n{{% /mystery %}}\n\n{{< other x >}}\n"
    result = render_markdown(body, path="content/posts/p.md", line_offset=5)
    assert [str(warning) for warning in result.warnings] == [
        "content/posts/p.md:8: warning: unknown shortcode 'mystery'; add templates/shortcodes/mystery.html "
        "or remove it",
        "content/posts/p.md:12: warning: unknown shortcode 'other'; add templates/shortcodes/other.html "
        "or remove it",
    ]
    assert "<strong>here</strong>" in result.html


def test_warnings_inside_and_after_shortcodes_keep_file_lines() -> None:
    body = ("{{% details summary=\"s\" %}}\n"      # body line 1
            "one\n"
            "{{< nested >}}\n"                       # body line 3: unknown, inside the inner
            "{{% /details %}}\n"
            "\n"
            "```python\n"                            # body line 6: never closed
            "x = 1\n")
    result = render_markdown(body, path="p.md", line_offset=2)
    assert [(warning.line, warning.message.split(";")[0]) for warning in result.warnings] == [
        (5, "unknown shortcode 'nested'"),
        (8, "code fence '```' is never closed"),
    ]


def test_shortcodes_in_code_are_not_run_or_warned_about() -> None:
    body = "```\n{{< unknown >}}\n{{% rawhtml %}}<b>{{% /rawhtml %}}\n```\n\n`{{< unknown2 >}}`\n\n    {{< unknown3 >}}\n"
    result = render_markdown(body)
    assert result.warnings == ()
    assert "<b>" not in result.html
    assert "{{&lt; unknown &gt;}}" in result.html and "{{&lt; unknown3 &gt;}}" in result.html


def test_placeholder_text_written_by_the_author_is_kept() -> None:
    body = "BBSC0X and BBSC1X stay.\n\n{{< figure src=\"a.png\" >}}\n"
    html = render_markdown(body).html
    assert html.startswith("<p>BBSC0X and BBSC1X stay.</p>")
    assert '<img src="a.png"' in html


def test_shortcode_in_a_heading_stays_out_of_the_id(shortcodes) -> None:
    result = render_markdown('## Release {{< badge "new" >}}\n', shortcodes=shortcodes)
    assert result.html.startswith('<h2 id="release">Release <span class="badge" title="">new</span>')
    assert [(entry.id, entry.text) for entry in result.toc] == [("release", "Release new")]


def test_flags_from_shortcodes() -> None:
    assert render_markdown("{{< highlight go >}}\nx := 1\n{{< /highlight >}}\n").has_code
    assert render_markdown('{{% details summary="s" %}}\n$x$\n{{% /details %}}\n').has_math
    assert render_markdown('{{< figure src="a.png" caption="$y$" >}}').has_math


def test_resolve_refs_replaces_markers_and_reports_unknown_pages() -> None:
    body = "Intro.\n\n[a]({{< ref \"posts/b.md\" >}}) [b]({{< relref \"posts/b.md#part-2\" >}})\n\n[c]({{< ref \"nope.md\" >}})\n"
    result = render_markdown(body, path="content/posts/a.md", line_offset=3)
    pages = {"posts/b.md": "/posts/b/"}
    html, errors = resolve_refs(result.html, pages.get, path="content/posts/a.md")
    assert '<a href="/posts/b/">a</a> <a href="/posts/b/#part-2">b</a>' in html
    assert "bbref" not in html
    assert [str(error) for error in errors] == [
        "content/posts/a.md:8: shortcode: ref 'nope.md' names no page; check the path relative to content/"]


def test_resolve_refs_without_markers_is_identity() -> None:
    assert resolve_refs("<p>x</p>", lambda path: None, path="a.md") == ("<p>x</p>", ())


def test_ref_path_with_cjk_and_spaces_round_trips() -> None:
    html = render_markdown('[x]({{< ref "文章/my post.md" >}})').html
    seen = []
    resolved, errors = resolve_refs(html, lambda path: seen.append(path) or "/u/", path="a.md")
    assert seen == ["文章/my post.md"] and errors == () and 'href="/u/"' in resolved


def test_template_error_is_a_source_error_naming_content_and_template(shortcodes) -> None:
    with pytest.raises(SourceError) as caught:
        render_markdown("Intro.\n\n{{< broken >}}\n", path="content/posts/p.md", line_offset=4, shortcodes=shortcodes)
    message = str(caught.value)
    assert message.startswith("content/posts/p.md:7: shortcode: shortcode 'broken' failed in ")
    assert "broken.html" in message


@pytest.mark.parametrize("body, line, opening", [
    ("Intro.\n\n{{< rawhtml >}}\n<b>x</b>\n", 7, "{{< /rawhtml >}}"),
    ("{{% details summary=\"S\" %}}\ntext\n", 5, "{{% /details %}}"),
    ("a\n{{< highlight go >}}\nx := 1\n{{< rawhtml >}}<i>y</i>{{< /rawhtml >}}\n", 6, "{{< /highlight >}}"),
])
def test_unclosed_shortcode_taking_inner_content_is_an_error_at_its_line(body: str, line: int, opening: str) -> None:
    """Hugo's rule: a shortcode whose template uses the inner content must be closed or self-closed; without
    --strict, at the opening tag's line, saying what to add."""
    with pytest.raises(SourceError) as caught:
        render_markdown(body, path="content/posts/p.md", line_offset=4)
    assert caught.value.line == line
    assert "must be closed or self-closed" in caught.value.message and opening in caught.value.message


def test_site_shortcode_is_closed_only_if_its_template_uses_inner(tmp_path: Path) -> None:
    """A site template that uses inner (or inner_text) must be closed; one that does not may stand alone."""
    (tmp_path / "shortcodes").mkdir()
    (tmp_path / "shortcodes" / "box.html").write_text("<div>{{ inner }}</div>", encoding="utf-8")
    (tmp_path / "shortcodes" / "raw.html").write_text("<pre>{{ inner_text }}</pre>", encoding="utf-8")
    (tmp_path / "shortcodes" / "video.html").write_text('<video src="{{ args[0] }}"></video>', encoding="utf-8")
    shortcodes = load_shortcodes([tmp_path])
    for name in ("box", "raw"):
        with pytest.raises(SourceError, match="must be closed"):
            render_markdown(f"{{{{< {name} >}}}}\ntext\n", shortcodes=shortcodes)
        assert render_markdown(f"{{{{< {name} />}}}}\n", shortcodes=shortcodes).warnings == ()
    assert '<video src="v.mp4">' in render_markdown('{{< video "v.mp4" >}}\n', shortcodes=shortcodes).html


def test_unclosed_shortcode_in_code_or_escaped_is_not_an_error() -> None:
    body = "```\n{{< rawhtml >}}\n```\n\nInline `{{< details >}}` and {{</* rawhtml */>}} as text.\n"
    html = render_markdown(body).html
    assert "{{&lt; rawhtml &gt;}}" in html and "{{&lt; details &gt;}}" in html


def test_template_syntax_error_names_the_template_line(tmp_path: Path) -> None:
    (tmp_path / "shortcodes").mkdir()
    (tmp_path / "shortcodes" / "bad.html").write_text("<p>\n{% if %}\n</p>\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_shortcodes([tmp_path])
    assert caught.value.path.endswith("bad.html") and caught.value.line == 2


def test_shortcode_set_pickles_for_worker_processes(shortcodes) -> None:
    import pickle

    copy = pickle.loads(pickle.dumps(shortcodes))
    assert render_markdown("{{< note >}}x{{< /note >}}", shortcodes=copy).html == \
        render_markdown("{{< note >}}x{{< /note >}}", shortcodes=shortcodes).html


def test_missing_template_dirs_are_skipped(tmp_path: Path) -> None:
    assert load_shortcodes([tmp_path / "none", tmp_path]).templates == {}


def test_parse_arguments() -> None:
    assert parse_arguments(' a "b c" key="v \\"q\\"" other=w `raw "x"` ') == (
        ("a", "b c", 'raw "x"'), {"key": 'v "q"', "other": "w"})
    assert parse_arguments("") == ((), {})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["{{<", ">}}", "{{%", "%}}", " /", "/", " note", " figure", " details", " x",
                                 ' "a b"', " k=v", "```\n", "`", "\n", "\n\n", "$", "text", "- ", "> ", "**"]),
                max_size=40))
def test_any_shortcode_soup_renders(pieces: list[str]) -> None:
    body = "".join(pieces)
    try:
        result = render_markdown(body, path="p.md", shortcodes=load_shortcodes([FIXTURES / "theme"]))
    except SourceError as error:   # refusals: an open tag that must be closed, a built-in's missing argument
        assert error.stage == "shortcode"
        assert "must be closed or self-closed" in error.message or "needs" in error.message
        assert 1 <= error.line <= body.count("\n") + 1
        return
    assert isinstance(result.html, str)
    assert "BBSC" not in result.html   # no placeholder leaks into the page
    for warning in result.warnings:
        assert 1 <= warning.line <= body.count("\n") + 1
