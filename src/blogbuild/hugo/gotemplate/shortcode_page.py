"""What a shortcode's `.Page` (objects.PageInfo) has besides its fields: `.RenderString` (markdown to HTML as
the page's content is rendered, inline unless `display: block`), `.Language` and `.Lang` (the site's language)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from markupsafe import Markup


def render_string(markdownify: Callable[[str], str], arguments: tuple[Any, ...]) -> Markup:
    """Hugo's RenderString: `"text"` or an options map then the text (nil is "", a number or bool as Go prints
    it, as Hugo's cast.ToString gives them); a single paragraph's text without its <p> unless the options say
    `display: block`."""
    from .escape import go_string
    if len(arguments) not in (1, 2):
        raise TypeError(f"RenderString takes the text, or options and the text, not {len(arguments)} arguments")
    options = arguments[0] if len(arguments) == 2 and isinstance(arguments[0], dict) else {}
    text = go_string(arguments[-1])
    html = str(markdownify(text)) if text else ""
    if str(options.get("display", "inline")) == "inline":
        stripped = html.strip()
        if stripped.startswith("<p>") and stripped.endswith("</p>") and stripped.count("<p>") == 1:
            html = stripped[3:-4]
    return Markup(html)


class ShortcodePage:
    """The methods of a shortcode's page that need the render: its markdown and its site."""

    markdownify: Callable[[str], str] | None
    Site: Any

    def RenderString(self, *arguments: Any) -> Markup:  # noqa: N802
        if self.markdownify is None:   # not where a shortcode runs: GoObject's error for a field it lacks
            return cast(Any, self).__getattr__("RenderString")
        return render_string(self.markdownify, arguments)

    @property
    def Language(self) -> Any:  # noqa: N802
        return self.Site.Language

    @property
    def Lang(self) -> str:  # noqa: N802
        return str(self.Site.Language.Lang)
