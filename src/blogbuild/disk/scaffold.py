"""The files of a new site (`blogbuild init` with no flag): a config, a first post, templates/ and static/, and
the lines of its .gitignore."""
from __future__ import annotations

from datetime import datetime
from typing import Mapping

_CONFIG = """\
# blogbuild's config: every key and its default is in blogbuild's README ("Configuration").
title: "{title}"
base_url: "http://localhost:1313/"   # the published site's address; `build --base-url URL` overrides it
language_code: {language:<21} # <html lang>, the theme's words (zh*: Chinese, else English), the feeds' language
author: ""
description: ""
paginate: 10
taxonomies: [tags, categories, series]
menu:
  - {{ name: "{posts}", url: "/posts/", weight: 10 }}
  - {{ name: "{archives}", url: "/archives/", weight: 20 }}
  - {{ name: "{search}", url: "/search/", weight: 30 }}
"""
# The new site's own words (its title and menu) in the language it is written in: the theme's words follow
# language_code, so a site never shows two languages in its frame.
_WORDS = {
    "zh": {"title": "我的博客", "posts": "文章", "archives": "归档", "search": "搜索"},
    "en": {"title": "My Blog", "posts": "Posts", "archives": "Archives", "search": "Search"},
}


def language_from_locale(environment: Mapping[str, str]) -> str:
    """The language a new site is written in when `init` is not told: Chinese when the writer's locale is
    Chinese (LC_ALL, LC_MESSAGES, LANG: zh_CN.UTF-8 -> zh-CN, zh_TW -> zh-TW), else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environment.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0]
            if code.lower().startswith("zh"):
                region = code[3:].upper() if len(code) > 3 else "CN"
                return f"zh-{region}"
            return "en"
    return "en"


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

_FIRST_POST_ZH = """\
---
title: "你好，世界"
date: {date}
slug: "hello-world"
tags: ["blogbuild"]
---

这个站点由 `blogbuild init` 生成。编辑 `content/posts/hello-world.md` 修改这篇文章，或者用
`blogbuild new "标题"` 写一篇新的（新文章是草稿：`blogbuild serve` 会显示它，去掉 `draft: true` 后
`build` 才会发布）。

行内公式 $e^{{i\\pi}} + 1 = 0$ 与独立公式：

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


def site_files(now: datetime, language: str = "en") -> dict[str, str]:
    """The new site's files by path relative to its folder, its config in the given language (an HTML lang
    code: en, zh-CN...); the first post is dated now."""
    words = _WORDS["zh" if language.lower().startswith("zh") else "en"]
    return {
        "blogbuild.yaml": _CONFIG.format(language=language, **words),
        "content/posts/hello-world.md": (_FIRST_POST_ZH if words is _WORDS["zh"] else _FIRST_POST).format(
            date=now.isoformat()),
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
