"""Hugo sorts strings in the collation of the site's language (golang.org/x/text's, from the Unicode CLDR): `sort`,
pages of one weight and date by link title, `.ByTitle`/`.ByLinkTitle` and a taxonomy's `.Alphabetical` (its
`.ByCount` breaks ties by compare.Strings, not collated). Chinese is ordered by pinyin (zh), Traditional Chinese
by strokes (zh-tw), English (the root order) by Unicode's blocks, letters case- and accent-blind first.

tests/hugo_sites/collation (three languages) built by the hugo binary and by blogbuild: every page the same DOM.
Then strings drawn at random from Han characters, accented letters, digits and punctuation, sorted by Hugo's `sort`
and by blogbuild's collation keys in six language keys: the same order."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from support.hugo_build import built_by_both, differing_pages
from support.hugo_site_oracle import hugo_binary

from blogbuild.hugo.gotemplate.collation import collation_key, is_han, table_name

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "collation"
sys.path.insert(0, str(REPO / "scripts"))
import vendor_collation  # noqa: E402  (the script that asks Hugo for the tables asks it here too)


def test_pages_terms_and_sorted_strings_are_in_hugos_order(tmp_path: Path) -> None:
    hugo, ours, _ = built_by_both(FIXTURE, tmp_path)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert "index.html" in pages and "zh-tw/posts/index.html" in pages and "en/index.html" in pages
    assert differing_pages(hugo, ours) == []
    home = ours["posts/index.html"].decode()   # pinyin: 阿 (a) before 编 (bian); 重 is read zhòng, after 中 (zhōng)
    assert home.index("阿里云") < home.index("编译器") < home.index("分布式训练")
    assert ours["index.html"].decode().index("<li>中国</li>") < ours["index.html"].decode().index("<li>重庆</li>")
    taiwan = ours["zh-tw/posts/index.html"].decode()   # strokes: 一 (1) before 阿 (8) before 資 (13)
    assert taiwan.index("一二三") < taiwan.index("阿里雲") < taiwan.index("資料庫")


def _strings(seed: int) -> list[str]:
    random_ = random.Random(seed)
    common = [chr(code) for code in range(0x4E00, 0x9FA6)]
    rare = [chr(code) for code in range(0x3400, 0xFAFF) if is_han(chr(code))]
    others = list("abcxyzABCXYZ0189 ") + list(":-_,.!?()[]《》：，。、“”'\"/+&#—…（）【】　~$%") \
        + list("áàǎāéèěēüǘǚǜñçÅöÉØøđĐłßþæŒ")
    words = []
    for _ in range(1500):
        pieces = []
        for _ in range(random_.randint(1, 6)):
            draw = random_.random()
            pieces.append(random_.choice(common if draw < 0.5 else rare if draw < 0.55 else others))
        words.append("".join(pieces))
    return list(dict.fromkeys(words + ["ba", "Ba", "bá", "bà", "bā", "BA", "b a", "ba1", "ba10", "ba9", "中a",
                                       "中A", "中á", "中ā", "ae", "æ", "Æ", "oe", "œ", "ss", "ß", "...", "…"]))


@pytest.mark.parametrize("language", ["en", "fr", "zh", "zh-cn", "zh-hans", "zh-tw", "zh-hk", "zh-hant"])
def test_strings_sort_as_hugos_collator_sorts_them(language: str) -> None:
    binary = hugo_binary()
    if binary is None:
        pytest.skip("hugo is not installed")
    strings = _strings(seed=len(language))
    expected = vendor_collation.hugo_sorted(binary, language, strings)
    assert sorted(strings, key=lambda text: collation_key(text, table_name(language))) == expected


def test_language_keys_pick_their_tables() -> None:
    assert [table_name(key) for key in ("zh", "zh-cn", "zh-CN", "zh-sg", "zh-Hans-HK", "zh_TW", "zh-hk", "zh-mo",
                                        "zh-Hant", "en", "ja", "")] == \
        ["zh", "zh", "zh", "zh", "zh", "zh-hant", "zh-hant", "zh-hant", "zh-hant", "root", "root", "root"]
