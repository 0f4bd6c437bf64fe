"""site.Config.Privacy is Hugo's: tests/hugo_sites/config_privacy sets some services' privacy settings (keys in
any case) and prints every service's. Built by the hugo binary and by blogbuild: the same files, every page the
same DOM."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "config_privacy"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("config_privacy")
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    return hugo, ours, warnings


def test_privacy_settings_are_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, warnings = both
    assert sorted(path for path in ours if not path.endswith("css/syntax.css")) == sorted(hugo)
    assert warnings == []
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 1
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []




def test_a_setting_the_config_leaves_out_is_false(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, _warnings = both
    page = ours["index.html"].decode()
    assert "<p>ga false true</p>" in page and "<p>youtube true true</p>" in page and "<p>disqus false</p>" in page
