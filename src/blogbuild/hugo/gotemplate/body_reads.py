"""Which posts' bodies a render reads: what a page of a Hugo site's own layouts is made again for when a post's
text changes (core/page_reads.py keeps them with the page).

The page model (site_model.py) notes a post each time a layout reads its body: its content, summary, text
measures, table of contents, raw text, or Store (which the content's shortcodes fill). A partial's result kept
for other pages (partialCached, a pure partial's) carries what its first run read, noted again wherever it is
reused.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

# The URLs of the posts whose body the render being recorded has read; None outside reading_bodies(). (The page
# model adds to it where it stands: a page reads its body many times a render.)
READS: list[set[str] | None] = [None]


@contextlib.contextmanager
def reading_bodies() -> Iterator[set[str]]:
    """Record the URLs of the posts whose body the render inside reads; a recording inside another adds what it
    recorded to the outer one too."""
    reads: set[str] = set()
    outer, READS[0] = READS[0], reads
    try:
        yield reads
    finally:
        READS[0] = outer
        if outer is not None:
            outer.update(reads)


def note_body_reads(urls: Iterable[str]) -> None:
    """Add what an earlier run read (a list's first page rendered to count its pages, a kept partial's result)."""
    reads = READS[0]
    if reads is not None:
        reads.update(urls)
