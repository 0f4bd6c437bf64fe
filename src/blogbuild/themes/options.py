"""What the default theme shows: blogbuild.yaml's `theme:` block, or a Hugo site's PaperMod params, as ThemeOptions.

blogbuild's own defaults are ThemeOptions(); a Hugo site's params are read as PaperMod means them (papermod_theme()):
a key the site sets always counts, and on a PaperMod site an absent key is PaperMod's default (most of PaperMod's
`Show*` settings are off unless set). A post's front matter overrides some of them as PaperMod's `.Param` does
(option_for()).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from functools import partial
from typing import Any
from ..core.records import dataclass

COLOR_SCHEMES = ("auto", "light", "dark")
TOC_SIDES = ("right", "left")
# The share links the default theme can show, in the order it shows them (PaperMod's order); twitter is x.
SHARE_TARGETS = ("x", "linkedin", "reddit", "facebook", "whatsapp", "telegram", "ycombinator")


@dataclass(frozen=True)
class Intro:
    """The home page's intro (blogbuild.yaml's `intro:`; a Hugo site's PaperMod homeInfoParams or profileMode)."""

    title: str = ""
    text: str = ""
    markdown: bool = False              # the title and text are markdown with HTML (PaperMod's homeInfoParams)
    image: str = ""                     # an image above the intro (imageUrl), with its width and height (0: unset)
    image_width: int = 0
    image_height: int = 0
    image_title: str = ""
    buttons: tuple[tuple[str, str], ...] = ()   # (name, url) links under the intro (PaperMod's profile buttons)


@dataclass(frozen=True)
class ThemeOptions:
    """What the default theme shows; each field names PaperMod's param it stands for."""

    color_scheme: str = "auto"          # defaultTheme: auto follows the system until the reader chooses
    theme_toggle: bool = True           # not disableThemeToggle: the light/dark button
    scroll_to_top: bool = True          # not disableScrollToTop: the back-to-top link
    toc: bool = True                    # ShowToc (a post's `toc: false` still turns it off)
    toc_open: bool = True               # TocOpen
    toc_side: str = "right"             # TocSide (of PaperMod's forks): where the contents sit on wide screens
    reading_time: bool = True           # ShowReadingTime
    word_count: bool = True             # ShowWordCount, on the post page
    list_word_count: bool = False       # ShowWordCount, on list cards (PaperMod's meta line is one for both)
    meta_author: bool = False           # not hideAuthor: the author in the meta line
    meta: bool = True                   # not hideMeta: the meta line at all
    summary: bool = True                # not hideSummary: summaries on list cards
    share_buttons: bool = True          # ShowShareButtons (a post's disableShare: true turns them off)
    code_copy_buttons: bool = True      # ShowCodeCopyButtons
    post_nav_links: bool = True         # ShowPostNavLinks
    breadcrumbs: bool = True            # ShowBreadCrumbs
    footer: bool = True                 # not hideFooter
    footer_copyright: bool = True       # not footer.hideCopyright: the copyright line in the footer
    footer_text: str = ""               # footer.text: markdown shown in the footer
    copyright_markdown: bool = False    # the copyright as markdown (PaperMod runs it through markdownify)
    section_feed_link: bool = False     # ShowRssButtonInSectionTermList, on section pages
    term_feed_link: bool = True         # ShowRssButtonInSectionTermList, on term pages
    label_text: str = ""                # label.text: the site title in the header ('' = the title)
    label_icon: str = ""                # label.icon: an image before it
    label_icon_height: int = 30         # label.iconHeight
    images: tuple[str, ...] = ()        # images: the site's share image (og:image of pages without their own)
    cover_in_lists: bool = False        # not cover.hiddenInList/cover.hidden (site): a post's cover on its list card
    cover_in_posts: bool = True         # not cover.hiddenInSingle/cover.hidden (site): a post's cover on its page
    keywords: tuple[str, ...] = ()      # keywords: the home page's <meta name="keywords"> (a post's own: its front matter)
    edit_url: str = ""                  # editPost.URL: an edit link in a post's meta line
    edit_text: str = ""                 # editPost.Text ('' = the theme's word, "Edit")
    edit_append_path: bool = False      # editPost.appendFilePath: the post's file path (under content/) after the URL
    home_posts: bool = True             # not profileMode.enabled: the home page lists the posts under its intro
    intro: Intro = Intro()              # the intro at the top of the home page's first page
    # The site's own icons (assets.favicon, favicon16x16, favicon32x32, apple_touch_icon); any of the first three
    # replaces the theme's favicon links. load_config() fills favicon from a static/favicon.ico of the site's.
    favicon: str = ""
    favicon_16: str = ""
    favicon_32: str = ""
    apple_touch_icon: str = ""
    # The site's own stylesheets, published as one file linked after the theme's: files or glob patterns under the
    # site folder, each pattern's files in name order (PaperMod bundles assets/css/extended/*.css so).
    extended_css: tuple[str, ...] = ()
    share_targets: tuple[str, ...] = ("x", "linkedin", "telegram")   # ShareButtons: which share links (copy-link too)
    date_format: str = ""               # DateFormat: a Go layout ("January 2, 2006") or :date_long; "" = YYYY-MM-DD

    def option_for(self, name: str, params: Mapping[str, Any] | None = None) -> Any:
        """The option for one page: its front matter's PaperMod key when it sets one (as `.Param` reads it)."""
        value = getattr(self, name)
        override = _FRONT_MATTER.get(name)
        if override is None or not params:
            return value
        key, inverted = override
        for written, given in params.items():
            if str(written).lower() == key and isinstance(given, bool):
                if name == "share_buttons":   # PaperMod: site.Params.ShowShareButtons and not disableShare
                    return value and not given
                return not given if inverted else given
        return value


@dataclass(frozen=True)
class Cover:
    """A post's cover image as a page shows it (PaperMod's `cover`)."""

    src: str            # site-relative or absolute URL
    alt: str
    caption: str


def cover_for(options: ThemeOptions, params: Mapping[str, Any], rel_path: str, resources: tuple[str, ...],
              url: str, single: bool) -> Cover | None:
    """A post's cover on its page (single) or its list card, or None when it has none or hides it there
    (cover.hidden, cover.hiddenInSingle, cover.hiddenInList: the post's, else the site's option). A relative image
    that is one of the bundle's files is the bundle's (at the post's URL), else it is site-rooted, as in PaperMod."""
    cover = next((value for key, value in params.items() if str(key).lower() == "cover"), None)
    if not isinstance(cover, Mapping):
        return None
    keyed = {str(key).lower(): value for key, value in cover.items()}
    image = keyed.get("image")
    if not isinstance(image, str) or not image.strip():
        return None
    specific = keyed.get("hiddeninsingle" if single else "hiddeninlist")
    if specific is True or keyed.get("hidden") is True:
        return None
    if specific is not False and not (options.cover_in_posts if single else options.cover_in_lists):
        return None
    image = image.strip()
    folder = rel_path.rsplit("/", 1)[0] + "/" if "/" in rel_path else ""
    if "://" in image or image.startswith("/"):
        src = image
    elif keyed.get("relative") is True or folder + image in resources:
        src = url + image
    else:
        src = "/" + image
    caption = str(keyed.get("caption") or "")
    return Cover(src, str(keyed.get("alt") or caption), caption)


def edit_link_for(options: ThemeOptions, params: Mapping[str, Any], rel_path: str) -> tuple[str, str] | None:
    """(URL, text) of a post's edit link (PaperMod's editPost: the post's own keys over the site's), or None."""
    own = next((value for key, value in params.items() if str(key).lower() == "editpost"), None)
    keyed = {str(key).lower(): value for key, value in own.items()} if isinstance(own, Mapping) else {}
    if keyed.get("disabled") is True:
        return None
    url = keyed.get("url") if isinstance(keyed.get("url"), str) else options.edit_url
    if not url:
        return None
    text = keyed.get("text") if isinstance(keyed.get("text"), str) else options.edit_text
    append = keyed.get("appendfilepath")
    if append is True or (append is None and options.edit_append_path):
        url = f"{url.rstrip('/')}/{rel_path}"
    return str(url), str(text or "")


# ThemeOptions field -> (the front-matter key that overrides it per page, lower case; whether it says the opposite)
_FRONT_MATTER = {
    "toc": ("showtoc", False), "toc_open": ("tocopen", False), "reading_time": ("showreadingtime", False),
    "word_count": ("showwordcount", False), "list_word_count": ("showwordcount", False),
    "breadcrumbs": ("showbreadcrumbs", False), "post_nav_links": ("showpostnavlinks", False),
    "code_copy_buttons": ("showcodecopybuttons", False), "meta": ("hidemeta", True),
    "summary": ("hidesummary", True), "footer": ("hidefooter", True), "meta_author": ("hideauthor", True),
    "share_buttons": ("disableshare", True),
}

def listed_share_targets(given: Any) -> tuple[str, ...] | None:
    """A ShareButtons value (a name or a list of names) as the targets it names, in PaperMod's order; None when
    it is not one."""
    if isinstance(given, str):
        given = [given]
    if not (isinstance(given, list) and given and all(isinstance(item, str) for item in given)):
        return None
    names = {"x" if item.lower() == "twitter" else item.lower() for item in given}
    return tuple(target for target in SHARE_TARGETS if target in names)


def share_targets_for(options: ThemeOptions, params: Mapping[str, Any]) -> tuple[str, ...]:
    """A post's share links: its own ShareButtons when its front matter has one (PaperMod reads it with `.Param`,
    the page's before the site's), else the site's."""
    own = next((value for key, value in params.items() if str(key).lower() == "sharebuttons"), None)
    targets = listed_share_targets(own)
    return options.share_targets if targets is None else targets


def parse_theme_options(value: Any, fail: Callable[[str], Exception],
                        fail_at: Callable[[str, str], Exception] | None = None) -> ThemeOptions:
    """blogbuild.yaml's `theme:` mapping, checked key by key (a wrong name suggests the right one); fail_at(option,
    message) makes an option's error at the option's own line."""
    if isinstance(value, str):
        raise fail("theme: blogbuild has one theme (templates/ overrides its files); theme takes its options, "
                   "a mapping such as {color_scheme: light, toc: false}")
    if not isinstance(value, Mapping):
        raise fail("theme must be a mapping of the default theme's options (color_scheme, toc, ...)")
    defaults = ThemeOptions()
    known = {field.name for field in fields(ThemeOptions)} - {"intro"}   # the intro is the config's own intro:
    values: dict[str, Any] = {}
    for key, given in value.items():
        name = str(key)
        fail_here = partial(fail_at, name) if fail_at is not None else fail
        if name not in known:
            import difflib   # only for a misspelt key
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = f"; did you mean '{close[0]}'?" if close else f"; known: {', '.join(sorted(known))}"
            raise fail_here(f"unknown theme option '{name}'{hint}")
        values[name] = _checked(name, given, getattr(defaults, name), fail_here)
    return ThemeOptions(**values)


def _checked(name: str, given: Any, default: Any, fail: Callable[[str], Exception]) -> Any:
    if isinstance(default, bool):
        if not isinstance(given, bool):
            raise fail(f"theme.{name} must be true or false, not {given!r}")
        return given
    if isinstance(default, int):
        if isinstance(given, bool) or not isinstance(given, int) or given <= 0:
            raise fail(f"theme.{name} must be a whole number above 0, not {given!r}")
        return given
    if isinstance(default, tuple):
        items = [given] if isinstance(given, str) else given
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            what = {"extended_css": "CSS files or patterns under the site folder",
                    "share_targets": f"share targets ({', '.join(SHARE_TARGETS)})"}.get(name, "image URLs")
            raise fail(f"theme.{name} must be a list of {what}, not {given!r}")
        if name == "share_targets" and any(item not in SHARE_TARGETS for item in items):
            raise fail(f"theme.share_targets names {', '.join(SHARE_TARGETS)}, not {given!r}")
        if name == "extended_css" and any(item.startswith(("/", "\\")) or ".." in item.replace("\\", "/").split("/")
                                          for item in items):
            raise fail(f"theme.extended_css names files under the site folder (assets/css/extended/*.css), "
                       f"not {given!r}")
        return tuple(items)
    if not isinstance(given, str):
        raise fail(f"theme.{name} must be text, not {given!r}")
    choices = {"color_scheme": COLOR_SCHEMES, "toc_side": TOC_SIDES}.get(name)
    if choices and given not in choices:
        raise fail(f"theme.{name} must be one of {', '.join(choices)}, not {given!r}")
    return given
