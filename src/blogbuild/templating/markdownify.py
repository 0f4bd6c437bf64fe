"""Hugo's markdownify, the one implementation every engine binds: markdown rendered by the renderer of the
place the template renders in (the post being built, for a shortcode; the site's markup settings, for a
config text on a page), and Hugo's rule for a short text: when the HTML has exactly one `<p>` and is that
paragraph, the paragraph's content without the tags and the space around them.
"""
from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

# Markdown to HTML where the template renders.
Renderer = Callable[[str], str]


def trim_short_html(html: str) -> str:
    """Hugo's rule (markdownify, RenderString's default): one paragraph loses its <p>; anything else loses
    only the space around it when it holds exactly one <p>."""
    if html.count("<p>") != 1:
        return html
    html = html.strip()
    if html.startswith("<p>") and html.endswith("</p>"):
        html = html[len("<p>"):-len("</p>")].strip()
    return html


def markdownify(render: Renderer, text: object, *, inline: bool = True) -> Markup:
    """text as HTML through render; inline: Hugo's markdownify (a lone paragraph loses its <p>), else the
    whole HTML as render gives it."""
    html = render(str(text))
    return Markup(trim_short_html(html) if inline else html)
