"""A Hugo page that loads KaTeX from a CDN loads blogbuild's own copy instead (site_theme._local_katex): the site
builds and reads offline, and the version is the one its formulas were typeset with. The CDNs' URLs name the
package in either case (jsDelivr's and unpkg's `katex@`, cdnjs's `KaTeX/`); a page that names none is left as it
is, without its tags being looked at one by one."""
from __future__ import annotations

from blogbuild.config import SiteConfig
from blogbuild.hugo.site_theme import _local_katex

TAGS = {
    '<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/katex.min.css" '
    'integrity="sha384-x" crossorigin="anonymous">': '<link rel="stylesheet" href="/vendor/katex-0.19.1/katex.min.css">',
    '<script defer src="//cdn.jsdelivr.net/npm/KATEX@0.16.9/dist/contrib/auto-render.min.js"></script>':
        '<script defer src="/vendor/katex-0.19.1/contrib/auto-render.min.js"></script>',
    "<script src='https://unpkg.com/katex@0.16.9/dist/katex.js'></script>":
        "<script src='/vendor/katex-0.19.1/katex.min.js'></script>",
}
FONTS = '<link rel="stylesheet" href="https://fonts.example/css?family=Lato">'


def test_each_cdn_s_katex_becomes_the_vendored_copy_whatever_the_case_of_its_url() -> None:
    for tag, local in TAGS.items():   # each alone: a page holding one of them
        assert _local_katex(f"<head>\n{FONTS}\n{tag}\n</head>", SiteConfig()) == f"<head>\n{FONTS}\n{local}\n</head>"


def test_a_page_that_names_no_cdn_katex_is_returned_as_it_is() -> None:
    page = ('<p><span class="katex"><span class="katex-mathml">x</span></span> '
            '<a href="https://example.org/katex-notes/">notes on katex</a></p>')
    assert _local_katex(page, SiteConfig()) is page


def test_every_tag_of_a_page_is_replaced_and_a_link_to_katex_s_site_is_kept() -> None:
    tags, local = "\n".join(TAGS), "\n".join(TAGS.values())
    for text in ('<p>See <a href="https://github.com/KaTeX/KaTeX">KaTeX</a>.</p>', "<p>No link.</p>"):
        page = f"<head>\n{tags}\n</head>\n{text}\n{tags}\n"
        assert _local_katex(page, SiteConfig()) == f"<head>\n{local}\n</head>\n{text}\n{local}\n"
