"""Hugo's localised dates, read off Hugo itself: one multilingual site whose home page, in each language,
formats a set of dates with `time.Format` (the four :date_* layouts, and the month and weekday names a Go
layout's "January", "Monday", "Jan" and "Mon" become). Hugo localises by the language's key (defaultContentLanguage,
or a `languages` entry), not by languageCode.

    python tests/support/hugo_dates.py        # rewrites src/blogbuild/core/date_locales.py from Hugo's output

tests/test_date_locales.py builds the same site and compares blogbuild's dates with Hugo's.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TABLE = REPO / "src" / "blogbuild" / "core" / "date_locales.py"
# The language keys asked about; those Hugo writes as English are left out of the table.
LANGUAGES = ("zh zh-hans zh-hant zh-hant-tw zh-hant-hk ja ko de fr es it pt pt-br ru uk pl cs nl sv da nb fi tr vi id el he ar fa "
             "hi th hu ro").split()
STYLES = (":date_full", ":date_long", ":date_medium", ":date_short")
MONDAY = date(2024, 9, 2)
# The dates the table is derived from (a year's months on one day) and checked against.
DERIVE = [date(2021, month, 23) for month in range(1, 13)]
CHECK = [date(2006, 1, 2), date(2021, 3, 5), date(1999, 12, 31), date(2024, 2, 29), date(2010, 7, 4),
         date(2003, 10, 9)] + [MONDAY + timedelta(days=day) for day in range(7)]
TEMPLATE = """{{- range $day := (slice %s) -}}
{{- $d := time.AsTime (printf "%%sT10:00:00Z" $day) -}}
{{ $day }}	{{ $d | time.Format ":date_full" }}	{{ $d | time.Format ":date_long" }}	{{ $d | time.Format ":date_medium" }}	{{ $d | time.Format ":date_short" }}	{{ $d | time.Format "January" }}	{{ $d | time.Format "Monday" }}	{{ $d | time.Format "Jan" }}	{{ $d | time.Format "Mon" }}
{{ end -}}
"""


def hugo_dates(days: list[date], languages: tuple[str, ...] | list[str]) -> dict[str, dict[str, list[str]]]:
    """{language: {day (ISO): [full, long, medium, short, January, Monday, Jan, Mon]}} as Hugo writes them."""
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        (site / "layouts").mkdir()
        (site / "content").mkdir()
        listed = " ".join(f'"{day.isoformat()}"' for day in days)
        (site / "layouts" / "home.html").write_text(TEMPLATE % listed, encoding="utf-8")
        config = {"baseURL": "https://example.org/", "title": "T", "defaultContentLanguage": "en",
                  "defaultContentLanguageInSubdir": True,
                  "disableKinds": ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"],
                  "languages": {name: {"weight": index + 1} for index, name in enumerate(["en", *languages])}}
        (site / "hugo.json").write_text(json.dumps(config), encoding="utf-8")
        subprocess.run(["hugo", "--quiet", "-d", "out"], cwd=site, check=True, capture_output=True)
        result = {}
        for name in ["en", *languages]:
            lines = (site / "out" / name / "index.html").read_text(encoding="utf-8").splitlines()
            rows = [line.split("\t") for line in lines if line.strip()]
            result[name] = {row[0]: row[1:] for row in rows}
        return result


def _derive(rows: dict[str, list[str]], style: int) -> tuple[str, list[str]]:
    """(pattern, month forms) of one style from the DERIVE dates: year, day and weekday become {Y}, {y},
    {D}/{DD}, {W}; what is left differs between months only in the month, which becomes {M}."""
    outputs = []
    for day in DERIVE:
        text, weekday = rows[day.isoformat()][style], rows[day.isoformat()][5]
        if weekday and weekday in text:
            text = text.replace(weekday, "{W}")
        outputs.append(text.replace("2021", "{Y}").replace("23", "{D}").replace("21", "{y}"))
    prefix = _common_prefix(outputs)
    suffix = _common_prefix([text[len(prefix):][::-1] for text in outputs])[::-1]
    months = [text[len(prefix):len(text) - len(suffix)] for text in outputs]
    return prefix + "{M}" + suffix, months


def _common_prefix(texts: list[str]) -> str:
    first = texts[0]
    length = 0
    while length < len(first) and all(len(text) > length and text[length] == first[length] for text in texts):
        length += 1
    # Never end inside a {token}.
    opened = first.rfind("{", 0, length)
    if opened != -1 and first.find("}", opened) >= length:
        length = opened
    return first[:length]


def table(found: dict[str, dict[str, list[str]]]) -> dict[str, dict]:
    """The locales table: per language, the wide month and weekday names and each style's pattern and
    month forms (when the day is written with two digits the pattern says {DD})."""
    english = found["en"]
    out = {}
    for name, rows in found.items():
        if name != "en" and rows == english:
            continue   # Hugo has no translator for it: English
        months = [rows[day.isoformat()][4] for day in DERIVE]
        weekdays = [rows[(MONDAY + timedelta(days=day)).isoformat()][5] for day in range(7)]
        short_months = [rows[day.isoformat()][6] for day in DERIVE]
        short_weekdays = [rows[(MONDAY + timedelta(days=day)).isoformat()][7] for day in range(7)]
        styles = {}
        for index, style in enumerate(STYLES):
            pattern, forms = _derive(rows, index)
            if rows[date(2021, 3, 5).isoformat()][index].count("05"):
                pattern = pattern.replace("{D}", "{DD}")
            styles[style] = (pattern, forms)
        out[name] = {"months": months, "weekdays": weekdays, "short_months": short_months,
                     "short_weekdays": short_weekdays, "styles": styles}
    return out


def write_table() -> None:
    found = hugo_dates(DERIVE + CHECK, LANGUAGES)
    rows = table(found)
    lines = ['"""Dates in the languages Hugo writes them in (`time.Format`, PaperMod\'s DateFormat): generated by',
             "tests/support/hugo_dates.py from Hugo's own output (CLDR data) and checked against Hugo by",
             'tests/test_date_locales.py. Do not edit by hand."""', "",
             "# language key -> wide month names (January..December), wide weekday names (Monday..Sunday), their",
             "# abbreviations (a Go layout's Jan and Mon),",
             "# and per :date_* layout (pattern, month forms): {Y} year, {y} two-digit year, {D}/{DD} day,",
             "# {W} weekday, {M} the month as that layout writes it.",
             "LOCALES: dict[str, dict] = {"]
    for name, entry in rows.items():
        lines.append(f"    {name!r}: {{")
        lines.append(f"        'months': {entry['months']!r},")
        lines.append(f"        'weekdays': {entry['weekdays']!r},")
        lines.append(f"        'short_months': {entry['short_months']!r},")
        lines.append(f"        'short_weekdays': {entry['short_weekdays']!r},")
        lines.append("        'styles': {")
        for style, (pattern, forms) in entry["styles"].items():
            lines.append(f"            {style!r}: ({pattern!r}, {forms!r}),")
        lines.append("        },")
        lines.append("    },")
    lines.append("}")
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{TABLE}: {len(rows)} languages")


if __name__ == "__main__":
    sys.exit(write_table())
