"""Comments (giscus, utterances) and analytics (Plausible, Umami, GA4, a snippet) from the site config."""
from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from blogbuild.cli import main
from blogbuild.config import config_from_mapping, load_config
from blogbuild.hugo.theme_params import from_hugo

GISCUS = (
    "comments:\n  giscus:\n    repo: ada/blog\n    repo_id: R_kgDOAAAA\n    category: Announcements\n"
    "    category_id: DIC_kwDOAAAA\n"
)
ANALYTICS = (
    "analytics:\n  plausible: {domain: example.org}\n  umami: {website_id: 94db1cb1-74f4-4a40-ad6c-962362670409}\n"
    "  google: {measurement_id: G-ABC123XYZ}\n  snippet: '<script>window.counted = true;</script>'\n"
)
SITE = {
    "blogbuild.yaml": "title: Talk\nbase_url: https://example.org/\n" + GISCUS + ANALYTICS,
    "content/posts/open.md": "---\ntitle: Open\ndate: 2025-01-02\n---\nSay something.\n",
    "content/posts/closed.md": "---\ntitle: Closed\ndate: 2025-01-01\ncomments: false\n---\nNo talking.\n",
}


def build(root: Path) -> int:
    return main(["build", "--root", str(root), "--quiet"])


def frame_attributes(page: str) -> dict[str, str]:
    """The comment placeholder's data-* attributes, unescaped."""
    match = re.search(r'<div class="comments-frame"([^>]*)>', page)
    assert match, "no comment placeholder"
    return {name: html.unescape(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', match.group(1))}


def test_giscus_placeholder_on_posts_and_off_per_post(make_site):
    """A configured giscus shows on posts as a placeholder (no provider script in the HTML) plus
    comments.js; `comments: false` leaves both out; list pages never have it."""
    root = make_site(SITE)
    assert build(root) == 0
    public = root / "public"
    page = (public / "posts" / "open" / "index.html").read_text(encoding="utf-8")
    attributes = frame_attributes(page)
    assert attributes["data-comments"] == "giscus" and attributes["data-script"] == "https://giscus.app/client.js"
    assert (attributes["data-theme-light"], attributes["data-theme-dark"]) == ("light", "dark")
    script_attributes = json.loads(attributes["data-attributes"])
    assert script_attributes["data-repo"] == "ada/blog" and script_attributes["data-repo-id"] == "R_kgDOAAAA"
    assert script_attributes["data-mapping"] == "pathname" and script_attributes["data-lang"] == "zh-CN"
    assert "giscus.app/client.js\"></script>" not in page and 'src="/js/comments.js"' in page
    closed = (public / "posts" / "closed" / "index.html").read_text(encoding="utf-8")
    assert "comments-frame" not in closed and "comments.js" not in closed
    assert "comments-frame" not in (public / "index.html").read_text(encoding="utf-8")
    assert (public / "js" / "comments.js").is_file()


def test_utterances(make_site):
    """utterances: its own attribute names and github themes."""
    root = make_site({**SITE, "blogbuild.yaml": "title: T\ncomments:\n  utterances: {repo: ada/blog, label: talk}\n"})
    assert build(root) == 0
    attributes = frame_attributes((root / "public" / "posts" / "open" / "index.html").read_text(encoding="utf-8"))
    assert attributes["data-comments"] == "utterances" and attributes["data-theme-attribute"] == "theme"
    assert json.loads(attributes["data-attributes"]) == {"repo": "ada/blog", "issue-term": "pathname", "label": "talk"}
    assert attributes["data-theme-dark"] == "github-dark"


def test_no_comments_without_config(make_site):
    root = make_site({**SITE, "blogbuild.yaml": "title: T\n"})
    assert build(root) == 0
    page = (root / "public" / "posts" / "open" / "index.html").read_text(encoding="utf-8")
    assert "comments" not in page.split("<main", 1)[1].split("</main>")[0].lower().replace("comments: false", "")


def test_analytics_in_every_published_page(make_site):
    """Each provider's tag in <head>, in the order Plausible, Umami, GA4, snippet, on every page kind."""
    root = make_site(SITE)
    assert build(root) == 0
    for relative in ("index.html", "posts/open/index.html", "tags/index.html", "404.html"):
        page = (root / "public" / relative).read_text(encoding="utf-8")
        head = page.split("</head>", 1)[0]
        assert '<script defer data-domain="example.org" src="https://plausible.io/js/script.js"></script>' in head
        assert 'data-website-id="94db1cb1-74f4-4a40-ad6c-962362670409"' in head
        assert "googletagmanager.com/gtag/js?id=G-ABC123XYZ" in head and 'gtag("config", "G-ABC123XYZ")' in head
        assert head.rstrip().endswith("<script>window.counted = true;</script>")


def test_analytics_left_out_when_serving(make_site):
    """The config serve builds with (serving=True) renders no analytics; everything else stays."""
    from blogbuild.pipeline import Builder
    root = make_site(SITE)
    config = load_config(root=root)
    served = Builder(replace(config, serving=True)).build()
    published = Builder(config).build()
    assert served.ok and published.ok
    for path in ("index.html", "posts/open/index.html"):
        served_page = served.files[path].data.decode()
        assert "plausible" not in served_page and "gtag" not in served_page and "window.counted" not in served_page
        assert "comments-frame" in served_page or path == "index.html"
        assert "plausible" in published.files[path].data.decode()


@pytest.mark.parametrize("block, message", [
    ("comments:\n  giscus: {repo: ada/blog}\n", "comments.giscus.repo_id is required"),
    ("comments:\n  giscus: {repo: blog, repo_id: a, category: b, category_id: c}\n",
     "comments.giscus.repo must be owner/name"),
    ("comments:\n  disqus: {shortname: x}\n", "comments needs exactly one of giscus or utterances"),
    ("comments:\n  utterances: {repo: a/b, theme: dark}\n", "comments.utterances: unknown setting 'theme'"),
    ("analytics:\n  google: {measurement_id: UA-1234-1}\n", "analytics.google.measurement_id must look like G-XXXXXXX (GA4)"),
    ("analytics:\n  plausible: {}\n", "analytics.plausible.domain is required"),
    ("analytics:\n  matomo: {url: x}\n", "analytics: unknown setting 'matomo'"),
])
def test_bad_settings_name_the_line(make_site, capsys, block, message):
    root = make_site({**SITE, "blogbuild.yaml": "title: T\nauthor: A\n" + block})
    assert build(root) != 0
    assert f"blogbuild.yaml:3: config: {message}" in capsys.readouterr().err


def test_hugo_params_become_the_same_blocks():
    """A PaperMod-style Hugo config's giscus/utterances params and GA4 service, in blogbuild's keys,
    make the same Comments as blogbuild.yaml would."""
    params = {"comments": True, "giscus": {"repo": "ada/blog", "repoID": "R_1", "category": "General",
                                           "categoryID": "DIC_1", "mapping": "og:title", "reactionsEnabled": "0"},
              "analytics": {"plausible": {"domain": "example.org"}, "umami": {"websiteId": "abc"}}}
    converted = from_hugo(params, {"googleAnalytics": {"ID": "G-ABCD1234"}})
    assert converted == {
        "comments": {"giscus": {"repo": "ada/blog", "repo_id": "R_1", "category": "General", "category_id": "DIC_1",
                                "mapping": "og:title", "reactions": False}},
        "analytics": {"google": {"measurement_id": "G-ABCD1234"}, "plausible": {"domain": "example.org"},
                      "umami": {"website_id": "abc"}}}
    config = config_from_mapping(converted)
    assert config.comments.provider == "giscus" and ("data-reactions-enabled", "0") in config.comments.attributes
    assert config.analytics.google_id == "G-ABCD1234"
    stack_style = {"comments": {"utterances": {"repo": "a/b", "issueTerm": "title"}}}
    assert from_hugo(stack_style) == {"comments": {"utterances": {"repo": "a/b", "issue_term": "title"}}}
    assert from_hugo({"comments": False, "giscus": {"repo": "a/b"}}) == {}
    assert from_hugo({}, None, "UA-1-1") == {}


def test_a_hugo_site_gets_comments_and_analytics_from_its_params(make_site):
    """hugo.toml with PaperMod-style params.giscus and Hugo's services.googleAnalytics: the same widget and tag."""
    root = make_site({
        "hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Hugo site"\n'
                      '[services.googleAnalytics]\nID = "G-HUGO1234"\n'
                      '[params]\ncomments = true\n[params.giscus]\nrepo = "ada/blog"\nrepoID = "R_9"\n'
                      'category = "General"\ncategoryID = "DIC_9"\n'),
        "content/posts/open.md": "---\ntitle: Open\ndate: 2025-01-02\n---\nSay something.\n",
    })
    assert build(root) == 0
    page = (root / "public" / "posts" / "open" / "index.html").read_text(encoding="utf-8")
    assert json.loads(frame_attributes(page)["data-attributes"])["data-repo-id"] == "R_9"
    assert 'gtag("config", "G-HUGO1234")' in page
