"""PaperMod's params, as PaperMod means them: one small blog built by Hugo + the PaperMod snapshot and by blogbuild,
each param flipped, and blogbuild's page changes where PaperMod's does (an element present or absent, an attribute).

Each case names the page, the param change (site params and, for `.Param` lookups, a post's front matter), and a
probe per tool: what the element is called in PaperMod's markup and in blogbuild's. A case first checks that the
flip changes PaperMod's page (so the probe can fail), then that blogbuild's probe gives the same values.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support.papermod import build_blogbuild, build_papermod, element, page, papermod_theme, write_site

Probe = Callable[[str], Any]


def _post(number: int, extra: str = "") -> str:
    return (f"---\ntitle: Post {number}\ndate: 2024-01-0{number}\ntags: [t]\n{extra}---\n"
            f"Intro text {number}.\n\n<!--more-->\n\n## First\n\nBody of post {number}.\n\n"
            "```python\nprint(1)\n```\n\n## Second\n\nMore.\n")


def site_files(post_two: str = "") -> dict[str, str]:
    return {"content/posts/_index.md": "---\ntitle: Posts\n---\n",
            "content/posts/p1.md": _post(1, "aliases: [/old-one/]\n"), "content/posts/p2.md": _post(2, post_two), "content/posts/p3.md": _post(3)}


def site_config(params: Mapping[str, Any]) -> dict[str, Any]:
    return {"baseURL": "https://example.org/", "title": "PM", "languageCode": "en", "theme": "PaperMod",
            "markup": {"goldmark": {"renderer": {"unsafe": True}}},
            "params": {"author": "Ada", "mainSections": ["posts"], **params}}


def has(pattern: str) -> Probe:
    return lambda html: re.search(pattern, html) is not None


def inside(container: str, pattern: str) -> Probe:
    return lambda html: re.search(pattern, element(html, container)) is not None


def attribute(pattern: str) -> Probe:
    """The first group of pattern in the page ('' when absent)."""
    def probe(html: str) -> str:
        match = re.search(pattern, html)
        return match.group(1) if match else ""
    return probe


def share_targets(pattern: str) -> Probe:
    """The share links of a page, in order (every match of pattern's group)."""
    return lambda html: tuple(re.findall(pattern, html))


def scheme(html: str) -> str:
    match = re.search(r"<html[^>]*data-theme=\"(light|dark)\"", html)
    return match.group(1) if match else "auto"


def rendered_intro(container: str) -> Probe:
    """Which parts of the home intro are rendered markdown and HTML: a heading, a raw <div>, bold text."""
    def probe(html: str) -> tuple[bool, ...]:
        intro = element(html, container)
        return (re.search(r"<h2[^>]*>\s*Topics", intro) is not None,
                '<div class="topics"><span>ML</span></div>' in intro, "<strong>bold</strong>" in intro,
                "## Topics" in intro)
    return probe


INTRO_MARKDOWN = '## Topics\n\n<div class="topics"><span>ML</span></div>\n\nSome **bold** text.\n'
COVER = "cover: {image: /cover.png, alt: A cover}\n"
EDIT = {"URL": "https://github.com/me/blog/tree/main/content", "appendFilePath": True}
EDIT_LINK = r'href="([^"]*)" rel="noopener noreferrer edit"'
KEYWORDS = r'<meta name="keywords" content="([^"]*)"'
PM_META, BB_META = r'<div class="post-meta">', r'<p class="post-meta">'
POST = "/posts/p2/"
DESCRIPTION = r'<meta name="description" content="([^"]*)"'
PM_SHARE, BB_SHARE = r'aria-label="share [^"]* on (\w+)"', r'data-share="(\w+)"'
PM_DATE, BB_DATE = r"<span title='[^']*'>([^<]*)</span>", r'<time datetime="[^"]*">([^<]*)</time>'


@dataclass(frozen=True)
class Case:
    """A param flip: where to look, what changes, and the element as each tool writes it."""

    url: str
    flip: Mapping[str, Any]
    papermod: Probe
    blogbuild: Probe
    base: Mapping[str, Any] = field(default_factory=dict)
    front_matter: str = ""          # added to post 2's front matter on the flipped side
    base_front_matter: str = ""     # and on the base side


CASES = {
    "ShowReadingTime": Case(POST, {"ShowReadingTime": True}, inside(PM_META, r"\d+ min"), inside(BB_META, r"\d+ min")),
    "ShowWordCount": Case(POST, {"ShowWordCount": True}, inside(PM_META, "words"), inside(BB_META, "words")),
    "ShowWordCount-list": Case("/", {"ShowWordCount": True}, has(r"\d+ words"), has(r"\d+ words")),
    "hideAuthor": Case(POST, {"hideAuthor": True}, inside(PM_META, "Ada"), inside(BB_META, "Ada")),
    "hideMeta": Case(POST, {"hideMeta": True}, has(PM_META), has(BB_META)),
    "hideMeta-list": Case("/", {"hideMeta": True}, has('class="entry-footer"'), has(BB_META)),
    "hideMeta-front-matter": Case(POST, {}, has(PM_META), has(BB_META), front_matter="hideMeta: true\n"),
    "hideSummary": Case("/", {"hideSummary": True}, has('class="entry-content"'), has('class="post-summary"')),
    "ShowToc": Case(POST, {"ShowToc": True}, has('<details class="toc"'), has('<details class="toc"')),
    "ShowToc-front-matter": Case(POST, {}, has('<details class="toc"'), has('<details class="toc"'),
                                 front_matter="ShowToc: true\n"),
    "TocOpen": Case(POST, {"TocOpen": True}, has('<details class="toc" +open'), has('<details class="toc" open'),
                    base={"ShowToc": True}),
    "ShowShareButtons": Case(POST, {"ShowShareButtons": True}, has('class="share-buttons"'), has('class="share"')),
    "disableShare": Case(POST, {}, has('class="share-buttons"'), has('class="share"'),
                         base={"ShowShareButtons": True}, front_matter="disableShare: true\n"),
    "ShowCodeCopyButtons": Case(POST, {"ShowCodeCopyButtons": True}, has("copy-code"),
                                lambda html: 'data-copy-code="off"' not in html),
    "ShowPostNavLinks": Case(POST, {"ShowPostNavLinks": True}, has('class="paginav"'), has('class="post-nav"')),
    "ShowBreadCrumbs": Case(POST, {"ShowBreadCrumbs": True}, has('class="breadcrumbs"'), has('class="breadcrumbs"')),
    "hideFooter": Case(POST, {"hideFooter": True}, has('<footer class="footer"'), has('<footer class="site-footer"')),
    "disableScrollToTop": Case(POST, {"disableScrollToTop": True}, has('id="top-link"'), has('class="back-to-top"')),
    "disableThemeToggle": Case(POST, {"disableThemeToggle": True}, has('id="theme-toggle"'), has('id="theme-toggle"')),
    "defaultTheme-light": Case(POST, {"defaultTheme": "light"}, scheme, scheme),
    "defaultTheme-dark": Case("/", {"defaultTheme": "dark"}, scheme, scheme),
    "defaultTheme-light-follows-no-system": Case(
        POST, {"defaultTheme": "light"}, has(r"matchMedia\('\(prefers-color-scheme: dark\)'\)"),
        has(r'matchMedia\("\(prefers-color-scheme: dark\)"\)')),
    "label.text": Case("/", {"label": {"text": "My Label"}}, has(r">\s*My Label\s*</a>"), has(r">My Label</a>")),
    "label.icon": Case("/", {"label": {"icon": "/logo.png", "iconHeight": 40}},
                       attribute(r'<img src="[^"]*logo\.png"[^>]*height="(\d+)"'),
                       attribute(r'<img class="site-logo" src="[^"]*logo\.png"[^>]*height="(\d+)"')),
    "images": Case("/", {"images": ["/site.png"]}, attribute(r'property="og:image" content="([^"]*)"'),
                   attribute(r'property="og:image" content="([^"]*)"')),
    "homeInfoParams.Content": Case(
        "/", {"homeInfoParams": {"Title": "Hi", "Content": INTRO_MARKDOWN}},
        rendered_intro(r'<article class="first-entry home-info">'), rendered_intro(r'<section class="home-intro">'),
        base={"homeInfoParams": {"Title": "Hi", "Content": "Plain words."}}),
    "assets.favicon": Case("/", {"assets": {"favicon": "/my.ico", "favicon32x32": "/my-32.png"}},
                           attribute(r'<link rel="icon" href="(?:https://example\.org)?([^"]*)"'),
                           attribute(r'<link rel="icon" href="(?:https://example\.org)?([^"]*)"'),
                           base={"assets": {"favicon": "/favicon.ico"}}),
    "assets.favicon32x32": Case("/", {"assets": {"favicon32x32": "/my-32.png"}},
                                has(r'<link rel="icon" type="image/png" sizes="32x32" href="[^"]*/my-32\.png"'),
                                has(r'<link rel="icon" type="image/png" sizes="32x32" href="[^"]*/my-32\.png"')),
    "cover-in-list": Case("/", {}, has('class="entry-cover"'), has('class="post-card-cover"'), front_matter=COVER),
    "cover-in-post": Case(POST, {}, has('class="entry-cover"'), has('class="post-cover"'), front_matter=COVER),
    "cover.hiddenInList-site": Case("/", {"cover": {"hiddenInList": True}}, has('class="entry-cover"'),
                                    has('class="post-card-cover"'), base_front_matter=COVER),
    "cover.hidden-site": Case(POST, {"cover": {"hidden": True}}, has('class="entry-cover"'), has('class="post-cover"'),
                              base_front_matter=COVER),
    "cover.hiddenInSingle-front-matter": Case(
        POST, {}, has('class="entry-cover"'), has('class="post-cover"'), base_front_matter=COVER,
        front_matter="cover: {image: /cover.png, alt: A cover, hiddenInSingle: true}\n"),
    "editPost": Case(POST, {"editPost": EDIT}, attribute(EDIT_LINK), attribute(EDIT_LINK)),
    "editPost.Text": Case(POST, {"editPost": {**EDIT, "Text": "Suggest a change"}}, has(r">\s*Suggest a change\s*</a>"),
                          has(r">\s*Suggest a change\s*</a>"), base={"editPost": EDIT}),
    "editPost.disabled-front-matter": Case(POST, {}, attribute(EDIT_LINK), attribute(EDIT_LINK), base={"editPost": EDIT},
                                           front_matter="editPost: {disabled: true}\n"),
    "keywords": Case("/", {"keywords": ["systems", "notes"]}, attribute(KEYWORDS), attribute(KEYWORDS)),
    "footer.hideCopyright": Case(POST, {"footer": {"hideCopyright": True}}, inside('<footer class="footer"', "©|&copy;"),
                                 inside('<footer class="site-footer"', "©|&copy;")),
    "footer.text": Case(POST, {"footer": {"text": "Made with **care**"}},
                        inside('<footer class="footer"', "<strong>care</strong>"),
                        inside('<footer class="site-footer"', "<strong>care</strong>")),
    "ShareButtons": Case(POST, {"ShareButtons": ["reddit", "twitter", "ycombinator"]}, share_targets(PM_SHARE),
                         share_targets(BB_SHARE), base={"ShowShareButtons": True}),
    "ShareButtons-front-matter": Case(POST, {}, share_targets(PM_SHARE), share_targets(BB_SHARE),
                                      base={"ShowShareButtons": True, "ShareButtons": ["x", "linkedin"]},
                                      front_matter="ShareButtons: [whatsapp, telegram]\n"),
    "description": Case("/", {"description": "Notes on GPUs"}, attribute(DESCRIPTION), attribute(DESCRIPTION)),
    "author": Case(POST, {"author": "Grace"}, inside(PM_META, "Grace"), inside(BB_META, "Grace")),
    "DateFormat": Case(POST, {"DateFormat": "Mon, 02 Jan 2006"}, attribute(PM_DATE), attribute(BB_DATE)),
    "DateFormat-list": Case("/", {"DateFormat": "2006-01-02"}, attribute(PM_DATE), attribute(BB_DATE)),
    "ShowFullTextinRSS": Case("/index.xml", {"ShowFullTextinRSS": True}, has("Body of post 2"), has("Body of post 2")),
    "ShowRssButtonInSectionTermList-section": Case(
        "/posts/", {"ShowRssButtonInSectionTermList": True}, has(r'<a [^>]*href="[^"]*/posts/index\.xml"'),
        has(r'<a [^>]*href="[^"]*/posts/index\.xml"')),
    "ShowRssButtonInSectionTermList-term": Case(
        "/tags/t/", {"ShowRssButtonInSectionTermList": True}, has(r'<a [^>]*href="[^"]*/tags/t/index\.xml"'),
        has(r'<a [^>]*href="[^"]*/tags/t/index\.xml"')),
}

_BUILT: dict[tuple[str, str], Path] = {}


def _built(tool: str, params: Mapping[str, Any], front_matter: str, folder: Path) -> Path:
    """A tool's output for one (params, front matter), built once per module."""
    key = (tool, repr(sorted(params.items())) + front_matter)
    if key not in _BUILT:
        site = write_site(folder / f"{tool}-{len(_BUILT)}", site_config(params), site_files(front_matter))
        _BUILT[key] = build_papermod(site, site / "public") if tool == "papermod" else build_blogbuild(site)
    return _BUILT[key]


@pytest.mark.parametrize("name", sorted(CASES))
def test_blogbuild_changes_where_papermod_changes(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    papermod_theme()
    case = CASES[name]
    folder = tmp_path_factory.getbasetemp() / "papermod-params"
    flipped = {**case.base, **case.flip}
    values = {}
    for tool, probe in (("papermod", case.papermod), ("blogbuild", case.blogbuild)):
        values[tool] = tuple(probe(page(_built(tool, params, front_matter, folder), case.url))
                             for params, front_matter in ((case.base, case.base_front_matter),
                                                          (flipped, case.front_matter or case.base_front_matter)))
    assert values["papermod"][0] != values["papermod"][1], f"{name}: the flip changes nothing in PaperMod"
    assert values["blogbuild"] == values["papermod"], name


def _redirects(folder: Path) -> dict[str, str]:
    """Every redirect page of an output folder: its URL -> the URL it sends the reader to."""
    found = {}
    for path in sorted(folder.rglob("index.html")):
        match = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', path.read_text(encoding="utf-8"))
        if match:
            found["/" + path.parent.relative_to(folder).as_posix() + "/"] = match.group(1)
    return found


@pytest.mark.parametrize("disable", ["", "disableAliases", "pagination.disableAliases"])
def test_the_same_redirect_pages_as_hugo(disable: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Hugo's LIST/page/1/ redirects for every paginated list (home, section, term) and front matter's aliases;
    disableAliases: true drops the aliases but, in Hugo 0.168, not the page/1/ redirects, which
    pagination.disableAliases: true drops."""
    papermod_theme()
    folder = tmp_path_factory.getbasetemp() / "papermod-params"
    config = site_config({})
    if disable == "disableAliases":
        config["disableAliases"] = True
    elif disable:
        config["pagination"] = {"disableAliases": True}
    redirects = {}
    for tool in ("papermod", "blogbuild"):
        site = write_site(folder / f"aliases-{tool}-{disable or 'none'}", config, site_files())
        output = build_papermod(site, site / "public") if tool == "papermod" else build_blogbuild(site)
        redirects[tool] = _redirects(output)
    expected = {} if disable == "pagination.disableAliases" else {
        "/page/1/": "https://example.org/", "/posts/page/1/": "https://example.org/posts/",
        "/tags/t/page/1/": "https://example.org/tags/t/"}
    if disable != "disableAliases":
        expected["/old-one/"] = "https://example.org/posts/p1/"
    assert redirects["papermod"] == expected
    assert redirects["blogbuild"] == expected


PROFILE = {"profileMode": {"enabled": True, "title": "Me", "subtitle": "Some **bold** words", "imageUrl": "/me.png",
                           "imageTitle": "A face", "buttons": [{"name": "Posts", "url": "/posts/"}]}}


def _profile(html: str, image: str, entries: str) -> tuple[Any, ...]:
    size = re.search(image, html)
    return (size.groups() if size else None, re.search(r"<h1>\s*Me\s*</h1>", html) is not None,
            "<strong>bold</strong>" in html, re.search(r'<a class="button" href="(?:https://example\.org)?/posts/"', html)
            is not None, entries in html)


def test_profile_mode_is_the_home_page_alone(tmp_path_factory: pytest.TempPathFactory) -> None:
    """profileMode.enabled: the home page shows the profile (image 150x150 unless sized, title, subtitle as markdown,
    buttons) and no post list, so no LIST/page/1/ for the home page either."""
    papermod_theme()
    folder = tmp_path_factory.getbasetemp() / "papermod-params"
    outputs = {}
    for tool in ("papermod", "blogbuild"):
        site = write_site(folder / f"profile-{tool}", site_config(PROFILE), site_files())
        outputs[tool] = build_papermod(site, site / "public") if tool == "papermod" else build_blogbuild(site)
    theirs = _profile(page(outputs["papermod"], "/"), r'<img draggable="false" src="[^"]*/me\.png" alt="A face"'
                      r' title="A face"\s+height="(\d+)" width="(\d+)"', 'class="post-entry"')
    ours = _profile(page(outputs["blogbuild"], "/"), r'<img class="home-intro-image" src="/me\.png" alt="A face"'
                    r' title="A face" width="(\d+)" height="(\d+)"', 'class="post-card')
    assert theirs == (("150", "150"), True, True, True, False)
    assert ours == theirs
    for output in outputs.values():
        assert not (output / "page" / "1").exists() and (output / "posts" / "page" / "1" / "index.html").is_file()


def _papermod_params(theme: Path) -> dict[str, str]:
    """Every param PaperMod's templates read (site.Params.X, .Param "X"), lower case -> as written."""
    names: dict[str, str] = {}
    for path in sorted((theme / "layouts").rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for name in re.findall(r'site\.Params\.([A-Za-z0-9_.]+)|\.Param "([A-Za-z0-9_.]+)"', text):
                written = name[0] or name[1]
                names.setdefault(written.lower(), written)
    return names


def _sample(name: str) -> Any:
    last = name.rsplit(".", 1)[-1].lower()
    if last.startswith(("show", "hid", "disable", "toc", "enabled", "appendfilepath")):
        return True
    return {"images": ["/x.png"], "keywords": ["x"], "socialicons": [{"name": "x", "url": "/y/"}],
            "iconheight": 30}.get(last, "x")


def test_every_papermod_param_is_used_or_named_with_what_blogbuild_does_instead() -> None:
    """Each param PaperMod's templates read, set on a PaperMod site, is either honoured or in the one warning with
    a reason of its own (not the generic one), and the README names it."""
    from blogbuild.hugo.config import convert
    from blogbuild.hugo.unused import instead
    names = _papermod_params(papermod_theme())
    params: dict[str, Any] = {}
    for lowered, written in sorted(names.items()):
        if not any(other.startswith(lowered + ".") for other in names):   # a mapping: its keys are set instead
            *parents, last = written.split(".")
            level = params
            for parent in parents:
                level = level.setdefault(parent, {})
            level[last] = _sample(written)
    params["homeInfoParams"] = {"Title": "Hi", "Content": "Text", "AlignSocialIconsTo": "center"}
    unused_in = []
    for profile in (False, True):   # the profile page and the home info panel exclude each other
        params["profileMode"].update(title="Me", enabled=profile)
        _, ignored = convert({"theme": "PaperMod", "params": params})
        unused_in.append({name for name in ignored if name.startswith("params.")})
        for name in unused_in[-1]:
            assert "PaperMod's setting, the default theme keeps" not in instead(name), name
    unused = sorted(unused_in[0] & unused_in[1])
    assert len(names) > 60 and "params.ShowToc" not in unused and "params.defaultTheme" not in unused
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for name in unused:
        assert f"`{name.split('.', 1)[1]}`" in readme, f"README does not name {name}"


EXTENDED_CSS = {"assets/css/extended/b.css": ".post-title { margin-bottom: 7px; }\n",
                "assets/css/extended/a.css": "/* the author's */\n.post-title { margin-bottom: 5px; color: #010203; }\n",
                "assets/css/custom.css": ".not-bundled { color: red; }\n"}


def _rules(css: str) -> list[str]:
    """The rules of a stylesheet with comments and spaces taken out (Hugo's minifier's output compares equal)."""
    text = re.sub(r"\s+", "", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).replace(";}", "}")
    return re.findall(r"[^{}]+\{[^{}]*\}", text)


def test_the_authors_extended_css_is_published_after_the_theme_css_as_papermod_bundles_it(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """assets/css/extended/*.css, in name order, after the theme's CSS, in PaperMod's bundled stylesheet and in
    blogbuild's; a custom.css beside them is in neither (PaperMod does not bundle it)."""
    papermod_theme()
    folder = tmp_path_factory.mktemp("extended-css")
    sheets = {}
    for tool in ("papermod", "blogbuild"):
        site = write_site(folder / tool, site_config({}), {**site_files(), **EXTENDED_CSS})
        output = build_papermod(site, site / "public") if tool == "papermod" else build_blogbuild(site)
        links = re.findall(r'<link[^>]*href="([^"]+\.css)"', page(output, POST))
        sheets[tool] = [(output / link.lstrip("/")).read_text(encoding="utf-8") for link in links]
    papermod_rules = _rules(sheets["papermod"][-1])
    ours = [_rules(css) for css in sheets["blogbuild"]]
    expected = [".post-title{margin-bottom:5px;color:#010203}", ".post-title{margin-bottom:7px}"]
    assert papermod_rules[-2:] == expected, "the PaperMod snapshot bundles extended CSS at the end, a.css first"
    assert ours[-1] == expected, "blogbuild's last stylesheet is the author's, a.css then b.css"
    assert any(".post-title{" in rule for rule in ours[0]), "the theme's own stylesheet comes before it"
    assert not any("not-bundled" in css for css in (*sheets["papermod"], *sheets["blogbuild"]))
