"""Hugo's layout lookup (hugo/layouts.py) against Hugo 0.168: fixture sites of our own where every layout
file prints its own name are built with the hugo binary, and for every page (home, sections, nested
sections, pages with `type:` and `layout:`, taxonomies, terms, 404, RSS) the module must pick the file Hugo
rendered, and the baseof.html it rendered through. Each site is built again with Hugo's choices taken away,
until no layout file is left, so every fallback in the order is checked too."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blogbuild.hugo.layouts import (LayoutStore, PageQuery, layout_folders, lookup, needs_base, partial_file,
                                    search_order, shortcode_file)
from support.files import write_files
from support.hugo_run import hugo_build

CONTENT = {
    "content/_index.md": "---\ntitle: Home\n---\n",
    "content/about.md": "---\ntitle: About\n---\n",
    "content/posts/_index.md": "---\ntitle: Posts\n---\n",
    "content/posts/one.md": "---\ntitle: One\ntags: [go]\ncategories: [news]\nseries: [alpha]\n---\n",
    "content/posts/two.md": "---\ntitle: Two\nlayout: custom\n---\n",
    "content/posts/three.md": "---\ntitle: Three\ntype: special\n---\n",
    "content/docs/_index.md": "---\ntitle: Docs\n---\n",
    "content/docs/a.md": "---\ntitle: A\n---\n",
    "content/docs/guide/_index.md": "---\ntitle: Guide\n---\n",
    "content/docs/guide/b.md": "---\ntitle: B\ntags: [go]\n---\n",
    "content/notes/_index.md": "---\ntitle: Notes\ntype: posts\n---\n",
    "content/notes/n.md": "---\ntitle: N\nlayout: custom\n---\n",
    "content/archive/_index.md": "---\ntitle: Archive\nlayout: custom\n---\n",
    "content/archive/old.md": "---\ntitle: Old\n---\n",
    "content/archives.md": "---\ntitle: Archives\nlayout: archives\n---\n",
    "content/search.md": "---\ntitle: Search\ntype: page\nlayout: search\n---\n",
}
TAXONOMIES = {"tag": "tags", "category": "categories", "series": "series"}

# Output file -> the page as the lookup sees it.
PAGES = {
    "index.html": PageQuery("home", ""),
    "about/index.html": PageQuery("page", "about"),
    "posts/index.html": PageQuery("section", "posts"),
    "posts/one/index.html": PageQuery("page", "posts/one"),
    "posts/two/index.html": PageQuery("page", "posts/two", layout="custom"),
    "posts/three/index.html": PageQuery("page", "posts/three", type="special"),
    "docs/index.html": PageQuery("section", "docs"),
    "docs/a/index.html": PageQuery("page", "docs/a"),
    "docs/guide/index.html": PageQuery("section", "docs/guide"),
    "docs/guide/b/index.html": PageQuery("page", "docs/guide/b"),
    "notes/index.html": PageQuery("section", "notes", type="posts"),
    "notes/n/index.html": PageQuery("page", "notes/n", layout="custom"),
    "tags/index.html": PageQuery("taxonomy", "tags"),
    "tags/go/index.html": PageQuery("term", "tags/go"),
    "categories/index.html": PageQuery("taxonomy", "categories"),
    "categories/news/index.html": PageQuery("term", "categories/news"),
    "series/index.html": PageQuery("taxonomy", "series"),
    "series/alpha/index.html": PageQuery("term", "series/alpha"),
    "archive/index.html": PageQuery("section", "archive", layout="custom"),
    "archive/old/index.html": PageQuery("page", "archive/old"),
    "archives/index.html": PageQuery("page", "archives", layout="archives"),
    "search/index.html": PageQuery("page", "search", type="page", layout="search"),
    "404.html": PageQuery("404", "404"),
    "sitemap.xml": PageQuery("sitemap", "sitemap"),
    "index.xml": PageQuery("home", "", output_format="rss"),
    "index.json": PageQuery("home", "", output_format="json"),
    "posts/index.xml": PageQuery("section", "posts", output_format="rss"),
    "docs/guide/index.xml": PageQuery("section", "docs/guide", output_format="rss"),
    "tags/index.xml": PageQuery("taxonomy", "tags", output_format="rss"),
    "tags/go/index.xml": PageQuery("term", "tags/go", output_format="rss"),
}

CLASSIC = ["_default/single.html", "_default/list.html", "index.html", "posts/single.html", "posts/list.html",
           "posts/custom.html", "_default/custom.html", "special/single.html", "docs/list.html",
           "section/docs.html", "docs/docs.html", "taxonomy/tag.html", "tags/term.html", "_default/terms.html",
           "taxonomy/list.html", "_default/taxonomy.html", "tags/terms.html", "404.html", "_default/rss.xml",
           "posts/rss.xml", "section/section.rss.xml", "_default/list.rss.xml", "index.rss.xml",
           "_default/single.rss.xml", "taxonomy/series.html", "series/list.html", "series/series.html",
           "archive/list.html", "section/archive.html", "_default/sitemap.xml", "index.json",
           "_default/list.json"]
NEW = ["single.html", "list.html", "home.html", "section.html", "taxonomy.html", "term.html", "all.html",
       "page.html", "custom.html", "posts/single.html", "posts/page.html", "posts/section.html", "posts/list.html",
       "docs/section.html", "docs/guide/list.html", "docs/guide/single.html", "special/all.html",
       "tags/term.html", "tags/taxonomy.html", "categories/list.html", "404.html", "home.rss.xml", "rss.xml",
       "section.rss.xml", "list.rss.xml", "posts/all.html", "posts/custom.html", "series/term.html",
       "series/taxonomy.html", "archive/section.html", "archive/custom.html", "sitemap.xml", "home.json",
       "list.json", "all.json"]
BASES_CLASSIC = ["_default/baseof.html", "posts/baseof.html", "_default/list-baseof.html", "docs/baseof.html",
                 "_default/single-baseof.html"]
BASES_NEW = ["baseof.html", "posts/baseof.html", "baseof.list.html", "baseof.section.html", "docs/guide/baseof.html",
             "baseof.term.html", "baseof.single.html"]


def _layout_text(tag: str, relative: str, with_base: bool) -> str:
    name = relative.rsplit("/", 1)[-1]
    if name.startswith("baseof") or "-baseof" in name:
        return "BASE:" + tag + '|{{ block "main" . }}{{ end }}'
    if with_base and relative.endswith(".html"):
        return '{{/* a layout */}}\n{{ define "main" }}LAYOUT:' + tag + "{{ end }}\n"
    return "LAYOUT:" + tag


MULTILINGUAL_CONFIG = """defaultContentLanguage = "en"
[languages.en]
weight = 1
[languages.fr]
weight = 2
"""
MULTILINGUAL_CONTENT = {
    "content/_index.md": "---\ntitle: Home\n---\n", "content/_index.fr.md": "---\ntitle: Accueil\n---\n",
    "content/posts/_index.md": "---\ntitle: Posts\n---\n", "content/posts/_index.fr.md": "---\ntitle: Billets\n---\n",
    "content/posts/one.md": "---\ntitle: One\n---\n", "content/posts/one.fr.md": "---\ntitle: Un\n---\n",
    "content/posts/two.fr.md": "---\ntitle: Deux\nlayout: custom\n---\n",
}
MULTILINGUAL_PAGES = {
    "index.html": PageQuery("home", "", language="en"),
    "fr/index.html": PageQuery("home", "", language="fr"),
    "posts/index.html": PageQuery("section", "posts", language="en"),
    "fr/posts/index.html": PageQuery("section", "posts", language="fr"),
    "posts/one/index.html": PageQuery("page", "posts/one", language="en"),
    "fr/posts/one/index.html": PageQuery("page", "posts/one", language="fr"),
    "fr/posts/two/index.html": PageQuery("page", "posts/two", layout="custom", language="fr"),
    "fr/index.xml": PageQuery("home", "", output_format="rss", language="fr"),
}
MULTILINGUAL = ["single.html", "single.fr.html", "posts/single.html", "posts/single.en.html", "list.html",
                "list.fr.html", "home.fr.html", "index.html", "_default/single.fr.html", "posts/list.fr.html",
                "custom.html", "posts/custom.fr.html", "all.fr.html", "all.html", "home.rss.xml", "rss.fr.xml"]


def _site(root: Path, layouts: dict[str, list[str]], theme: str | list[str] | None, with_base: bool,
          languages: bool = False) -> Path:
    """layouts: folder under the site ("layouts", "themes/t/layouts") -> the layout files it has."""
    theme_line = "" if theme is None else f"theme = {theme!r}\n".replace("'", '"')
    config = 'baseURL = "https://example.org/"\ntitle = "T"\n' + theme_line
    taxonomies = '[outputs]\nhome = ["html", "rss", "json"]\n[taxonomies]\n' + "".join(f'{singular} = "{plural}"\n' for singular, plural in TAXONOMIES.items())
    files = {"hugo.toml": config + MULTILINGUAL_CONFIG, **MULTILINGUAL_CONTENT} if languages \
        else {"hugo.toml": config + taxonomies, **CONTENT}
    for folder, names in layouts.items():
        for relative in names:
            files[f"{folder}/{relative}"] = _layout_text(f"{folder}/{relative}", relative, with_base)
    if root.exists():
        shutil.rmtree(root)
    return write_files(root, files)


def _tag(site: Path, file: Path | None) -> str:
    return "" if file is None else file.relative_to(site).as_posix()


def _check(site: Path, public: Path, theme: str | list[str] | None, with_base: bool,
           languages: bool = False) -> set[Path]:
    """Every page's file and base as Hugo rendered them equal the module's; the layout files Hugo used."""
    store = LayoutStore(layout_folders(site, theme), taxonomies=TAXONOMIES, languages=("en", "fr") if languages else ())
    used: set[Path] = set()
    problems = []
    new_structure = all(not name.startswith(("_default/", "section/", "taxonomy/")) and "-baseof" not in name
                        and name.rsplit("/", 1)[-1] not in ("index.html", "terms.html")
                        for folder in layout_folders(site, theme) for name in _names(folder))
    for output, query in (MULTILINGUAL_PAGES if languages else PAGES).items():
        choice = lookup(store, query)
        rendered = (public / output).read_text(encoding="utf-8").strip() if (public / output).exists() else None
        if choice.template is None:
            expected: str | None = None      # Hugo's embedded template, or no page at all
            if rendered is not None and ("LAYOUT:" in rendered or "RSS:" in rendered or "BASE:" in rendered):
                problems.append(f"{output}: hugo rendered {rendered!r}, the module found no layout")
            continue
        used.add(choice.template)
        if new_structure:
            searched = search_order(query, taxonomies=TAXONOMIES, languages=store.languages)
            if not any(choice.template.as_posix().endswith("/layouts/" + path) for path in searched):
                problems.append(f"{output}: {choice.template} is not in search_order {searched}")
        layout = "LAYOUT:" + _tag(site, choice.template)
        if choice.base is not None:
            used.add(choice.base)
            expected = "BASE:" + _tag(site, choice.base) + "|" + layout
        elif with_base and needs_base(choice.template.read_text(encoding="utf-8")):
            expected = ""
        else:
            expected = layout
        if rendered != expected:
            problems.append(f"{output} ({query}): hugo {rendered!r}, module {expected!r}; "
                            f"candidates {[_tag(site, path) for path in choice.candidates[:4]]}")
    assert not problems, "\n".join(problems)
    return used


def _names(folder: Path) -> list[str]:
    return [path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()]


def _every_fallback(tmp_path: Path, layouts: dict[str, list[str]], theme: str | list[str] | None,
                    with_base: bool, languages: bool = False) -> int:
    """Build, check, take away the layouts Hugo used (not the bases), again until none is left."""
    layouts = {folder: list(names) for folder, names in layouts.items()}
    runs = 0
    while any(layouts.values()) and runs < 12:
        site = _site(tmp_path / f"site{runs}", layouts, theme, with_base, languages)
        public = hugo_build(site, tmp_path / f"public{runs}")
        used = _check(site, public, theme, with_base, languages)
        runs += 1
        left = {folder: [name for name in names if (site / folder / name) not in used
                         or name.rsplit("/", 1)[-1].startswith("baseof") or "-baseof" in name]
                for folder, names in layouts.items()}
        if left == layouts:
            break
        layouts = left
    return runs


# Themes' layout files as they name them (the names only; every file here prints its own name).
THEME_SHAPES = {
    "papermod-like": ["404.html", "archives.html", "baseof.html", "index.json", "list.html", "rss.xml",
                      "search.html", "single.html", "taxonomy.html"],
    "loveit-like": ["404.html", "baseof.html", "home.html", "home.rss.xml", "posts/rss.xml", "posts/single.html",
                    "home.json", "section.html", "single.html", "sitemap.xml", "summary.html", "tags/taxonomy.html",
                    "taxonomy.html", "term.html", "term.rss.xml"],
    "stack-like": ["404.html", "archives.html", "baseof.html", "home.html", "list.html", "page/search.html",
                   "rss.xml", "single.html"],
}


@pytest.mark.parametrize("layouts, theme, with_base", [
    pytest.param({"layouts": CLASSIC}, None, False, id="classic"),
    pytest.param({"layouts": NEW}, None, False, id="new"),
    pytest.param({"layouts": CLASSIC + BASES_CLASSIC}, None, True, id="classic-baseof"),
    pytest.param({"layouts": NEW + BASES_NEW}, None, True, id="new-baseof"),
    pytest.param({"layouts": NEW[::3] + ["baseof.html"], "themes/t/layouts": CLASSIC + BASES_CLASSIC}, "t", True,
                 id="site-over-theme"),
    pytest.param({"themes/a/layouts": CLASSIC[::2] + ["posts/list.html"],
                  "themes/b/layouts": CLASSIC[1::2] + NEW[:6]}, ["a", "b"], False, id="two-themes"),
    *(pytest.param({"themes/t/layouts": names, "layouts": ["posts/single.html", "_default/list.html"]}, "t", True,
                   id=shape) for shape, names in THEME_SHAPES.items()),
])
def test_the_module_picks_the_layout_hugo_renders(tmp_path: Path, layouts: dict[str, list[str]],
                                                  theme: str | list[str] | None, with_base: bool) -> None:
    assert _every_fallback(tmp_path, layouts, theme, with_base) >= 2


def test_a_languages_own_layouts_win_for_its_pages(tmp_path: Path) -> None:
    """single.fr.html, list.fr.html, posts/single.en.html, …: a file named for a language serves that
    language's pages only, and beats the same file without one."""
    assert _every_fallback(tmp_path, {"layouts": MULTILINGUAL}, None, False, languages=True) >= 2


def test_partials_and_shortcodes_are_found_where_hugo_finds_them(tmp_path: Path) -> None:
    """The site's folder before the theme's; within one folder _partials/ before partials/ and _shortcodes/
    before shortcodes/ (load_go_templates reads them in the same order)."""
    from blogbuild.hugo.gotemplate import load_go_templates
    files = {
        "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "T"\ntheme = "t"\n',
        "content/_index.md": "---\ntitle: H\n---\n{{< s >}}\n",
        "layouts/partials/p.html": "layouts/partials/p.html", "themes/t/layouts/_partials/p.html": "theme p",
        "layouts/partials/q.html": "layouts/partials/q.html", "layouts/_partials/q.html": "layouts/_partials/q.html",
        "themes/t/layouts/partials/r.html": "themes/t/layouts/partials/r.html",
        "themes/t/layouts/_partials/r.html": "themes/t/layouts/_partials/r.html",
        "layouts/shortcodes/s.html": "layouts/shortcodes/s.html", "layouts/_shortcodes/s.html": "layouts/_shortcodes/s.html",
        "layouts/home.html": '{{ partial "p.html" . }}|{{ partial "q.html" . }}|{{ partial "r" . }}|{{ .Content }}',
    }
    site = write_files(tmp_path / "site", files)
    rendered = (hugo_build(site, tmp_path / "public") / "index.html").read_text(encoding="utf-8")
    folders = layout_folders(site, "t")
    ours = [partial_file(folders, "p.html"), partial_file(folders, "q.html"), partial_file(folders, "r"),
            shortcode_file(folders, "s")]
    shown = [path.relative_to(site).as_posix() if path else "" for path in ours]
    assert rendered.replace("<p>", "").replace("</p>", "").strip() == "|".join(shown)
    go = load_go_templates(site)
    assert [go.partials["q.html"].path, go.shortcodes["s"].path] == shown[1:2] + shown[3:]
    assert partial_file(folders, "../hugo.toml") is None


def test_a_symlink_loop_in_a_layout_folder_is_walked_once(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "layouts", {"single.html": "x", "posts/list.html": "y"})
    (folder / "posts" / "again").symlink_to(folder, target_is_directory=True)
    store = LayoutStore([folder])
    assert lookup(store, PageQuery("page", "posts/one")).template == folder / "single.html"
    assert lookup(store, PageQuery("section", "posts")).template == folder / "posts/list.html"
