"""Dates as a page shows them: PaperMod's DateFormat (theme.date_format), a Go reference layout or one of Hugo's
:date_* names, in the language Hugo writes them in.

Hugo's time.Format writes :date_full/long/medium/short by the language's CLDR patterns and a layout's "January"
and "Monday" as the language's wide names ("Jan" and "Mon" stay English). It finds the language by its key
(defaultContentLanguage or the `languages` entry: zh, ja, de, pt-br), not by languageCode, and writes English
for a key it has no data for (zh-cn included). date_locales.py holds the data, read off Hugo.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from .date_locales import LOCALES

# The site's timeZone (Hugo's setting): the zone a date without an offset is read in; "" is UTC.
_TIME_ZONE = [""]


def set_time_zone(name: str) -> None:
    """The zone this process reads dates without an offset in, for the site it builds (a build sets it before
    reading its posts; the workers it forks inherit it)."""
    _TIME_ZONE[0] = name


def read_dates_in(config: Any) -> list[Any]:
    """Read this site's dates in its timeZone (SiteConfig.time_zone) from now on in this process; a warning at the
    config when it names no zone (its dates are then read as UTC)."""
    from .errors import SourceWarning
    error = time_zone_error(config.time_zone) if config.time_zone else None
    set_time_zone("" if error else config.time_zone)
    return [SourceWarning(config.config_path, 1, f"{error}; dates without an offset are read as UTC")] if error else []


def time_zone_error(name: str) -> str | None:
    """Why a timeZone names no zone this system knows (the IANA database: "Asia/Shanghai", "Europe/Oslo"), or None."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return f"timeZone '{name}' is no time zone (write one of the IANA names, such as Asia/Shanghai or Europe/Oslo)"
    return None


def local_time(value: datetime) -> datetime:
    """A date written without an offset, in the site's time zone as Hugo reads it (UTC when the site sets none):
    the zone's offset at that moment (summer time too) and its abbreviation (CST, CEST), held as a fixed offset."""
    if value.tzinfo is not None:
        return value
    name = _TIME_ZONE[0]
    if not name:
        return value.replace(tzinfo=timezone.utc)
    return _go_local(name, value)


def _go_local(name: str, value: datetime) -> datetime:
    """Go's time.Date in a location: the wall time read as UTC finds an offset; when the instant that offset gives
    lies outside that offset's period (a wall time summer time skips), the offset at that instant is taken. So a
    time the clocks pass twice is the later one, and one they skip is moved on by the gap (02:30 is 03:30 CEST)."""
    from zoneinfo import ZoneInfo
    zone = ZoneInfo(name)
    wall = value.replace(tzinfo=timezone.utc)
    offset = wall.astimezone(zone).utcoffset() or timedelta(0)
    instant = wall - offset
    if instant.astimezone(zone).utcoffset() != offset:
        instant = wall - (instant.astimezone(zone).utcoffset() or timedelta(0))
    local = instant.astimezone(zone)
    offset, abbreviation = local.utcoffset() or timedelta(0), local.tzname() or ""
    if offset == timedelta(0) and abbreviation in ("UTC", ""):
        return local.replace(tzinfo=timezone.utc)
    # The zone's abbreviation as Go prints it for MST: CET, CST, or a number where the zone has no name ("+08").
    return local.replace(tzinfo=timezone(offset, abbreviation) if abbreviation else timezone(offset))


NAMED_LAYOUTS = (":date_full", ":date_long", ":date_medium", ":date_short")


def date_locale(date_language: str, language_code: str) -> str:
    """The key of LOCALES dates are written in: date_language as Hugo finds it (exactly; a Hugo site's language
    key), else the site's language_code or its first part (zh-CN: zh); English when there is none."""
    if date_language:
        key = date_language.lower()
        return key if key in LOCALES else "en"
    key = language_code.lower()
    if key in LOCALES:
        return key
    primary = key.split("-")[0]
    return primary if primary in LOCALES else "en"


def shown_date(value: datetime | None, layout: str = "", locale: str = "en") -> str:
    """A post's date in layout (a Go reference layout or a :date_* name; '' = YYYY-MM-DD) and locale (a key of
    LOCALES); '' for posts without a date."""
    if value is None:
        return ""
    if not layout:
        return value.strftime("%Y-%m-%d")
    entry = LOCALES.get(locale) or LOCALES["en"]
    named = layout.lower()
    if named in NAMED_LAYOUTS:
        pattern, months = entry["styles"][named]
        return (pattern.replace("{Y}", f"{value.year:04d}").replace("{y}", f"{value.year % 100:02d}")
                .replace("{DD}", f"{value.day:02d}").replace("{D}", str(value.day))
                .replace("{W}", entry["weekdays"][value.weekday()]).replace("{M}", months[value.month - 1]))
    return go_format(value, layout, entry["months"], entry["weekdays"], entry["short_months"], entry["short_weekdays"])


# Go's reference time, piece by piece, and the strftime each piece becomes (a longer piece before its prefix: 15 before 1).
_GO_LAYOUT = re.compile(r"January|Jan|Monday|Mon|2006|06|01|_2|02|15|1|2|03|3|04|4|05|5|PM|pm|MST|"
                        r"Z07:00|-07:00|-0700|Z0700|\.000000|\.000|\.999999|\.999")


def go_format(moment: datetime, layout: str, months: list[str] | None = None,
              weekdays: list[str] | None = None, short_months: list[str] | None = None,
              short_weekdays: list[str] | None = None) -> str:
    """A time written with Go's reference layout ("January 2, 2006"), as Go's time.Format writes it; months and
    weekdays (January.., Monday..) and their short forms (Jan.., Mon..) are the names Hugo's time.Format writes
    in the site's language."""

    def piece(match: re.Match[str]) -> str:
        token = match.group(0)
        hour12 = moment.hour % 12 or 12
        offset = moment.utcoffset()
        minutes = int(offset.total_seconds() // 60) if offset is not None else 0
        sign = "+" if minutes >= 0 else "-"
        hours, rest = divmod(abs(minutes), 60)
        table = {
            "January": months[moment.month - 1] if months else moment.strftime("%B"),
            "Jan": short_months[moment.month - 1] if short_months else moment.strftime("%b"),
            "Monday": weekdays[moment.weekday()] if weekdays else moment.strftime("%A"),
            "Mon": short_weekdays[moment.weekday()] if short_weekdays else moment.strftime("%a"), "2006": f"{moment.year:04d}", "06": f"{moment.year % 100:02d}",
            "01": f"{moment.month:02d}", "1": str(moment.month), "02": f"{moment.day:02d}",
            "_2": f"{moment.day:2d}", "2": str(moment.day), "15": f"{moment.hour:02d}",
            "03": f"{hour12:02d}", "3": str(hour12), "04": f"{moment.minute:02d}", "4": str(moment.minute),
            "05": f"{moment.second:02d}", "5": str(moment.second), "PM": "PM" if moment.hour >= 12 else "AM",
            "pm": "pm" if moment.hour >= 12 else "am", "MST": moment.strftime("%Z") or "UTC",
            "-07:00": f"{sign}{hours:02d}:{rest:02d}", "-0700": f"{sign}{hours:02d}{rest:02d}",
            "Z07:00": "Z" if minutes == 0 else f"{sign}{hours:02d}:{rest:02d}",
            "Z0700": "Z" if minutes == 0 else f"{sign}{hours:02d}{rest:02d}",
            ".000": f".{moment.microsecond // 1000:03d}", ".000000": f".{moment.microsecond:06d}",
            ".999": f".{moment.microsecond // 1000:03d}".rstrip("0").rstrip("."),
            ".999999": f".{moment.microsecond:06d}".rstrip("0").rstrip("."),
        }
        return table[token]
    return _GO_LAYOUT.sub(piece, layout)


# --- dates as Hugo reads them from front matter ------------------------------------------------------------------

# The layouts Hugo reads a front-matter date string by (spf13/cast's StringToDate, in its order), Go reference
# layouts; cast's clock-only ones (Kitchen, Stamp...: no year) are left out. Go's parser takes a one-digit hour
# for "15" and a fraction after the seconds whatever the layout says; "01", "02", "04" and "05" need two digits.
HUGO_DATE_LAYOUTS = (
    "2006-01-02",
    "2006-01-02T15:04:05Z07:00",              # RFC 3339
    "2006-01-02T15:04:05",
    "Mon, 02 Jan 2006 15:04:05 -0700",        # RFC 1123 with a numeric zone
    "Mon, 02 Jan 2006 15:04:05 MST",          # RFC 1123
    "02 Jan 06 15:04 -0700",                  # RFC 822 with a numeric zone
    "02 Jan 06 15:04 MST",                    # RFC 822
    "Monday, 02-Jan-06 15:04:05 MST",         # RFC 850
    "2006-01-02 15:04:05.999999999 -0700 MST",   # Go's Time.String()
    "2006-01-02T15:04:05-0700",
    "2006-01-02 15:04:05Z0700",
    "2006-01-02 15:04:05",
    "Mon Jan _2 15:04:05 2006",               # ANSI C
    "Mon Jan _2 15:04:05 MST 2006",           # Unix date
    "Mon Jan 02 15:04:05 -0700 2006",         # Ruby date
    "2006-01-02 15:04:05Z07:00",
    "02 Jan 2006",
    "2006-01-02 15:04:05 -07:00",
    "2006-01-02 15:04:05 -0700",
)

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Each element of a Go layout (longest first where one starts another) and the pattern it reads.
_ELEMENTS = (
    ("2006", r"(?P<year>\d{4})"), ("Z07:00", r"(?P<zone>Z|[+-]\d{2}:\d{2})"), ("Z0700", r"(?P<zone>Z|[+-]\d{4})"),
    ("-07:00", r"(?P<zone>[+-]\d{2}:\d{2})"), ("-0700", r"(?P<zone>[+-]\d{4})"), ("MST", r"(?P<name>[A-Za-z]{3,5}|[+-]\d{1,2})"),
    ("Monday", "(?:" + "|".join(_WEEKDAYS) + ")"), ("Mon", "(?:" + "|".join(day[:3] for day in _WEEKDAYS) + ")"),
    ("Jan", "(?P<mon>" + "|".join(_MONTHS) + ")"), ("01", r"(?P<month>\d{2})"), ("_2", r" ?(?P<day>\d{1,2})"),
    ("02", r"(?P<day>\d{2})"), ("06", r"(?P<yy>\d{2})"), ("15", r"(?P<hour>\d{1,2})"), ("04", r"(?P<minute>\d{2})"),
    (".999999999", ""), ("05", r"(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?"),
)


def _layout_pattern(layout: str) -> re.Pattern[str]:
    parts, rest = [], layout
    while rest:
        for element, pattern in _ELEMENTS:
            if rest.startswith(element):
                parts.append(pattern)
                rest = rest[len(element):]
                break
        else:
            parts.append(re.escape(rest[0]))
            rest = rest[1:]
    return re.compile("".join(parts), re.IGNORECASE)


_PATTERNS: list[re.Pattern[str]] = []


def hugo_date(text: str) -> datetime | None:
    """A date string read by the first of Hugo's layouts that takes all of it (naive when it names no offset: a
    zone given by name only, MST, or by a signed hour where the layout has a name, `+08`, is read as UTC, as Go's
    parser reads a zone it does not know), or None."""
    if not _PATTERNS:
        _PATTERNS.extend(_layout_pattern(layout) for layout in HUGO_DATE_LAYOUTS)
    for pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        found = match.groupdict()
        year = int(found["year"]) if found.get("year") else 0
        if found.get("yy"):
            year = int(found["yy"]) + (1900 if int(found["yy"]) >= 69 else 2000)   # Go's rule for "06"
        month = int(found["month"]) if found.get("month") else _MONTHS.index(found["mon"].lower()) + 1
        fraction = (found.get("fraction") or "")[:6].ljust(6, "0")
        try:
            value = datetime(year, month, int(found["day"]), int(found.get("hour") or 0), int(found.get("minute") or 0),
                             int(found.get("second") or 0), int(fraction))
        except ValueError:
            return None   # a day or an hour out of range: Go's parser refuses it too
        zone = found.get("zone")
        if zone is not None:
            if zone.upper() == "Z":
                return value.replace(tzinfo=timezone.utc)
            sign = -1 if zone[0] == "-" else 1
            digits = zone[1:].replace(":", "")
            offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
            return value.replace(tzinfo=timezone(sign * offset))
        if found.get("name"):
            return value.replace(tzinfo=timezone.utc)
        return value
    return None
