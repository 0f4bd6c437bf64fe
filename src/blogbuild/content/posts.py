"""Turn a file's front matter and rendered body into a Post: field checks, dates, URLs."""
from __future__ import annotations

import html
import os
import posixpath
import re
from pathlib import Path
from dataclasses import fields, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..config import SiteConfig
from .content_links import has_links_to_rewrite
from ..core.errors import SourceError, SourceWarning
from ..core.keys import key_line
from ..core.model import (FrontMatter, Post, RenderedMarkdown, SourceFile, TextMetrics, TocEntry, pack_html, pack_marks,
                          term_names)
from .text import plain_text
from ..core.urls import hugo_sanitize, path_segment, permalink_path, unescape_path, urlize

if TYPE_CHECKING:
    from ..hugo.gotemplate import PageInfo

_LIST_KEYS = ("tags", "categories", "series", "aliases")
# Characters XML 1.0 forbids (C0 controls other than tab and newline, lone surrogates, U+FFFE/U+FFFF): one in a
# title or body would make every feed and the sitemap unparseable, so they are dropped with a warning.
_FORBIDDEN_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def parse_date(value: Any, *, path: str, line: int, key: str) -> tuple[datetime | None, str]:
    """A front-matter date as (aware datetime, text as written); a date without an offset is in the site's timeZone
    (dates.local_time: UTC unless it sets one). ISO 8601, and
    every layout Hugo reads (dates.HUGO_DATE_LAYOUTS: a one-digit hour, a space for the T, RFC 1123, ...), whose
    text is kept in ISO 8601."""
    if value in (None, ""):
        return None, ""
    text = str(value).strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        from ..core.dates import hugo_date
        found = hugo_date(text)
        if found is None:
            raise SourceError(path, line, f"{key} '{text}' is not a valid date; write it like 2025-03-02 "
                              "or 2025-03-02T09:00:00+08:00", stage="front matter") from None
        parsed, text = found, found.isoformat() if len(text) > 11 else found.date().isoformat()
    if not _EXTENDED_DATE.match(text):
        # ISO 8601's basic form (20250101, 20250101T093000+0800): read right, and kept as text in
        # extended form, so index.json and every other place that shows the text agree with the page.
        text = parsed.isoformat() if "T" in text or " " in text else parsed.date().isoformat()
    if parsed.tzinfo is None:   # in the site's timeZone (UTC unless it sets one)
        from ..core.dates import local_time
        parsed = local_time(parsed)
    return parsed, text


_EXTENDED_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _date_field(data: Mapping[str, Any], key: str, *, path: str, text: str) -> tuple[datetime | None, str]:
    value = data.get(key)
    try:
        return parse_date(value, path=path, line=0, key=key)
    except SourceError:
        # The key's line is looked up only for the message: finding it costs more than the date.
        return parse_date(value, path=path, line=key_line(text, key), key=key)


# Hugo's front-matter keys for when a page is published and when it expires (its `frontmatter` defaults), in the
# order it takes them, compared in lower case: publishDate is the date when none is written.
_PUBLISH_DATE_KEYS = ("publishdate", "pubdate", "published")
_EXPIRY_DATE_KEYS = ("expirydate", "unpublishdate")
# A Hugo site's date and lastmod when the page writes none of its own (Hugo's `frontmatter` defaults; lastmod's
# :git is not read).
_HUGO_DATE_KEYS = ("date", "publishdate", "pubdate", "published", "lastmod", "modified")
_HUGO_LASTMOD_KEYS = ("lastmod", "modified", "date", "publishdate", "pubdate", "published")


def _first_date(data: Mapping[str, Any], names: tuple[str, ...], *, path: str,
                text: str) -> tuple[datetime | None, str]:
    """The first of Hugo's keys `names` the front matter has (in any case), read as a date; (None, '') if none."""
    written = {str(key).lower(): key for key in data if isinstance(key, str) and data[key] not in (None, "")}
    for name in names:
        if name in written:
            return _date_field(data, written[name], path=path, text=text)
    return None, ""


def _dates(data: Mapping[str, Any], *, hugo: bool, path: str, text: str
           ) -> tuple[datetime | None, str, datetime | None, datetime | None, datetime | None]:
    """(date, the date as written, lastmod, publishDate, expiryDate) of a page; on a Hugo site each from the first
    of Hugo's keys the page writes."""
    if hugo:
        date, date_text = _first_date(data, _HUGO_DATE_KEYS, path=path, text=text)
        lastmod, _ = _first_date(data, _HUGO_LASTMOD_KEYS, path=path, text=text)
    else:
        date, date_text = _date_field(data, "date", path=path, text=text)
        lastmod, _ = _date_field(data, "lastmod", path=path, text=text)
    publish_date, _ = _first_date(data, _PUBLISH_DATE_KEYS, path=path, text=text)
    expiry_date, _ = _first_date(data, _EXPIRY_DATE_KEYS, path=path, text=text)
    return date, date_text, lastmod, publish_date, expiry_date


def _string_list(data: Mapping[str, Any], key: str, *, path: str, text: str) -> tuple[str, ...]:
    value = data.get(key)
    if value in (None, ""):
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise SourceError(path, key_line(text, key), f"{key} must be a list like [\"a\", \"b\"], "
                          f"not {type(value).__name__}", stage="front matter")
    items = []
    for item in value:
        if isinstance(item, (dict, list)):
            raise SourceError(path, key_line(text, key), f"{key} items must be text, not "
                              f"{type(item).__name__}", stage="front matter")
        item_text = str(item).strip()
        if item_text and item_text not in items:
            items.append(item_text)
    return tuple(items)


def _terms(data: Mapping[str, Any], key: str, warnings: list[SourceWarning], *, path: str,
           text: str, hugo: bool) -> tuple[str, ...]:
    """A taxonomy's terms (model.term_names); a value Hugo makes no term of is a warning at its key's line.

    One text holding commas (`tags: "k8s, ops"`) is almost always meant as a list: on a blogbuild site it is
    split into terms, with a warning; a Hugo site keeps Hugo's one term, with a warning too."""
    value = data.get(key)
    names = term_names(value)
    if names is None:
        shape = "a mapping" if isinstance(value, Mapping) else "a list holding a list or mapping"
        warnings.append(SourceWarning(path, key_line(text, key), f"{key} is {shape}, so the page is in no {key} "
                                      "term (as in Hugo); write a list like [\"a\", \"b\"] to list it"))
        return ()
    if isinstance(value, str) and "," in value:
        parts = [part.strip() for part in value.split(",") if part.strip()]
        listed = "[" + ", ".join(f'"{part}"' for part in parts) + "]"
        if hugo:
            warnings.append(SourceWarning(path, key_line(text, key), f"{key} is one text with commas, so (as in "
                                          f"Hugo) it is one term '{value.strip()}'; write {key}: {listed} for "
                                          f"{len(parts)} terms"))
            return names
        warnings.append(SourceWarning(path, key_line(text, key), f"{key} is one text with commas: read as "
                                      f"{len(parts)} terms; write {key}: {listed} to say so"))
        return tuple(dict.fromkeys(parts))
    return names


def _hugo_site(config: SiteConfig) -> bool:
    """Whether the site is read from its Hugo config (a hugo.toml or config.yaml, or a config/_default/ folder; no
    blogbuild.yaml): Hugo's reading of a value applies."""
    from ..core.names import HUGO_CONFIG_FOLDER, HUGO_CONFIG_NAMES
    path = os.path.normpath(config.config_path or ".")
    return os.path.basename(path) in HUGO_CONFIG_NAMES or path.endswith(os.sep + HUGO_CONFIG_FOLDER) \
        or path == HUGO_CONFIG_FOLDER


def as_hugo_reads(data: Mapping[str, Any], config: SiteConfig) -> Mapping[str, Any]:
    """A page's front matter as its site reads it: on a Hugo site, whose front matter keys are case-insensitive,
    each key in lower case (`Categories:` is the categories taxonomy, `Draft: true` a draft); of two keys that
    differ only in case, the one written in lower case. A blogbuild site's as written."""
    if not _hugo_site(config) or all(not isinstance(key, str) or key == key.lower() for key in data):
        return data
    folded: dict[str, Any] = {}
    for key, value in data.items():
        lower = key.lower() if isinstance(key, str) else key
        if lower not in folded or key == lower:
            folded[lower] = value
    return folded


def _hugo_alias(alias: str, url: str) -> str:
    """Hugo's reading of an alias that does not start with a slash: beside the page, under its URL's parent
    (`migrate` of /posts/x/ is /posts/migrate); one that climbs (`..`) or names a host is left to the checks."""
    if alias.startswith("/") or "://" in alias or ".." in alias.split("/"):
        return alias
    parent = posixpath.dirname(url.rstrip("/"))
    return posixpath.join(parent or "/", alias)


def _clean_alias(alias: str, *, path: str, text: str) -> str:
    try:
        return clean_url(alias, path=path, line=0)
    except SourceError:
        # The entry's line is looked up only for the message.
        return clean_url(alias, path=path, line=_item_line(text, "aliases", alias))


def _item_line(text: str, key: str, item: str) -> int:
    """The line of a list item: the first line from the key's own on that holds the item's text (a flow
    list is on the key's line), else the key's line."""
    start = key_line(text, key)
    lines = text.split("\n")
    for number in range(start, min(len(lines), start + 1000) + 1):
        if item in lines[number - 1]:
            return number
    return start


def _optional_int(data: Mapping[str, Any], key: str, *, path: str, text: str) -> int | None:
    value = data.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SourceError(path, key_line(text, key), f"{key} must be a whole number", stage="front matter")
    try:
        return int(value)
    except ValueError:
        raise SourceError(path, key_line(text, key), f"{key} must be a whole number, not '{value}'",
                          stage="front matter") from None


def _flag(data: Mapping[str, Any], key: str, default: bool, *, path: str, text: str,
          hugo: list[SourceWarning] | None = None) -> bool:
    """A true-or-false field. hugo: a Hugo site's warnings, where any other value is read as Hugo casts it
    (spf13/cast's ToBool: 1, t, TRUE and the like are true, a number other than 0 is true, anything else false)
    with a warning, instead of stopping the build."""
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    if hugo is not None:
        if isinstance(value, (int, float)):
            return value != 0
        truth = {"1": True, "t": True, "T": True, "TRUE": True, "True": True,
                 "0": False, "f": False, "F": False, "FALSE": False, "False": False}.get(str(value).strip())
        if truth is None:
            hugo.append(SourceWarning(path, key_line(text, key), f"{key} '{value}' is neither true nor false; Hugo "
                                      "reads it as false, and so does blogbuild"))
        return bool(truth)
    raise SourceError(path, key_line(text, key), f"{key} must be true or false, not '{value}'",
                      stage="front matter")


def _switch(data: Mapping[str, Any], key: str, default: bool, warnings: list[SourceWarning], *, path: str,
            text: str) -> bool:
    """A theme's switch in front matter (math, toc, excerpt): Hugo passes any value to the theme as a param, so
    none fails the build. true/false (or yes/no) as written; a map by its `enable` (`toc: {enable: false,
    auto: true}`, as LoveIt writes it), else the default; anything else is the default, with a warning."""
    value = data.get(key, default)
    if isinstance(value, Mapping):
        value = next((given for name, given in value.items() if str(name).lower() == "enable"), default)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    warnings.append(SourceWarning(path, key_line(text, key), f"{key} is '{value}', not true or false; blogbuild "
                                  f"reads it as {str(default).lower()} (a theme's layouts see it as written)"))
    return default


def _text_field(data: Mapping[str, Any], key: str, *, path: str, text: str,
                warnings: list[SourceWarning] | None = None) -> str:
    """A front-matter field that is text. A list or map is an error, but on a Hugo site (warnings given): Hugo
    reads it as empty and builds, so it is empty here too, with a warning at its line."""
    value = data.get(key)
    if value is None:
        return ""
    if isinstance(value, (dict, list)) and warnings is not None:
        warnings.append(SourceWarning(path, key_line(text, key), f"{key} is a {type(value).__name__}, not text: "
                                      f"Hugo reads it as empty, and so does blogbuild; write {key}: \"…\""))
        return ""
    if isinstance(value, (dict, list)):
        raise SourceError(path, key_line(text, key), f"{key} must be text, not {type(value).__name__}; "
                          "quote it if it contains ': ' or starts with [ or {", stage="front matter")
    if warnings is not None and key == "title":   # a Hugo site's title is as written, spaces around it too
        return str(value)
    return str(value).strip()


def default_url(rel_path: str, slug: str | None) -> tuple[str, str, str]:
    """(section, slug, url) by Hugo's rules: posts/x.md and posts/x/index.md -> /posts/x/."""
    parts = rel_path.split("/")
    name = parts[-1].rsplit(".", 1)[0]
    folders = parts[:-1]
    if name.lower() == "index" and folders:
        name = folders.pop()
    # A leaf bundle's own folder is the page, not a section: content/about/index.md is in no section.
    section = folders[0] if folders else ""
    final = slug if slug else path_segment(name)
    segments = [path_segment(folder) for folder in folders] + [final]
    return section, final, "/" + "/".join(segment for segment in segments if segment) + "/"


def clean_url(value: str, *, path: str, line: int, folder: bool = False) -> str:
    """A front-matter url or alias as a safe site-relative url; leaving the site is an error. It names a folder
    (served as its index.html) when it ends in "/", when its last part has no ".", or when folder is given (a
    permalink's, which Hugo always publishes as a folder: "/n/v2.0" is /n/v2.0/); else a file ("/u/page.html")."""
    raw = value.strip()
    if "://" in raw or raw.startswith("//"):
        raise SourceError(path, line, f"url '{raw}' must be a path on this site, like /about/",
                          stage="front matter")
    segments = [segment for segment in raw.replace("\\", "/").split("/") if segment not in ("", ".")]
    if any(segment == ".." for segment in segments) or any("\x00" in segment for segment in segments):
        raise SourceError(path, line, f"url '{raw}' leaves the site; write a path like /about/",
                          stage="front matter")
    if not segments:
        return "/"
    url = "/" + "/".join(segments)
    if folder or raw.endswith(("/", "\\")) or "." not in segments[-1]:
        url += "/"
    return url


def permalink_pattern(permalinks: Mapping[str, Any], section: str) -> str:
    """Hugo's permalink pattern for a page of this section: permalinks.page.SECTION, else permalinks.SECTION."""
    pages = permalinks.get("page")
    if isinstance(pages, Mapping) and isinstance(pages.get(section), str):
        return str(pages[section])
    value = permalinks.get(section)
    return value if isinstance(value, str) else ""


def expand_permalink(pattern: str, *, rel_path: str, slug: str | None, title: str, date: datetime | None) -> str:
    """A Hugo permalink pattern ('/:year/:month/:slug/') filled in for one page, as Hugo fills it: the page's file
    or folder name and slug go in as they are, the title as one segment of a path, and the path is
    then decoded and sanitized as a whole (core.urls.permalink_path): a file named by a tool that escapes names,
    "%E5%BD%93%E6%99%BA.md", is /…/当智/; "sl%2Fash" is two folders; "AI+深度.md" is /…/ai-深度/."""
    parts = rel_path.split("/")
    name = parts[-1].rsplit(".", 1)[0]
    if name.lower() == "index" and len(parts) > 1:
        name = parts.pop(-2)   # a bundle is named by its folder, which is no section of its own
    when = date or datetime(1, 1, 1, tzinfo=timezone.utc)   # Hugo's zero date for an undated page
    # A title is one segment: each "/" in it a "-", with the hyphens beside it ("Hugo w/ Math" is hugo-w-math,
    # "x / y" x-y, "A/B Testing" a-b-testing, "a//b" a--b), as Hugo's :title and :slug make it.
    titled = re.sub(r"-?/-?", "-", hugo_sanitize(unescape_path(title)).lower())
    values = {
        "year": f"{when.year:04d}", "month": f"{when.month:02d}", "day": f"{when.day:02d}",
        "monthname": when.strftime("%B").lower(), "weekday": str(when.isoweekday() % 7),
        "weekdayname": when.strftime("%A").lower(), "yearday": str(when.timetuple().tm_yday),
        "section": parts[0] if len(parts) > 1 else "", "sections": "/".join(parts[:-1]),
        "title": titled, "slug": slug or titled, "filename": name, "contentbasename": name,
        "slugorfilename": slug or name, "slugorcontentbasename": slug or name,
    }
    # Longest names first, so ':slugorfilename' is not read as ':slug' followed by 'orfilename'.
    names = "|".join(sorted(values, key=len, reverse=True))
    expanded = re.sub(f":({names})", lambda match: values[match.group(1)], pattern)
    # Hugo writes the path made as its URL rule writes any: lower case, spaces as '-' (Blog/:filename of
    # 'My File.md' is /blog/my-file/), CJK kept; a front matter url: keeps its case.
    return permalink_path(expanded)


def section_title(section: str) -> str:
    """A readable default title for a section folder: 'ai-infra' -> 'Ai Infra'."""
    return section.replace("-", " ").replace("_", " ").title() if section else ""


def page_url(source: SourceFile, data: Mapping[str, Any], config: SiteConfig, *, title: str,
             slug: str | None) -> tuple[str, str, str]:
    """(section, slug, url) of a content file: Hugo's rules from its path, its url:, the config's permalinks."""
    path, text = source.path, source.text
    section, slug_final, url = default_url(source.rel_path, slug)
    if source.kind == "section":
        folders = source.rel_path.split("/")[:-1]
        url = "/" + "/".join(path_segment(folder) for folder in folders) + "/" if folders else "/"
        url = url.replace("//", "/")
        slug_final = folders[-1] if folders else ""
    url_text = _text_field(data, "url", path=path, text=text)
    if url_text:
        url = clean_url(url_text, path=path, line=key_line(text, "url"))
        prefix = config.language_folder
        if prefix and url_text.strip().startswith("/") and (url + "/").startswith("/" + prefix):
            # Hugo: a url from the root is the page's whole path, its language's folder included ("/zh/archives"
            # of a Chinese page is /zh/archives/); this language's site is published in that folder already.
            url = "/" + url[len(prefix) + 1:]
    elif source.kind == "page" and config.permalinks:
        pattern = permalink_pattern(config.permalinks, section)
        if pattern:
            date_value, _ = _date_field(data, "date", path=path, text=text)
            url = expand_permalink(pattern, rel_path=source.rel_path, slug=slug, title=title, date=date_value)
            url = clean_url(url, path=config.config_path or path, line=1, folder=True)
    return section, slug_final, url


def shared_files_at(config: Any, rel_path: str, url: str) -> tuple[str, str] | None:
    """(URL on the host, permalink) of the page beside which a multilingual bundle's shared files are published,
    when it is another language's: the first language of the config whose index file the bundle's folder holds,
    at that page's own URL (read from its front matter) under that language's prefix (core/bundle_files.py says
    the same of a built site)."""
    languages = list(getattr(config, "languages", ()))
    if len(languages) < 2 or "/" not in rel_path or not config.markup.render_hooks or \
            any(dict(item.values).get("base_url") for item in languages):
        return None
    try:
        names = {path.name.lower(): path.name
                 for path in (Path(config.root) / config.source_dir / rel_path.rsplit("/", 1)[0]).iterdir()}
    except OSError:
        return None
    first, file_name = next(((language, name) for number, language in enumerate(languages)
                             for name in (f"index.{language.key}.md", f"index.{language.key}.markdown",
                                          *(("index.md", "index.markdown") if number == 0 else ()))
                             if name in names), (None, ""))
    own = next((language for language in languages if language.key == config.language), None)
    if first is None or own is None or first.key == own.key:
        return None
    base = str(config.base_url)
    top = base[:-len(own.prefix)] if own.prefix and base.endswith(own.prefix) else base
    from urllib.parse import urlsplit
    # That page's own URL (its slug or url may not be this one's), read from its front matter.
    url = translation_url(config, rel_path, names[file_name], first.key) or url
    permalink = top + first.prefix + url.lstrip("/")
    return urlsplit(permalink).path, permalink


def translation_url(config: SiteConfig, rel_path: str, file_name: str, language: str) -> str | None:
    """The URL (without its language's folder) of another language's version of a page: file_name, in the
    folder of the page at rel_path, read and placed by its own front matter (slug, url, the permalinks) as
    that language's site places it; None when it cannot be read (not a file inside the content folder) or its
    header does not parse (its own build reports that)."""
    from ..disk.frontmatter import parse_front_matter
    content = os.path.realpath(os.path.join(config.root, config.source_dir))
    folder = rel_path.rpartition("/")[0]
    path = os.path.join(content, folder, file_name)
    if not os.path.realpath(path).startswith(content + os.sep) or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read().replace("\r\n", "\n")
        source = SourceFile(path=path, rel_path=f"{folder}/index.md" if folder else "index.md", text=text)
        data = as_hugo_reads(parse_front_matter(source).data, config)
        values = dict(next((item.values for item in config.languages if item.key == language), ()))
        own = replace(config, language=language, permalinks=values.get("permalinks", config.permalinks))
        title = str(data.get("title") or "")
        slug = urlize(str(data["slug"])) if data.get("slug") else None
        return page_url(source, data, own, title=title, slug=slug)[2]
    except (OSError, UnicodeDecodeError, SourceError):
        return None


def shortcode_page(source: SourceFile, data: Mapping[str, Any], config: SiteConfig) -> "PageInfo":
    """What a Go shortcode's `.Page` shows of this file, before its body is rendered; a field that is
    wrong here is reported by make_post, so this one falls back quietly."""
    from ..hugo.gotemplate import page_view
    title = str(data.get("title") or "")
    try:
        slug = urlize(str(data["slug"])) if data.get("slug") else None
        section, _slug, url = page_url(source, data, config, title=title, slug=slug)
        date, _ = _date_field(data, "date", path=source.path, text=source.text)
        lastmod, _ = _date_field(data, "lastmod", path=source.path, text=source.text)
    except SourceError:
        section, _slug, url = default_url(source.rel_path, None)
        date = lastmod = None
    return page_view(config, title=title, url=url, params=data, section=section, draft=data.get("draft") is True,
                     date=date, lastmod=lastmod, file_path=source.path, bundle=(source.rel_path, source.resources),
                     shared_at=shared_files_at(config, source.rel_path, url) if source.resources else None)


def make_post(source: SourceFile, front_matter: FrontMatter, rendered: RenderedMarkdown,
              metrics: TextMetrics, config: SiteConfig, fingerprint: str,
              typeset: Callable[[str, str, tuple[TocEntry, ...]], tuple[str, str, tuple[TocEntry, ...]]] | None = None) -> tuple[Post, tuple[SourceWarning, ...]]:
    """Check every known front-matter key and assemble the Post (with warnings for repairs).

    typeset: what turns the math of (content, summary, TOC) into its final markup (katex.PostTypesetter), given
    for a post with math and run before its content is packed, so that content is packed once."""
    data = front_matter.data
    path, text = source.path, source.text
    warnings: list[SourceWarning] = list(front_matter.repairs)
    warnings.extend(replace(warning, line=front_matter.file_line(warning.line)) if warning.path == path else warning
                    for warning in rendered.warnings)
    hugo = _hugo_site(config)
    lenient = warnings if hugo else None   # Hugo's reading of a field that is not text: empty, with a warning
    title = _text_field(data, "title", path=path, text=text, warnings=lenient)
    slug_text = _text_field(data, "slug", path=path, text=text, warnings=lenient)
    slug = None
    if slug_text:
        slug = urlize(slug_text)
        if slug != slug_text:
            warnings.append(SourceWarning(path, key_line(text, "slug"),
                                          f"slug '{slug_text}' is not a safe URL segment; using '{slug}'"))
    section, slug_final, url = page_url(source, data, config, title=title, slug=slug)
    if not title and source.kind == "page":
        title = slug_final.replace("-", " ")
        warnings.append(SourceWarning(path, 1, f"no title in the front matter; using '{title}' "
                                               "(add title: \"…\")"))
    date, date_text, lastmod, publish_date, expiry_date = _dates(data, hugo=hugo, path=path, text=text)
    aliases = tuple(_clean_alias(_hugo_alias(alias, url) if hugo else alias, path=path, text=text)
                    for alias in _string_list(data, "aliases", path=path, text=text))
    series_order = _optional_int(data, "series_order", path=path, text=text)
    weight = _optional_int(data, "weight", path=path, text=text)
    if series_order is None:
        series_order = weight
    written_summary = _text_field(data, "summary", path=path, text=text, warnings=lenient)
    summary_html, truncated, summary_text = metrics.summary_html, metrics.truncated, metrics.summary_text
    if written_summary:
        summary_html, truncated = f"<p>{html.escape(written_summary)}</p>", True
        # The text as plain_text(summary_html) gives it (white space folded), like every other summary.
        summary_text = plain_text(summary_html)
    excerpt = _switch(data, "excerpt", False, warnings, path=path, text=text)
    content = _scrub(rendered.html)   # packed below: the scrub of the other fields cannot reach it
    content_scrubbed = content is not rendered.html
    has_images, has_links = "<img" in content, has_links_to_rewrite(content)
    toc = rendered.toc
    if typeset is not None:
        # The TeX is typeset as the scrubbed fields would hold it (_without_forbidden_characters, below).
        content, summary_html, toc = typeset(content, _scrub(summary_html), toc)
    post = Post(
        source=path, rel_path=source.rel_path, section=section, slug=slug_final, url=url,
        title=title, date=date, lastmod=lastmod, date_text=date_text,
        draft=_flag(data, "draft", False, path=path, text=text, hugo=warnings if hugo else None),
        tags=_terms(data, "tags", warnings, path=path, text=text, hugo=hugo),
        categories=_terms(data, "categories", warnings, path=path, text=text, hugo=hugo),
        series=_terms(data, "series", warnings, path=path, text=text, hugo=hugo),
        series_order=series_order,
        description=_text_field(data, "description", path=path, text=text, warnings=lenient),
        aliases=aliases,
        math=_switch(data, "math", False, warnings, path=path, text=text),
        toc_enabled=_switch(data, "toc", True, warnings, path=path, text=text),
        packed_html=pack_html(content), toc=toc, summary_html=summary_html,
        truncated=truncated or excerpt, plain_text=metrics.plain_text, word_count=metrics.word_count,
        reading_minutes=metrics.reading_minutes, has_math=rendered.has_math,
        has_mermaid=rendered.has_mermaid, has_code=rendered.has_code, resources=source.resources,
        params=dict(data), kind=source.kind, weight=weight or 0, fingerprint=fingerprint,
        summary_text=summary_text,
        packed_marks=pack_marks(replace(mark, line=front_matter.file_line(mark.line)) for mark in rendered.marks),
        has_images=has_images, has_links=has_links, publish_date=publish_date or date, expiry_date=expiry_date,
        page_store=rendered.page_store, store_reads=rendered.store_reads,
        hook_replays=rendered.hook_replays,
    )
    for taxonomy in config.taxonomies:
        if taxonomy not in ("tags", "categories", "series"):
            _terms(data, taxonomy, warnings, path=path, text=text, hugo=hugo)
    post = _without_forbidden_characters(post, source, warnings, content_scrubbed=content_scrubbed)
    return post, tuple(warnings)


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        # Searching first leaves the (nearly always clean) page HTML and text uncopied.
        return _FORBIDDEN_CHARACTERS.sub("", value) if _FORBIDDEN_CHARACTERS.search(value) else value
    if isinstance(value, tuple):
        return tuple(_scrub(item) for item in value)
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    if isinstance(value, dict):
        return {_scrub(key): _scrub(item) for key, item in value.items()}
    return value


def _without_forbidden_characters(post: Post, source: SourceFile, warnings: list[SourceWarning], *,
                                  content_scrubbed: bool = False) -> Post:
    """Drop control characters from every text field of the post; warn once, at the first line that has one
    (content_scrubbed: the content's HTML, scrubbed before it was packed, had one)."""
    changes = {}
    for item in fields(post):
        value = getattr(post, item.name)
        if isinstance(value, (str, tuple, dict)) and item.name not in ("fingerprint", "source", "rel_path"):
            cleaned = _scrub(value)
            if cleaned != value:
                changes[item.name] = cleaned
    if not changes and not content_scrubbed:
        return post
    match = _FORBIDDEN_CHARACTERS.search(source.text)
    if match:
        line, found = source.text.count("\n", 0, match.start()) + 1, f"U+{ord(match.group()):04X} "
    else:   # written as an escape in a quoted front-matter value, e.g. "\0": name that key's line
        key = next((name for name in changes if name in post.params), "params")
        line, found = key_line(source.text, key), f"in {key} "
    warnings.append(SourceWarning(source.path, line, f"control character {found}removed (feeds and sitemaps "
                                  "cannot carry it); delete it from the file"))
    return replace(post, **changes)
