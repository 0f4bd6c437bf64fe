"""A post's text as a Hugo site's layouts read it (.Plain, .WordCount, .ReadingTime, the automatic .Summary),
worked out where the post's content is made: once a post, in the markdown stage's workers, and kept with the post
in the posts cache (Post.hugo_text).

The layouts read them on the post's own page and on every list that shows it; each page worker of a build works
out what its pages read, so without this every worker would strip and count every post again. What is kept is
tied to the content it was made of (a digest of the packed HTML): a post whose HTML a later stage rewrote (links,
images) has its measures worked out by the page model again, as it does for a post without them.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Mapping

from .functions import FUNCTIONS
from .summary import hugo_summary

DIVIDER = "<!--more-->"
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

# Post.hugo_text: (content_key, .Plain, is_cjk, words, summary) where summary is (summaryLength, HTML, truncated) or ()
KEY, PLAIN, IS_CJK, WORDS, SUMMARY = range(5)


def content_key(packed_html: bytes) -> str:
    """What identifies the content a post's measures were made of: a digest of its packed HTML."""
    return hashlib.blake2b(packed_html, digest_size=16).hexdigest()


def without_divider(html: str) -> str:
    """A post's .Content: its HTML without the summary divider."""
    return html.replace(DIVIDER + "\n", "", 1).replace(DIVIDER, "", 1) if DIVIDER in html else html


def page_is_cjk(params: Mapping[Any, Any], plain_text: str, site_has_cjk: bool) -> bool:
    """Hugo's isCJKLanguage of a post: its front matter's isCJKLanguage, whatever the site's hasCJKLanguage;
    else, with hasCJKLanguage, whether the post's text has a CJK character."""
    written = next((value for key, value in params.items() if str(key).lower() == "iscjklanguage"), None)
    if written is not None:
        return written is True or (not isinstance(written, bool) and str(written).lower() in ("1", "t", "true"))
    return site_has_cjk and bool(_CJK.search(plain_text))


def word_count(plain: str, is_cjk: bool) -> int:
    """Hugo's count: the whitespace-separated words of the plain text; on a CJK page a word with any character
    outside ASCII counts each of its characters."""
    words = plain.split()
    if is_cjk:
        return sum(1 if word.isascii() else len(word) for word in words)
    return len(words)


def reading_time(words: int, is_cjk: bool) -> int:
    """Hugo 0.168's .ReadingTime: the words over 212 a minute, or 500 on a CJK page, rounded up (213 words are 2
    minutes, 1,485 are 8)."""
    return (words + 499) // 500 if is_cjk else (words + 211) // 212


def hugo_text(post: Any, config: Any) -> tuple[Any, ...]:
    """The post's measures as Post.hugo_text keeps them. The automatic summary is made only where the page model
    would make it (no divider, no summary in the front matter); the page model checks the rest when it reads
    them (the site's summaryLength, the page's isCJKLanguage). post: a Post; config: its SiteConfig."""
    html = post.content_html
    content = without_divider(html)
    plain = str(FUNCTIONS["plainify"](content)) if content else ""
    is_cjk = page_is_cjk(post.params, plain, config.has_cjk_language)
    summary: tuple[Any, ...] = ()
    if DIVIDER not in html and not any(str(key).lower() == "summary" for key in post.params):
        summary = (config.hugo_summary_words, *hugo_summary(html, config.hugo_summary_words, is_cjk))
    return (content_key(post.packed_html), plain, is_cjk, word_count(plain, is_cjk), summary)


def hugo_measures(post: Any, text: tuple[Any, ...], config: Any) -> dict[str, Any]:
    """The Post's own measures as Hugo's page model makes them, from its hugo_text: where a site's own layouts
    render every page, blogbuild's measures (content/text.py) would serve only a page its layouts fail on, which
    falls back to the default theme. plain_text, word_count, reading_minutes, and the automatic summary's
    summary_html, truncated and summary_text unless the front matter writes a summary (make_post's) or the
    content has a divider (the caller's, as blogbuild cuts it)."""
    words, is_cjk = text[WORDS], text[IS_CJK]
    measures: dict[str, Any] = {"plain_text": text[PLAIN], "word_count": words,
                                "reading_minutes": reading_time(words, is_cjk)}
    if post.summary_html:
        return measures
    if text[SUMMARY]:
        summary, truncated = text[SUMMARY][1], text[SUMMARY][2]
    elif DIVIDER not in post.content_html:   # a summary key that is not text: Hugo summarises automatically
        summary, truncated = hugo_summary(post.content_html, config.hugo_summary_words, is_cjk)
    else:
        return measures
    # Its text as `.Summary | plainify` shows it, each line trimmed.
    lines = str(FUNCTIONS["plainify"](summary)).splitlines()
    return {**measures, "summary_html": summary, "truncated": truncated or post.truncated,
            "summary_text": "\n".join(line for line in (line.strip() for line in lines) if line)}
