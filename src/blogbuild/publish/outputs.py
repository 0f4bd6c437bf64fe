"""The records of a plan: what a template knows of its page, and each output a build makes (a templated
page or a data file) with the key it is made from."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.urls import url_to_output_path
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..core.model import Post


@dataclass(frozen=True)
class PageMeta:
    """What every template knows of the page it renders."""

    kind: str
    url: str
    title: str
    description: str
    canonical: str
    needs_math: bool = False
    needs_mermaid: bool = False
    needs_code: bool = False
    breadcrumbs: tuple[tuple[str, str], ...] = ()
    feed_url: str | None = None
    draft: bool = False
    language: str = "zh-CN"


@dataclass(frozen=True)
class PlannedPage:
    """One templated output: where it goes, which template, its context and its dependency key."""

    output_path: str
    url: str
    template: str
    context: Mapping[str, Any]
    key: str                  # changes whenever anything the page shows changes
    source: str               # the content file it comes from, for messages ("" for list pages)
    kind: str = ""            # what it is: home, post, section, term, terms, 404, alias, … (a feed: its list's)


@dataclass(frozen=True)
class PlannedData:
    """A non-templated output (feed, sitemap, json, css) made by a function when its key changes."""

    output_path: str
    make: Callable[[], bytes]
    key: str
    source: str = ""


def alias_owners(pages: Sequence["Post"]) -> dict[str, "Post"]:
    """The page whose redirect is written at each alias's output path. An alias at a page's own URL is not
    written: the page keeps it. Of several pages with one alias, the last by title (then content path) has it.
    Hugo writes pages and aliases concurrently, so which one stays varies between its builds; these are its
    most frequent results."""
    own = {url_to_output_path(post.url) for post in pages}
    owners: dict[str, "Post"] = {}
    for post in sorted(pages, key=lambda post: (post.title, post.rel_path)):
        for alias in post.aliases:
            path = url_to_output_path(alias)
            if path not in own:
                owners[path] = post
    return owners
