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

from .collation import table_name
from .go_url import add_context_root, dot_segments_resolved, is_absolute, make_permalink
from .arithmetic import add_values
from .escape import SafeAttr, SafeCSS, SafeJS, SafeURL, go_string
from .function_error import HugoFunctionError  # noqa: F401 - the functions import it from here too
from .privacy import privacy_settings
from .shortcode_page import ShortcodePage



# Partials and named templates nested deeper than this stop the render (a template calling itself).
MAX_CALL_DEPTH = 20
# Partials and named templates one render may call in all (a recursive template that fans out).
MAX_CALLS = 100_000


def site_config(site: Any) -> Any:
    """The SiteConfig behind a page layout's `site` (site_model.HugoSite), None for a shortcode's SiteInfo."""
    return vars(site).get("config") if site is not None else None


def truthy(value: Any) -> bool:
    """Go's truth: false, 0, nil, and empty strings and collections are false."""
    return bool(value) and value is not None


class UnsupportedField(Exception):
    """A Hugo field or method blogbuild's translation does not offer (e.g. .Page.Resources)."""


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
    _lowered: dict[str, Any] | None = None   # each key's lower case -> the first key of it, made on first need

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> "Params":
        return cls({str(key).lower(): _wrap(value) for key, value in (data or {}).items()})

    def key_for(self, lowered: str) -> Any:
        """The first key (in the map's order) whose lower case is lowered; KeyError when there is none."""
        if self._lowered is None:
            found: dict[str, Any] = {}
            for key in self:
                found.setdefault(str(key).lower(), key)
            self._lowered = found
        return self._lowered[lowered]

    # A change of the keys forgets the index.
    def __setitem__(self, key: Any, value: Any) -> None:
        self._lowered = None
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self._lowered = None
        super().__delitem__(key)

    def __ior__(self, other: Any) -> "Params":  # type: ignore[misc]
        self._lowered = None
        return super().__ior__(other)

    def update(self, *arguments: Any, **keywords: Any) -> None:
        self._lowered = None
        super().update(*arguments, **keywords)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._lowered = None
        return super().setdefault(key, default)

    def pop(self, *arguments: Any) -> Any:
        self._lowered = None
        return super().pop(*arguments)

    def popitem(self) -> tuple[Any, Any]:
        self._lowered = None
        return super().popitem()

    def clear(self) -> None:
        self._lowered = None
        super().clear()


def _lookup(mapping: Mapping, key: Any) -> Any:
    """A map's key as Go templates read it: as written, else (Hugo's params maps) in any case; None when none."""
    if key in mapping:
        return mapping[key]
    lowered = str(key).lower()
    key_for = getattr(type(mapping), "key_for", None)   # Params: an index of its keys by their lower case
    if key_for is not None:
        try:
            return mapping[key_for(mapping, lowered)]
        except KeyError:
            return None
    if getattr(type(mapping), "case_insensitive", False):
        for name, value in mapping.items():
            if str(name).lower() == lowered:
                return value
    return None


def ref_text(target: Any) -> str:
    """ref's and relref's target as text: a content path (with its "#fragment"), or an options map's path."""
    return go_string(_lookup(target, "path") or "" if isinstance(target, Mapping) else target)


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


@dataclass(frozen=True, eq=False)
class GoTime(GoObject):
    """A time.Time: .Format with Go's reference layout, .Year, .Month, .Day, .Hour, .Unix, .UTC, .AddDate, …;
    times compare with lt/gt/eq by the instant, as Go's do."""

    value: datetime
    kind = "time.Time"

    def __post_init__(self) -> None:
        # A zone known only by its offset is named by it, as Go names it ("+0200"), not "UTC+02:00".
        zone = self.value.tzinfo
        if isinstance(zone, timezone) and zone != timezone.utc and str(self.value.tzname()).startswith("UTC"):
            offset = self.value.utcoffset()
            assert offset is not None
            minutes = int(offset.total_seconds() // 60)
            name = f"{'+' if minutes >= 0 else '-'}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
            object.__setattr__(self, "value", self.value.replace(tzinfo=timezone(offset, name)))

    def Format(self, layout: str) -> str:  # noqa: N802 - Hugo's name
        return _formatted(self.value, str(layout))

    @property
    def Year(self) -> int:  # noqa: N802
        return self.value.year

    @property
    def Month(self) -> "GoMonth":  # noqa: N802 - Go's Month prints as its name
        return GoMonth(self.value.month)

    @property
    def Day(self) -> int:  # noqa: N802
        return self.value.day

    @property
    def Hour(self) -> int:  # noqa: N802
        return self.value.hour

    @property
    def Minute(self) -> int:  # noqa: N802
        return self.value.minute

    @property
    def Second(self) -> int:  # noqa: N802
        return self.value.second

    @property
    def Nanosecond(self) -> int:  # noqa: N802
        return self.value.microsecond * 1000

    @property
    def Weekday(self) -> "GoWeekday":  # noqa: N802
        return GoWeekday((self.value.weekday() + 1) % 7)

    @property
    def YearDay(self) -> int:  # noqa: N802
        return self.value.timetuple().tm_yday

    @property
    def Unix(self) -> int:  # noqa: N802
        return int(self._aware().timestamp() // 1)

    @property
    def UnixMilli(self) -> int:  # noqa: N802
        return int(self._aware().timestamp() * 1000 // 1)

    @property
    def UnixNano(self) -> int:  # noqa: N802
        moment = self._aware()
        return int(moment.timestamp() // 1) * 1_000_000_000 + moment.microsecond * 1000

    @property
    def IsZero(self) -> bool:  # noqa: N802
        return self.value.year <= 1

    @property
    def UTC(self) -> "GoTime":  # noqa: N802
        return GoTime(self._aware().astimezone(timezone.utc))

    @property
    def Local(self) -> "GoTime":  # noqa: N802 - the build's local zone is UTC, as Hugo's in CI
        return self.UTC

    def AddDate(self, years: Any, months: Any, days: Any) -> "GoTime":  # noqa: N802
        """Go's AddDate: the fields added, then normalised (Oct 31 + 1 month is Dec 1)."""
        from datetime import timedelta
        month_index = self.value.month - 1 + int(months)
        year = self.value.year + int(years) + month_index // 12
        month = month_index % 12 + 1
        first = self.value.replace(year=year, month=month, day=1)
        return GoTime(first + timedelta(days=self.value.day - 1 + int(days)))

    def Add(self, duration: Any) -> "GoTime":  # noqa: N802 - a duration in nanoseconds (time.ParseDuration)
        from datetime import timedelta
        return GoTime(self.value + timedelta(microseconds=int(duration) / 1000))

    def Sub(self, other: "GoTime") -> "GoDuration":  # noqa: N802
        delta = self._aware() - other._aware()
        return GoDuration(int(delta.total_seconds()) * 1_000_000_000 + delta.microseconds * 1000)

    def Before(self, other: "GoTime") -> bool:  # noqa: N802
        return self._aware() < other._aware()

    def After(self, other: "GoTime") -> bool:  # noqa: N802
        return self._aware() > other._aware()

    def Equal(self, other: "GoTime") -> bool:  # noqa: N802
        return self._aware() == other._aware()

    def _aware(self) -> datetime:
        return self.value if self.value.tzinfo is not None else self.value.replace(tzinfo=timezone.utc)

    def __eq__(self, other: object) -> bool:
        """Go's == on two times: the same instant in the same zone."""
        return isinstance(other, GoTime) and self.value == other.value and \
            self.value.utcoffset() == other.value.utcoffset() and self.value.tzname() == other.value.tzname()

    def __hash__(self) -> int:
        return hash((self.value, self.value.tzname()))

    def __lt__(self, other: Any) -> bool:
        return isinstance(other, GoTime) and self.Before(other)

    def __gt__(self, other: Any) -> bool:
        return isinstance(other, GoTime) and self.After(other)

    def __le__(self, other: Any) -> bool:
        return isinstance(other, GoTime) and not self.After(other)

    def __ge__(self, other: Any) -> bool:
        return isinstance(other, GoTime) and not self.Before(other)

    def __str__(self) -> str:
        return self.Format("2006-01-02 15:04:05 -0700 MST")

    def go_json(self) -> str:
        """As Go's encoding/json writes a time: RFC 3339 with the fraction it has."""
        return self.Format("2006-01-02T15:04:05.999999Z07:00")

    def __bool__(self) -> bool:
        return not self.IsZero


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
_WEEKDAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


# Go's reference layout, chunk by chunk as time.Format reads it (left to right, the longest chunk first).
_LAYOUT_CHUNK = re.compile(
    r"January|Jan|Monday|Mon|MST|2006|__2|_2|002|0[1-6]|15|[1-5]|PM|pm"
    r"|Z07:00:00|Z070000|Z07:00|Z0700|Z07|-07:00:00|-070000|-07:00|-0700|-07"
    r"|[.,](?:0+|9+)(?![0-9])")


def go_layout(moment: datetime, layout: str) -> str:
    """A time in Go's reference layout, as Go's Time.Format writes it (English names). Each page's dates are
    formatted on every list that shows it: kept by the time, its zone and the layout (two times of one
    instant in different zones are equal datetimes, so the zone is part of the key)."""
    return _go_layout(moment, moment.utcoffset(), moment.tzname(), layout)


@functools.lru_cache(maxsize=16384)
def _go_layout(moment: datetime, _offset: object, _zone: object, layout: str) -> str:
    offset = moment.utcoffset()
    seconds = int(offset.total_seconds()) if offset is not None else 0

    def zone(token: str) -> str:
        if token.startswith("Z") and seconds == 0:
            return "Z"
        sign = "-" if seconds < 0 else "+"
        hours, rest = divmod(abs(seconds), 3600)
        minutes, secs = divmod(rest, 60)
        body = token[1:]
        if body in ("07",):
            return f"{sign}{hours:02d}"
        if body == "0700":
            return f"{sign}{hours:02d}{minutes:02d}"
        if body == "07:00":
            return f"{sign}{hours:02d}:{minutes:02d}"
        if body == "070000":
            return f"{sign}{hours:02d}{minutes:02d}{secs:02d}"
        return f"{sign}{hours:02d}:{minutes:02d}:{secs:02d}"

    table: dict[str, str] = {}   # the names and numbers of the time, made at the first token that needs one

    def chunk(match: re.Match[str]) -> str:
        token = match.group(0)
        if token[0] in ".,":
            digits = f"{moment.microsecond:06d}000"[:len(token) - 1]
            if token[1] == "9":
                digits = digits.rstrip("0")
                return token[0] + digits if digits else ""
            return token[0] + digits
        if token[0] in "Z-":
            return zone(token)
        if not table:
            table.update(_layout_values(moment, _offset, _zone))
        return table[token]
    return _LAYOUT_CHUNK.sub(chunk, layout)


@functools.lru_cache(maxsize=4096)
def _layout_values(moment: datetime, _offset: object, _zone: object) -> dict[str, str]:
    """What each of Go's layout tokens (but the zone and fractions) writes of the time; made once for the
    layouts a page's date is written in (RFC 1123 for RSS, RFC 3339, the year, the month's name, ...), by the
    time, its offset and zone (equal instants in two zones are equal datetimes). Read only."""
    hour12 = moment.hour % 12 or 12
    day_of_year = moment.timetuple().tm_yday
    month, weekday = _MONTH_NAMES[moment.month - 1], _WEEKDAY_NAMES[(moment.weekday() + 1) % 7]
    return {
        "January": month, "Jan": month[:3], "Monday": weekday, "Mon": weekday[:3],
        "MST": moment.tzname() or "UTC", "2006": f"{moment.year:04d}", "06": f"{moment.year % 100:02d}",
        "01": f"{moment.month:02d}", "1": str(moment.month), "02": f"{moment.day:02d}", "_2": f"{moment.day:2d}",
        "2": str(moment.day), "__2": f"{day_of_year:3d}", "002": f"{day_of_year:03d}",
        "15": f"{moment.hour:02d}", "03": f"{hour12:02d}", "3": str(hour12), "04": f"{moment.minute:02d}",
        "4": str(moment.minute), "05": f"{moment.second:02d}", "5": str(moment.second),
        "PM": "PM" if moment.hour >= 12 else "AM", "pm": "pm" if moment.hour >= 12 else "am",
    }


class GoMonth(int):
    """time.Month: a number (printf "%d", arithmetic, eq 1) that prints as its English name."""

    go_stringer = True    # a fmt.Stringer: JavaScript gets its text, JSON its number

    def __str__(self) -> str:
        return _MONTH_NAMES[int(self) - 1]


class GoWeekday(int):
    """time.Weekday: Sunday is 0; prints as its English name."""

    go_stringer = True    # a fmt.Stringer: JavaScript gets its text, JSON its number

    def __str__(self) -> str:
        return _WEEKDAY_NAMES[int(self)]


class GoDuration(int, GoObject):
    """time.Duration in nanoseconds: prints as Go does (1h2m3s), with .Hours, .Minutes, .Seconds, …"""

    go_stringer = True    # a fmt.Stringer: JavaScript gets its text, JSON its number

    kind = "time.Duration"

    def __str__(self) -> str:
        return go_duration(int(self))

    @property
    def Hours(self) -> float:  # noqa: N802
        return int(self) / 3.6e12

    @property
    def Minutes(self) -> float:  # noqa: N802
        return int(self) / 6e10

    @property
    def Seconds(self) -> float:  # noqa: N802
        return int(self) / 1e9

    @property
    def Milliseconds(self) -> int:  # noqa: N802
        return int(self) // 1_000_000

    @property
    def Nanoseconds(self) -> int:  # noqa: N802
        return int(self)

    def Round(self, multiple: Any) -> "GoDuration":  # noqa: N802
        step = int(multiple)
        if step <= 0:
            return self
        quotient, rest = divmod(abs(int(self)), step)
        rounded = (quotient + (1 if rest * 2 >= step else 0)) * step
        return GoDuration(rounded if int(self) >= 0 else -rounded)

    def Truncate(self, multiple: Any) -> "GoDuration":  # noqa: N802
        step = int(multiple)
        return self if step <= 0 else GoDuration(int(self) - int(self) % step if int(self) >= 0
                                                  else -(-int(self) - (-int(self)) % step))


def go_duration(nanoseconds: int) -> str:
    """Go's Duration.String: 1h2m3.5s, 1.5ms, 0s."""
    if nanoseconds == 0:
        return "0s"
    sign = "-" if nanoseconds < 0 else ""
    value = abs(nanoseconds)
    if value < 1_000_000_000:
        for unit, size in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if value >= size:
                return sign + _fraction(value, size) + unit
    hours, rest = divmod(value, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    text = _fraction(rest, 1_000_000_000) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{text}"
    if minutes:
        return f"{sign}{minutes}m{text}"
    return sign + text


def _fraction(value: int, size: int) -> str:
    whole, rest = divmod(value, size)
    if not rest:
        return str(whole)
    digits = str(rest).rjust(len(str(size)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"


def _formatted(value: datetime, layout: str) -> str:
    """A time in a Go layout, made once per time, zone and layout (a list page writes each post's date again;
    equal instants in two zones are two times)."""
    return _formatted_in_zone(value, value.tzname(), layout)


@functools.lru_cache(maxsize=1 << 14)
def _formatted_in_zone(value: datetime, zone: str | None, layout: str) -> str:
    return go_layout(value, layout)


_ZERO_TIME = GoTime(datetime(1, 1, 1, tzinfo=timezone.utc))


@dataclass(frozen=True)
class SiteInfo(GoObject):
    """`.Site` / `site`: title, base URL, params, language; URLs made the way relURL and absURL make them."""

    Title: str = ""
    BaseURL: str = "/"
    Params: Params = field(default_factory=Params)
    LanguageCode: str = ""
    Copyright: str = ""
    root: str = ""          # the site's folder, for os.ReadFile and os.FileExists ("" when not known)
    # The language's key and name as Hugo names them (a shortcode's site, which has no SiteConfig behind it).
    language_key: str = ""
    language_name: str = ""
    multilingual: bool = False   # the config has several languages (hugo.IsMultilingual)
    highlight: tuple[tuple[str, Any], ...] = ()   # markup.highlight, for transform.Highlight in hooks and shortcodes
    # The config's privacy mapping, for site.Config.Privacy in hooks and shortcodes (Hugo's youtube, instagram).
    privacy: Any = field(default=None, compare=False)
    kind = "Site"

    @property
    def Hugo(self) -> "HugoInfo":  # noqa: N802 - deprecated in Hugo, still there in 0.168: what `hugo` is
        return HugoInfo(self)

    @functools.cached_property
    def collation(self) -> str:
        """The collation Hugo's sorts of strings use on this site: its language key's (collation.table_name)."""
        return table_name(str(self.Language.Lang))

    @property
    def Language(self) -> "_Language":  # noqa: N802
        """The language: `.Lang` its key as Hugo names it (de, en, zh: the config's language, else the key
        dates are written in), `.LanguageCode` and `.Locale` the languageCode."""
        config = site_config(self)
        if config is None:
            return _Language(self.language_key or self.LanguageCode, self.LanguageCode, self.language_name, "",
                             self.Params)
        key = getattr(config, "language", "") or getattr(config, "date_language", "")
        own = next((item for item in getattr(config, "languages", ()) if item.key == key), None)
        return _Language(key or self.LanguageCode, self.LanguageCode,
                         own.name if own is not None else str(getattr(config, "language_name", "") or ""),
                         str(getattr(config, "language_direction", "") or ""), self.Params)

    @property
    def Data(self) -> Any:  # noqa: N802
        """`.Site.Data`: hugo.Data."""
        return HugoInfo(self).Data

    @property
    def Config(self) -> "_Config":  # noqa: N802
        """`site.Config`: its services (`.Services.RSS.Limit`, `.Services.GoogleAnalytics.ID`,
        `.Services.Disqus.Shortname`) and privacy
        settings (`.Privacy.GoogleAnalytics.RespectDoNotTrack`, …)."""
        config = site_config(self)
        analytics = getattr(config, "analytics", None)
        limit = int(getattr(config, "hugo_rss_limit", 0) or 0)
        privacy = privacy_settings((getattr(config, "hugo_privacy", None) if config is not None else self.privacy) or {})
        return _Config(_Services(_Setting("RSS", Limit=limit or -1),
                                 _Setting("GoogleAnalytics", ID=str(getattr(analytics, "google_id", "") or "")),
                                 _Setting("Disqus", Shortname=str(getattr(config, "hugo_disqus_shortname", "") or ""))),
                       _Privacy(**{name: _Setting(name, **fields) for name, fields in privacy.items()}))

    @property
    def base_path(self) -> str:
        rest = self.BaseURL.split("://", 1)[-1]
        path = "/" + rest.split("/", 1)[1] if "/" in rest else "/"
        return path if path.endswith("/") else path + "/"

    def rel_url(self, url: str) -> str:
        """Hugo's relURL: a URL under the base URL becomes its path from the host (`.Site.BaseURL | relURL` is the
        base path, without its last slash); a path with a leading slash or another full URL stays; anything else
        gets the base path."""
        root = self.BaseURL if self.BaseURL.endswith("/") else self.BaseURL + "/"
        if "://" in root and url.startswith(root):
            return add_context_root(self.base_path, url[len(root):])
        if "://" in url or url.startswith(("/", "#", "mailto:")):
            return url
        return dot_segments_resolved(self.base_path + url)

    def abs_url(self, url: str) -> str:
        """Hugo's absURL: a URL with a scheme (or from //) stays as it is; anything else is joined to the base URL
        (from the root: to its host) as Go joins and writes URLs, its path percent-encoded."""
        if is_absolute(url):
            return url
        root = self.BaseURL if self.BaseURL.endswith("/") else self.BaseURL + "/"
        if "://" not in root:   # a base URL without a host: joined as text, as before any host is known
            return root + url.lstrip("/")
        if url.startswith("/"):
            return make_permalink("/".join(root.split("/", 3)[:3]), url)
        return make_permalink(root, url)


class _Setting(GoObject):
    """One service's settings, as fields of Hugo's names."""

    def __init__(self, name: str, **fields: Any) -> None:
        self.kind = f"Config.Services.{name}"
        self.__dict__.update(fields)


@dataclass(frozen=True)
class _Services(GoObject):
    RSS: _Setting
    GoogleAnalytics: _Setting
    Disqus: _Setting
    kind = "Config.Services"


class _Privacy(GoObject):
    """`site.Config.Privacy`: a service's settings by its Hugo name."""

    kind = "Config.Privacy"

    def __init__(self, **services: "_Setting") -> None:
        self.__dict__.update(services)


@dataclass(frozen=True)
class _Config(GoObject):
    Services: _Services
    Privacy: Any = None   # privacy.privacy_settings as _Setting fields, one a service
    kind = "Config"


@dataclass(frozen=True)
class _Language(GoObject):
    Lang: str
    code: str = ""
    name: str = ""
    direction: str = ""
    params: Any = None    # the language's params: the site's, its language's merged in (config/hugo)
    kind = "Language"

    @property
    def Params(self) -> Any:  # noqa: N802
        return self.params if self.params is not None else Params()

    def __str__(self) -> str:   # a language prints as its key ({{ site.Language }} is "en")
        return self.Lang

    @property
    def LanguageName(self) -> str:  # noqa: N802 - languageName, else "" (the config's name falls back to the key)
        return self.name if self.name != self.Lang else ""

    @property
    def LanguageDirection(self) -> str:  # noqa: N802
        return self.direction

    @property
    def Name(self) -> str:  # noqa: N802 - Hugo's alias of Lang
        return self.Lang

    @property
    def Direction(self) -> str:  # noqa: N802 - Hugo 0.158's name of LanguageDirection
        return self.direction

    @property
    def Label(self) -> str:  # noqa: N802 - Hugo 0.158's: the config's label or languageName, else ""
        return self.LanguageName

    @property
    def Weight(self) -> int:  # noqa: N802
        return 0

    @property
    def LanguageCode(self) -> str:  # noqa: N802
        return self.code or self.Lang

    @property
    def Locale(self) -> str:  # noqa: N802
        return self.LanguageCode


class ContentStore(dict):
    """A page's Store as its content's shortcodes and render hooks see it, noting each key they read that is
    not there (missing_reads): a page's layouts may set such a key (LoveIt's init.html sets "params") before
    Hugo renders the content, which then reads the layouts' value (HugoPage._content_rendered).

    It counts those reads (misses) and the Scratch methods' writes (writes), so that a render hook's call can
    be told to have read what the layouts set and written nothing (markdown/hooks.py keeps such a call to run
    again alone); a sealed store refuses every write (StoreSealed) before it changes anything: a call run
    again must write nothing."""

    __slots__ = ("missing_reads", "misses", "writes", "sealed")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.missing_reads: set[str] = set()
        self.misses = 0
        self.writes = 0
        self.sealed = False

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        self.missing_reads.add(str(key))
        self.misses += 1
        return default


class StoreSealed(Exception):
    """A write to a sealed ContentStore: a render hook run again alone wrote to the page's Store."""


def _writing(values: dict[str, Any]) -> None:
    """Before a Scratch method writes to values: counted, or refused when values is a sealed ContentStore."""
    if type(values) is ContentStore:
        if values.sealed:
            raise StoreSealed("the hook writes to the page's Store")
        values.writes += 1


class PageRef(GoObject):
    """A page GetPage found while content renders: its URLs, as markers; any other field of it fails, naming
    why (the hook then draws blogbuild's HTML, with a warning)."""

    kind = "Page"

    def __init__(self, path: str, asked: str) -> None:
        self._path = path
        self._asked = asked

    @property
    def RelPermalink(self) -> str:  # noqa: N802
        from ...core.page_lookups import marker
        return marker(self._path, absolute=False, asked=self._asked)

    @property
    def Permalink(self) -> str:  # noqa: N802
        from ...core.page_lookups import marker
        return marker(self._path, absolute=True, asked=self._asked)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise UnsupportedField(f"Page.{name} of another page (GetPage) is not known while the content renders: "
                               "its URL is (.RelPermalink, .Permalink)")


@dataclass(frozen=True)
class PageInfo(ShortcodePage, GoObject):
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
    # Markdown to HTML as the page's content is rendered, for .RenderString (set where a shortcode runs).
    markdownify: "Callable[[str], str] | None" = field(default=None, compare=False, repr=False)
    # .Store, .Scratch: what the page's content (its shortcodes and render hooks) reads and writes.
    store: dict[str, Any] = field(default_factory=ContentStore, compare=False, repr=False, init=False)
    # Its file under the content folder and its language: where .GetPage, ref and relref look from
    # (core/page_lookups).
    content_path: str = ""
    language: str = ""
    kind = "Page"

    def GetPage(self, ref: Any) -> Any:  # noqa: N802
        """The page ref names (core/page_lookups.find_page): its URLs known as the links stage will make them;
        nil for none."""
        from ...core.page_lookups import noted
        if not self.content_path:
            raise UnsupportedField("Page.GetPage is not known here")
        asked = go_string(ref)
        try:
            found = noted(self.language, self.content_path, asked)
        except LookupError as error:
            raise UnsupportedField(f"GetPage: {error}") from None
        return PageRef(found, asked) if found else None

    def Ref(self, target: Any) -> str:  # noqa: N802
        return self.named_url(ref_text(target), absolute=True)

    def RelRef(self, target: Any) -> str:  # noqa: N802
        return self.named_url(ref_text(target), absolute=False)

    def named_url(self, text: str, *, absolute: bool) -> str:
        """ref / relref of another page (text: ref_text's) while content renders: the marker of its URL
        (core/page_lookups), which the links stage resolves (an error there, as Hugo's REF_NOT_FOUND, for no
        page); "#x" alone stays."""
        from ...core.page_lookups import marker, noted
        path, hash_mark, fragment = text.partition("#")
        if path == "":
            return hash_mark + fragment
        try:
            named = noted(self.language, self.content_path, path) if self.content_path else ""
        except LookupError:
            named = ""
        return marker(named or path, absolute=absolute) + hash_mark + fragment

    @property
    def Store(self) -> "Scratch":  # noqa: N802
        return Scratch(self.store)

    @property
    def Scratch(self) -> "Scratch":  # noqa: N802
        return Scratch(self.store)

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
    store: dict[str, Any] = field(default_factory=dict, repr=False, init=False)
    kind = "Shortcode"

    @property
    def Store(self) -> "Scratch":  # noqa: N802 - the shortcode's own, as Hugo's
        return Scratch(self.store)

    @property
    def Scratch(self) -> "Scratch":  # noqa: N802
        return Scratch(self.store)

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
        if isinstance(entry, Mapping):   # its plural forms: the one the count picks, else other, as go-i18n
            from .plurals import plural_form
            form = plural_form(getattr(entry, "language", "") or self.site.LanguageCode, data)
            entry = entry.get(form, entry.get("other"))
        if entry is None:
            return ""
        text = str(entry)
        if "{{" not in text:
            return text

        class Failed(Exception):
            """The message's template failed on the data: Hugo writes the message as ""."""

        def field(match: re.Match[str]) -> str:
            """`{{ . }}` and `{{ .Name }}` as Go's text/template runs the message on the data: a map's key
            ("<no value>" when missing, or without data), an integer's Count (Hugo wraps an integer so), an
            object's field; a field of any other value fails the message."""
            name = match.group(1)
            if data is None:
                return "<no value>"
            if name is None:
                return go_string(data)
            if isinstance(data, Mapping):
                value = data.get(name)
                return "<no value>" if value is None else go_string(value)
            if isinstance(data, bool) or isinstance(data, (float, str)):
                raise Failed
            if isinstance(data, int):
                if name == "Count":
                    return go_string(data)
                raise Failed
            try:   # a field of an object (a method is Hugo's too): its value
                if name.startswith("_"):
                    raise Failed
                return go_string(getattr(data, name))
            except (UnsupportedField, AttributeError) as error:
                raise Failed from error
        try:
            return re.sub(r"\{\{-?\s*\.(\w+)?\s*-?\}\}", field, text)
        except Failed:
            return ""


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


class Scratch(GoObject):
    """`.Store`, `.Scratch` and `newScratch`: Set, Get, Add, SetInMap, DeleteInMap, GetSortedMapValues, Delete,
    Values, as Hugo's maps.Scratch does them."""

    kind = "Scratch"

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self._values = values if values is not None else {}

    def Set(self, key: Any, value: Any) -> str:  # noqa: N802
        _writing(self._values)
        self._values[str(key)] = value
        return ""

    def Get(self, key: Any) -> Any:  # noqa: N802
        return self._values.get(str(key))

    def Add(self, key: Any, value: Any) -> str:  # noqa: N802
        """A list gets the value appended (a list's elements); numbers are added, strings joined."""
        current = self._values.get(str(key))
        _writing(self._values)
        if current is None:
            self._values[str(key)] = value
        elif isinstance(current, list):
            self._values[str(key)] = current + (list(value) if isinstance(value, (list, tuple)) else [value])
        else:
            self._values[str(key)] = add_values(current, value)
        return ""

    def SetInMap(self, key: Any, inner: Any, value: Any) -> str:  # noqa: N802
        _writing(self._values)
        current = self._values.get(str(key))
        if not isinstance(current, dict):
            current = self._values[str(key)] = {}
        current[str(inner)] = value
        return ""

    def DeleteInMap(self, key: Any, inner: Any) -> str:  # noqa: N802
        _writing(self._values)
        current = self._values.get(str(key))
        if isinstance(current, dict):
            current.pop(str(inner), None)
        return ""

    def GetSortedMapValues(self, key: Any) -> list[Any] | None:  # noqa: N802
        current = self._values.get(str(key))
        if not isinstance(current, Mapping):
            return None
        return [current[name] for name in sorted(current, key=str)]

    def Delete(self, key: Any) -> str:  # noqa: N802
        _writing(self._values)
        self._values.pop(str(key), None)
        return ""

    @property
    def Values(self) -> dict[str, Any]:  # noqa: N802
        return self._values


@dataclass(frozen=True)
class GoURL(GoObject):
    """What urls.Parse gives (Go's url.URL): .Scheme, .Host, .Path, .RawQuery, .Fragment, .IsAbs, .String, …"""

    Scheme: str = ""
    Opaque: str = ""
    user: str = ""
    Host: str = ""
    Path: str = ""
    RawPath: str = ""
    RawQuery: str = ""
    Fragment: str = ""
    RawFragment: str = ""
    kind = "url.URL"
    go_stringer = True

    @property
    def User(self) -> str | None:  # noqa: N802
        return self.user or None

    @property
    def IsAbs(self) -> bool:  # noqa: N802
        return bool(self.Scheme)

    @property
    def Hostname(self) -> str:  # noqa: N802
        host = self.Host
        if host.startswith("["):
            return host[1:host.find("]")] if "]" in host else host[1:]
        return host.rsplit(":", 1)[0] if ":" in host else host

    @property
    def Port(self) -> str:  # noqa: N802
        host = self.Host.rsplit("]", 1)[-1]
        return host.rsplit(":", 1)[1] if ":" in host else ""

    @property
    def Query(self) -> dict[str, list[str]]:  # noqa: N802
        from urllib.parse import parse_qs
        return {key: values for key, values in parse_qs(self.RawQuery, keep_blank_values=True).items()}

    @property
    def EscapedPath(self) -> str:  # noqa: N802
        from .escape import url_path_escape
        return self.RawPath or url_path_escape(self.Path)

    @property
    def EscapedFragment(self) -> str:  # noqa: N802
        from urllib.parse import quote
        return self.RawFragment or quote(self.Fragment, safe="!$&'()*+,;=:@/?")

    @property
    def RequestURI(self) -> str:  # noqa: N802
        uri = self.Opaque or self.EscapedPath or "/"
        return uri + ("?" + self.RawQuery if self.RawQuery else "")

    @property
    def String(self) -> str:  # noqa: N802
        """Go's URL.String: scheme:, //user@host, the escaped path, ?query, #fragment."""
        out = []
        if self.Scheme:
            out.append(self.Scheme + ":")
        if self.Opaque:
            out.append(self.Opaque)
        else:
            if self.Scheme or self.Host or self.user:
                if self.Host or self.Path or self.user:
                    out.append("//")
                if self.user:
                    out.append(self.user + "@")
                from urllib.parse import quote
                out.append(quote(self.Host, safe="!$&'()*+,;=:[]<>\"-._~"))
            path = self.EscapedPath
            if path and not path.startswith("/") and self.Host:
                out.append("/")
            if not out and ":" in path.split("/", 1)[0]:
                out.append("./")
            out.append(path)
        if self.RawQuery:
            out.append("?" + self.RawQuery)
        if self.Fragment:
            out.append("#" + self.EscapedFragment)
        return "".join(out)

    def __str__(self) -> str:
        return self.String


class VersionString(str):
    """hugo.Version: compares with a version string ("0.146.0") by its numbers, as Hugo's VersionString."""

    go_comparer = True   # lt, le, gt and ge compare it by its own rule (Hugo's compare.Comparer)

    @staticmethod
    def _numbers(text: Any) -> tuple[int, ...]:
        parts = re.findall(r"\d+", str(text).split("-")[0])
        return tuple(int(part) for part in parts) + (0,) * (3 - len(parts))

    def __lt__(self, other: object) -> bool:
        return self._numbers(self) < self._numbers(other)

    def __le__(self, other: object) -> bool:
        return self._numbers(self) <= self._numbers(other)

    def __gt__(self, other: object) -> bool:
        return self._numbers(self) > self._numbers(other)

    def __ge__(self, other: object) -> bool:
        return self._numbers(self) >= self._numbers(other)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (str, int, float)) and self._numbers(self) == self._numbers(other)

    def __hash__(self) -> int:
        return hash(self._numbers(self))


# The Hugo whose templates blogbuild runs as that Hugo runs them (what hugo.Version tells a theme).
HUGO_VERSION = "0.168.0"


@dataclass(frozen=True)
class HugoInfo(GoObject):
    """`hugo`: the version blogbuild follows, the environment (a build is production; a page layout's page under
    `blogbuild serve` is development, as under `hugo server`), whether the site has several languages; the
    generator tag names blogbuild. A shortcode's is always a build's: a rendered post serves both."""

    site: Any = None
    environment: str = ""    # "" : production, or development while serving
    kind = "hugo"

    @property
    def Version(self) -> VersionString:  # noqa: N802
        return VersionString(HUGO_VERSION)

    @property
    def Environment(self) -> str:  # noqa: N802
        if self.environment:
            return self.environment
        return "development" if getattr(site_config(self.site), "serving", False) else "production"

    @property
    def IsProduction(self) -> bool:  # noqa: N802
        return self.Environment == "production"

    @property
    def IsDevelopment(self) -> bool:  # noqa: N802
        return self.Environment == "development"

    @property
    def IsServer(self) -> bool:  # noqa: N802
        return bool(getattr(site_config(self.site), "serving", False))

    @property
    def IsExtended(self) -> bool:  # noqa: N802
        return True

    @property
    def IsMultilingual(self) -> bool:  # noqa: N802
        """Whether the site has several languages (the config's; a shortcode's site says)."""
        config = site_config(self.site)
        if config is None:
            return bool(getattr(self.site, "multilingual", False))
        return len(getattr(config, "languages", ()) or ()) > 1

    @property
    def IsMultihost(self) -> bool:  # noqa: N802
        return False

    @property
    def Generator(self) -> Markup:  # noqa: N802
        from ...core.version import __version__
        return Markup(f'<meta name="generator" content="blogbuild {__version__}">')

    @property
    def WorkingDir(self) -> str:  # noqa: N802
        return self._root()

    @property
    def Sites(self) -> Any:  # noqa: N802 - hugo.Sites (Hugo 0.156): every language's site, as .Site.Sites
        sites = getattr(self.site, "Sites", None)
        if sites is None:
            raise UnsupportedField("hugo.Sites runs in a site's page layouts and partials, not in a shortcode")
        return sites

    @property
    def Store(self) -> "Scratch":  # noqa: N802
        """One scratch for the whole build, kept on the site object (in a build of several processes, per
        process, as partialCached)."""
        if self.site is None:
            raise UnsupportedField("hugo.Store is not known here")
        store = vars(self.site).get("_hugo_store")
        if store is None:
            store = Scratch()
            object.__setattr__(self.site, "_hugo_store", store)
        return store

    def _root(self) -> str:
        config = site_config(self.site)
        return str(config.root) if config is not None else getattr(self.site, "root", "")

    @property
    def Data(self) -> Any:  # noqa: N802
        """The site's data files (site_data.py), read once per site object (once per build)."""
        root = self._root()
        if not root:
            raise UnsupportedField("hugo.Data needs the site's folder, which this render does not know")
        cached = vars(self.site).get("_data")
        if cached is None:
            from pathlib import Path

            from .site_data import site_data
            cached = site_data(Path(root))
            object.__setattr__(self.site, "_data", cached)
        return cached


def go_type(value: Any) -> str:
    """The Go type Hugo would have for a value, as printf "%T" writes it (a list of one type is typed:
    []string, []int; front matter's lists are []interface {} in Hugo, and typed here when alike)."""
    named = [(GoMonth, "time.Month"), (GoWeekday, "time.Weekday"), (GoDuration, "time.Duration"),
             (bool, "bool"), (int, "int"), (float, "float64"), (SafeJS, "template.JS"), (SafeCSS, "template.CSS"),
             (SafeURL, "template.URL"), (SafeAttr, "template.HTMLAttr"), (Markup, "template.HTML"), (str, "string"),
             (Params, "hmaps.Params"), (Scratch, "*hmaps.Scratch"), (GoTime, "time.Time"), (GoURL, "*url.URL")]
    if value is None:
        return "<nil>"
    for kind, name in named:
        if isinstance(value, kind):
            return name
    if isinstance(value, Mapping):
        return "map[string]interface {}"
    if isinstance(value, (list, tuple)):
        inner = {go_type(item) for item in value}
        return "[]" + (inner.pop() if len(inner) == 1 and None not in value and "<nil>" not in inner
                       else "interface {}")
    return type(value).__name__


class _Namespace:
    """`strings.ToLower`, `resources.Get` and the like: Hugo's namespaced names for functions (the environment's
    field lookup knows them by this class's name), with `.has` as the translator asks of every namespace."""

    def __init__(self, name: str, members: Mapping[str, Callable[..., Any]],
                 call: Callable[..., Any] | None = None) -> None:
        self._name = name
        self._members = dict(members)
        self._call = call
        if call is not None and hasattr(call, "jinja_pass_arg"):   # Jinja then passes call its context
            self.jinja_pass_arg = call.jinja_pass_arg

    def __call__(self, *arguments: Any) -> Any:
        """A namespace that is a function too (`time "2024-01-02"`)."""
        if self._call is None:
            raise HugoFunctionError(f"{self._name} is a namespace, not a function")
        return self._call(*arguments)

    def __getattr__(self, member: str) -> Callable[..., Any]:
        try:
            return self._members[member]
        except KeyError:
            raise AttributeError(f"{self._name}.{member}") from None

    def has(self, member: str) -> bool:
        return member in self._members
