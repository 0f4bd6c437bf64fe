"""What a translated template sees: the shortcode (`.Get`, `.Inner`, `.Ordinal`, …), its page (`.Page.Title`,
`.Page.Params`, `.Page.Date`, …), the site (`site.Params`, `.Site.Title`, `.Site.BaseURL`) and Go's time
values, with Hugo's names. A field outside what is offered is an UnsupportedField error, so a template that
needs more than blogbuild knows is reported, never rendered differently in silence.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

from markupsafe import Markup

from ...core.dates import go_format


# Partials and named templates nested deeper than this stop the render (a template calling itself).
MAX_CALL_DEPTH = 20
# Partials and named templates one render may call in all (a recursive template that fans out).
MAX_CALLS = 100_000


class UnsupportedField(Exception):
    """A Hugo field or method blogbuild's translation does not offer (e.g. .Page.Resources)."""


class HugoFunctionError(Exception):
    """A function given arguments it cannot use (Hugo would fail the build the same way)."""


class PartialNotFound(UnsupportedField):
    """A partial that is in none of the layout folders (Hugo fails the same way; `try` catches it)."""


class GoReturn(Exception):  # noqa: N818 - the control flow of `{{ return }}`, not an error
    """`{{ return $x }}`: ends the partial, which gives value."""

    def __init__(self, value: Any) -> None:
        super().__init__("return")
        self.value = value


class Params(dict):
    """Hugo's params maps: keys are read case-insensitively (Hugo lower-cases them)."""

    case_insensitive = True

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> "Params":
        return cls({str(key).lower(): _wrap(value) for key, value in (data or {}).items()})


def _wrap(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Params.of(value)
    if isinstance(value, list):
        return [_wrap(item) for item in value]
    return value


class GoObject:
    """Attribute access with Hugo's names; anything else is an UnsupportedField naming the type and field."""

    kind = "value"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnsupportedField(f"{self.kind}.{name} is not supported by blogbuild's translation")


@dataclass(frozen=True)
class GoTime(GoObject):
    """A time.Time: .Format with Go's reference layout, .Year, .Month, .Day, .Unix, …"""

    value: datetime
    kind = "time.Time"

    def Format(self, layout: str) -> str:  # noqa: N802 - Hugo's name
        return _formatted(self.value, str(layout))

    @property
    def Year(self) -> int:  # noqa: N802
        return self.value.year

    @property
    def Month(self) -> str:  # noqa: N802 - Go's Month prints as its name
        return self.value.strftime("%B")

    @property
    def Day(self) -> int:  # noqa: N802
        return self.value.day

    @property
    def Unix(self) -> int:  # noqa: N802
        return int(self.value.timestamp())

    @property
    def IsZero(self) -> bool:  # noqa: N802
        return self.value.year <= 1

    def __str__(self) -> str:
        return self.Format("2006-01-02 15:04:05 -0700 MST")

    def __bool__(self) -> bool:
        return not self.IsZero


@functools.lru_cache(maxsize=1 << 14)
def _formatted(value: datetime, layout: str) -> str:
    """A time in a Go layout, made once per time and layout (a list page writes each post's date again)."""
    return go_format(value, layout)


_ZERO_TIME = GoTime(datetime(1, 1, 1, tzinfo=timezone.utc))


@dataclass(frozen=True)
class SiteInfo(GoObject):
    """`.Site` / `site`: title, base URL, params, language; URLs made the way relURL and absURL make them."""

    Title: str = ""
    BaseURL: str = "/"
    Params: Params = field(default_factory=Params)
    LanguageCode: str = ""
    Copyright: str = ""
    kind = "Site"

    @property
    def Language(self) -> "_Language":  # noqa: N802
        return _Language(self.LanguageCode)

    @property
    def base_path(self) -> str:
        rest = self.BaseURL.split("://", 1)[-1]
        path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
        return path if path.endswith("/") else path + "/"

    def rel_url(self, url: str) -> str:
        """Hugo's relURL: a path with a leading slash or a full URL stays; anything else gets the base path."""
        if "://" in url or url.startswith(("/", "#", "mailto:")):
            return url
        return self.base_path + url

    def abs_url(self, url: str) -> str:
        """Hugo's absURL: a full URL stays; anything else is joined to the base URL."""
        if "://" in url:
            return url
        root = self.BaseURL if self.BaseURL.endswith("/") else self.BaseURL + "/"
        if url.startswith("/"):
            scheme_host = root.split("/", 3)
            return "/".join(scheme_host[:3]) + url
        return root + url


@dataclass(frozen=True)
class _Language(GoObject):
    Lang: str
    kind = "Language"

    @property
    def LanguageCode(self) -> str:  # noqa: N802
        return self.Lang


@dataclass(frozen=True)
class PageInfo(GoObject):
    """`.Page` of a shortcode: what is known of the page before its body is rendered."""

    Title: str = ""
    RelPermalink: str = "/"
    Permalink: str = "/"
    Params: Params = field(default_factory=Params)
    Section: str = ""
    Draft: bool = False
    date: datetime | None = None
    lastmod: datetime | None = None
    Description: str = ""
    file_path: str = ""
    page_kind: str = "page"      # Hugo's kinds: page, home, section, taxonomy, term
    site_info: "SiteInfo | None" = None
    # What gives the bundle's resources (page_resources.PageResources), or why they cannot be given as Hugo does.
    resources: "Callable[[], Any] | None" = field(default=None, compare=False)
    kind = "Page"

    @property
    def Resources(self) -> Any:  # noqa: N802
        found = self.resources() if self.resources is not None else "Page.Resources is not known here"
        if isinstance(found, str):
            raise UnsupportedField(found)
        return found

    @property
    def Site(self) -> "SiteInfo":  # noqa: N802
        if self.site_info is None:
            raise UnsupportedField("Page.Site is not known here")
        return self.site_info

    @property
    def Date(self) -> GoTime:  # noqa: N802
        return GoTime(self.date) if self.date else _ZERO_TIME

    @property
    def PublishDate(self) -> GoTime:  # noqa: N802
        return self.Date

    @property
    def Lastmod(self) -> GoTime:  # noqa: N802
        return GoTime(self.lastmod) if self.lastmod else self.Date

    @property
    def Kind(self) -> str:  # noqa: N802
        return self.page_kind

    @property
    def Type(self) -> str:  # noqa: N802
        return str(self.Params.get("type") or self.Section or "page")

    @property
    def IsPage(self) -> bool:  # noqa: N802
        return self.page_kind == "page"

    @property
    def IsHome(self) -> bool:  # noqa: N802
        return self.page_kind == "home"

    @property
    def LinkTitle(self) -> str:  # noqa: N802
        return str(self.Params.get("linktitle") or self.Title)

    @property
    def Tags(self) -> list[str]:  # noqa: N802
        tags = self.Params.get("tags") or []
        return [tags] if isinstance(tags, str) else list(tags)

    def Param(self, key: str) -> Any:  # noqa: N802 - Hugo's .Param: the page's, else the site's
        value = self.Params.get(str(key).lower())
        return value


@dataclass
class ShortcodeCall(GoObject):
    """`.` inside a shortcode template."""

    Name: str
    positional: tuple[Any, ...]
    named: Mapping[str, Any]
    is_named: bool
    inner: str | None
    Ordinal: int
    Position: str
    Page: PageInfo
    Site: SiteInfo
    Parent: "ShortcodeCall | None" = None
    kind = "Shortcode"

    def Get(self, key: Any) -> Any:  # noqa: N802
        if isinstance(key, int) and not isinstance(key, bool):
            return self.positional[key] if not self.is_named and 0 <= key < len(self.positional) else None
        if self.is_named:
            return self.named.get(str(key))
        try:
            index = int(str(key))
        except ValueError:
            return None
        return self.positional[index] if 0 <= index < len(self.positional) else None

    @property
    def Inner(self) -> Markup:  # noqa: N802
        return Markup(self.inner or "")

    @property
    def InnerDeindent(self) -> Markup:  # noqa: N802
        import textwrap
        return Markup(textwrap.dedent(self.inner or ""))

    @property
    def IsNamedParams(self) -> bool:  # noqa: N802
        return self.is_named

    @property
    def Params(self) -> Any:  # noqa: N802
        return dict(self.named) if self.is_named else list(self.positional)


@dataclass
class RenderState:
    """What the functions that need the page find: markdownify, partials, i18n strings, the site."""

    site: SiteInfo
    markdownify: Callable[[str], str]     # markdown to HTML where the template renders (templating.markdownify)
    partial: Callable[[str, Any], Any]
    strings: Mapping[str, Any] = field(default_factory=dict)
    # The render's named templates, partial cache and template set (runner.Runner); None renders one
    # template alone.
    runner: Any = None

    def translate(self, key: str, data: Any) -> str:
        entry = self.strings.get(key)
        if isinstance(entry, Mapping):
            count = data if isinstance(data, int) else (data.get("Count") if isinstance(data, Mapping) else None)
            entry = entry.get("one" if count == 1 else "other", entry.get("other"))
        if entry is None:
            return ""
        text = str(entry)
        if isinstance(data, Mapping):
            text = re.sub(r"\{\{\s*\.(\w+)\s*\}\}", lambda match: str(data.get(match.group(1), "")), text)
        elif data is not None:
            text = re.sub(r"\{\{\s*\.Count\s*\}\}|\{\{\s*\.\s*\}\}", str(data), text)
        return text


@dataclass(frozen=True)
class TryResult(GoObject):
    """What `try` gives: .Value, or .Err (the error's message) when the call failed."""

    kind = "try"
    Value: Any = None
    Err: str | None = None


def typed_argument(raw: str, value: str) -> Any:
    """A shortcode argument as Hugo types it: unquoted true/false and numbers are bool, int and float."""
    if raw[:1] in ('"', "`"):
        return value
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"[-+]?\d+", value):
        return int(value)
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?", value):
        return float(value)
    return value
