"""Hugo's render hooks: a site's `_markup/render-KIND.html` templates, and `.` as each one sees it.

A hook renders one image, link, heading, fenced code block (`render-codeblock-LANG.html` before
`render-codeblock.html`), passthrough element (`render-passthrough-inline.html` / `-block.html` before
`render-passthrough.html`), table or blockquote (`render-blockquote-alert.html` / `-regular.html` before
`render-blockquote.html`) of a page's markdown, in place of the HTML blogbuild would write. The markdown
side (markdown/hooks.py) walks the tokens and asks RenderHooks for each element; this side holds the
templates, the page's ordinals and its Store, and renders.

What a hook's `.Page.Store.Set` writes is kept with the rendered post (RenderHooks.store), so a page layout's
`.Store.Get` sees it on every build, the post's render cached or not, as Hugo's does.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from .objects import GoObject, PageInfo, Params, UnsupportedField

# The hooks blogbuild runs, by the name of the template (without .html).
HOOK_KINDS = ("render-image", "render-link", "render-heading", "render-codeblock", "render-passthrough",
              "render-table", "render-blockquote")


class HookPage(GoObject):
    """`.Page` (and `.PageInner`) inside a hook: the page being rendered, with a Store that is kept."""

    kind = "Page"

    def __init__(self, page: PageInfo, store: dict[str, Any]) -> None:
        self._page = page
        self._store = store

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_page", "_store"):
            raise AttributeError(name)
        return getattr(self._page, name)

    @property
    def Store(self) -> Any:  # noqa: N802 - Hugo's name
        from .objects import Scratch
        return Scratch(self._store)

    @property
    def Scratch(self) -> Any:  # noqa: N802
        return self.Store


@dataclass(frozen=True)
class _HookContext(GoObject):
    Page: Any
    Ordinal: int = 0

    @property
    def PageInner(self) -> Any:  # noqa: N802 - the page whose markdown holds the element: the same page here
        return self.Page


@dataclass(frozen=True)
class LinkContext(_HookContext):
    """`.` of render-link.html: .Destination, .Title, .Text (the link text as HTML), .PlainText."""

    Destination: str = ""
    Title: str = ""
    text: str = ""
    PlainText: str = ""
    kind = "LinkContext"

    @property
    def Text(self) -> Markup:  # noqa: N802
        return Markup(self.text)


@dataclass(frozen=True)
class ImageContext(LinkContext):
    """`.` of render-image.html: a link's fields, .Attributes, .IsBlock and the image's .Ordinal."""

    attributes: tuple[tuple[str, Any], ...] = ()
    IsBlock: bool = False
    kind = "ImageContext"

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params(self.attributes)


@dataclass(frozen=True)
class HeadingContext(_HookContext):
    """`.` of render-heading.html: .Level, .Anchor, .Text (HTML), .PlainText, .Attributes (id included)."""

    Level: int = 1
    Anchor: str = ""
    text: str = ""
    PlainText: str = ""
    attributes: tuple[tuple[str, Any], ...] = ()
    kind = "HeadingContext"

    @property
    def Text(self) -> Markup:  # noqa: N802
        return Markup(self.text)

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params(self.attributes)


@dataclass(frozen=True)
class CodeblockContext(_HookContext):
    """`.` of render-codeblock[-LANG].html: .Type (the language), .Inner (the code, no last newline), .Options
    (the highlighting options of the info string's {…}), .Attributes (the rest of it), .Position."""

    Type: str = ""
    Inner: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    attributes: tuple[tuple[str, Any], ...] = ()
    Position: str = ""
    kind = "CodeblockContext"

    @property
    def Options(self) -> Params:  # noqa: N802
        return Params(self.options)

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params(self.attributes)


@dataclass(frozen=True)
class PassthroughContext(_HookContext):
    """`.` of render-passthrough[-inline|-block].html: .Type ("inline" or "block") and .Inner, the text
    between the delimiters as written."""

    Type: str = "inline"
    Inner: str = ""
    Position: str = ""
    kind = "PassthroughContext"

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params()


@dataclass(frozen=True)
class HookPosition(GoObject):
    """`.Position` of a table or blockquote hook (Hugo's text.Position): where the element starts in the page's
    file, printed as Hugo prints it, `"FILE:LINE:COLUMN"`."""

    Filename: str = ""
    LineNumber: int = 0
    ColumnNumber: int = 0
    kind = "text.Position"

    def __str__(self) -> str:
        return f'"{self.Filename or "<stream>"}:{self.LineNumber}:{self.ColumnNumber}"'

    @property
    def String(self) -> str:  # noqa: N802 - Hugo's name
        return str(self)

    @property
    def IsValid(self) -> bool:  # noqa: N802
        return self.LineNumber > 0


@dataclass(frozen=True)
class TableCell(GoObject):
    """One cell of `.THead` or `.TBody`: .Alignment ("left", "center", "right" or "") and .Text (its HTML)."""

    Alignment: str = ""
    text: str = ""
    kind = "hooks.TableCell"

    @property
    def Text(self) -> Markup:  # noqa: N802
        return Markup(self.text)


@dataclass(frozen=True)
class TableContext(_HookContext):
    """`.` of render-table.html: .THead and .TBody (rows, each a list of TableCell), .Attributes, .Position."""

    head: tuple[tuple[TableCell, ...], ...] = ()
    body: tuple[tuple[TableCell, ...], ...] = ()
    attributes: tuple[tuple[str, Any], ...] = ()
    Position: HookPosition = field(default_factory=HookPosition)
    kind = "TableContext"

    @property
    def THead(self) -> list[list[TableCell]]:  # noqa: N802
        return [list(row) for row in self.head]

    @property
    def TBody(self) -> list[list[TableCell]]:  # noqa: N802
        return [list(row) for row in self.body]

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params(self.attributes)


@dataclass(frozen=True)
class BlockquoteContext(_HookContext):
    """`.` of render-blockquote[-alert|-regular].html: .Type ("alert" or "regular"), .Text (the quote's HTML; an
    alert's without its first line), .AlertType (lowercase), .AlertTitle (HTML), .AlertSign ("+", "-" or ""),
    .Attributes, .Position."""

    Type: str = "regular"
    text: str = ""
    AlertType: str = ""
    title: str = ""
    AlertSign: str = ""
    attributes: tuple[tuple[str, Any], ...] = ()
    Position: HookPosition = field(default_factory=HookPosition)
    kind = "BlockquoteContext"

    @property
    def Text(self) -> Markup:  # noqa: N802
        return Markup(self.text)

    @property
    def AlertTitle(self) -> Markup:  # noqa: N802
        return Markup(self.title)

    @property
    def Attributes(self) -> Params:  # noqa: N802
        return Params(self.attributes)


@dataclass
class RenderHooks:
    """One page's render hooks: the templates, a renderer for them, the ordinals so far and the page's Store.

    render(source, dot) renders a template with the page's render state (the caller's: it knows markdownify
    and the partials); a failure is the caller's to report. Shared by every markdown render of one page (its
    body and its shortcodes' inner markdown), so ordinals count the whole page."""

    templates: Mapping[str, Any]                    # name -> GoSource, only hooks the translator takes
    render: Callable[[Any, Any], str]
    page: PageInfo = field(default_factory=PageInfo)
    store: dict[str, Any] = field(default_factory=dict)
    ordinals: dict[str, int] = field(default_factory=dict)
    embedded_link: bool = False    # Hugo's own link hook (renderHooks.link.useEmbedded) for a site without one

    def find(self, kind: str, qualifier: str = "") -> Any:
        """The template for an element: render-KIND-QUALIFIER before render-KIND (None when neither). As in Hugo,
        the hook's name is read in lower case and the qualifier as written: ```Python has no language hook."""
        if qualifier:
            name = f"{kind}-{qualifier}"
            if name == name.lower():
                found = self.templates.get(name)
                if found is None:
                    found = next((source for key, source in self.templates.items() if key.lower() == name), None)
                if found is not None:
                    return found
        return self.templates.get(kind)

    def has(self, kind: str) -> bool:
        """Whether some template draws elements of kind (render-KIND.html or a render-KIND-QUALIFIER.html)."""
        return any(name == kind or name.startswith(kind + "-") for name in self.templates)

    def next_ordinal(self, counter: str) -> int:
        """The element's zero-based ordinal among the page's elements of its counter (images, code blocks,
        passthrough elements, tables, blockquotes)."""
        ordinal = self.ordinals.get(counter, 0)
        self.ordinals[counter] = ordinal + 1
        return ordinal

    def hook_page(self) -> HookPage:
        return HookPage(self.page, self.store)

    def stored(self) -> tuple[tuple[str, Any], ...]:
        """What the hooks put in the page's Store, as plain values (kept with the rendered post)."""
        return stored_values(self.store)


def stored_values(store: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """What a page's content (its shortcodes and render hooks) put in the page's Store, as plain values: scalars,
    and maps and lists of them (kept with the rendered post)."""
    return tuple(sorted((key, value) for key, value in store.items() if _plain(value)))


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(key, str) and _plain(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return value is None or isinstance(value, (bool, int, float, str))


__all__ = ["HOOK_KINDS", "BlockquoteContext", "CodeblockContext", "HeadingContext", "HookPage", "HookPosition",
           "ImageContext", "LinkContext", "PassthroughContext", "RenderHooks", "TableCell", "TableContext",
           "UnsupportedField", "stored_values"]
