"""A theme's shortcode of a name Hugo has its own of (figure, details) runs on a site its own layouts render, as in
Hugo, where a theme's shortcode overrides Hugo's embedded one (a real blog's theme, tui, writes its figures with
loading="lazy"). tests/hugo_sites/theme_shortcodes built by the hugo binary and by blogbuild: every page the same
DOM. Under blogbuild's own theme its figure and details stay. A ref and a relref written as a link's destination
reach the theme's render-link hook and come out as the page's URLs (its braces, which a link's destination
percent-encodes, no longer hide the marker from the links stage), the ref's starting with the site's origin when
the hook reads it inside another shortcode's inner text, as Hugo renders that with its shortcodes done."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "theme_shortcodes"


def test_a_themes_figure_and_details_override_hugos_own(tmp_path: Path) -> None:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path)
    assert differing_pages(hugo, ours) == []
    page = ours["posts/a/index.html"].decode()
    assert '<figure class="theme"><img loading="lazy" src="/x.png"></figure>' in page
    assert '<details class="theme-details"><summary>More</summary>' in page
    assert '<a href="https://example.org/posts/b/" class="hooked">the other page</a>' in page
    assert '<a href="/posts/b/" class="hooked">again</a>' in page and "bbref" not in page
    # Inside a shortcode's inner text (RenderString of .Inner) the hook sees the permalink itself, where at the
    # top level it sees a placeholder: `strings.HasPrefix .Destination "http"` holds inside only, as in Hugo.
    noted = ours["posts/c/index.html"].decode()
    assert '<a href="https://example.org/posts/b/" class="hooked">outside</a>' in noted
    assert '<a href="https://example.org/posts/b/" class="hooked" target="_blank">inside</a>' in noted
