"""What a post's social card shows and where it is published: pure (no font, no Pillow), so that a page's
template can name its card without importing the drawing (cards.py), which only the cards stage needs."""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.cache_keys import CARDS_FORMAT
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig


@dataclass(frozen=True)
class CardText:
    """What a card shows."""

    title: str
    series: str      # "Series name · Part 2 of 5", or ""
    site: str
    date: str        # as shown, "2025-03-02", or ""


def series_line(name: str, index: int, total: int, language: str) -> str:
    """'Part 2 of 5' in the site's language."""
    if language.lower().startswith("zh"):
        return f"{name} · 第 {index} 篇，共 {total} 篇"
    if language.lower().startswith("ja"):
        return f"{name} · {total} 回中の第 {index} 回"
    return f"{name} · Part {index} of {total}"


def front_matter_image(params: Mapping[str, Any]) -> str:
    """The image a post names for sharing (PaperMod's cover.image, hero or image): it wins over a card."""
    cover = params.get("cover")
    image = (cover.get("image") if isinstance(cover, Mapping) else None) or params.get("hero") or params.get("image")
    return image if isinstance(image, str) else ""


def card_text(post: Any, nav: Any, config: SiteConfig) -> CardText:
    """What the card of a post shows: title, first series with its part, site title, date."""
    series = ""
    if nav is not None and nav.series:
        part = nav.series[0]
        series = series_line(part.term.title or part.term.name, part.index, part.total, config.language_code)
    date = post.date.strftime("%Y-%m-%d") if post.date is not None else ""
    return CardText(post.title, series, config.title, date)


def card_path(post: Any, nav: Any, config: SiteConfig) -> str:
    """The output path of a post's card, '' when the site has cards off or the post names its own image.

    Pure (no font is read): the URL hashes what the card shows and the options, so templates can name it
    before the cards stage has drawn it."""
    if not config.cards.enabled or post.kind != "page" or front_matter_image(post.params):
        return ""
    text = card_text(post, nav, config)
    key = hashlib.sha256(repr((CARDS_FORMAT, text, config.cards)).encode()).hexdigest()
    return f"{post.url.lstrip('/')}card-{key[:12]}.png"
