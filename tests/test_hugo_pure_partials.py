"""A partial that reads only its page and the site runs once per page a build gives it (purity.py); what reads
more runs at every call. tests/hugo_sites/pure_partials lists its posts on the home page, the section and
each tag through both kinds, built by the hugo binary and by blogbuild: every page's DOM is Hugo's, so a
result kept where it must not be (a page's Store that changed, the page being rendered, the template that
called, a callee that reads them) shows as a difference."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

from blogbuild.hugo.gotemplate.purity import is_pure, local_calls

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "pure_partials"
PARTIALS = FIXTURE / "layouts" / "partials"


class _Source:
    def __init__(self, path: Path) -> None:
        self.source = path.read_text(encoding="utf-8")


def test_every_page_is_hugos_whichever_partials_are_kept(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert warnings == []
    assert differing_pages(hugo, ours) == []
    home = ours["index.html"].decode()
    assert "before then after" in home and "_partials/caller_a.html: Post number 1 / _partials/caller_b.html: Post number 1" in home
    assert "Post number 2 on Pure partials" in home and "Post number 2 on Posts" in ours["posts/index.html"].decode()
    assert "3 then 4" in home and "Guest Writer" in home


def test_a_partial_is_pure_when_it_and_its_callees_read_only_the_page_and_the_site() -> None:
    partials = {path.name: _Source(path) for path in PARTIALS.glob("*.html")}
    known: dict[str, bool] = {}
    pure = sorted(name for name in partials if is_pure(name, partials, known))
    assert pure == ["author.html", "label.html", "meta.html", "words.html"]
    assert local_calls(partials["wrapper.html"].source) == ("rendered_from.html",)   # pure alone, not its callee


def test_the_words_that_make_a_partial_impure() -> None:
    pure = ['{{ .Title }}', '{{ $s := newScratch }}{{ $s.Set "a" 1 }}', '{{ partial "x.html" . }}',
            '{{ .Date.Format "2006" }} {{ i18n "words" .WordCount }}', '{{/* page.Title .Store */}}{{ .Title }}',
            '<p>page Store now</p>{{ $page := . }}{{ $page.Title }}']
    impure = ['{{ .Scratch.Get "a" }}', '{{ .Page.Store.Get "a" }}', '{{ hugo.Store.Get "a" }}', '{{ page.Title }}',
              '{{ templates.Current.Name }}', '{{ .Paginator.PageNumber }}', '{{ .Render "summary" }}',
              '{{ .RenderString "*a*" }}', '{{ markdownify .Title }}', '{{ template "x" . }}',
              '{{ (.Resources.Get "a.png").Permalink }}', '{{ (resources.Get "a.css").RelPermalink }}',
              '{{ ($img.Resize "100x").RelPermalink }}', '{{ now.Year }}', '{{ range shuffle .Pages }}{{ end }}',
              '{{ warnf "x" }}', '{{ partial (printf "%s.html" .Type) . }}', '{{ .IsMenuCurrent "main" . }}',
              '{{ os.ReadFile "a" }}', '{{ readFile "a" }}']
    assert [text for text in pure if local_calls(text) is None] == []
    assert [text for text in impure if local_calls(text) is not None] == []
