"""absURL as Hugo writes it: a relative URL joined to the base URL (from the root: to its host) and written as
Go's url.URL writes it, its path and fragment percent-encoded and its query as written ("<link or path>, x" is
.../%3Clink%20or%20path%3E,%20x: PaperMod's placeholder image in og:image), a URL with a scheme as it is;
relURL encodes nothing. tests/hugo_sites/url_escaping built by the hugo binary and by blogbuild: the same
page."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.hugo_build import blogbuild_files, copy_site, hugo_files

from blogbuild.hugo.gotemplate.go_url import make_permalink

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "url_escaping"


def test_abs_and_rel_urls_are_hugos(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, _warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    assert ours["index.html"] == hugo["index.html"]
    assert b"abs=[https://example.org/blog/%3Clink%20or%20path%3E,%20x]" in ours["index.html"]


@pytest.mark.parametrize(("url", "written"), [
    ("a/../b/./c//d/", "https://h.test/base/b/c/d/"),
    ("", "https://h.test/base/"),
    ("x?", "https://h.test/base/x"),
    ("bad%zz", "bad%zz"),                 # Go cannot parse it: as it is
    ("1a:b", "1a:b"),                     # a colon in the first segment: as it is
    ("tab\there", "tab\there"),
    ("p#a b!(c)", "https://h.test/base/p#a%20b!(c)"),
])
def test_go_joins_and_writes_the_url(url: str, written: str) -> None:
    assert make_permalink("https://h.test/base/", url) == written


def test_a_kept_url_keeps_the_type_it_was_given() -> None:
    # URLs are kept by their text; a marked-safe text equal to a plain one must not get the plain one's result
    # (nor the plain one the safe one's: a value marked safe is not escaped again).
    from types import SimpleNamespace

    from markupsafe import Markup

    from blogbuild.hugo.gotemplate.translations import lang_url
    for first, second in (("a:b/c", Markup("a:b/c")), (Markup("x:y"), "x:y")):
        assert type(make_permalink("https://h.test/", first)) is type(first)
        assert type(make_permalink("https://h.test/", second)) is type(second)
    config = SimpleNamespace(language="en", languages=[SimpleNamespace(key="en", prefix="en/")])
    site = SimpleNamespace(config=config, base_path="/", abs_url=lambda path: "https://h.test" + path)
    plain, safe = lang_url(site, "/a", absolute=False), lang_url(site, Markup("/a"), absolute=False)
    assert plain == safe == "/en/a" and type(plain) is str
