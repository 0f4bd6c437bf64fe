"""Hugo's `time` namespace: `time.AsTime` (and `time`), `time.Format` (and `dateFormat`: Go's layouts and
:date_long in the site's language), `time.Now`, `time.ParseDuration`, `time.Duration`; the values are
objects.GoTime and objects.GoDuration. TIME_FUNCTIONS by member name."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Callable

import jinja2

from ...core.dates import date_locale, hugo_date, local_time, shown_date
from .arithmetic import HugoFunctionError
from .arithmetic import number as _number
from .escape import go_string
from .objects import GoDuration, GoTime, go_layout, site_config


def _site_zone(context: jinja2.runtime.Context) -> Any:
    """Dates without an offset are in the site's timeZone (as_time reads them with dates.local_time)."""
    return None


def as_time(value: Any, zone: Any = None) -> GoTime:
    """time.AsTime: a time as it is; a date string as Hugo reads front matter (no offset: in zone, the site's
    timeZone by default); a number as Unix seconds."""
    if isinstance(value, GoTime):
        return value
    if isinstance(value, datetime):
        return GoTime(value if value.tzinfo else value.replace(tzinfo=zone) if zone else local_time(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return GoTime(datetime.fromtimestamp(value, timezone.utc))
    text = go_string(value).strip()
    parsed = hugo_date(text)
    if parsed is None:
        raise HugoFunctionError(f'unable to parse date: "{text}" (write it as 2006-01-02 or 2006-01-02T15:04:05Z07:00)')
    return GoTime(parsed if parsed.tzinfo else parsed.replace(tzinfo=zone) if zone else local_time(parsed))


def _location(name: Any) -> Any:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    text = go_string(name)
    if text in ("", "UTC"):
        return timezone.utc
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise HugoFunctionError(f"unknown time zone {text}") from None


def _as_time(context: jinja2.runtime.Context, value: Any, *zone: Any) -> GoTime:
    return as_time(value, _location(zone[0]) if zone else _site_zone(context))


def time_format(context: jinja2.runtime.Context, layout: Any, value: Any) -> str:
    """time.Format (dateFormat): Go's layout or :date_long and the like, in the site's language. A time given as a
    time (a page's .Date) is written in its offset without its zone's name ("+0100" where .Format writes "CET"), as
    Hugo's conversion of it leaves it; UTC stays UTC, and a date string's zone keeps its name."""
    moment = as_time(value, _site_zone(context)).value
    if isinstance(value, GoTime) and moment.tzinfo is not timezone.utc and moment.utcoffset() is not None:
        moment = GoTime(moment.replace(tzinfo=timezone(moment.utcoffset()))).value   # type: ignore[arg-type]
    site = context["_state"].site
    config = site_config(site)
    locale = date_locale(getattr(config, "date_language", "") or "", site.LanguageCode or "")
    text = go_string(layout)
    if not text:
        return ""
    if locale == "en" and not text.startswith(":"):
        return go_layout(moment, text)      # every chunk of Go's layout, in English
    return shown_date(moment, text, locale)


_DURATION_UNITS = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000, "s": 1_000_000_000,
                   "m": 60_000_000_000, "h": 3_600_000_000_000}


def _parse_duration(text: Any) -> GoDuration:
    """time.ParseDuration: "1h30m", "-1.5s", "300ms"."""
    value = go_string(text).strip()
    match = re.fullmatch(r"([-+]?)((?:\d*\.?\d+(?:ns|us|µs|μs|ms|s|m|h))+|0)", value)
    if match is None:
        raise HugoFunctionError(f'time: invalid duration "{value}"')
    total = 0.0
    for number, unit in re.findall(r"(\d*\.?\d+)(ns|us|µs|μs|ms|s|m|h)", match.group(2)):
        total += float(number) * _DURATION_UNITS[unit]
    return GoDuration(int(-total if match.group(1) == "-" else total))


def _duration(unit: Any, number: Any) -> GoDuration:
    names = {"nanosecond": "ns", "ns": "ns", "microsecond": "us", "us": "us", "µs": "us", "millisecond": "ms",
             "ms": "ms", "second": "s", "s": "s", "minute": "m", "m": "m", "hour": "h", "h": "h"}
    key = names.get(go_string(unit))
    if key is None:
        raise HugoFunctionError(f"{go_string(unit)} is not a valid duration unit")
    return GoDuration(int(_number(number) * _DURATION_UNITS[key]))


def _now() -> GoTime:
    return GoTime(datetime.now(timezone.utc))


def time_function(context: jinja2.runtime.Context, value: Any, *zone: Any) -> GoTime:
    """`time "2024-01-02"`: time.AsTime."""
    return _as_time(context, value, *zone)


TIME_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "Now": _now, "AsTime": jinja2.pass_context(_as_time), "Format": jinja2.pass_context(time_format),
    "ParseDuration": _parse_duration, "Duration": _duration,
}
