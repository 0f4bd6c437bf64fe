"""transform.Unmarshal parses a text or resource once and gives every later call the same value, as Hugo caches
it: tests/hugo_sites/unmarshal_shared changes the map a first call gave (Scratch.SetInMap) and a second call on
the same text sees the change, another text does not; built by the hugo binary and by blogbuild, the same DOM."""
from __future__ import annotations

from pathlib import Path

from support.hugo_build import built_by_both, differing_pages

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "unmarshal_shared"


def test_a_text_is_unmarshalled_once_and_its_value_shared(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert warnings == []
    assert differing_pages(hugo, ours) == []
    page = ours["a/index.html"].decode()
    assert "<p>a=1 added=3 b=2 </p>" in page and "<p>k=1 z=9 </p>" in page and "<p>k=2 </p>" in page
