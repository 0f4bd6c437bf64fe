"""A multilingual Hugo site as its own layouts see it: `.Sites` (every language's site by weight, `.Default` the
default language's; the language being built is `.Site` itself, so `eq . $.Site` holds for it),
`.LanguagePrefix`, and a page's `.Translations`/`.AllTranslations` (its versions in the other languages, read
off the site's translations, as pages with a title, links and a language)."""
from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...core.cascade import page_kind, page_path
from .go_url import dot_segments_resolved
from .paths import get_page_ref, hugo_escapes, logical_path
from .objects import GoObject, Params, UnsupportedField, _Language, site_config

if TYPE_CHECKING:
    from ...core.model import Translation


def language_prefix(config: Any, key: str) -> str:
    """Hugo's LanguagePrefix of a language: "/KEY" when its site is published under KEY/, else ""."""
    language = next((item for item in getattr(config, "languages", ()) if item.key == key), None)
    prefix = language.prefix.strip("/") if language is not None else ""
    return "/" + prefix if prefix else ""


def language_params(site: Any, key: str) -> Any:
    """The params of another language's site, as its pages see them: the site's, that language's own merged in
    (PaperMod's language switch reads each translation's .Language.Params.languageAltTitle); kept on the site."""
    config = site_config(site)
    language = next((item for item in getattr(config, "languages", ()) if item.key == key), None)
    if language is None:
        return site.Params
    known = site.__dict__.setdefault("_language_params", {})
    if key not in known:   # a language's config holds its own params already merged over the site's
        known[key] = Params.of(language.value("params", config.params))
    return known[key]


class LanguageSite(GoObject):
    """Another language's site in `.Sites`: its title, language and prefix."""

    kind = "Site"

    def __init__(self, config: Any, language: Any, home: Translation | None, params: Any) -> None:
        # The language's title and code are its home page's (a language's config holds only its own values).
        self._config = config
        self._language = language
        self._home = home
        self.Title = home.title if home is not None else str(language.value("title", config.title))
        self.LanguageCode = home.language_code if home is not None else str(language.value("language_code",
                                                                                            language.key))
        self._params = params

    @property
    def Language(self) -> _Language:  # noqa: N802
        language = self._language
        return _Language(language.key, self.LanguageCode, language.name,
                         str(language.value("language_direction", "") or ""), self._params)

    @property
    def LanguagePrefix(self) -> str:  # noqa: N802
        return language_prefix(self._config, self._language.key)

    def GetPage(self, *refs: Any) -> "LanguagePage | None":  # noqa: N802
        """The language's page at a content path (`.Sites.First.GetPage "/search"`, an old PaperMod header's), as
        far as its front matter and URL say; None when it has none."""
        from ...core.page_lookups import language_page
        try:
            found = language_page(self._language.key, logical_path(get_page_ref(refs)),
                                  lambda path: logical_path(path[:-len("/index.md")] if path.endswith("/index.md")
                                                            else path))
        except LookupError:
            raise UnsupportedField(f"GetPage of the {self._language.key} site is not known here") from None
        return LanguagePage.of(*found) if found is not None else None

    @property
    def Home(self) -> "LanguagePage":  # noqa: N802 - the language's home page
        home = self._home
        if home is None:
            raise UnsupportedField(f"Site.Home of the {self._language.key} site is not known here")
        return LanguagePage(self.Title, home.url, home.permalink, self._language.key, kind="home")


class LanguagePage(GoObject):
    """A page of another language's site that its GetPage found: its title, URLs, language, layout, type and
    params (what its front matter says); any other field fails, naming it."""

    kind = "Page"

    def __init__(self, title: str, rel_permalink: str, permalink: str, lang: str, *, kind: str = "page",
                 section: str = "", params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.Title = title
        self.LinkTitle = str(params.get("linktitle") or title)
        self.RelPermalink, self.Permalink, self.Lang, self.Kind, self.Section = rel_permalink, permalink, lang, kind, section
        self.Layout = str(params.get("layout") or "")
        self.Type = str(params.get("type") or section or "page")
        self.Params = Params.of(params)
        self.Description = str(params.get("description") or "")

    @classmethod
    def of(cls, config: Any, post: Any) -> "LanguagePage":
        languages = (language.key for language in getattr(config, "languages", ()))
        kind = page_kind(page_path(post.rel_path, languages), post.kind == "section", getattr(config, "taxonomies", ()))
        return cls(post.title, hugo_escapes(config.site_url(post.url)), hugo_escapes(config.absolute_url(post.url)),
                   str(getattr(config, "language", "")), kind=kind, section=post.section,
                   params={str(key).lower(): value for key, value in post.params.items()})

    def __getattr__(self, name: str) -> Any:
        if name[:1].isupper():
            raise UnsupportedField(f"Page.{name} of another language's page (.Sites … GetPage) is not supported "
                                   "by blogbuild's translation")
        raise AttributeError(name)


class SiteList(list, GoObject):
    """`.Sites`: a site for each language, by weight (as Hugo orders languages: a weight of 0 last, then by key),
    and `.Default`, the default language's."""

    kind = "Sites"

    def __init__(self, sites: Iterable[Any] = (), default: Any = None) -> None:
        super().__init__(sites)
        self._default = default

    @property
    def Default(self) -> Any:  # noqa: N802
        return self._default if self._default is not None else (self[0] if self else None)

    @property
    def First(self) -> Any:  # noqa: N802
        return self[0] if self else None


class SiteLanguages:
    """A site's `.Sites` and `.LanguagePrefix` (site_model.HugoSite's)."""

    config: Any

    @property
    def Sites(self) -> SiteList:  # noqa: N802 - every language's site, this one among them
        return sites_of(self)

    @property
    def LanguagePrefix(self) -> str:  # noqa: N802
        return language_prefix(self.config, getattr(self.config, "language", ""))


def sites_of(site: Any) -> SiteList:
    """Every language's site (site: the HugoSite being built, itself among them); [site] for a site of one language."""
    config = site.config
    current = getattr(config, "language", "")
    languages = getattr(config, "languages", ())
    if not languages:
        return SiteList([site])
    homes = {item.language: item for item in site._model.translated("/")}
    sites = {language.key: site if language.key == current else
             LanguageSite(config, language, homes.get(language.key), language_params(site, language.key))
             for language in languages}
    ordered = sorted(languages, key=lambda language: (language.weight == 0, language.weight, language.key))
    return SiteList((sites[language.key] for language in ordered), default=sites[languages[0].key])


class TranslatedPage(GoObject):
    """A page's version in another language, as `.Translations` gives it: its title, links and language."""

    kind = "Page"

    def __init__(self, site: Any, translation: Translation, escape: Callable[[str], str]) -> None:
        self._site = site
        self._translation = translation
        self.Title = self.LinkTitle = translation.title
        self.Lang = translation.language
        self.RelPermalink = escape(translation.url)
        self.Permalink = escape(translation.permalink)

    @property
    def Language(self) -> _Language:  # noqa: N802
        translation = self._translation
        return _Language(translation.language, translation.language_code, translation.language_name, "",
                         language_params(self._site, translation.language))

    @property
    def IsTranslated(self) -> bool:  # noqa: N802
        return True


def translations_of(site: Any, url: str, itself: Any, escape: Callable[[str], str],
                    title_case: Callable[[str], str]) -> list[Any]:
    """The page at url in every language, in the order of .Sites: itself for the language being built (escape:
    Hugo's escaping of a link; title_case: Hugo's title of a term named in lower case)."""
    current = getattr(site.config, "language", "")
    versions = site._model.translated(url)
    if itself.Kind == "404":   # every language has its 404 page, at its home's 404.html
        versions = tuple(replace(home, url=home.url + "404.html", permalink=home.permalink + "404.html",
                                 title=itself.Title) for home in site._model.translated("/"))
    return [itself if item.language == current else TranslatedPage(site, _titled(item, itself, title_case), escape)
            for item in versions]


def _titled(translation: Translation, itself: Any, title_case: Callable[[str], str]) -> Translation:
    """A term's version with Hugo's title: its name title-cased when its _index.md gives none."""
    if itself.Kind != "term" or translation.title != translation.title.lower():
        return translation
    return replace(translation, title=title_case(translation.title))



def lang_url(site: Any, url: str, absolute: bool, language: bool = True) -> str | None:
    """Hugo's relLangURL/absLangURL (language) and relURL/absURL in a site published under a language's KEY/:
    a path from the host's root stays there, another one is under the base path; the language's KEY/ goes first
    (relLangURL) unless the path starts with it. None where the site has no language folder (relURL's rule).
    Kept on the site by its arguments (of plain text: a marked-safe one is made afresh, keeping its type): a
    page's header and menus make the same URLs on every page."""
    if type(url) is not str:
        return _lang_url(site, url, absolute, language)
    made = site.__dict__.setdefault("_lang_urls", {})
    key = (url, absolute, language)
    if key not in made:
        made[key] = _lang_url(site, url, absolute, language)
    return made[key]


def _lang_url(site: Any, url: str, absolute: bool, language: bool) -> str | None:
    config = site_config(site)
    prefix = language_prefix(config, getattr(config, "language", "")).strip("/") if config is not None else ""
    if not prefix or "://" in url or url.startswith(("//", "#", "mailto:")):
        return None
    rooted = url.startswith("/")
    path = url[1:] if rooted else url
    if language and not (path == prefix or path.startswith(prefix + "/")):
        path = f"{prefix}/{path}" if path else prefix + "/"
    path = dot_segments_resolved(("/" if rooted else _top_path(site.base_path, prefix)) + path.lstrip("/"))
    if absolute:
        return str(site.abs_url(path))
    return path


def rel_url(site: Any, url: str) -> str:
    """Hugo's relURL: in a site published under a language's KEY/, the whole site's (lang_url); else the site's."""
    made = lang_url(site, url, absolute=False, language=False)
    return made if made is not None else site.rel_url(url)


def abs_url(site: Any, url: str) -> str:
    """Hugo's absURL, with relURL's rule for a language's site."""
    made = lang_url(site, url, absolute=True, language=False)
    return made if made is not None else site.abs_url(url)


def _top_path(base_path: str, prefix: str) -> str:
    """The whole site's base path from a language's ("/blog/de/" -> "/blog/")."""
    ending = prefix + "/"
    return base_path[:-len(ending)] if base_path.endswith("/" + ending) else base_path
