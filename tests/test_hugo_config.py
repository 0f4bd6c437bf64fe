"""Hugo's config read into SiteConfig: file lookup, languages, nested menus, pagination, params, the one warning."""
from __future__ import annotations

from pathlib import Path

import pytest

from blogbuild.pipeline import build
from blogbuild.config import MenuItem, load_config
from blogbuild.hugo.config import convert, hugo_menu

PAPERMOD = Path(__file__).parent / "hugo_sites" / "papermod"


def test_papermod_config_yml_is_read_when_there_is_no_blogbuild_yaml() -> None:
    config = load_config(root=PAPERMOD)
    assert (config.title, config.base_url, config.language_code) == ("Paper Notes", "https://example.org/", "en-us")
    assert config.copyright == "© 2024 Ada Example" and config.paginate == 5
    assert config.author == "Ada Example" and config.description == "Notes on systems and machine learning"
    assert config.taxonomies == ("categories", "tags", "series")
    assert config.social == (("github", "https://github.com/example"), ("rss", "/index.xml"))
    assert (config.theme.intro.title, config.theme.intro.text) == (
        "Hi there", "Welcome to my notes on systems and machine learning.")
    assert config.markup.hard_wraps and config.markup.linkify and config.markup.heading_id_type == "github"
    assert config.params["ShowBreadCrumbs"] is True
    # One line: the Hugo keys, params.* included, the markup settings markup_config reads but does not honour,
    # and the files under layouts/, each group with what blogbuild does instead.
    (notice,) = config.notices
    assert notice.startswith("Hugo site settings blogbuild does not use (see README, Coming from Hugo): theme "
                             "(config.yml:4): blogbuild's default theme renders the site; ")
    for name in ("googleAnalytics", "minify", "params.fuseOpts", *config.markup.ignored):
        assert name in notice, name
    assert "extend_head.html" not in notice   # PaperMod's hook runs in the default theme (gotemplate/)
    assert "markup.highlight.noClasses" in config.markup.ignored


def test_hugo_markup_defaults_are_written_out() -> None:
    """Hugo's typographer, linkify, github ids, TOC levels 2-3 and no passthrough hold unless the site says otherwise."""
    values, _ = convert({"markup": {"goldmark": {"extensions": {"typographer": {"disable": True}}}}})
    assert values["markup"] == {"goldmark": {"extensions": {"typographer": {"disable": True}, "linkify": True,
                                                            "passthrough": {"enable": False}},
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
                    {"name": "B", "url": "/about/", "weight": 1, "page_ref": "/about"}]   # the page it names


def test_old_keys_and_hugo_defaults() -> None:
    values, ignored = convert({"baseurl": "https://x.org/blog", "paginate": 7, "summaryLength": 30,
                               "buildDrafts": True, "permalinks": {"posts": "/:year/:slug/"},
                               "disqusShortname": "x", "menu": {"main": [], "footer": []}})
    assert values["paginate"] == 10 and values["drafts"] is True   # Hugo 0.168 has no paginate: its default
    assert values["summary_length"] == 150   # 30 words of Latin text, about five letters each
    assert values["taxonomies"] == ["tags", "categories"]   # Hugo's default taxonomies
    assert values["permalinks"] == {"posts": "/:year/:slug/"}
    assert ignored == ["menus.footer", "paginate", "disqusShortname"]


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
    notes = [warning for warning in result.warnings if "Hugo site settings" in warning.message]
    assert len(notes) == 1 and "foo (hugo.toml:2), bar (hugo.toml:3): no equivalent, ignored" in notes[0].message
    assert "services (hugo.toml:4): only services.googleAnalytics.id" in notes[0].message
    assert notes[0].path.endswith("hugo.toml")


INVENTORY_SITE = {
    "hugo.yaml": ("title: T\ntheme: PaperMod\nparams:\n  author: Ada\n  myOwnColour: teal\n  fuseOpts: {keys: [title]}\n"
                  "  homeInfoParams: {Title: Hi, Content: Text, AlignSocialIconsTo: center}\n"
                  "  comments: true\n  assets: {disableHLJS: true}\n  readByShortcode: 1\n  readInContent: 2\n"
                  "  readByHook: 3\n"),
    "layouts/partials/extend_head.html": "<meta name=x content={{ site.Params.readByHook }}>\n",
    "layouts/partials/footer.html": "<footer></footer>\n",
    "layouts/_default/single.html": "{{ .Content }}\n",
    "layouts/shortcodes/note.html": '<aside>{{ partial "box.html" . }}</aside>\n',
    "layouts/partials/box.html": "{{ .Inner }} {{ site.Params.readByShortcode }}\n",
    "assets/css/extended/custom.css": "body { color: red }\n",
    "assets/js/extra.js": "\n",
    "content/a.md": '---\ntitle: A\n---\nHi {{< param "readInContent" >}}\n',
}


def test_every_unused_key_params_included_and_every_layout_and_asset_is_named_once(make_site) -> None:
    """Nothing ignored in silence: params.* keys (a mapping's unused keys one by one), layouts/ and assets/ files,
    each with what blogbuild does instead; the keys blogbuild uses are not named."""
    site = make_site(INVENTORY_SITE)
    result = build(load_config(root=site))
    notes = [warning.message for warning in result.warnings if "Hugo site settings" in warning.message]
    assert len(notes) == 1
    note = notes[0]
    assert "params.myOwnColour (hugo.yaml:5): kept under params for the site's own templates" in note
    # Read by the site's own Go shortcode (which runs), or by a `param` shortcode in content: used.
    assert "readByShortcode" not in note and "readInContent" not in note and "readByHook" not in note
    assert "params.fuseOpts (hugo.yaml:6): blogbuild's own search and index.json instead of Fuse.js" in note
    assert "params.homeInfoParams.AlignSocialIconsTo" in note and "params.assets.disableHLJS" in note
    assert "params.comments (hugo.yaml:8): comments are params.giscus or params.utterances" in note
    assert "layouts/_default/single.html: page layouts do not run" in note
    assert "layouts/partials/footer.html: page partials do not run" in note
    assert "extend_head.html" not in note    # PaperMod's hook runs in the default theme
    assert "layouts/partials/box.html" not in note   # a shortcode calls it, so it runs
    assert "layouts/shortcodes/" not in note   # the site's Go shortcodes run (gotemplate/)
    assert "assets/css/extended/custom.css" not in note   # published after the theme's CSS, as PaperMod bundles it
    assert "assets/js/extra.js: Hugo Pipes do not run" in note
    for used in ("params.author", "params.homeInfoParams.Title", "params.homeInfoParams.Content", "params.homeInfoParams ("):
        assert used not in note, used


def test_a_blogbuild_yaml_site_gets_no_inventory(make_site) -> None:
    site = make_site({"blogbuild.yaml": "title: T\nparams: {anything: 1}\n", "layouts/x.html": "x\n",
                      "content/a.md": "---\ntitle: A\n---\nHi\n"})
    result = build(load_config(root=site))
    assert not [warning for warning in result.warnings if "Hugo site settings" in warning.message]


def test_papermod_social_icons_email_and_relative_urls() -> None:
    """An e-mail address becomes a mailto: link (it was 'mailto:/address'); a relative url is rooted at the site."""
    values, _ = convert({"params": {"socialIcons": [{"name": "email", "url": "me@example.org"},
                                                    {"name": "email", "url": "mailto:you@example.org"},
                                                    {"name": "gitea", "url": "https://git.example/me"},
                                                    {"name": "rss", "url": "index.xml"}]}})
    assert values["social"] == [{"name": "email", "url": "mailto:me@example.org"},
                                {"name": "email", "url": "mailto:you@example.org"},
                                {"name": "gitea", "url": "https://git.example/me"}, {"name": "rss", "url": "/index.xml"}]


def test_pagination_and_front_matter_aliases_in_blogbuild_yaml(make_site) -> None:
    """blogbuild's own sites: no LIST/page/1/ unless pagination_aliases: true; aliases: false drops front matter's."""
    from blogbuild.cli import main
    post = "---\ntitle: A\ndate: 2024-01-01\naliases: [/old/]\n---\nx\n"
    plain = make_site({"blogbuild.yaml": "title: T\n", "content/posts/a.md": post})
    hugo_like = make_site({"blogbuild.yaml": "title: T\npagination_aliases: true\naliases: false\n",
                           "content/posts/a.md": post})
    for site in (plain, hugo_like):
        assert main(["build", "--root", str(site), "--quiet", "--no-cache"]) == 0
    assert (plain / "public/old/index.html").is_file() and not (plain / "public/page/1").exists()
    assert not (hugo_like / "public/old").exists()
    assert 'url=http://localhost:1313/"' in (hugo_like / "public/page/1/index.html").read_text(encoding="utf-8")


def test_menu_entry_keys_blogbuild_does_not_read_are_named() -> None:
    _, ignored = convert({"menus": {"main": [
        {"name": "Posts", "url": "/posts/", "weight": 1, "pre": "<i>", "title": "All posts"},
        {"name": "ML", "url": "/ml/", "parent": "Posts", "params": {"group": "Topics", "icon": "i"}, "Pre": "x"}]}})
    assert ignored == ["menus.main.pre", "menus.main.title", "menus.main.params.icon"]   # params.group is used
    from blogbuild.hugo.unused import instead
    assert instead("menus.main.params.icon").startswith("menu entries show their name")


def test_menu_groups_are_headings_in_the_dropdown(make_site) -> None:
    """params.group on menu children (PaperMod forks): a heading over each run of one group in the dropdown."""
    from blogbuild.cli import main
    menu = ("menus:\n  main:\n    - {identifier: notes, name: Notes, weight: 1}\n"
            "    - {name: Raft, url: /raft/, parent: notes, weight: 1, params: {group: Systems}}\n"
            "    - {name: Logs, url: /logs/, parent: notes, weight: 2, params: {group: Systems}}\n"
            "    - {name: KV, url: /kv/, parent: notes, weight: 3, params: {group: ML}}\n"
            "    - {name: About, url: /about/, weight: 2}\n")
    site = make_site({"hugo.yaml": "title: T\n" + menu, "content/a.md": "---\ntitle: A\n---\nx\n"})
    assert main(["build", "--root", str(site), "--quiet", "--no-cache"]) == 0
    html = (site / "public/index.html").read_text(encoding="utf-8")
    submenu = html[html.index('<ul class="submenu">'):html.index("</ul>", html.index('<ul class="submenu">'))]
    assert submenu.count('class="menu-group"') == 2
    assert submenu.index(">Systems<") < submenu.index(">Raft<") < submenu.index(">Logs<") < submenu.index(">ML<")
    assert submenu.index(">ML<") < submenu.index(">KV<") and "menu-group" not in html[:html.index('<ul class="submenu">')]


def test_pagination_keys() -> None:
    values, ignored = convert({"pagination": {"pagerSize": 4, "disableAliases": True, "path": "seite"}})
    assert values["paginate"] == 4 and values["pagination_aliases"] is False and ignored == ["pagination.path"]
    values, ignored = convert({"paginate": 3, "pagination": {"path": "page"}})   # gone from Hugo 0.168: named
    assert values["paginate"] == 10 and values["pagination_aliases"] is True and ignored == ["paginate"]


def test_a_linked_file_out_of_the_site_is_not_read_for_params(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text('{{< param "leak" >}}\n', encoding="utf-8")
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "content" / "inside.md").write_text('{{< param "seen" >}}\n', encoding="utf-8")
    (site / "content" / "o.md").symlink_to(outside)
    (site / "hugo.yaml").write_text("title: T\nparams: {leak: 1, seen: 2}\n", encoding="utf-8")
    from blogbuild.hugo.config import read_hugo_config
    hugo = read_hugo_config(site)
    assert hugo is not None and hugo.ignored == ("params.leak",)


def test_the_delimiters_a_sites_templates_typeset_are_typeset() -> None:
    """passthrough names \\( and \\[; layouts/partials/extend_head.html's KaTeX auto-render typesets $ and $$ too."""
    markup = load_config(root=Path(__file__).parent / "hugo_sites" / "math_delimiters").markup
    assert ("$", "$") in markup.inline_math and ("$$", "$$") in markup.block_math
    assert markup.goldmark_math == ("$", "$$") and markup.math_template == "layouts/partials/extend_head.html"


@pytest.mark.parametrize("template, inline, block", [
    ('renderMathInElement(document.getElementById("main"), {throwOnError: false, "delimiters": ['
     '{left: "$$", right: "$$", display: true}, {left: \'$\', right: \'$\', display: !1}]})',
     [("$", "$")], [("$$", "$$")]),
    ("renderMathInElement(document.body);", [("\\(", "\\)")], [("$$", "$$"), ("\\[", "\\]")]),
    ("window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], displayMath: [['$$', '$$']]}};",
     [("$", "$"), ("\\(", "\\)")], [("$$", "$$")]),
    ("MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$']", [("$", "$")], []),   # never closed: read to the bound
])
def test_template_delimiters_are_read_from_the_javascript_literal(template, inline, block) -> None:
    from blogbuild.hugo.math import delimiters_in
    assert delimiters_in(f"<script>{template}</script>") == (inline, block)
    assert delimiters_in("<p>no math here</p>") is None


def test_a_theme_not_checked_out_is_named_with_the_command_that_fetches_it(tmp_path) -> None:
    """A clone made without --recursive: themes/NAME/ is an empty folder, or a submodule is not there. The default
    theme renders the site with one warning for each, naming the folder, and `git submodule update --init` when
    .gitmodules names it; a theme simply absent is only in the unused-settings line."""
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder
    site = tmp_path / "site"
    (site / "themes" / "PaperMod").mkdir(parents=True)
    (site / "themes" / "Other").mkdir()
    (site / "content").mkdir()
    (site / "content" / "a.md").write_text("---\ntitle: A\n---\nBody.\n", encoding="utf-8")
    (site / "hugo.toml").write_text('title = "S"\ntheme = ["PaperMod", "Other", "Gone", "Sub"]\n', encoding="utf-8")
    (site / ".gitmodules").write_text('[submodule "themes/PaperMod"]\n\tpath = themes/PaperMod\n\turl = x\n'
                                      '[submodule "sub"]\n  path = themes/Sub\n', encoding="utf-8")
    (site / "themes" / "Other" / "theme.toml").write_text('name = "Other"\n', encoding="utf-8")
    result = Builder(load_config(None, root=site)).build()
    assert result.ok, result.errors
    said = [warning.message for warning in result.warnings if warning.message.startswith("theme '")]
    assert said == [
        "theme 'PaperMod': themes/PaperMod/ is an empty folder, so blogbuild's default theme renders the site; "
        "fetch it with `git submodule update --init` (.gitmodules names it)",
        "theme 'Sub': themes/Sub/ does not exist, so blogbuild's default theme renders the site; fetch it with "
        "`git submodule update --init` (.gitmodules names it)"]
    assert "a/index.html" in result.files
    (site / "layouts").mkdir()   # the site's own layouts need their theme: a missing one is named too
    (site / "layouts" / "index.html").write_text("{{ partial \"head.html\" . }}", encoding="utf-8")
    said = [notice for notice in load_config(None, root=site).notices if notice.startswith("theme 'Gone'")]
    assert said == ["theme 'Gone': themes/Gone/ does not exist, so blogbuild's default theme renders the site (and "
                    "the site's own layouts, which call the theme's partials, are not used); put the theme's "
                    "files in themes/Gone/"]


def test_the_language_code_is_the_languages_key_when_the_config_gives_none() -> None:
    """Hugo's locale falls back to the language's key (defaultContentLanguage, "en" by default), not to
    blogbuild's own default: a page's lang and a feed's <language> say en."""
    assert convert({"title": "T"})[0]["language_code"] == "en"
    assert convert({"title": "T", "defaultContentLanguage": "fr"})[0]["language_code"] == "fr"
    assert convert({"title": "T", "languageCode": "en-GB"})[0]["language_code"] == "en-GB"
    assert convert({"title": "T", "locale": "de-AT", "languageCode": "en-GB"})[0]["language_code"] == "de-AT"
