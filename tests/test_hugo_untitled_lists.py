"""A section, taxonomy or term page whose _index.md gives no title has an empty `.Title` (and `.LinkTitle`) in Hugo;
without an _index.md it is named after its folder or term ("Posts", "Rust"). tests/hugo_sites/untitled_lists built
by the hugo binary and by blogbuild: every page the same."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "untitled_lists"


def test_untitled_list_pages_have_hugos_titles(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    assert differing_pages(hugo, ours) == []
    assert [ours[path].decode().strip() for path in ("archives/index.html", "posts/index.html", "tags/index.html",
                                                      "tags/go/index.html", "tags/rust/index.html")] \
        == ["[]", "[Posts]", "[]", "[]", "[Rust]"]
