"""Page paths with a "." or percent-escapes in them: tests/hugo_sites/permalink_names, built by the hugo binary
and by blogbuild, publishes the same files and its pages link to the same URLs. A permalink pattern's page is
always a folder ("/2024/01/02/py3.12/", "/n/v2.0/" from "/n/:slug"); a front matter url is a file only when its
last part has a "." and no "/" ends it; percent-escapes in a file's name are decoded in its permalink, as Hugo
decodes them ("%E5%BD%93%E6%99%BA%E.md" is /…/当智e/)."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.hugo_build import built_by_both

from blogbuild.content.posts import clean_url, expand_permalink
from blogbuild.core.urls import unescape_path

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "permalink_names"


def test_every_page_is_published_where_hugo_publishes_it(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert sorted(set(ours) - {"css/syntax.css"}) == sorted(hugo) and warnings == []
    assert "2024/01/02/py3.12/index.html" in ours and "n/v2.0/index.html" in ours and "u/v6.6/index.html" in ours
    assert "2024/01/11/当智e/index.html" in ours and "u/page.html" in ours
    for path in ("2024/02/10/ai-深度/", "2024/02/11/c-tips/", "2024/02/12/w--x/", "2024/02/13/-lead/",
                 "2024/02/14/trail-/", "2024/02/15/a--b/", "2024/02/16/m@n/", "2024/02/17/p+q/", "2024/02/18/-plus/",
                 "n/note-three-c--ai-深度-@home/", "2024/02/19/a-file-name-longer-than-one-hundred-characters-as-a-"
                 "blog-keeps-a-whole-title-in-it-which-hugo-publishes-whole/"):
        assert path + "index.html" in ours, path
    for listing in ("index.html", "posts/index.html"):   # every page's RelPermalink, as the layouts print them
        assert ours[listing] == hugo[listing], listing


@pytest.mark.parametrize(("text", "decoded"), [
    ("%E4%BB%8A%2", "今%2"), ("a%41b", "aAb"), ("50%", "50%"), ("x%zzy", "x%zzy"), ("sl%2Fash", "sl/ash"),
    ("%E5%BD", "\ufffd"), ("plain", "plain"),
])
def test_only_whole_escapes_are_decoded(text: str, decoded: str) -> None:
    assert unescape_path(text) == decoded


@pytest.mark.parametrize(("url", "folder", "made"), [
    ("/u/v6.6/", False, "/u/v6.6/"), ("/u/v6.6", False, "/u/v6.6"), ("/u/page", False, "/u/page/"),
    ("/n/v2.0", True, "/n/v2.0/"), ("/old/page.html", False, "/old/page.html"),
])
def test_a_url_names_a_folder_when_it_ends_in_a_slash(url: str, folder: bool, made: str) -> None:
    assert clean_url(url, path="x.md", line=1, folder=folder) == made


@pytest.mark.parametrize(("name", "path"), [   # each as Hugo 0.168 published it under /:contentbasename/:year/
    ("a+b%zz", "/a-bzz/2024/"), ("u+-v", "/u-v/2024/"), ("a-+-b", "/a--b/2024/"), ("tail+", "/tail-/2024/"),
    ("r%2bs+t", "/r+s-t/2024/"), ("y%20z+1", "/y-z-1/2024/"), ("k@l+m", "/k@l-m/2024/"), ("a - b", "/a-b/2024/"),
    ("Ünï Çödé", "/ünï-çödé/2024/"), ("(paren)", "/paren/2024/"), ("a,b", "/ab/2024/"), ("a~b", "/a~b/2024/"),
])
def test_a_permalink_is_sanitized_decoded_and_sanitized_again(name: str, path: str) -> None:
    assert expand_permalink("/:contentbasename/:year/", rel_path=f"posts/{name}.md", slug=None, title="T",
                            date=datetime(2024, 1, 1, tzinfo=timezone.utc)) == path
