"""Dates as a page shows them: PaperMod's DateFormat (theme.date_format), a Go reference layout or one of Hugo's
:date_* names, in the language Hugo writes them in.

Hugo's time.Format writes :date_full/long/medium/short by the language's CLDR patterns and a layout's "January"
and "Monday" as the language's wide names ("Jan" and "Mon" stay English). It finds the language by its key
(defaultContentLanguage or the `languages` entry: zh, ja, de, pt-br), not by languageCode, and writes English
for a key it has no data for (zh-cn included). date_locales.py holds the data, read off Hugo.
"""
from __future__ import annotations

from datetime import datetime

from .date_locales import LOCALES

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
    from .gotemplate.objects import go_format
    return go_format(value, layout, entry["months"], entry["weekdays"])
