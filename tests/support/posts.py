"""Posts from strings, through the real stages (front matter, markdown, text, posts): no disk, no build."""
from __future__ import annotations

from typing import Any, Mapping

from blogbuild.config import SiteConfig, load_config
from blogbuild.core.errors import SourceWarning
from blogbuild.disk.frontmatter import parse_front_matter
from blogbuild.markdown import render_markdown
from blogbuild.core.model import Post, SourceFile
from blogbuild.content.posts import make_post
from blogbuild.content.text import text_metrics


def site_config(tmp_path: Any, **overrides: Any) -> SiteConfig:
    """A SiteConfig with the defaults, rooted at tmp_path, with overrides applied."""
    return load_config(None, root=tmp_path, overrides=overrides)


def post_from_text(rel_path: str, text: str, config: SiteConfig,
                   kind: str = "page") -> tuple[Post, tuple[SourceWarning, ...]]:
    """One content file's text (as content/<rel_path>) through every per-file stage."""
    source = SourceFile(f"content/{rel_path}", rel_path, text, kind=kind)
    front_matter = parse_front_matter(source)
    rendered = render_markdown(front_matter.body, path=source.path, line_offset=front_matter.body_line - 1,
                               config=config)
    metrics = text_metrics(rendered.html, config=config)
    return make_post(source, front_matter, rendered, metrics, config, fingerprint=rel_path)


def posts_from_files(files: Mapping[str, str], config: SiteConfig) -> list[Post]:
    """Posts from {rel_path: text}; an _index.md is a section page, as sources.py reads it."""
    return [post_from_text(rel_path, text, config, kind="section" if rel_path.endswith("_index.md") else "page")[0]
            for rel_path, text in files.items()]


def post_file(title: str, date: str, *, body: str = "", **fields: Any) -> str:
    """A post file with YAML front matter: title, date and any other fields (lists as flow sequences)."""
    lines = ["---", f'title: "{title}"', f"date: {date}"]
    for key, value in fields.items():
        if isinstance(value, (list, tuple)):
            lines.append(f"{key}: [{', '.join(repr(item) for item in value)}]")
        elif isinstance(value, bool):
            lines.append(f"{key}: {'true' if value else 'false'}")
        else:
            lines.append(f"{key}: {value}")
    return "\n".join([*lines, "---", "", body or f"Body of {title}.", ""])
