"""urls.py: the URL segment rule, ASCII slugs, and URL <-> output path in both directions."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from blogbuild.core.urls import ascii_slug, output_path_to_url, url_to_output_path, urlize


# --- urlize ---------------------------------------------------------------------------------

@pytest.mark.parametrize("term, expected", [
    ("Ring Attention", "ring-attention"),
    ("昇腾 超节点", "昇腾-超节点"),
    ("C++", "c++"),
    ("TCP/IP", "tcp-ip"),
    ("  leading and trailing  ", "leading-and-trailing"),
    ("What? Why! #hash 100%", "what-why-hash-100"),
    ("v1.2 release", "v1.2-release"),
    ("Émile Zola", "émile-zola"),
    ("a -- b", "a-b"),
])
def test_urlize(term, expected):
    assert urlize(term) == expected


@pytest.mark.parametrize("term", ["../../x", "..", ".", "", "/", "\\", "\x00", "???", "CON", "nul.txt", "Com1",
                                  "a/b", "x\x00y", "🚀", "..\\..\\windows"])
def test_urlize_is_always_one_safe_segment(term):
    assert_safe_segment(urlize(term))


def test_urlize_unsafe_inputs_map_to_readable_or_stable_names():
    assert urlize("../../x") == "x"
    assert urlize("CON") == "con_"
    assert urlize("nul.txt") == "nul_.txt"
    assert urlize("???") == urlize("???")          # the fallback is stable between builds
    assert urlize("???") != urlize("!!!")          # and distinct for distinct terms


def test_urlize_keeps_what_a_file_name_can_hold_and_cuts_the_rest_in_bytes():
    """Hugo keeps a segment whole; one past a file name's 255 bytes could not be written: cut to 250 bytes (room
    for an ugly URL's .html), never inside a character."""
    assert urlize("x" * 240) == "x" * 240
    assert len(urlize("x" * 300)) == 250
    long_cjk = urlize("中" * 300)
    assert len(long_cjk.encode("utf-8")) <= 250 and len(long_cjk) == 83
    assert set(long_cjk) == {"中"}


def test_urlize_is_stable_when_a_dropped_character_stood_before_a_combining_mark():
    assert urlize("N<\u0300") == "\u01f9" == urlize(urlize("N<\u0300"))


def test_titles_and_file_names_follow_the_same_rule():
    assert urlize("Ring Attention 实践: Part 1") == "ring-attention-实践-part-1"
    assert_safe_segment(urlize("../CON"))


WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {f"com{n}" for n in range(10)} | {f"lpt{n}" for n in range(10)}


def assert_safe_segment(segment: str) -> None:
    assert segment not in ("", ".", "..")
    assert "/" not in segment and "\\" not in segment and "\x00" not in segment
    assert segment.split(".")[0].lower() not in WINDOWS_RESERVED
    assert len(segment.encode("utf-8", "surrogatepass")) <= 250   # a file name's 255 bytes, room for ".html"
    assert not segment.endswith((".", " ")), "Windows drops trailing dots and spaces"


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=300))
def test_urlize_never_returns_an_unsafe_segment(term):
    assert_safe_segment(urlize(term))
    assert urlize(urlize(term)) == urlize(term) or urlize(term).startswith("x-")


def test_ascii_slug_keeps_latin_words_once():
    assert ascii_slug("[RL4LLM] 异步RL框架: Slime") == "rl4llm-rl-slime"
    assert ascii_slug("Café — déjà vu") == "cafe-deja-vu"
    assert ascii_slug("全中文标题") == ""
    assert ascii_slug("word " * 40, max_length=60) == "word"
    assert len(ascii_slug(" ".join(f"w{n}" for n in range(40)))) <= 60


@pytest.mark.parametrize("url, path", [
    ("/", "index.html"),
    ("/posts/x/", "posts/x/index.html"),
    ("/feed.xml", "feed.xml"),
    ("/css/style.css", "css/style.css"),
    ("/tags/中文/", "tags/中文/index.html"),
])
def test_url_and_output_path_map_both_ways(url, path):
    assert url_to_output_path(url) == path
    assert output_path_to_url(path) == url


def test_a_url_without_slash_or_suffix_is_a_folder():
    assert url_to_output_path("/about") == "about/index.html"
    assert output_path_to_url("about/index.html") == "/about/"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abc中.-", min_size=1, max_size=5), min_size=0, max_size=4))
def test_output_path_to_url_inverts_url_to_output_path_for_folder_urls(segments):
    url = "/" + "".join(f"{urlize(segment)}/" for segment in segments)
    assert output_path_to_url(url_to_output_path(url)) == url
