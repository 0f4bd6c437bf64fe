"""disableKinds on a site its own layouts render, as Hugo 0.168 does it: no page of a disabled kind is written,
nor its feed or a post's alias (home, page, section, taxonomy, term, 404, alone and together); with taxonomy and
term both disabled the site has no taxonomies (`.GetTerms` and `site.Taxonomies` are empty, `site.GetPage "/tags"`
is nil); the sitemap stays unless it is disabled itself. tests/hugo_sites/disable_kinds built by the hugo binary
and by blogbuild with each setting: the same files, every page the same DOM. Not followed exactly: with term
alone, Hugo still writes each taxonomy's page (listing nothing), which blogbuild leaves out; with page alone, its
taxonomy pages list the terms, where Hugo's list none."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "disable_kinds"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_OURS_ONLY = {"css/syntax.css"}
KINDS = [["taxonomy", "term"], ["taxonomy"], ["section"], ["home"], ["404"], ["section", "taxonomy", "term", "RSS"],
         ["home", "404", "sitemap"]]


@pytest.mark.parametrize("kinds", KINDS, ids=["-".join(kinds) for kinds in KINDS])
def test_disabled_kinds_are_not_written(tmp_path: Path, kinds: list[str]) -> None:
    setting = "disableKinds = [" + ", ".join(f'"{kind}"' for kind in kinds) + "]\n"
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path, lambda text: setting + text)
    assert sorted(path for path in ours if path not in _OURS_ONLY) == sorted(hugo)
    assert [path for path in sorted(hugo) if path.endswith(".html") and dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    assert not [warning for warning in warnings if "disableKinds" in warning.message]
    if "term" in kinds:
        post = ours["posts/a/index.html"].decode()
        assert '<p class="terms"></p>' in post and '<p class="get">none none</p>' in post
    if "home" in kinds:
        assert "index.html" not in ours and "sitemap.xml" in ours or "sitemap" in kinds
