"""`blogbuild new TITLE`: write a draft post with clean front matter and a starter body, never over an existing file."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..core.errors import SourceError
from ..core.records import dataclass


@dataclass(frozen=True)
class NewOptions:
    """Options of `blogbuild new`."""

    title: str
    series: str | None = None
    tags: tuple[str, ...] = ()
    section: str = "posts"
    source: str = "content"
    ascii_slug: bool = False   # an ASCII slug instead of the title's characters (Hugo's urlize keeps CJK)
    root: str = "."            # the site folder; source is inside it


def run(options: NewOptions) -> int:
    """Write <source>/<section>/<slug>.md as a draft and print its path; exit 1 if it exists."""
    from ..content.new_post import front_matter_text, new_post_slug, next_series_order, safe_section
    title = options.title.strip()
    if not title:
        raise SourceError("<title>", 0, "the title is empty; write it in quotes: blogbuild new \"My title\"",
                          stage="new")
    now = datetime.now().astimezone().replace(microsecond=0)
    slug = new_post_slug(title, now, ascii_only=options.ascii_slug)
    source = Path(options.root) / options.source
    folder = source / safe_section(options.section)
    path = folder / f"{slug}.md"
    bundle = folder / slug / "index.md"
    for existing in (path, bundle):
        if existing.exists():
            raise SourceError(str(existing), 0, "already exists; edit it, or pick another title "
                              "(the slug comes from the title)", stage="new")
    series = options.series
    series_order = next_series_order(source, series) if series else None
    text = front_matter_text(title=title, date=now, slug=slug, tags=options.tags, series=series,
                             series_order=series_order)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        # "x" refuses to overwrite even if the file appeared since the check above.
        with path.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except FileExistsError as error:
        raise SourceError(str(path), 0, "already exists; edit it, or pick another title", stage="new") from error
    print(path.as_posix())
    return 0
