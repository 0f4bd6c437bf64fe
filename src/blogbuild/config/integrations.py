"""Third-party services a site can switch on in its config: comments (giscus, utterances) and analytics
(Plausible, Umami, Google Analytics 4, a raw snippet), parsed from blogbuild.yaml (a Hugo site's params become
these blocks in hugo/theme_params.py).

The theme only ever reads the frozen Comments and Analytics below; a wrong value is a config error at
path:line that names the key to fix.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import SourceError
from ..core.records import dataclass

GISCUS_SCRIPT = "https://giscus.app/client.js"
UTTERANCES_SCRIPT = "https://utteranc.es/client.js"
PLAUSIBLE_SCRIPT = "https://plausible.io/js/script.js"
UMAMI_SCRIPT = "https://cloud.umami.is/script.js"
_GOOGLE_ID = re.compile(r"^G-[A-Z0-9]{4,20}$")


@dataclass(frozen=True)
class Comments:
    """The comment widget posts show: which provider, its script and the attributes the script reads."""

    provider: str = ""                         # "" (none) | "giscus" | "utterances"
    script: str = ""                           # the provider's client script
    origin: str = ""                           # where its iframe lives, for theme messages
    attributes: tuple[tuple[str, str], ...] = ()   # attributes of the script element, theme left out
    theme_attribute: str = ""                  # the attribute naming the theme ("data-theme" or "theme")
    light_theme: str = ""
    dark_theme: str = ""

    @property
    def enabled(self) -> bool:
        """Whether a provider is configured."""
        return bool(self.provider)


@dataclass(frozen=True)
class Analytics:
    """The analytics scripts every published page carries (never pages served by `blogbuild serve`)."""

    plausible_domain: str = ""
    plausible_script: str = PLAUSIBLE_SCRIPT
    umami_website_id: str = ""
    umami_script: str = UMAMI_SCRIPT
    google_id: str = ""                        # a Google Analytics 4 measurement id, G-XXXXXXX
    snippet: str = ""                          # raw HTML put at the end of <head> as written

    @property
    def enabled(self) -> bool:
        """Whether any provider or a snippet is configured."""
        return bool(self.plausible_domain or self.umami_website_id or self.google_id or self.snippet)


Fail = Callable[[str], SourceError]


def _text(block: Mapping[str, Any], key: str, where: str, fail: Fail, *, required: bool = False,
          default: str = "") -> str:
    value = block.get(key, default)
    if value is None or value == "":
        if required:
            raise fail(f"{where}.{key} is required (see the README's Comments and analytics section)")
        return default
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise fail(f"{where}.{key} must be text, not {value!r}")
    return str(value)


def _flag(block: Mapping[str, Any], key: str, where: str, fail: Fail, default: bool) -> str:
    value = block.get(key, default)
    if not isinstance(value, bool):
        raise fail(f"{where}.{key} must be true or false, not {value!r}")
    return "1" if value else "0"


def _mapping(value: Any, where: str, fail: Fail) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(f"{where} must be a mapping of settings, not {value!r}")
    return value


def parse_comments(value: Any, language: str, fail: Fail) -> Comments:
    """The comments: block ({giscus: {...}} or {utterances: {...}}, or false) as Comments."""
    if value in (None, False, {}):
        return Comments()
    block = _mapping(value, "comments", fail)
    providers = [name for name in block if name in ("giscus", "utterances")]
    unknown = [str(name) for name in block if name not in ("giscus", "utterances")]
    if unknown or len(providers) != 1:
        raise fail(f"comments needs exactly one of giscus or utterances, not {sorted(map(str, block))}")
    if providers[0] == "giscus":
        return _giscus(_mapping(block["giscus"], "comments.giscus", fail), language, fail)
    return _utterances(_mapping(block["utterances"], "comments.utterances", fail), fail)


def _giscus(block: Mapping[str, Any], language: str, fail: Fail) -> Comments:
    where = "comments.giscus"
    known = {"repo", "repo_id", "category", "category_id", "mapping", "term", "strict", "reactions",
             "input_position", "lang", "light_theme", "dark_theme"}
    _no_unknown(block, known, where, fail)
    repo = _text(block, "repo", where, fail, required=True)
    if repo.count("/") != 1:
        raise fail(f"{where}.repo must be owner/name, not {repo!r}")
    attributes = [
        ("data-repo", repo),
        ("data-repo-id", _text(block, "repo_id", where, fail, required=True)),
        ("data-category", _text(block, "category", where, fail, required=True)),
        ("data-category-id", _text(block, "category_id", where, fail, required=True)),
        ("data-mapping", _text(block, "mapping", where, fail, default="pathname")),
    ]
    if "term" in block:
        attributes.append(("data-term", _text(block, "term", where, fail)))
    attributes += [
        ("data-strict", _flag(block, "strict", where, fail, False)),
        ("data-reactions-enabled", _flag(block, "reactions", where, fail, True)),
        ("data-emit-metadata", "0"),
        ("data-input-position", _text(block, "input_position", where, fail, default="bottom")),
        ("data-lang", _text(block, "lang", where, fail, default=_giscus_language(language))),
        ("data-loading", "lazy"),
    ]
    return Comments("giscus", GISCUS_SCRIPT, "https://giscus.app", tuple(attributes), "data-theme",
                    _text(block, "light_theme", where, fail, default="light"),
                    _text(block, "dark_theme", where, fail, default="dark"))


def _giscus_language(language: str) -> str:
    """giscus's name for a site language: zh-CN and zh-TW keep their region, others are the bare language."""
    if language in ("zh-CN", "zh-TW"):
        return language
    if language.lower().startswith("zh"):
        return "zh-TW" if language.lower() in ("zh-hk", "zh-hant", "zh-mo") else "zh-CN"
    return language.split("-", 1)[0] or "en"


def _utterances(block: Mapping[str, Any], fail: Fail) -> Comments:
    where = "comments.utterances"
    _no_unknown(block, {"repo", "issue_term", "label", "light_theme", "dark_theme"}, where, fail)
    repo = _text(block, "repo", where, fail, required=True)
    if repo.count("/") != 1:
        raise fail(f"{where}.repo must be owner/name, not {repo!r}")
    attributes = [("repo", repo), ("issue-term", _text(block, "issue_term", where, fail, default="pathname"))]
    label = _text(block, "label", where, fail)
    if label:
        attributes.append(("label", label))
    return Comments("utterances", UTTERANCES_SCRIPT, "https://utteranc.es", tuple(attributes), "theme",
                    _text(block, "light_theme", where, fail, default="github-light"),
                    _text(block, "dark_theme", where, fail, default="github-dark"))


def _no_unknown(block: Mapping[str, Any], known: set[str], where: str, fail: Fail) -> None:
    unknown = sorted(str(key) for key in block if key not in known)
    if unknown:
        raise fail(f"{where}: unknown setting {unknown[0]!r}; known ones are {', '.join(sorted(known))}")


def parse_analytics(value: Any, fail: Fail) -> Analytics:
    """The analytics: block ({plausible: {domain}, umami: {website_id}, google: {measurement_id}, snippet})."""
    if value in (None, False, {}):
        return Analytics()
    block = _mapping(value, "analytics", fail)
    _no_unknown(block, {"plausible", "umami", "google", "snippet"}, "analytics", fail)
    values: dict[str, str] = {}
    if "plausible" in block:
        plausible = _mapping(block["plausible"], "analytics.plausible", fail)
        _no_unknown(plausible, {"domain", "script"}, "analytics.plausible", fail)
        values["plausible_domain"] = _text(plausible, "domain", "analytics.plausible", fail, required=True)
        values["plausible_script"] = _text(plausible, "script", "analytics.plausible", fail, default=PLAUSIBLE_SCRIPT)
    if "umami" in block:
        umami = _mapping(block["umami"], "analytics.umami", fail)
        _no_unknown(umami, {"website_id", "script"}, "analytics.umami", fail)
        values["umami_website_id"] = _text(umami, "website_id", "analytics.umami", fail, required=True)
        values["umami_script"] = _text(umami, "script", "analytics.umami", fail, default=UMAMI_SCRIPT)
    if "google" in block:
        google = _mapping(block["google"], "analytics.google", fail)
        _no_unknown(google, {"measurement_id"}, "analytics.google", fail)
        measurement = _text(google, "measurement_id", "analytics.google", fail, required=True)
        if not _GOOGLE_ID.match(measurement):
            raise fail(f"analytics.google.measurement_id must look like G-XXXXXXX (GA4), not {measurement!r}")
        values["google_id"] = measurement
    if "snippet" in block:
        values["snippet"] = _text(block, "snippet", "analytics", fail)
    return Analytics(**values)
