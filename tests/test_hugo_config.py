"""Hugo's config read into SiteConfig: file lookup, languages, nested menus, pagination, params, the one warning."""
from __future__ import annotations

from pathlib import Path

from blogbuild.build import build
from blogbuild.config import MenuItem, load_config
from blogbuild.hugo_config import convert, hugo_menu

PAPERMOD = Path(__file__).parent / "hugo_sites" / "papermod"


def test_papermod_config_yml_is_read_when_there_is_no_blogbuild_yaml() -> None:
    config = load_config(root=PAPERMOD)
    assert (config.title, config.base_url, config.language_code) == ("Paper Notes", "https://example.org/", "en-us")
    assert config.copyright == "© 2024 Ada Example" and config.paginate == 5
    assert config.author == "Ada Example" and config.description == "Notes on systems and machine learning"
    assert config.taxonomies == ("categories", "tags", "series")
    assert config.social == (("github", "https://github.com/example"), ("rss", "/index.xml"))
    assert (config.intro_title, config.intro_text) == (
        "Hi there", "Welcome to my notes on systems and machine learning.")
    assert config.markup.hard_wraps and config.markup.linkify and config.markup.heading_id_type == "github"
    assert config.params["ShowBreadCrumbs"] is True
    # One line: the Hugo keys, then the markup settings markup_config reads but does not honour.
    unused = ", ".join(("theme", "googleAnalytics", "minify", *config.markup.ignored))
    assert config.notices == (f"Hugo config keys blogbuild does not use: {unused} (see README, Coming from Hugo)",)
    assert "markup.highlight.noClasses" in config.markup.ignored


def test_hugo_markup_defaults_are_written_out() -> None:
    """Hugo's typographer, github ids and TOC levels 2-3 hold unless the site says otherwise."""
    values, _ = convert({"markup": {"goldmark": {"extensions": {"typographer": {"disable": True}}}}})
    assert values["markup"] == {"goldmark": {"extensions": {"typographer": {"disable": True}},
                                             "parser": {"autoHeadingIDType": "github"}},
                                "tableOfContents": {"startLevel": 2, "endLevel": 3}}
    config = load_config(root=PAPERMOD)
    assert (config.markup.toc_start_level, config.markup.toc_end_level, config.markup.typographer) == (2, 3, True)


def test_nested_menu_from_identifier_and_parent_ordered_by_weight_then_name() -> None:
    config = load_config(root=PAPERMOD)
    posts = config.menu[0]
    assert [item.name for item in config.menu] == ["Posts", "Archive", "Search", "Tags"]
    assert posts.children == (MenuItem("Machine learning", "/posts/ml/", 1), MenuItem("Systems", "/posts/systems/", 2))
    menu = hugo_menu([{"name": "B", "pageRef": "/about", "weight": 1}, {"name": "A", "url": "/a/", "weight": 1},
                      {"identifier": "x", "name": "X", "url": "/x/", "parent": "nowhere"}])
    assert menu == [{"name": "X", "url": "/x/", "weight": 0}, {"name": "A", "url": "/a/", "weight": 1},
                    {"name": "B", "url": "/about/", "weight": 1}]


def test_old_keys_and_hugo_defaults() -> None:
    values, ignored = convert({"baseurl": "https://x.org/blog", "paginate": 7, "summaryLength": 30,
                               "buildDrafts": True, "permalinks": {"posts": "/:year/:slug/"},
                               "disqusShortname": "x", "menu": {"main": [], "footer": []}})
    assert values["paginate"] == 7 and values["drafts"] is True
    assert values["summary_length"] == 150   # 30 words of Latin text, about five letters each
    assert values["taxonomies"] == ["tags", "categories"]   # Hugo's default taxonomies
    assert values["permalinks"] == {"posts": "/:year/:slug/"}
    assert ignored == ["menus.footer", "disqusShortname"]


def test_config_default_folder_and_toml(tmp_path: Path) -> None:
    folder = tmp_path / "config" / "_default"
    folder.mkdir(parents=True)
    (folder / "hugo.toml").write_text('title = "Folder site"\nbaseURL = "https://f.org/"\n', encoding="utf-8")
    (folder / "menus.en.toml").write_text('[[main]]\nname = "Posts"\nurl = "/posts/"\n', encoding="utf-8")
    (folder / "languages.toml").write_text('[en]\nlanguageCode = "en-gb"\n', encoding="utf-8")
    (folder / "params.toml").write_text('description = "From params"\n', encoding="utf-8")
    config = load_config(root=tmp_path)
    assert (config.title, config.language_code, config.description) == ("Folder site", "en-gb", "From params")
    assert config.menu == (MenuItem("Posts", "/posts/", 0),)
    assert config.config_path.endswith("config/_default")


def test_blogbuild_yaml_wins_over_hugo_config(tmp_path: Path) -> None:
    (tmp_path / "hugo.toml").write_text('title = "Hugo"\n', encoding="utf-8")
    (tmp_path / "blogbuild.yaml").write_text("title: Mine\n", encoding="utf-8")
    assert load_config(root=tmp_path).title == "Mine"


def test_unused_keys_are_one_warning_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "hugo.toml").write_text('title = "T"\nfoo = 1\nbar = 2\n[services.disqus]\nshortname = "s"\n',
                                        encoding="utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "a.md").write_text("---\ntitle: A\n---\nHi\n", encoding="utf-8")
    result = build(load_config(root=tmp_path))
    assert result.ok
    notes = [warning for warning in result.warnings if "Hugo config keys" in warning.message]
    assert len(notes) == 1 and "foo, bar, services" in notes[0].message
    assert notes[0].path.endswith("hugo.toml")
