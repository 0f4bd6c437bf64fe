"""The parts of `blogbuild new` (commands/new.py): the slug, the front matter, the next series order."""
from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import datetime
from pathlib import Path

import yaml

from ..disk import strict_yaml
from ..core.errors import SourceError
from ..core.urls import ascii_slug, urlize


def new_post_slug(title: str, date: datetime, *, ascii_only: bool = False) -> str:
    """The slug (and file name) of a new post: the title as Hugo's urlize writes it, CJK and accents kept
    (`第一篇` is /posts/第一篇/, as Hugo publishes it); with ascii_only, or for a title with no letter or
    digit, ascii_post_slug()."""
    if not ascii_only and any(character.isalnum() for character in title):
        return urlize(title)
    return ascii_post_slug(title, date)


def ascii_post_slug(title: str, date: datetime) -> str:
    """The title's ASCII slug, plus a short hash when letters were lost, or date + hash for a title with no
    Latin letters at all (no transliteration without a dictionary)."""
    slug = ascii_slug(title, max_length=100)
    digest = hashlib.sha1(title.encode("utf-8")).hexdigest()[:6]
    if not slug:
        return f"{date:%Y-%m-%d}-{digest}"
    folded = unicodedata.normalize("NFKD", title)
    lost = any(character.isalnum() for character in folded if ord(character) >= 128)
    # Without the hash, "Ring Attention 原理" and "Ring Attention 实践" would claim one file.
    return f"{slug}-{digest}" if lost else slug


def front_matter_text(*, title: str, date: datetime, slug: str, tags: tuple[str, ...],
                      series: str | None, series_order: int | None) -> str:
    """The front matter block of a new post, one key a line, every string double-quoted."""
    lines = [
        "---",
        f"title: {_quoted(title)}",
        f"date: {date.isoformat()}",
        f"slug: {_quoted(slug)}",
        "draft: true",
        f"tags: [{', '.join(_quoted(tag) for tag in tags)}]",
    ]
    if series:
        lines.append(f"series: [{_quoted(series)}]")
        lines.append(f"series_order: {series_order}")
    lines += ["---", ""]
    return "\n".join(lines) + starter_body(title)


def starter_body(title: str) -> str:
    """The body of a new post (README's "Writing a post" shows it): a first paragraph naming the title, then
    the math and diagram syntax to start from, the summary ending at `<!--more-->`."""
    return f"""
The first paragraph of “{title}”: the text above `<!--more-->` is the summary in lists and feeds.

Inline math $O(n^2)$ and display math:

$$\\text{{Attention}}(Q,K,V)=\\text{{softmax}}\\left(\\frac{{QK^T}}{{\\sqrt{{d_k}}}}\\right)V$$

<!--more-->

```mermaid
flowchart LR
  A[请求] --> B[调度器]
```
"""


def _quoted(value: str) -> str:
    """value as a YAML double-quoted scalar: safe for ':', '#', quotes, leading '-', any Unicode."""
    dumped = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=10**6)
    return dumped.rstrip("\n").removesuffix("\n...").rstrip("\n")


def safe_section(section: str) -> Path:
    """The section as a relative folder; a SourceError for one that would leave the content folder."""
    parts = [part for part in section.replace("\\", "/").split("/") if part not in ("", ".")]
    if any(part == ".." for part in parts) or section.startswith(("/", "\\")):
        raise SourceError(section, 0, "the section must be a folder inside the content folder, "
                          "like posts or notes/2024", stage="new")
    return Path(*parts) if parts else Path(".")


def next_series_order(source: Path, series: str) -> int:
    """One more than the highest series_order among the posts already in that series (1 if none)."""
    orders = []
    count = 0
    from ..disk.sources import walk_files
    # The site's own walk: a symbolic link out of the site is not read.
    for found in walk_files(source, inside=(str(source.resolve().parent),)):
        if not found.rel_path.endswith(".md"):
            continue
        data = _front_matter(Path(found.path))
        names = data.get("series")
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or series not in [str(name) for name in names]:
            continue
        count += 1
        order = data.get("series_order")
        if isinstance(order, int) and not isinstance(order, bool):
            orders.append(order)
    return max(orders + [count]) + 1


def _front_matter(path: Path) -> dict:
    """A post's YAML front matter, or {} when it has none or it does not parse (new is not a linter)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return {}
    match = re.match(r"---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", text, re.S)
    if not match:
        return {}
    try:
        data = strict_yaml.load(match.group(1))
    except (yaml.YAMLError, RecursionError):  # strict_yaml's refusals (bombs, duplicate keys) included
        return {}
    return data if isinstance(data, dict) else {}
