"""A Hugo site's own Go templates, run as they are: `layouts/shortcodes/*.html` (and `_shortcodes/`), the
partials they call and PaperMod's extend_head/extend_footer, translated to Jinja (translate.py) for the
subset shortcodes and small partials use, and rendered with Hugo's functions (functions.py), names
(objects.py) and escaping (escape.py).

A template outside the subset is not guessed at: its GoTemplateError names the file, line and column and
the construct, the build warns once, and a shortcode that needs it shows its inner text instead (with a
warning at the post's line). Translations are cached by the template's text, so a warm build or a serve
rebuild translates nothing again. docs/go-templates.md lists what is translated.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from ...core.errors import SourceWarning
from ...core.names import TRANSLATED_MARK, is_inside, layout_folders
from .hooks import (HOOK_KINDS, BlockquoteContext, CodeblockContext, HeadingContext, HookPosition, ImageContext,
                    LinkContext, PassthroughContext, RenderHooks, TableCell, TableContext, stored_values)
from .privacy import privacy_settings
from .objects import (MAX_CALL_DEPTH, ContentStore, PageInfo, Params, RenderState, ShortcodeCall, SiteInfo,
                      UnsupportedField, typed_argument)
from .page_resources import bundle_resources
from .parse import GoTemplateError
from .purity import CALLED_PARTIAL

if TYPE_CHECKING:
    from .embedded import goat_code_block
    from .functions import HIGHLIGHTS, HugoFunctionError
    from .goat import build_svg
    from .translate import Translation

# The face of the translator to the rest of blogbuild: the names below and those defined here.
# HugoFunctionError (and HIGHLIGHTS, what transform.Highlight notes and is given for a hook call run again alone)
# loads on first use, with Hugo's functions (a render needs them, a template check does not), and
# so do goat's diagrams (build_svg), Hugo's embedded goat hook (goat_code_block) and a post's text measures
# (hugo_text and hugo_measures, page_text.py).
__all__ = ["EXTEND_PARTIALS", "HIGHLIGHTS", "MAX_PARTIAL_DEPTH", "TRANSLATED_MARK", "BlockquoteContext",
           "CodeblockContext",
           "ContentStore", "GoSource", "build_svg", "goat_code_block",
           "GoTemplateError", "GoTemplates", "HeadingContext", "HookPosition", "HugoFunctionError", "ImageContext",
           "LinkContext", "PageInfo", "PassthroughContext", "RenderHooks", "Params", "RenderState", "ShortcodeCall",
           "SiteInfo", "TableCell", "TableContext", "UnsupportedField",
           "check_jinja", "content_resource_url", "hugo_measures", "hugo_text", "layout_folders", "load_go_templates", "page_view", "render", "render_layout",
           "stored_values", "translated_file",
           "typed_argument"]

_LAZY = {"HugoFunctionError": ".functions", "HIGHLIGHTS": ".functions", "build_svg": ".goat",
         "goat_code_block": ".embedded", "hugo_measures": ".page_text", "hugo_text": ".page_text"}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(home, __name__), name)

MAX_PARTIAL_DEPTH = MAX_CALL_DEPTH     # partials and named templates nested deeper stop the render
EXTEND_PARTIALS = ("extend_head.html", "extend_footer.html")


def translated_file(jinja: str, source_path: str) -> str:
    """The text of templates/shortcodes/NAME.html for a translation: the mark naming the Go file, then it."""
    return (f"{TRANSLATED_MARK}{source_path} (a Go template). It runs with Hugo's names: dot is the shortcode "
            "(.), v.name is $name; see docs/go-templates.md. Edit it freely: this file wins over the Go one. -#}\n"
            + jinja)


@dataclass(frozen=True)
class GoSource:
    """One Go template file: where it is (as shown to the author) and its text; or a translation the author
    owns (jinja, from templates/shortcodes/)."""

    path: str
    source: str
    jinja: str = ""
    text: bool = False   # the layout of a plain-text output format the config defines (index.md): text/template

    @property
    def translation(self) -> str | GoTemplateError:
        """The Jinja source, or why there is none."""
        return self.jinja or _translate(self.source, self.plain)

    @property
    def file(self) -> Translation | GoTemplateError:
        """The whole file as Jinja (its main template and the templates it defines), or why there is none."""
        if self.jinja:
            from .translate import Translation
            return Translation(self.jinja, (), "go_return(" in self.jinja, False)
        return _translate_file(self.source, self.plain)

    @property
    def plain(self) -> bool:
        """A text/template: the layout of a JSON or text output (Hugo escapes nothing there)."""
        return self.text or self.path.endswith((".json", ".txt", ".csv"))

    @property
    def error(self) -> GoTemplateError | None:
        result = self.translation
        return result if isinstance(result, GoTemplateError) else None

    def compiled(self) -> jinja2.Template:
        """The compiled translation; GoTemplateError when the translator cannot take the template."""
        translation = self.translation
        if isinstance(translation, GoTemplateError):
            raise translation
        return _compiled(translation)

    def where(self, error: GoTemplateError) -> str:
        return f"{self.path}:{error.line}:{error.column}"

    def uses_inner(self) -> bool:
        """Whether the template reads .Inner (Hugo's test for "must be closed")."""
        return ".Inner" in (self.jinja or self.source)


@dataclass(frozen=True)
class GoTemplates:
    """A site's Go shortcodes and partials, its i18n strings and what `.Site` shows; picklable."""

    shortcodes: Mapping[str, GoSource] = field(default_factory=dict)
    partials: Mapping[str, GoSource] = field(default_factory=dict)
    strings: Mapping[str, Any] = field(default_factory=dict)
    site: SiteInfo = field(default_factory=SiteInfo)
    # Every file's path under its layout folder (templates.Exists), and partialCached's results in this build.
    files: frozenset[str] = frozenset()
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    # Render hooks by name (render-image, render-codeblock-mermaid, ...): _markup/ of each layout folder.
    hooks: Mapping[str, GoSource] = field(default_factory=dict)
    # Hugo's own partials (hugo_embedded), which `template "_internal/NAME"` runs whatever the site has.
    internal: Mapping[str, GoSource] = field(default_factory=dict)

    # The TemplateEngine face (templating/): templates by name, "shortcodes/NAME" or "partials/NAME.html"; a
    # render's context is the template's dot and the RenderState of the page ("dot", "_state").

    def source(self, name: str) -> GoSource | None:
        """The template of that name, if the site or a theme has it."""
        kind, _, rest = name.partition("/")
        if kind == "shortcodes":
            return self.shortcodes.get(rest)
        if kind == "partials":
            from ..layouts import partial_key
            return self.partials.get(partial_key(self.partials, rest))
        return None

    def exists(self, name: str) -> bool:
        return self.source(name) is not None

    def load(self, name: str) -> jinja2.Template:
        """The compiled translation; GoTemplateError when the translator cannot take the template."""
        source = self.source(name)
        if source is None:
            raise jinja2.TemplateNotFound(name)
        return source.compiled()

    def render(self, name: str, context: Mapping[str, Any]) -> str:
        self.load(name)   # the same errors as load
        source = self.source(name)
        assert source is not None
        return render(source, context["dot"], context["_state"])

    @staticmethod
    def dependencies_of_text(text: str) -> list[str]:
        """The partials a template's text calls by a literal name, as "partials/NAME"."""
        return [f"partials/{called}" for called in _called_partials(text)]

    def dependencies(self, name: str) -> dict[str, str]:
        """The template's text and that of every partial it calls by a literal name, by name ("" when the
        site has no such template)."""
        found: dict[str, str] = {}
        waiting = [name]
        while waiting:
            current = waiting.pop()
            if current in found:
                continue
            source = self.source(current)
            found[current] = source.source if source is not None else ""
            if source is not None:
                waiting += [f"partials/{called}" for called in _called_partials(source.jinja or source.source)]
        return dict(sorted(found.items()))

    def runnable_hooks(self) -> dict[str, GoSource]:
        """The render hooks blogbuild runs (hooks.HOOK_KINDS, a language's or a kind's own included) that the
        translator takes."""
        return {name: source for name, source in self.hooks.items()
                if any(name == kind or name.startswith(kind + "-") for kind in HOOK_KINDS) and source.error is None}

    def hook_warnings(self) -> list[SourceWarning]:
        """One warning per render hook (of a kind blogbuild runs: hooks.HOOK_KINDS) that the translator cannot
        take."""
        found = []
        for name, source in sorted(self.hooks.items()):
            if any(name == kind or name.startswith(kind + "-") for kind in HOOK_KINDS) and source.error is not None:
                found.append(SourceWarning(source.path, source.error.line, f"{source.error.message}; blogbuild "
                                           "cannot run this render hook and renders these elements its own way "
                                           "(see docs/go-templates.md)", column=source.error.column))
        return found

    def warnings(self, *, extension_partials: bool = True) -> list[SourceWarning]:
        """One warning per template of the site's own that the translator cannot take, at its line:col: its
        shortcodes and PaperMod's extension partials (a theme's files, and partials only a shortcode calls,
        are named where a post uses them), and one per extension partial that fails on the home page.
        extension_partials: whether the default theme includes them (not when the site's own layouts run,
        which call them themselves)."""
        found = []
        own = [source for source in self.shortcodes.values() if source.path.startswith("layouts/")]
        extensions = tuple(self.extend_partials().values()) if extension_partials else ()
        for source in (*own, *extensions):
            error = source.error
            if error is not None:
                found.append(SourceWarning(source.path, error.line, f"{error.message}; blogbuild cannot "
                                           "run this Go template (see docs/go-templates.md): port it to Jinja "
                                           "in templates/ (shortcodes in templates/shortcodes/)",
                                           column=error.column))
        for name, problem in (self.extend_failures() if extension_partials else {}).items():
            found.append(SourceWarning(self.partials[name].path, 1, f"{problem}; it is left out of the pages; "
                                       "port what it does to templates/ (a base.html block)"))
        return found

    @functools.cached_property
    def _global_defines(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name in sorted(self.partials):
            translation = self.partials[name].file
            if isinstance(translation, GoTemplateError):
                continue
            for define in translation.defines:
                found.setdefault(define.name, define)
        return found

    def global_defines(self) -> dict[str, Any]:
        """The named templates every partial file defines (translate.NamedTemplate by name): Hugo's
        templates share one namespace, so a define in any partial (an inline partial, a helper) is found
        from anywhere. Translated on the first name a render does not find itself."""
        return self._global_defines

    def extend_partials(self) -> dict[str, GoSource]:
        """PaperMod's extension hooks the default theme includes: extend_head.html and extend_footer.html."""
        return {name: self.partials[name] for name in EXTEND_PARTIALS if name in self.partials}

    @functools.cached_property
    def _extend_failures(self) -> dict[str, str]:
        from .objects import PageInfo
        home = PageInfo(Title=self.site.Title, RelPermalink=self.site.rel_url(""), Permalink=self.site.BaseURL,
                        page_kind="home", site_info=self.site)
        failures = {}
        for name, source in self.extend_partials().items():
            if source.error is None:
                try:
                    render(source, home, self.state(_escaped))
                except Exception as error:  # noqa: BLE001 - a template's failure is reported, never raised
                    failures[name] = f"{type(error).__name__}: {error}" if not str(error) else str(error)
        return failures

    def extend_failures(self) -> dict[str, str]:
        """The extension partials that translate but fail on the home page, with why."""
        return self._extend_failures

    def extend(self, name: str, page: Any, markdownify: Any) -> str:
        """The HTML of an extension partial for one page ("" when it is missing or cannot run); markdownify
        renders markdown with the site's settings (the caller's: gotemplate does not import markdown)."""
        source = self.extend_partials().get(name)
        if source is None or source.error is not None or name in self.extend_failures():
            return ""
        try:
            return self.render(f"partials/{name}", {"dot": page, "_state": self.state(markdownify)})
        except Exception as error:  # noqa: BLE001 - one page's failure leaves the hook out of that page
            said = str(error).replace("--", "- -").replace("<", "&lt;")   # nothing may end the comment
            return f"<!-- blogbuild: {source.path} could not run on this page: {said} -->"

    def state(self, markdownify: Any) -> RenderState:
        """The render state of one post: markdownify renders in that post."""
        return _runner_class()(self, markdownify).state()


@functools.lru_cache(maxsize=1024)
def _called_partials(text: str) -> tuple[str, ...]:
    """The partials a template's text calls by a literal name, each once, in order: asked of the same texts for
    every paginated list and every page kind (PaperMod's svg.html alone is 182 kB)."""
    return tuple(dict.fromkeys(CALLED_PARTIAL.findall(text)))


def _escaped(text: str) -> str:
    """markdownify where the text only has to be safe (trying a partial on the home page)."""
    import html
    return html.escape(text, quote=False)


@functools.lru_cache(maxsize=512)
def _translate_file(source: str, plain: bool = False) -> Translation | GoTemplateError:
    from .translate import translate_file
    try:
        return translate_file(source, plain=plain)
    except GoTemplateError as error:
        return error
    except RecursionError:
        return GoTemplateError(1, 1, "the template nests too deeply to translate")


def _translate(source: str, plain: bool = False) -> str | GoTemplateError:
    result = _translate_file(source, plain)
    return result if isinstance(result, GoTemplateError) else result.main


def _compiled(jinja_source: str) -> jinja2.Template:
    from .environment import compiled
    return compiled(jinja_source)


def check_jinja(path: str, jinja_source: str) -> None:
    """A SourceError at the line of a translation's Jinja syntax error (an edited translation)."""
    from ...core.errors import SourceError
    try:
        _compiled(jinja_source)
    except jinja2.TemplateSyntaxError as error:
        raise SourceError(path, error.lineno or 1, f"shortcode template syntax error: {error.message}; fix the "
                                                   "template", stage="shortcode") from error


def render(source: GoSource, dot: Any, state: RenderState) -> str:
    """The HTML of a translated template with `.` = dot; GoTemplateError if it has no translation, and the
    runtime errors of objects/functions (UnsupportedField, HugoFunctionError) as they come."""
    return render_layout(None, source, dot, state)


@functools.cache
def _runner_class() -> Any:
    """runner.Runner, imported with the first render (it brings Jinja and Hugo's functions, which translating
    a site's layouts does not need)."""
    from .runner import Runner
    return Runner


def render_layout(base: GoSource | None, layout: GoSource, dot: Any, state: RenderState) -> str:
    """The HTML of a page layout: through base (a baseof.html) when the layout only defines blocks, as
    Hugo does (its `define`s replace the base's `block` defaults), else the layout alone."""
    runner = state.runner
    if runner is None:
        runner = _runner_class()(GoTemplates(site=state.site, strings=state.strings), state.markdownify)
    return runner.run(layout, dot, base)


# ---------------------------------------------------------------------------- finding the files

def content_resource_url(page: Any, source: str) -> tuple[str, str] | None:
    """Where Hugo's embedded figure points a src when a page's content renders with a site's Hugo Pipes (its own
    layouts render it): a relative src names the page's resource, else an asset (published by reading its URL),
    and gives that one's RelPermalink; anything else stays as written. (URL, why the asset cannot be read, "" when
    it can); None outside such a render."""
    from .functions import HugoFunctionError
    from .pipes import PIPES_NAMESPACES, publishing_active
    if not publishing_active():
        return None
    from urllib.parse import urlsplit
    parts = urlsplit(source)
    if parts.scheme or parts.netloc or not parts.path:
        return source, ""
    resources = getattr(page, "Resources", None) if page is not None else None
    try:
        found = resources.Get(parts.path) if resources is not None else None
        found = found or PIPES_NAMESPACES["resources"].Get(parts.path)
    except (UnsupportedField, HugoFunctionError) as error:
        return source, str(error)
    return (str(found.RelPermalink) if found is not None else source), ""


def page_view(config: Any, *, title: str, url: str, params: Mapping[str, Any], kind: str = "page",
              section: str = "", date: Any = None, lastmod: Any = None, draft: bool = False, file_path: str = "",
              site: SiteInfo | None = None, bundle: tuple[str, tuple[str, ...]] | None = None,
              shared_at: tuple[str, str] | None = None) -> PageInfo:
    """A page as Hugo's templates see it (`.Title`, `.RelPermalink`, `.Permalink`, `.Params`, `.Description`,
    `.Kind`, ...), from blogbuild's view of it: the one adapter from a post or a list page to Hugo's page.
    config: the SiteConfig the URLs are made with; bundle: the page's file under content/ and its bundle's
    files, for `.Resources`; shared_at: where its bundle's shared files are published when another language's
    page publishes them (content/posts.py shared_files_at)."""
    resources = None if bundle is None else functools.partial(
        bundle_resources, bundle[0], bundle[1], params, Path(config.root) / config.source_dir, url, config.site_url,
        config.absolute_url, language=getattr(config, "language", ""),
        languages={language.key for language in getattr(config, "languages", ())},
        shared_at=shared_at, prefix=getattr(config, "language_folder", ""))
    return PageInfo(Title=title, RelPermalink=config.site_url(url), Permalink=config.absolute_url(url),
                    Params=Params.of(params), Section=section, Draft=draft, date=date, lastmod=lastmod,
                    Description=str(params.get("description") or ""), file_path=file_path, page_kind=kind,
                    resources=resources, site_info=site, content_path=bundle[0] if bundle is not None else "",
                    language=str(getattr(config, "language", "") or ""))


def load_go_templates(root: Path, *, inside: tuple[str, ...] = (), title: str = "", base_url: str = "/",
                      params: Mapping[str, Any] | None = None, language: str = "",
                      copyright_text: str = "", language_key: str = "", language_name: str = "",
                      fallback_language: str = "", multilingual: bool = False,
                      highlight: tuple[tuple[str, Any], ...] = (), embedded_shortcodes: bool = False,
                      privacy: Mapping[str, Any] | None = None) -> GoTemplates:
    """The Go shortcodes and partials of the site at root (none when it has no layouts/ or themes), read
    only where their real path is inside the site (sources' rule); the i18n strings of language, the default
    language's (fallback_language) where it has none."""
    folders = layout_folders(root)
    allowed = (os.path.realpath(root), *inside)
    shortcodes: dict[str, GoSource] = {}
    partials: dict[str, GoSource] = {}
    hooks: dict[str, GoSource] = {}
    files = frozenset(path.relative_to(folder).as_posix() for folder in folders for path in folder.rglob("*")
                      if path.is_file())
    for folder in folders:
        for kind, names in (("shortcodes", shortcodes), ("partials", partials)):
            for sub in ("_" + kind, kind):     # within a folder the new spelling wins, as in Hugo
                base = folder / sub
                if not base.is_dir():
                    continue
                # A partial is any text file (svg/icon.svg, a .json, .xml or .css template), called by its name;
                # a shortcode an .html file, called without the extension.
                for path in sorted(base.rglob("*.html" if kind == "shortcodes" else "*")):
                    if not path.is_file():
                        continue
                    name = path.relative_to(base).as_posix()
                    if kind == "shortcodes":
                        name = name[:-len(".html")]
                    if name in names or not is_inside(os.path.realpath(path), allowed):
                        continue
                    try:
                        text = path.read_text(encoding="utf-8-sig")
                    except (OSError, UnicodeDecodeError):
                        continue
                    names[name] = GoSource(path.relative_to(root).as_posix(), text)
        for sub in ("_markup", "_default/_markup"):   # the new structure's place first, as Hugo maps the old
            base = folder / sub
            for path in sorted(base.glob("render-*.html")) if base.is_dir() else ():
                name = path.name[:-len(".html")]
                if name in hooks or not is_inside(os.path.realpath(path), allowed):
                    continue
                try:
                    hooks[name] = GoSource(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8-sig"))
                except (OSError, UnicodeDecodeError):
                    continue
    internal = hugo_embedded("_partials") if embedded_shortcodes else {}
    if embedded_shortcodes:
        # Hugo's vimeo in privacy.vimeo.simple mode fetches the video's card while building: blogbuild's box then.
        simple = privacy_settings(privacy or {})["Vimeo"]["Simple"]
        for name, source in hugo_embedded("_shortcodes").items():
            if not (name == "vimeo" and simple):
                shortcodes.setdefault(name, source)
        for name, source in internal.items():
            partials.setdefault(name, source)
    site = SiteInfo(Title=title, BaseURL=base_url, Params=Params.of(params), LanguageCode=language,
                    Copyright=copyright_text, root=str(root), language_key=language_key, language_name=language_name,
                    multilingual=multilingual, highlight=highlight, privacy=privacy)
    strings = _i18n(root, language, allowed)
    if fallback_language and fallback_language != language:   # Hugo: a string missing is the default language's
        strings = {**_i18n(root, fallback_language, allowed), **strings}
    return GoTemplates(shortcodes, partials, strings, site, files, hooks=hooks, internal=internal)


@functools.lru_cache(maxsize=None)
def hugo_embedded(kind: str) -> dict[str, GoSource]:
    """Hugo's own templates (its embedded ones, vendor/hugo/: Apache-2.0) of a kind, by the name a template
    calls them: "_shortcodes" youtube, vimeo and instagram (the player's iframe and Instagram's card as Hugo
    writes them, with the config's privacy settings), "_partials" pagination.html (Hugo's pager, default and
    terse). A site's own layouts get them where neither the site nor its theme has one of the name, as in
    Hugo. (Hugo's x and vimeo_simple fetch their HTML from the service while building; blogbuild never does,
    and draws its own box with a link for those.)"""
    folder = Path(__file__).resolve().parent.parent.parent / "vendor" / "hugo" / kind   # media/assets' VENDOR_DIR
    return {(path.stem if kind == "_shortcodes" else path.name):
            GoSource(f"(Hugo's embedded {path.name})", path.read_text(encoding="utf-8"))
            for path in sorted(folder.glob("*.html"))}


def _i18n(root: Path, language: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The i18n strings for the site's language (i18n/en.yaml, .toml or .json), {id: text or {one, other}}: the
    site's, then each theme's for the ids the site does not translate, as Hugo merges them."""
    if not language:
        return {}
    homes = [root] + [folder.parent for folder in layout_folders(root) if folder.parent != root]
    wanted = [language.lower(), language.split("-")[0].lower()]
    strings: dict[str, Any] = {}
    for home in homes:
        folder = home / "i18n"
        if not folder.is_dir():
            continue
        files = {path.name.lower(): path for path in sorted(folder.iterdir()) if path.is_file()}   # zh-CN.toml is zh-cn's
        found = next((files[name + suffix] for name in wanted for suffix in (".yaml", ".yml", ".toml", ".json")
                      if name + suffix in files and is_inside(os.path.realpath(files[name + suffix]), allowed)), None)
        if found is None:
            continue
        for key, value in _read_strings(found).items():
            # A message of plural forms takes its form by its own file's language's rule (plurals.py).
            strings.setdefault(key, PluralMessage(value, language=found.stem) if isinstance(value, Mapping) else value)
    return strings


def _read_strings(path: Path) -> dict[str, Any]:
    import json
    import tomllib

    from ...disk import strict_yaml
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            data = strict_yaml.load(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, Exception):  # noqa: BLE001 - i18n is optional
        return {}
    strings: dict[str, Any] = {}
    if isinstance(data, list):   # go-i18n v1: [{id: x, translation: y}]
        for entry in data:
            if isinstance(entry, Mapping) and "id" in entry:
                strings[str(entry["id"])] = entry.get("translation")
    elif isinstance(data, Mapping):
        _flat_strings(data, "", strings)
    return strings


_PLURAL_FORMS = frozenset({"zero", "one", "two", "few", "many", "other"})


class PluralMessage(dict[str, Any]):
    """A translation's plural forms ({"one": …, "other": …}) and the language of the file that holds it, whose
    plural rule picks the form (a string missing from the site's language is the default language's, and takes
    that language's rule, as go-i18n does)."""

    def __init__(self, forms: Mapping[str, Any], language: str) -> None:
        super().__init__(forms)
        self.language = language


def _flat_strings(data: Mapping[str, Any], prefix: str, strings: dict[str, Any]) -> None:
    """go-i18n v2's strings: a table of plural forms or {translation} is one string; any other nested table
    holds more strings, each id its path joined by dots ([notFound] title -> notFound.title)."""
    for key, value in data.items():
        name = prefix + str(key)
        if not isinstance(value, Mapping):
            strings[name] = value
        elif "translation" in value:
            strings[name] = value.get("translation")
        elif value and set(map(str, value)) <= _PLURAL_FORMS | {"description", "hash"}:
            strings[name] = dict(value)
        else:
            _flat_strings(value, name + ".", strings)
