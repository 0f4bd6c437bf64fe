"""Hugo's template composition in the Go translator (gotemplate/): define, template, block, a page layout
through baseof.html, partials returning values, try, partialCached, templates.Exists and inline partials.
A fixture site of our own is built by Hugo 0.168 (the oracle) and each page (posts, the home page, a
section) must equal what render_layout makes of the layout and base hugo/layouts.py picks for it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from blogbuild.hugo.gotemplate import (GoSource, GoTemplateError, GoTemplates, PageInfo, Params, SiteInfo,
                                       UnsupportedField, load_go_templates, render, render_layout)
from blogbuild.hugo.layouts import LayoutStore, PageQuery, layout_folders, lookup, needs_base
from support.files import write_files
from support.hugo_run import hugo_build

BASEOF = """<!DOCTYPE html>
<html><head><title>{{ block "title" . }}{{ .Title }} | {{ site.Title }}{{ end }}</title></head>
<body class="{{ block "body-class" . }}plain{{ end }}" data-x='{{ block "data" . }}d{{ end }}'>
{{- block "main" . }}no main{{ end }}
{{ block "footer" . }}<footer>default footer {{ .Title }}</footer>{{ end }}
{{ block "aside" . }}<aside>default aside</aside>{{ end }}
{{ template "credit" }}
</body></html>
{{ define "credit" }}<p>credit [{{ . }}]</p>{{ end }}
"""

SINGLE = """{{/* a post */}}
{{ define "main" }}
<main>
<h1>{{ .Title }}</h1>
{{ $info := partial "info.html" . }}
<p class="info">{{ $info.title }} {{ $info.count }} {{ if $info.flag }}flag{{ end }} {{ range $info.list }}[{{ . }}]{{ end }}</p>
{{ range partial "pair.html" 2 }}<i>{{ . }}</i>{{ end }}
<p class="maybe">[{{ partial "maybe.html" 1 }}][{{ partial "maybe.html" 2 }}]</p>
{{ $s := partial "upper.html" "a<b" }}<p class="upper">{{ $s }}</p>
{{ if partial "isred.html" . }}<p>red</p>{{ else }}<p>not red</p>{{ end }}
{{ with try (partial "broken.html" .) }}{{ with .Err }}<p>broken failed</p>{{ else }}{{ .Value }}{{ end }}{{ end }}
{{ with try (partial "missing.html" .) }}{{ with .Err }}<p>missing failed</p>{{ else }}{{ .Value }}{{ end }}{{ end }}
{{ with try (partial "greeting.html" .) }}{{ with .Err }}<p>failed</p>{{ else }}{{ .Value }}{{ end }}{{ end }}
{{ $r := try (partial "info.html" .) }}<p class="try-value">{{ $r.Value.title }}</p>
<p class="cached">{{ partialCached "greeting.html" . .Title }}</p>
<p class="exists">{{ templates.Exists "partials/info.html" }} {{ templates.Exists "partials/nope.html" }} {{ templates.Exists "_default/single.html" }}</p>
{{ partial "inline/star.html" .Title }}{{ partial "moon" 1 }}{{ partial "greeting.html" . }}
{{ template "local" (dict "n" 3) }}
{{ $x := "outer" }}{{ template "scope" . }}
{{ template "tree" (dict "depth" 3) }}
{{ template "partials/greeting.html" . }}
{{ template "helper" 7 }}{{ partial "sun.html" 8 }}
</main>
{{ end }}
{{ define "title" }}{{ .Title }} (post){{ end }}
{{ define "body-class" }}post {{ .Title }}{{ end }}
{{ define "aside" }}   {{ end }}
{{ define "partials/inline/star.html" }}<span class="star">&#9733; {{ . }}</span>{{ end }}
{{ define "_partials/moon" }}<span class="moon">{{ . }}</span>{{ end }}
{{ define "partials/greeting.html" }}the file wins{{ end }}
{{ define "local" }}<ol>{{ range seq .n }}<li>{{ . }}</li>{{ end }}</ol>{{ end }}
{{ define "scope" }}{{ $x := "inner" }}<p class="scope">{{ $.Title }} {{ $x }}</p>{{ end }}
{{ define "tree" }}<ul><li>{{ .depth }}{{ if gt .depth 1 }}{{ template "tree" (dict "depth" (sub .depth 1)) }}{{ end }}</li></ul>{{ end }}
"""

SITE = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Site"\ndisableHugoGeneratorInject = true\n'
                 '[params]\ngreeting = "hello"\n',
    "layouts/_default/baseof.html": BASEOF,
    "layouts/_default/single.html": SINGLE,
    "layouts/_default/list.html": '{{ define "main" }}<h2>list {{ .Title }} {{ .Kind }}</h2>{{ end }}',
    "layouts/home.html": '{{ define "main" }}<h1>{{ .Title }} {{ .Kind }} {{ if .IsHome }}home{{ end }}</h1>'
                         '{{ partial "greeting.html" . }}{{ end }}{{ define "body-class" }}front{{ end }}',
    "content/_index.md": '---\ntitle: "Front"\n---\n',
    "content/posts/_index.md": '---\ntitle: "Posts"\n---\n',
    "layouts/partials/info.html": '{{ $r := dict "title" (upper .Title) "count" (len .Params.tags) "flag" true '
                                  '"list" (slice "a" "b") }}\n{{ return $r }}\n',
    "layouts/partials/upper.html": "{{ return (upper .) }}",
    "layouts/partials/pair.html": "{{ return (slice . (add . 1)) }}",
    "layouts/partials/maybe.html": '<b>text</b>{{ if eq . 1 }}{{ return "one" }}{{ end }}',
    "layouts/partials/isred.html": '{{ $red := eq .Params.color "red" }}{{ return $red }}',
    "layouts/partials/broken.html": '<p>before</p>{{ div 1 0 }}',
    "layouts/partials/greeting.html": "<p>{{ site.Params.greeting }} {{ .Title }}</p>",
    "layouts/partials/helpers.html": '{{ define "helper" }}<em>help {{ . }}</em>{{ end }}'
                                     '{{ define "partials/sun.html" }}<span class="sun">{{ . }}</span>{{ end }}',
    "content/posts/one.md": '---\ntitle: "One & <Only>"\ntags: [a, b]\ncolor: red\n---\nOne.\n',
    "content/posts/two.md": '---\ntitle: "Two"\ntags: [c]\n---\nTwo.\n',
}


def normalised(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("composition")
    site = write_files(root / "site", SITE)
    return site, hugo_build(site, root / "public")


def _page(title: str, params: dict, site: SiteInfo) -> PageInfo:
    return PageInfo(Title=title, Params=Params.of(params), Section="posts", site_info=site)


def test_a_layout_renders_through_its_base_as_hugo_renders_it(built: tuple[Path, Path]) -> None:
    """block defaults and overrides (an empty define keeps the default, as Go does), template with nil dot,
    partials returning a dict, a string, a bool; try over a failing, a missing and a working partial,
    partialCached with a variant, templates.Exists, an inline partial, a recursive define, `$` and
    variables inside a define: every post's page is Hugo's, with the layout and base the lookup picks."""
    site, public = built
    templates = load_go_templates(site, title="Site", params={"greeting": "hello"})
    store = LayoutStore(layout_folders(site))
    pages = {"one": _page("One & <Only>", {"tags": ["a", "b"], "color": "red"}, templates.site),
             "two": _page("Two", {"tags": ["c"]}, templates.site)}
    for name, page in pages.items():
        choice = lookup(store, PageQuery("page", f"posts/{name}"))
        assert (choice.template, choice.base) == (site / "layouts/_default/single.html",
                                                  site / "layouts/_default/baseof.html")
        base, single = (GoSource(path.relative_to(site).as_posix(), path.read_text(encoding="utf-8"))
                        for path in (choice.base, choice.template))
        ours = render_layout(base, single, page, templates.state(lambda text: text))
        theirs = (public / "posts" / name / "index.html").read_text(encoding="utf-8")
        assert normalised(ours) == normalised(theirs), name


@pytest.mark.parametrize("kind, path, title, output, layout", [
    ("home", "", "Front", "index.html", "layouts/home.html"),
    ("section", "posts", "Posts", "posts/index.html", "layouts/_default/list.html"),
])
def test_list_pages_render_with_the_layout_the_lookup_picks(built: tuple[Path, Path], kind: str, path: str,
                                                           title: str, output: str, layout: str) -> None:
    """The home page (home.html beside the classic _default/ files) and a section (_default/list.html), each
    through _default/baseof.html, are Hugo's pages."""
    site, public = built
    templates = load_go_templates(site, title="Site", params={"greeting": "hello"})
    choice = lookup(LayoutStore(layout_folders(site)), PageQuery(kind, path))
    assert (choice.template, choice.base) == (site / layout, site / "layouts/_default/baseof.html")
    base, chosen = (GoSource(file.relative_to(site).as_posix(), file.read_text(encoding="utf-8"))
                    for file in (choice.base, choice.template))
    page = PageInfo(Title=title, page_kind=kind, Section=path, site_info=templates.site)
    ours = render_layout(base, chosen, page, templates.state(lambda text: text))
    assert normalised(ours) == normalised((public / output).read_text(encoding="utf-8"))


def test_partial_cached_keeps_the_first_result_for_its_keys() -> None:
    """Hugo caches by the partial's name and the variant keys, not by the dot: the same keys give the first
    page's result again within one build; other keys render again."""
    templates = GoTemplates(partials={"t.html": GoSource("layouts/partials/t.html", "<i>{{ . }}</i>")})
    layout = GoSource("layouts/x.html", '{{ partialCached "t.html" . }}|{{ partialCached "t.html" . . }}')
    first = render(layout, "first", templates.state(str))
    second = render(layout, "second", templates.state(str))
    assert (first, second) == ("<i>first</i>|<i>first</i>", "<i>first</i>|<i>second</i>")


def test_a_template_calling_itself_stops_with_an_error() -> None:
    layout = GoSource("layouts/x.html", '{{ define "loop" }}{{ template "loop" . }}{{ end }}{{ template "loop" . }}')
    with pytest.raises(UnsupportedField, match="calling itself"):
        render(layout, None, GoTemplates().state(str))
    partial = GoTemplates(partials={"p.html": GoSource("layouts/partials/p.html", '{{ partial "p.html" . }}')})
    with pytest.raises(UnsupportedField, match="calling itself"):
        render(GoSource("layouts/x.html", '{{ partial "p.html" . }}'), None, partial.state(str))


def test_a_template_fanning_out_stops_at_the_call_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """30 calls at each of 5 levels is 24 million renders: the budget of calls per render stops it (here
    lowered, to be quick)."""
    from blogbuild.hugo.gotemplate import runner
    monkeypatch.setattr(runner, "MAX_CALLS", 2000)
    fan = GoSource("layouts/x.html", '{{ define "t" }}{{ if lt . 5 }}{{ $n := add . 1 }}{{ range seq 30 }}'
                                     '{{ template "t" $n }}{{ end }}{{ end }}{{ end }}{{ template "t" 0 }}')
    with pytest.raises(UnsupportedField, match="calls more than 2000"):
        render(fan, None, GoTemplates().state(str))


def test_a_missing_template_and_a_return_outside_a_partial_are_errors() -> None:
    from blogbuild.hugo.gotemplate import HugoFunctionError
    with pytest.raises(HugoFunctionError, match='no such template "nope"'):
        render(GoSource("layouts/x.html", '{{ template "nope" . }}'), None, GoTemplates().state(str))
    with pytest.raises(UnsupportedField, match="outside a partial"):
        render(GoSource("layouts/x.html", "{{ return 1 }}"), None, GoTemplates().state(str))
    with pytest.raises(UnsupportedField, match="internal template"):
        render(GoSource("layouts/x.html", '{{ template "_internal/pagination.html" . }}'), None,
               GoTemplates().state(str))


def test_a_layout_without_a_leading_define_renders_alone() -> None:
    """Hugo pairs a layout with baseof.html only when its first action (after comments) is a define."""
    base = GoSource("layouts/baseof.html", '<b>{{ block "main" . }}{{ end }}</b>')
    alone = GoSource("layouts/single.html", 'text {{ . }}{{ define "main" }}m{{ end }}')
    assert render_layout(base, alone, 1, GoTemplates().state(str)) == "text 1"
    through = GoSource("layouts/single.html", '{{- /* c */ -}}\n{{ define "main" }}m{{ . }}{{ end }}\n')
    assert render_layout(base, through, 1, GoTemplates().state(str)) == "<b>m1</b>"
    spaced = GoSource("layouts/single.html", '{{ /* not a comment to Hugo */ }}{{ define "main" }}m{{ end }}')
    assert needs_base(through.source) and not needs_base(spaced.source) and not needs_base("x{{ define \"a\" }}")
    trailing = GoSource("layouts/single.html", '{{ define "main" }}m{{ end }}trail')
    assert render_layout(base, trailing, 1, GoTemplates().state(str)) == "trail"   # as Hugo renders it


def test_a_template_called_in_an_attribute_is_escaped_for_it_and_must_stay_inside() -> None:
    base = GoSource("layouts/baseof.html", '<a title="{{ template "t" . }}">x</a>')
    inside = GoSource("layouts/single.html", '{{ define "t" }}a {{ . }}{{ end }}')
    assert render_layout(base, inside, '"<b>', GoTemplates().state(str)) == '<a title="a &#34;&lt;b&gt;">x</a>'
    leaving = GoSource("layouts/single.html", '{{ define "t" }}a" onclick="{{ . }}{{ end }}')
    with pytest.raises(UnsupportedField, match="leaves the attribute"):
        render_layout(base, leaving, 1, GoTemplates().state(str))


def test_a_bad_define_names_its_place() -> None:
    source = GoSource("layouts/single.html", '{{ define "main" }}\n  {{ with .x }}{{ end }\n{{ end }}')
    error = source.error
    assert isinstance(error, GoTemplateError)
    assert source.where(error).startswith("layouts/single.html:2:")
    twice = GoSource("layouts/single.html", '{{ define "a" }}x{{ end }}\n{{ define "a" }}y{{ end }}')
    assert twice.error is not None and (twice.error.line, twice.error.column) == (2, 4)
    assert 'multiple definition of template "a"' in twice.error.message


def test_a_render_through_a_base_names_the_file_that_cannot_be_read() -> None:
    """render_layout reads two files: its error says which, at line:col, with the construct."""
    base = GoSource("layouts/_default/baseof.html", '<main>\n{{ block "main" . }}{{ if }}{{ end }}</main>')
    layout = GoSource("layouts/_default/single.html", '{{ define "main" }}m{{ end }}')
    with pytest.raises(GoTemplateError) as caught:
        render_layout(base, layout, None, GoTemplates().state(str))
    assert str(caught.value).startswith("layouts/_default/baseof.html:2:")
