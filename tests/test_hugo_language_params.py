"""What a multilingual page's layouts read of the other languages, as Hugo gives it: a translation's and each
site's .Language.Params are that language's (PaperMod's language switch titles each link with its
languageAltTitle), and absURL, relURL and Hugo's opengraph partial's site images are the whole site's in
every language (absLangURL's are the language's). tests/hugo_sites/language_params built by the hugo binary
and by blogbuild: every page the same after white space."""
from __future__ import annotations

import re
from pathlib import Path

from support.hugo_build import blogbuild_files, copy_site, hugo_files

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "language_params"


def _text(page: bytes) -> str:
    return re.sub(r"\s+", " ", page.decode()).strip()


def test_other_languages_are_read_as_hugo_reads_them(tmp_path: Path) -> None:
    hugo = hugo_files(copy_site(FIXTURE, tmp_path / "hugo-site"), tmp_path / "hugo-public")
    ours, _warnings = blogbuild_files(copy_site(FIXTURE, tmp_path / "blogbuild-site"))
    pages = ["hello/index.html", "de/hello/index.html"]
    assert [_text(ours[path]) for path in pages] == [_text(hugo[path]) for path in pages]
    assert "[en English (UK)]" in _text(ours["de/hello/index.html"])
    assert 'content="https://example.org/images/cover.png"' in _text(ours["de/hello/index.html"])
