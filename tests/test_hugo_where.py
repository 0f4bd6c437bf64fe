"""Hugo's `where` (tpl/collections/where.go) with every operator Hugo knows, on fields of every kind a blog's front
matter gives (integers, floats, strings, bools, dates, lists, a missing param, a field pages do not have), against
values of every kind (numbers of both kinds, strings, bools, nil, typed and mixed lists, a time, a pattern): built by
the hugo binary and by blogbuild, the home page (8 fields x 19 operators x 21 values) the same
(tests/hugo_sites/where_operators). The rules it pins down:

- nil on either side is only equal or unequal; a field pages do not have (`title`, lower case) or a param a page
  does not set is nil, never a reason to leave the page out;
- values of different kinds are never ordered or equal (an int and a string), but an int and a float compare as
  numbers;
- `in`/`not in` a list look for a number among the list's numbers (of either kind), a string among its strings, a
  time among its times; a list with none of the field's kind holds no number or string (`not in` holds), and
  neither answer holds for a time, a bool or a list; `not in` an empty list holds for all but a list;
- `in` of a string in a string is a substring test; `like` a Go regular expression found in the field;
- `intersect` of two lists holds when they share an element; operators are read trimmed, in any case (" GT ").
"""
from __future__ import annotations

import shutil
from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

SITES = Path(__file__).resolve().parent / "hugo_sites"


def test_where_answers_as_hugo_for_every_operator_and_kind(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(SITES / "where_operators", tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning)], warnings
    assert differing_pages(hugo, ours) == []
    home = ours["index.html"].decode()
    assert "<li>gt 1: CB</li>" in home.split("<h2>Params.order</h2>")[1]   # order 2 and 3 > 1
    assert "<li>not in 10: EC</li>" in home.split("<h2>Params.order</h2>")[1]   # "2" and 3 are not in [1 2]
    assert "<li>= 9: EDCBA</li>" in home.split("<h2>title</h2>")[1]   # no field `title`: nil on every page


def test_an_operator_hugo_does_not_know_is_named(tmp_path: Path) -> None:
    """Hugo stops with "no such operator"; blogbuild names it in the warning that sends the site to its default
    theme."""
    from blogbuild.config import load_config
    from blogbuild.pipeline.builder import Builder
    site = tmp_path / "site"
    shutil.copytree(SITES / "where_operators", site)
    layout = site / "layouts" / "_default" / "list.html"
    layout.write_text(layout.read_text().replace('"Params.order" 2 }}', '"Params.order" "bogus" 2 }}'))
    result = Builder(load_config(None, root=site)).build()
    assert [warning for warning in result.warnings if "no such operator 'bogus'" in str(warning)]
