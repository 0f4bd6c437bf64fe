"""What a real Ananke blog needs of Hugo's rules for its own theme to run and look as Hugo builds it, each built by
the hugo binary and by blogbuild (every page the same DOM):

- `{{ template }}` and `{{ block }}` inside an HTML comment (Ananke's single.html keeps an old comments block in
  one): the call runs and writes nothing, so what it sets (.Scratch) holds after it
  (tests/hugo_sites/template_in_comment);
- `{{ with partial … }}`, which Hugo 0.153 and later turn into a partial decorator: when the partial gives a falsy
  value, the else part first prints the decorator's pop (an empty safeJS) where the `with` stands, which inside a
  tag html/template writes as ZgotmplZ (Ananke's `<html lang="en-US"ZgotmplZ>`), and elsewhere as nothing; a
  piped partial, a partial held in a variable first, an `if`, and a body that breaks its loop are not turned
  (tests/hugo_sites/partial_with);
- a language's `title = ""` is the site's title, empty, over the top-level one (`.Site.Title` is "" too where no
  title is set; blogbuild's own theme keeps its default then)."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

SITES = Path(__file__).resolve().parent / "hugo_sites"


def test_a_template_called_inside_a_comment_runs_and_writes_nothing(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(SITES / "template_in_comment", tmp_path)
    assert not [warning for warning in warnings if "translator" in str(warning) or "default theme" in str(warning)]
    assert differing_pages(hugo, ours) == []
    post = ours["posts/first/index.html"].decode()
    assert '<p class="noted">yes</p>' in post and '<p class="byline">Ada</p>' in post
    assert "<footer>ran</footer>" in post
    assert "note" not in post.split("<h1>")[1].split('<p class="noted">')[0]   # nothing of the calls written


def test_a_falsy_partial_in_with_prints_the_decorators_pop_where_it_stands(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(SITES / "partial_with", tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning)]
    assert differing_pages(hugo, ours) == []
    home = ours["index.html"].decode()
    assert '<html lang="en"ZgotmplZ>' in home and "<title>[]</title>" in home
    assert '<p a="1" ZgotmplZ b="2">else</p>' in home and '<p a="1" dir="rtl">truthy</p>' in home
    for quiet in ("piped", "variable", "if", "break"):
        assert f'<p a="1" >{quiet}</p>' in home
    assert "<script>var a = 1;</script>" in home and '<a href="/x/z">url</a>' in home
    assert "<main ZgotmplZ>" in ours["page/index.html"].decode()
