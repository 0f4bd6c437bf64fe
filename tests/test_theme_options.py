"""The default theme's options: blogbuild.yaml's `theme:` block, a Hugo site's PaperMod params, a post's front matter."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from blogbuild.cli import main
from blogbuild.config import load_config
from blogbuild.core.errors import SourceError
from blogbuild.hugo.theme_params import papermod_theme
from blogbuild.themes.options import ThemeOptions

POST = "---\ntitle: A\ndate: 2024-01-01\n---\nText.\n\n## One\n\nx\n\n## Two\n\ny\n"


def _built(make_site, files: dict[str, str], url: str = "posts/a/index.html") -> str:
    site = make_site({"content/posts/a.md": POST, **files})
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
    return (site / "public" / url).read_text(encoding="utf-8")


def test_blogbuild_defaults_are_unchanged_without_a_theme_block(make_site) -> None:
    html = _built(make_site, {"blogbuild.yaml": "title: T\nlanguage_code: en\n"})
    assert load_config(root=make_site({"blogbuild.yaml": "title: T\n"})).theme == ThemeOptions()
    for shown in ('<details class="toc" open>', 'class="share"', 'class="post-meta"',
                  'id="theme-toggle"', 'class="back-to-top"', "min read", "words", 'class="breadcrumbs"'):
        assert shown in html, shown
    assert "data-default-theme" not in html and 'data-copy-code="off"' not in html


def test_theme_block_in_blogbuild_yaml(make_site) -> None:
    config = ("title: T\nlanguage_code: en\ntheme:\n  color_scheme: dark\n  toc_side: left\n  toc_open: false\n"
              "  share_buttons: false\n  reading_time: false\n  code_copy_buttons: false\n  label_text: Mine\n")
    html = _built(make_site, {"blogbuild.yaml": config})
    assert '<html lang="en" data-theme="dark" data-default-theme="dark">' in html
    assert '<aside class="toc-aside toc-left">\n<details class="toc">' in html
    assert 'class="share"' not in html and "min read" not in html and "words" in html
    assert 'data-copy-code="off"' in html and '>Mine</a>' in html


@pytest.mark.parametrize(("block", "message"), [
    ("theme: PaperMod", "blogbuild has one theme"),
    ("theme: {colour_scheme: dark}", "unknown theme option 'colour_scheme'; did you mean 'color_scheme'?"),
    ("theme: {color_scheme: blue}", "theme.color_scheme must be one of auto, light, dark, not 'blue'"),
    ("theme: {toc: 'yes'}", "theme.toc must be true or false"),
    ("theme: {label_icon_height: 0}", "theme.label_icon_height must be a whole number above 0"),
])
def test_bad_theme_options_are_errors_at_their_line(tmp_path: Path, block: str, message: str) -> None:
    (tmp_path / "blogbuild.yaml").write_text(f"title: T\n{block}\n", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_config(root=tmp_path)
    assert message in str(raised.value) and raised.value.line == 2


def test_a_bad_option_in_a_theme_block_is_reported_at_its_own_line(tmp_path: Path) -> None:
    (tmp_path / "blogbuild.yaml").write_text("title: T\ntheme:\n  toc: true\n  toc_side: middle\n", encoding="utf-8")
    with pytest.raises(SourceError) as raised:
        load_config(root=tmp_path)
    assert raised.value.line == 4 and "theme.toc_side must be one of right, left" in str(raised.value)


def test_papermod_defaults_only_on_a_papermod_site() -> None:
    """A PaperMod site gets PaperMod's defaults (ShowToc off unless set); another Hugo theme keeps blogbuild's,
    with the PaperMod keys it does set honoured."""
    papermod, _ = papermod_theme({"ShowReadingTime": True}, papermod=True)
    assert papermod["toc"] is False and papermod["reading_time"] is True and papermod["share_buttons"] is False
    other, used = papermod_theme({"ShowReadingTime": False, "TocSide": "left"}, papermod=False)
    assert other == {"reading_time": False, "toc_side": "left"}
    assert used == {"params.showreadingtime", "params.tocside"}


def test_honoured_params_drop_out_of_the_unused_list(tmp_path: Path) -> None:
    (tmp_path / "hugo.yaml").write_text(
        "title: T\ntheme: PaperMod\nparams:\n  ShowToc: true\n  TocSide: left\n  defaultTheme: light\n"
        "  ShowFullTextinRSS: true\n  label: {text: L, icon: /i.png, iconHeight: 20, iconSVG: '<svg/>'}\n"
        "  images: [/a.png]\n  ShowRssButtonInSectionTermList: true\n"
        "  assets: {favicon: /f.ico, disableHLJS: true}\n", encoding="utf-8")
    config = load_config(root=tmp_path)
    (notice,) = config.notices
    assert "params.label.iconSVG" in notice
    assert "params.assets.disableHLJS" in notice and "params.assets.favicon" not in notice
    for used in ("ShowToc", "TocSide", "defaultTheme", "ShowFullTextinRSS", "label.text", "label.icon,",
                 "label.iconHeight", "images", "ShowRssButtonInSectionTermList"):
        assert f"params.{used}" not in notice, used
    assert config.feed_content == "full" and config.theme.toc_side == "left" and config.theme.images == ("/a.png",)


def test_front_matter_overrides_site_options_as_papermods_param_does(make_site) -> None:
    config = "title: T\nlanguage_code: en\ntheme: {toc: false, meta_author: true}\nauthor: Site Author\n"
    post = "---\ntitle: A\ndate: 2024-01-01\nShowToc: true\nTocOpen: false\nauthor: [Ann, Bob]\n---\n## One\n\nx\n\n## Two\n"
    html = _built(make_site, {"blogbuild.yaml": config, "content/posts/a.md": post})
    assert '<details class="toc">' in html   # ShowToc in front matter wins over the site's toc: false
    assert '<span class="post-author">Ann, Bob</span>' in html


def test_home_info_image_and_markdown_from_a_hugo_config(make_site) -> None:
    """homeInfoParams.imageUrl/imageWidth/imageHeight (PaperMod's forks) give the intro its image; the title is
    markdownify'd inline, the content rendered as markdown with HTML."""
    config = ("title: T\ntheme: PaperMod\nparams:\n  homeInfoParams:\n    Title: 'Hi *there*'\n"
              "    Content: \"A [link](/about/) and <span class=x>html</span>.\"\n"
              "    imageUrl: /me.png\n    imageWidth: 120\n    imageHeight: 80\n")
    html = _built(make_site, {"hugo.yaml": config}, "index.html")
    assert '<img class="home-intro-image" src="/me.png" alt="" width="120" height="80">' in html
    assert "<h1>Hi <em>there</em></h1>" in html
    assert '<p>A <a href="/about/">link</a> and <span class=x>html</span>.</p>' in html
    (notice,) = load_config(root=make_site({"hugo.yaml": config})).notices
    assert "homeInfoParams" not in notice


def test_blogbuild_intro_stays_text_unless_markdown_is_asked(make_site) -> None:
    plain = _built(make_site, {"blogbuild.yaml": "title: T\nintro: {title: Hi, text: 'a **b**'}\n"}, "index.html")
    assert "<p>a **b**</p>" in plain
    marked = _built(make_site, {"blogbuild.yaml": "title: T\nintro: {title: Hi, text: 'a **b**', markdown: true}\n"},
                    "index.html")
    assert "<p>a <strong>b</strong></p>" in marked


def test_unknown_intro_key_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "blogbuild.yaml").write_text("title: T\nintro: {title: Hi, txt: x}\n", encoding="utf-8")
    with pytest.raises(SourceError, match="unknown intro key 'txt'"):
        load_config(root=tmp_path)


def test_the_sites_own_favicon_is_linked_instead_of_the_themes(make_site) -> None:
    """A static/favicon.ico of the site's is its icon: the theme's favicon.svg, which browsers prefer, is not linked."""
    own = _built(make_site, {"blogbuild.yaml": "title: T\n", "static/favicon.ico": "ico"}, "index.html")
    assert '<link rel="icon" href="/favicon.ico">' in own and "favicon.svg" not in own
    theme = _built(make_site, {"blogbuild.yaml": "title: T\n"}, "index.html")
    assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in theme
    named = _built(make_site, {"blogbuild.yaml": "title: T\ntheme: {favicon: /brand.png, apple_touch_icon: /a.png}\n",
                               "static/favicon.ico": "ico"}, "index.html")
    assert '<link rel="icon" href="/brand.png">\n<link rel="apple-touch-icon" href="/a.png">' in named


def test_profile_home_page_from_blogbuild_yaml(make_site) -> None:
    config = ("title: T\ntheme: {home_posts: false}\nintro:\n  title: Me\n  image: /me.png\n"
              "  buttons: [{name: Posts, url: /posts/}, {name: Code, url: 'https://git.example/me'}]\n")
    html = _built(make_site, {"blogbuild.yaml": config}, "index.html")
    assert '<section class="home-intro home-profile">' in html and 'class="post-card' not in html
    assert ('<li><a class="button" href="/posts/">Posts</a></li>\n'
            '<li><a class="button" href="https://git.example/me">Code</a></li>') in html


def test_cover_image_urls_and_hiding() -> None:
    """A bundle's own image is at the post's URL, a site path stays site-rooted; hidden/hiddenInList/hiddenInSingle
    (the post's, else the site's option) hide it where PaperMod does."""
    from blogbuild.themes.options import Cover, cover_for
    options = ThemeOptions(cover_in_lists=True)
    bundle = ("posts/b/index.md", ("posts/b/cover.png",), "/posts/b/")

    def cover(value: object, single: bool = True, theme: ThemeOptions = options) -> Cover | None:
        return cover_for(theme, {"cover": value}, *bundle, single)

    assert cover({"image": "cover.png", "caption": "C"}) == Cover("/posts/b/cover.png", "C", "C")
    assert cover({"image": "images/x.png", "alt": "X"}) == Cover("/images/x.png", "X", "")
    assert cover({"image": "https://cdn.example/x.png"}).src == "https://cdn.example/x.png"
    assert cover({"image": "x.png", "relative": True}).src == "/posts/b/x.png"
    assert cover({"image": "cover.png", "hidden": True}) is None
    assert cover({"image": "cover.png", "hiddenInList": True}, single=False) is None
    assert cover({"image": "cover.png", "hiddenInList": True}, single=True) is not None
    assert cover({"image": "cover.png"}, single=False, theme=ThemeOptions()) is None   # blogbuild: no cover on cards
    assert cover({"image": "cover.png", "hiddenInList": False}, single=False, theme=ThemeOptions()) is not None
    assert cover("cover.png") is None and cover({"caption": "no image"}) is None
    _, used = papermod_theme({"cover": {"hiddenInList": True, "linkFullImages": True}}, papermod=True)
    assert "params.cover.hiddeninlist" in used and "params.cover.linkfullimages" not in used


def test_a_posts_keywords_and_edit_link(make_site) -> None:
    config = "title: T\nlanguage_code: en\ntheme: {edit_url: 'https://git.example/blog/content/', edit_append_path: true}\n"
    post = "---\ntitle: A\ndate: 2024-01-01\nkeywords: [raft, logs]\n---\nx\n"
    html = _built(make_site, {"blogbuild.yaml": config, "content/posts/a.md": post})
    assert '<meta name="keywords" content="raft, logs">' in html
    assert ('<a class="edit-post" href="https://git.example/blog/content/posts/a.md" rel="noopener noreferrer edit"'
            ' target="_blank">Edit</a>') in html
    home = (html, _built(make_site, {"blogbuild.yaml": config, "content/posts/a.md": post}, "index.html"))[1]
    assert "edit-post" not in home and 'name="keywords"' not in home


def test_a_papermod_sites_copyright_is_markdown(make_site) -> None:
    config = "title: T\ntheme: PaperMod\ncopyright: '© Ada · [CC BY](https://cc.example/)'\n"
    html = _built(make_site, {"hugo.yaml": config})
    assert '© Ada · <a href="https://cc.example/">CC BY</a> · <span class="powered-by">' in html
    own = _built(make_site, {"blogbuild.yaml": "title: T\ncopyright: '[x](y)'\n"})
    assert "[x](y) · <span" in own


def test_a_front_matter_switch_of_a_card_reaches_the_list_pages_in_a_warm_build(make_site) -> None:
    """The card reads hideSummary, hideMeta, cover... from front matter: changing one (the body as it was)
    re-renders the lists that show the card, so a warm build equals a cold one."""
    config = "title: T\nlanguage_code: en\ntheme: {cover_in_lists: true}\n"
    post = "---\ntitle: A\ndate: 2024-01-01\n{extra}---\nSome text.\n"
    site = make_site({"blogbuild.yaml": config, "content/posts/a.md": post.format(extra="")})
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    changed = post.format(extra="hideSummary: true\nhideMeta: true\ncover: {image: /c.png}\n")
    (site / "content/posts/a.md").write_text(changed, encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    warm = (site / "public/index.html").read_text(encoding="utf-8")
    cold = _built(make_site, {"blogbuild.yaml": config, "content/posts/a.md": changed}, "index.html")
    assert 'class="post-summary"' not in warm and 'class="post-card-cover"' in warm
    assert warm == cold


def test_pinned_posts_lead_the_home_page_only(make_site) -> None:
    """pinned: true (or Chirpy's pin: true) puts a post first on the home page; sections, terms and feeds keep
    the date order."""
    def post(day: int, extra: str = "") -> str:
        return f"---\ntitle: P{day}\ndate: 2024-01-0{day}\ntags: [t]\n{extra}---\nx\n"
    site = make_site({"blogbuild.yaml": "title: T\npaginate: 2\n", "content/posts/p1.md": post(1, "pinned: true\n"),
                      "content/posts/p2.md": post(2, "Pin: true\n"), "content/posts/p3.md": post(3),
                      "content/posts/p4.md": post(4, "pinned: 'yes'\n")})
    assert main(["build", "--root", str(site), "--quiet", "--no-cache"]) == 0
    public = site / "public"

    def titles(path: str) -> list[str]:
        import re
        return re.findall(r'class="post-card-title"><a href="[^"]*">(P\d)</a>', (public / path).read_text("utf-8"))
    assert titles("index.html") + titles("page/2/index.html") == ["P2", "P1", "P4", "P3"]
    assert titles("posts/index.html") + titles("posts/page/2/index.html") == ["P4", "P3", "P2", "P1"]
    assert titles("tags/t/index.html") == ["P4", "P3"]
    feed = (public / "index.xml").read_text(encoding="utf-8")
    assert feed.index("<title>P4</title>") < feed.index("<title>P1</title>")


@pytest.mark.parametrize(("layout", "date_language", "language_code", "shown"), [
    ("", "", "en", "2024-03-05"), (":date_long", "", "en", "March 5, 2024"),
    (":date_full", "", "en-us", "Tuesday, March 5, 2024"), (":date_medium", "", "", "Mar 5, 2024"),
    (":date_short", "", "en", "3/5/24"), ("02.01.2006 15:04", "", "de", "05.03.2024 09:04"),
    (":date_long", "", "zh-CN", "2024年3月5日"), ("2006年1月2日", "", "zh-CN", "2024年3月5日"),
    ("January 2, Monday", "de", "en", "März 5, Dienstag"), ("Jan 2 Mon", "de", "en", "März 5 Di."),
    (":date_long", "zh-cn", "zh-CN", "March 5, 2024"), (":date_long", "ja", "en", "2024年3月5日")])
def test_dates_are_written_as_hugo_time_format_writes_them(layout: str, date_language: str, language_code: str,
                                                           shown: str) -> None:
    """theme.date_format (PaperMod's DateFormat): Go's layouts and Hugo's :date_* names as Hugo 0.168 writes them.
    date_language is a Hugo language key, found exactly (Hugo writes English for zh-cn); without it the site's
    language_code or its first part (zh-CN: zh). Month and weekday names are localised, wide and short ("Jan",
    "Mon"), as Hugo's time.Format writes them (a time's own .Format method writes English)."""
    from datetime import datetime, timezone

    from blogbuild.core.dates import date_locale, shown_date
    moment = datetime(2024, 3, 5, 9, 4, 5, tzinfo=timezone.utc)
    assert shown_date(moment, layout, date_locale(date_language, language_code)) == shown


def test_date_format_from_papermod_params_and_blogbuild_yaml(make_site) -> None:
    assert papermod_theme({}, True)[0]["date_format"] == ":date_long"
    assert "date_format" not in papermod_theme({}, False)[0]
    theme, used = papermod_theme({"DateFormat": "2 Jan 2006"}, False)
    assert theme["date_format"] == "2 Jan 2006" and "params.dateformat" in used
    html = _built(make_site, {"blogbuild.yaml": "title: T\nlanguage_code: en\ntheme: {date_format: 'January 2, 2006'}\n"})
    assert re.search(r'<p class="post-meta">\n<time datetime="[^"]+">January 1, 2024</time>', html), html
    # The site's language names the month (zh-CN is blogbuild's default), as Hugo's time.Format does for zh.
    html = _built(make_site, {"blogbuild.yaml": "title: T\ntheme: {date_format: ':date_long'}\n"})
    assert re.search(r'<p class="post-meta">\n<time datetime="[^"]+">2024年1月1日</time>', html), html
    # Related posts show their dates in the same format as every other date of the site.
    related = "---\ntitle: B\ndate: 2024-02-03T10:00:00+08:00\ntags: [shared]\n---\nB.\n"
    html = _built(make_site, {"blogbuild.yaml": "title: T\nlanguage_code: en\ntheme: {date_format: 'January 2, 2006'}\n",
                              "content/posts/a.md": POST.replace("---\n", "---\ntags: [shared]\n", 1),
                              "content/posts/b.md": related})
    section = html[html.index('class="related"'):]
    assert '<a href="/posts/b/">B</a> <time datetime="2024-02-03T10:00:00+08:00">February 3, 2024</time>' in section


def test_share_targets_from_papermods_share_buttons_and_blogbuild_yaml(make_site) -> None:
    assert papermod_theme({}, True)[0]["share_targets"][:3] == ["x", "linkedin", "reddit"]
    theme, used = papermod_theme({"ShareButtons": ["telegram", "Twitter"]}, False)
    assert theme["share_targets"] == ["x", "telegram"] and "params.sharebuttons" in used, "PaperMod's order"
    html = _built(make_site, {"blogbuild.yaml": "title: T\ntheme: {share_targets: [whatsapp]}\n"})
    assert re.findall(r'data-share="(\w+)"', html) == ["whatsapp"] and 'class="copy-link"' in html
    with pytest.raises(SourceError, match="share_targets names"):
        load_config(root=make_site({"blogbuild.yaml": "title: T\ntheme: {share_targets: [myspace]}\n"}))
