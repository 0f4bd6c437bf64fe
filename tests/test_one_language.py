"""One language throughout: a site made by `blogbuild init` and `blogbuild new` speaks one language in its frame.
An English site has no CJK character anywhere outside its posts' own text, a Chinese one none of the English
interface words, and the theme's two catalogues (templates and scripts) name the same words."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from blogbuild.cli import main

THEME = Path(__file__).resolve().parent.parent / "src" / "blogbuild" / "theme"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def _catalogue(name: str) -> dict[str, str]:
    text = (THEME / "templates" / "partials" / "i18n.html").read_text(encoding="utf-8")
    block = re.search(r"set " + name + r" = \{(.*?)\} -%\}", text, re.S)
    assert block, name
    return dict(re.findall(r'"(\w+)": "((?:[^"\\]|\\.)*)"', block.group(1)))


def test_the_catalogues_name_the_same_words() -> None:
    chinese, english = _catalogue("chinese"), _catalogue("english")
    assert chinese and set(chinese) == set(english)
    assert not any(CJK.search(word) for word in english.values())
    assert all(CJK.search(word) for key, word in chinese.items()), chinese


@pytest.mark.parametrize("script", ["theme.js", "search.js", "render.js"])
def test_each_script_speaks_both_languages(script: str) -> None:
    """A script's words come in a Chinese and an English set, chosen by the page's lang; never both at once."""
    text = (THEME / "static" / "js" / script).read_text(encoding="utf-8")
    assert re.search(r"/\^zh/i\.test\(", text), script
    assert not re.search(r"[\u4e00-\u9fff][^\"'\n]* / [A-Z][a-z]", text), "two languages in one string"


class _Frame(HTMLParser):
    """The text and the readable attributes of a page outside its posts' own text (the article body, titles
    and summaries the writer wrote), scripts and styles."""

    SKIPPED = ("script", "style", "pre", "code")
    READABLE = ("aria-label", "title", "placeholder", "alt", "content")

    def __init__(self, own: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.own = own
        self.skip = 0
        self.stack: list[bool] = []
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "meta", "link", "input", "hr", "source", "wbr"):
            self._attributes(dict(attrs))
            return
        classes = set((dict(attrs).get("class") or "").split())
        skipped = tag in self.SKIPPED or bool(classes & {"post-content", "post-summary", "katex", "math"})
        self.stack.append(skipped)
        self.skip += skipped
        if not self.skip:
            self._attributes(dict(attrs))

    def _attributes(self, attrs: dict[str, str | None]) -> None:
        if attrs.get("name") in ("description",) or attrs.get("property", "").startswith("og:"):
            return   # the site's and posts' own words
        for name in self.READABLE:
            value = attrs.get(name)
            if value:
                self.words.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "meta", "link", "input", "hr", "source", "wbr") or not self.stack:
            return
        self.skip -= self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.words.append(data.strip())


def _site(tmp_path: Path, language: str, title: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / language
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    arguments = ["init", "--root", str(root), "-q"] + (["--lang", language] if language != "en" else [])
    assert main(arguments) == 0
    monkeypatch.chdir(root)
    assert main(["new", title, "--tags", "one,two", "--series", "first"]) == 0
    assert main(["build", "--drafts", "-q", "--no-cache"]) == 0
    return root / "public"


def _frame_text(public: Path, own: set[str]) -> list[str]:
    words: list[str] = []
    for page in sorted(public.rglob("*.html")):
        frame = _Frame(own)
        frame.feed(page.read_text(encoding="utf-8"))
        words += [word for word in frame.words if word not in own]
    return words


def test_an_english_site_has_no_cjk_character_outside_its_posts(tmp_path, monkeypatch) -> None:
    public = _site(tmp_path, "en", "Paged KV cache, explained", monkeypatch)
    own = {"Paged KV cache, explained", "Hello, world", "My Blog", "one", "two", "first", "blogbuild"}
    found = [word for word in _frame_text(public, own) if CJK.search(word)]
    assert found == []


def test_a_chinese_site_has_no_english_interface_word(tmp_path, monkeypatch) -> None:
    public = _site(tmp_path, "zh-CN", "分页的键值缓存", monkeypatch)
    own = {"分页的键值缓存", "你好，世界", "我的博客", "one", "two", "first", "blogbuild"}
    english = {word for word in _catalogue("english").values() if re.fullmatch(r"[A-Za-z][A-Za-z ]+", word)}
    english |= {"Posts", "Archives", "Search", "Home", "Tags", "Categories", "Series"}
    text = _frame_text(public, own)
    found = sorted({word for word in english for piece in text if re.search(rf"\b{re.escape(word)}\b", piece)})
    assert found == [], [piece for piece in text if any(re.search(rf"\b{re.escape(w)}\b", piece) for w in found)][:10]
