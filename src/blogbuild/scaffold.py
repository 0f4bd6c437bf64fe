"""The files of a new site (`blogbuild init` with no flag): a config, a first post, templates/ and static/, and
the lines of its .gitignore."""
from __future__ import annotations

from datetime import datetime

_CONFIG = """\
# blogbuild's config: every key and its default is in blogbuild's README ("Configuration").
title: "My Blog"
base_url: "http://localhost:1313/"   # the published site's address; `build --base-url URL` overrides it
language_code: zh-CN                 # <html lang> and the feeds' language, e.g. en
author: ""
description: ""
paginate: 10
taxonomies: [tags, categories, series]
menu:
  - { name: "Posts", url: "/posts/", weight: 10 }
  - { name: "Archives", url: "/archives/", weight: 20 }
  - { name: "Search", url: "/search/", weight: 30 }
"""

_FIRST_POST = """\
---
title: "Hello, world"
date: {date}
tags: ["blogbuild"]
---

This site was written by `blogbuild init`. Edit this post in `content/posts/hello-world.md`, or start
another with `blogbuild new "My title"` (a draft: `blogbuild serve` shows it, `build` publishes it once
`draft: true` is gone).

Inline math $e^{{i\\pi}} + 1 = 0$ and display math:

$$\\sum_{{k=1}}^{{n}} k = \\frac{{n(n+1)}}{{2}}$$

<!--more-->

```mermaid
flowchart LR
  A[content/] --> B[blogbuild build] --> C[public/]
```
"""

_TEMPLATES_README = """\
Templates here override the default theme's of the same name (Jinja): e.g. templates/post.html; \
templates/shortcodes/NAME.html adds a {{< NAME >}} shortcode.
"""

_STATIC_README = """\
Files here are published as they are, at the same path: static/images/logo.png is /images/logo.png \
(this README too: delete it when you add your own files).
"""


def site_files(now: datetime) -> dict[str, str]:
    """The new site's files by path relative to its folder; the first post is dated now."""
    return {
        "blogbuild.yaml": _CONFIG,
        "content/posts/hello-world.md": _FIRST_POST.format(date=now.isoformat()),
        "templates/README.md": _TEMPLATES_README,
        "static/README.md": _STATIC_README,
    }


# What a site's repository never holds: the published tree, the cache (rebuilt by any build; a cache from
# elsewhere is never trusted), a virtual environment.
IGNORED = ("public/", ".blogbuild-cache/", ".venv/")


def missing_ignores(gitignore: str) -> list[str]:
    """The lines of IGNORED that a .gitignore's text does not ignore yet (written with or without the
    leading or trailing slash)."""
    present = {line.strip().strip("/") for line in gitignore.splitlines()}
    return [line for line in IGNORED if line.strip("/") not in present]


def with_ignores(gitignore: str | None) -> str:
    """The .gitignore's text with the missing lines of IGNORED added at its end (the whole file when none)."""
    text = gitignore or ""
    missing = missing_ignores(text)
    if not missing:
        return text
    if text and not text.endswith("\n"):
        text += "\n"
    return text + "".join(f"{line}\n" for line in missing)
