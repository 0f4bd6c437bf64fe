"""Rules of Hugo's that real blogs lean on, each a fixture site built by the hugo binary and by blogbuild, whose
outputs are compared: a bundle's files of any suffix (Hugo's media types, else the system's MIME table, else
none), an output format a page's front matter names without a layout for it, front matter keys in any case on a
site configured by a config/_default/ folder, a title holding a "/" in a permalink, a content folder two languages
share, and a draft bundle's files."""
from __future__ import annotations

import re
from pathlib import Path

from support.files import write_files as _write
from support.hugo_build import blogbuild_files, hugo_files


def _both(tmp_path: Path, files: dict[str, str]) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    """(Hugo's files, blogbuild's files, blogbuild's warnings) of the same site, each built in its own copy."""
    hugo = hugo_files(_write(tmp_path / "hugo", files), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(_write(tmp_path / "ours", files))
    return hugo, ours, warnings


def _fell_back(warnings: list) -> list[str]:
    return [str(warning) for warning in warnings if "default theme renders the pages" in str(warning)]


def _text(files: dict[str, bytes], path: str) -> str:
    return files[path].decode("utf-8").strip()


RESOURCE = ("[{{ .Name }}|{{ .MediaType }}|{{ .MediaType.String }}|{{ .MediaType.MainType }}|{{ .MediaType.SubType }}|{{ .ResourceType }}|"
            "{{ .RelPermalink }}|{{ .MediaType.Suffixes }}|{{ .MediaType.FirstSuffix.Suffix }}]\n")
BUNDLE = ("README", "Makefile", "PIC.JPG", "h.jpe", "a.PY", "p.py", "x.code-workspace", "notes.weird", "doc.docx",
          "s.sh", "y.zip", "z.ipynb", "b.tar.gz", "a.xml", "g.rss", "m.JSON", "k.webmanifest", "l.gotmpl")
SITE = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Rules"\n',
    "layouts/_default/list.html": "{{ range .Pages }}{{ .RelPermalink }} {{ end }}\n",
}


def test_a_bundles_files_of_any_suffix_have_hugos_media_types_and_order(tmp_path: Path) -> None:
    files = {**SITE, "content/posts/a/index.md": "---\ntitle: A\n---\nHello\n",
             "layouts/_default/single.html": ("{{ range .Resources }}" + RESOURCE + "{{ end }}"
                                              'images: {{ range .Resources.ByType "image" }}{{ .Name }} {{ end }}\n'
                                              'found: {{ with .Resources.GetMatch "*.code-workspace" }}{{ .Name }} '
                                              "{{ .Content }}{{ end }}\n"),
             "layouts/index.html": ('{{ range resources.Match "css/*" }}{{ .Name }} {{ end }}\n'
                                    '{{ with resources.Get "data.weird" }}{{ .Name }}|{{ .MediaType }}|'
                                    "{{ .Content }}{{ end }}\n"),
             "assets/data.weird": "kept", "assets/css/b.css": "b{}", "assets/css/A.css": "a{}",
             "assets/css/C.css": "c{}"}
    files.update({f"content/posts/a/{name}": f"{name}\n" for name in BUNDLE})
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "posts/a/index.html") == _text(hugo, "posts/a/index.html")
    assert _text(ours, "index.html") == _text(hugo, "index.html")
    assert "[x.code-workspace||||||/posts/a/x.code-workspace|[]|]" in _text(ours, "posts/a/index.html")
    assert {name for name in ours if name.startswith("posts/a/")} == {name for name in hugo if
                                                                     name.startswith("posts/a/")}


def test_an_output_format_with_no_layout_for_the_page_is_left_out_with_a_warning(tmp_path: Path) -> None:
    files = {**SITE, "content/contact.md": "---\ntitle: Contact\nlayout: contact\noutputs: [html, json]\n---\nMe.\n",
             "content/posts/b.md": "---\ntitle: B\noutputs: [html, json]\n---\nB.\n",
             "layouts/_default/single.html": "<h1>{{ .Title }}</h1>\n",
             "layouts/posts/single.json": '{"title": {{ .Title | jsonify }}}\n'}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert "contact/index.json" not in hugo and "contact/index.json" not in ours
    assert _text(ours, "contact/index.html") == _text(hugo, "contact/index.html") == "<h1>Contact</h1>"
    assert _text(ours, "posts/b/index.json") == _text(hugo, "posts/b/index.json")
    assert [str(warning) for warning in warnings if "index" not in str(warning) and "json" in str(warning)] == [
        "content/contact.md:1: warning: no layout of the site writes this page as json (its front matter's "
        "outputs): it is written without it, as Hugo writes it; add a json layout that fits it, or take json "
        "out of outputs"]


def test_front_matter_keys_in_any_case_on_a_site_configured_by_a_folder(tmp_path: Path) -> None:
    files = {"config/_default/hugo.yaml": 'baseURL: "https://example.org/"\ntitle: Rules\n',
             "layouts/_default/list.html": "{{ range .Pages }}{{ .RelPermalink }} {{ end }}\n",
             "layouts/_default/single.html": "<h1>{{ .Title }}</h1>{{ .Params.categories }}\n",
             "content/posts/a.md": "---\nTitle: Upper\nCategories: [Cloud, GCP]\nTags:\n- Pulumi\n---\nA.\n",
             "content/posts/b.md": "---\ntitle: Hidden\nDraft: true\n---\nB.\n",
             "content/posts/c.md": "---\ntitle: Lower\ncategories: [cloud]\n---\nC.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    pages = {name for name in hugo if name.endswith(".html")}
    assert {name for name in ours if name.endswith(".html")} == pages
    assert {"categories/gcp/index.html", "tags/pulumi/index.html"} <= pages and "posts/b/index.html" not in pages
    assert _text(ours, "posts/a/index.html") == _text(hugo, "posts/a/index.html")


def test_a_title_holding_a_slash_is_one_segment_of_its_permalink(tmp_path: Path) -> None:
    titles = ("A/B Testing", "Hugo w/ Math", "x / y", "a//b", "TCP/IP and UDP")
    files = {"hugo.toml": SITE["hugo.toml"] + '[permalinks]\nposts = "/p/:slug/"\n[taxonomies]\n',
             "layouts/_default/list.html": SITE["layouts/_default/list.html"],
             "layouts/_default/single.html": "{{ .Title }}\n"}
    files.update({f"content/posts/p{index}.md": f'---\ntitle: "{title}"\n---\nText.\n'
                  for index, title in enumerate(titles)})
    hugo, ours, warnings = _both(tmp_path, files)
    assert {name for name in ours if name.startswith("p/")} == {name for name in hugo if name.startswith("p/")}
    assert "p/hugo-w-math/index.html" in ours and "p/a-b-testing/index.html" in ours


def test_languages_sharing_a_content_folder_publish_each_of_its_files_once(tmp_path: Path) -> None:
    files = {"hugo.toml": (SITE["hugo.toml"] + 'defaultContentLanguage = "en"\n[languages.en]\nweight = 1\n'
                           "[languages.it]\nweight = 2\n"),
             "layouts/_default/list.html": SITE["layouts/_default/list.html"],
             "layouts/_default/single.html": ('{{ .Title }}{{ range .Resources }} {{ .RelPermalink }}{{ end }}\n'),
             "content/img/loose.png": "png", "content/posts/notes.txt": "loose",
             "content/posts/x/index.md": "---\ntitle: X\n---\nEnglish.\n",
             "content/posts/x/index.it.md": "---\ntitle: X it\n---\nItaliano.\n", "content/posts/x/pic.png": "png"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)

    def copied(files: dict[str, bytes]) -> set[str]:
        return {name for name in files if name.endswith((".png", ".txt")) and "vendor/" not in name}
    assert copied(ours) == copied(hugo)
    assert "it/img/loose.png" not in ours and "it/posts/x/pic.png" not in ours
    assert _text(ours, "it/posts/x/index.html") == _text(hugo, "it/posts/x/index.html")


def test_a_draft_bundle_publishes_none_of_its_files(tmp_path: Path) -> None:
    files = {**SITE, "layouts/_default/single.html": "{{ .Title }}\n",
             "content/posts/draft/index.md": "---\ntitle: Draft\ndraft: true\n---\nNot yet.\n",
             "content/posts/draft/cover.jpg": "jpg", "content/posts/draft/notes/plan.txt": "plan",
             "content/posts/live/index.md": "---\ntitle: Live\n---\nHere.\n", "content/posts/live/cover.jpg": "jpg"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert {name for name in ours if name.startswith("posts/")} == {name for name in hugo if
                                                                     name.startswith("posts/")}
    assert "posts/live/cover.jpg" in ours and not any(name.startswith("posts/draft/") for name in ours)


def test_a_processed_image_keeps_its_sources_suffix_unless_converted(tmp_path: Path) -> None:
    from PIL import Image
    files = {**SITE, "content/posts/a/index.md": "---\ntitle: A\n---\nx\n",
             "layouts/_default/single.html": ('{{ range .Resources.ByType "image" }}{{ (.Resize "10x").RelPermalink }} '
                                              '{{ (.Resize "10x webp").RelPermalink }} {{ end }}\n')}
    for site in ("hugo", "ours"):
        _write(tmp_path / site, files)
        for name in ("a.jpeg", "B.JPG", "c.jpe", "d.png", "e.JPEG"):
            Image.new("RGB", (40, 30), (200, 10, 10)).save(tmp_path / site / "content/posts/a" / name,
                                                          "PNG" if name.endswith("png") else "JPEG")
    hugo = hugo_files(tmp_path / "hugo", tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(tmp_path / "ours")
    assert not _fell_back(warnings)

    def named(files: dict[str, bytes]) -> list[str]:   # the hash in the names is each tool's own
        return sorted(re.sub(r"_hu_[0-9a-f]+", "_hu_", link) for link in _text(files, "posts/a/index.html").split())
    assert named(ours) == named(hugo)
    assert "/posts/a/B_hu_.JPG" in named(ours) and "/posts/a/c_hu_.webp" in named(ours)


def test_the_top_level_disqus_shortname_feeds_hugos_disqus_partial(tmp_path: Path) -> None:
    files = {"hugo.toml": SITE["hugo.toml"] + 'disqusShortname = "blog-x"\n',
             "layouts/_default/list.html": SITE["layouts/_default/list.html"],
             "layouts/_default/single.html": '<main>{{ partial "disqus.html" . }}</main>\n',
             "content/posts/a.md": "---\ntitle: A\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert "blog-x" in _text(hugo, "posts/a/index.html")
    assert _text(ours, "posts/a/index.html") == _text(hugo, "posts/a/index.html")
    assert not [warning for warning in warnings if "disqusShortname" in str(warning)]


def test_a_resource_s_publish_writes_its_file_and_prints_nothing(tmp_path: Path) -> None:
    """`.Publish` (LoveIt publishes its icon fonts and gallery images this way when it loads its libraries from its
    own assets, its default) writes the resource at its path, fingerprinted or not, and prints nothing."""
    files = {**SITE, "content/posts/a.md": "---\ntitle: A\n---\nA.\n",
             "layouts/_default/single.html": "<h1>{{ .Title }}</h1>\n",
             "layouts/index.html": ('[{{ range resources.Match "lib/fonts/*" }}{{ .Publish }}{{ end }}]'
                                    '[{{ (resources.Get "lib/images/loading.gif").Publish }}]'
                                    '[{{ (resources.Get "lib/app.css" | resources.Minify | fingerprint).Publish }}]\n'),
             "assets/lib/fonts/a.woff2": "font a", "assets/lib/fonts/b.ttf": "font b",
             "assets/lib/images/loading.gif": "GIF89a", "assets/lib/app.css": "body { color: red; }\n",
             "assets/lib/unused.js": "1"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "index.html") == _text(hugo, "index.html") == "[][][]"
    published = {name for name in hugo if name.startswith("lib/")}
    assert len(published) == 4 and {name for name in ours if name.startswith("lib/")} == published
    assert all(ours[name] == hugo[name] for name in published if not name.endswith(".css"))


def test_hugo_sites_is_every_languages_site(tmp_path: Path) -> None:
    """`hugo.Sites` (Hugo 0.156; LoveIt's language switch and its init.html) is `.Site.Sites`: every language's
    site, the default language first, with `.Default`."""
    shown = ('{{ range hugo.Sites }}[{{ .Language.Lang }} {{ .Title }} {{ .LanguagePrefix }} {{ .Language.Label }}]'
             '{{ end }}'
             '|{{ eq .Site hugo.Sites.Default }}|{{ hugo.Sites.Default.Language.Lang }}|{{ len hugo.Sites }}\n')
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\ndefaultContentLanguage = "it"\n'
                           '[languages.en]\nweight = 1\ntitle = "English"\n[languages.it]\nweight = 2\ntitle = "Italiano"\n'),
             "layouts/_default/list.html": shown, "layouts/_default/single.html": shown,
             "content/a.md": "---\ntitle: A it\n---\nA.\n", "content/a.en.md": "---\ntitle: A\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for path in ("index.html", "en/index.html", "a/index.html", "en/a/index.html"):
        assert _text(ours, path) == _text(hugo, path), path
    assert _text(ours, "index.html").endswith("|true|it|2")


def test_a_kind_no_layout_fits_is_left_out_and_the_rest_built(tmp_path: Path) -> None:
    """An old theme's `taxonomy/list.html` fits no term page in Hugo 0.146 on: Hugo writes no term page (nor the
    aliases that lead to one), warns, and builds every other page with the site's layouts; so does blogbuild,
    where it sent the whole site back to its default theme."""
    files = {"hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Rules"\n[pagination]\npagerSize = 1\n',
             "layouts/index.html": "home {{ range .Paginator.Pages }}{{ .RelPermalink }} {{ end }}\n",
             "layouts/_default/single.html": "single {{ .Title }} {{ range .GetTerms \"tags\" }}{{ .RelPermalink }}"
                                             "{{ end }}\n",
             "layouts/_default/section.html": "section {{ range .Paginator.Pages }}{{ .RelPermalink }} {{ end }}\n",
             "layouts/taxonomy/terms.html": "terms {{ range .Pages }}{{ .RelPermalink }} {{ end }}\n",
             "layouts/taxonomy/list.html": "old term {{ .Title }}\n",
             "content/posts/a.md": "---\ntitle: A\ntags: [go]\naliases: [/old-a/]\n---\nA.\n",
             "content/posts/b.md": "---\ntitle: B\ntags: [go, rust]\n---\nB.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    shown = {path for path in hugo if path.endswith(".html")}
    assert shown == {path for path in ours if path.endswith(".html")}
    assert not [path for path in hugo if path.startswith("tags/go/") and path.endswith(".html")]
    for path in sorted(shown):
        assert _text(ours, path) == _text(hugo, path), path
    assert [str(warning) for warning in warnings if "no layout of the site fits" in str(warning)] == [
        "layouts/:1: warning: no layout of the site fits a term page (/tags/go/ and 2 more): they are not written, "
        "as Hugo writes none; add a layout for them (layouts/_default/term.html, or list.html)"]


def test_a_paginator_unasked_pages_what_hugo_pages(tmp_path: Path) -> None:
    """`.Paginator` without `.Paginate` first: the home page pages every regular page of the site, a section its
    own regular pages (not its subsections), a taxonomy and a term their pages."""
    files = {"hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Rules"\n[pagination]\npagerSize = 10\n',
             "layouts/_default/list.html": "{{ .Kind }}: {{ range .Paginator.Pages }}{{ .RelPermalink }} {{ end }}\n",
             "layouts/_default/single.html": "{{ .Title }}\n",
             "content/posts/a.md": "---\ntitle: A\n---\nA.\n", "content/posts/b.md": "---\ntitle: B\n---\nB.\n",
             "content/top.md": "---\ntitle: Top\n---\nT.\n", "content/posts/sub/_index.md": "---\ntitle: Sub\n---\n",
             "content/posts/sub/c.md": "---\ntitle: C\ntags: [t]\n---\nC.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for path in ("index.html", "posts/index.html", "posts/sub/index.html", "tags/index.html", "tags/t/index.html"):
        assert _text(ours, path) == _text(hugo, path), path
    assert _text(ours, "posts/index.html") == "section: /posts/a/ /posts/b/"


def test_a_leaf_bundles_other_content_files_are_its_resources_of_type_page(tmp_path: Path) -> None:
    """A leaf bundle's other content file (notes.md beside index.md) is among its page's `.Resources`, as in Hugo:
    of type page, titled and given params by its front matter, with no URL, never published; images before it."""
    files = {**SITE, "content/posts/a/index.md": "---\ntitle: A\n---\nA.\n",
             "content/posts/a/temp.md": "---\ntitle: Temp note\nx: 1\n---\nTemp *body*.\n",
             "content/posts/a/sub/more.md": "No front matter.\n", "content/posts/a/p.png": "P",
             "layouts/_default/single.html": ('{{ range .Resources }}[{{ .Name }}|{{ .ResourceType }}|{{ .Title }}|'
                                              '{{ .RelPermalink }}|{{ .MediaType }}]{{ end }}\n'
                                              'img: {{ range .Resources.ByType "image" }}{{ .Name }}{{ end }}\n'
                                              'page: {{ range .Resources.ByType "page" }}{{ .Name }} {{ .Kind }} '
                                              '{{ .Params.x }};{{ end }}\n'
                                              'match: {{ with .Resources.GetMatch "*.md" }}{{ .Title }}{{ end }}\n')}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "posts/a/index.html") == _text(hugo, "posts/a/index.html")
    assert "[temp.md|page|Temp note||application/octet-stream]" in _text(ours, "posts/a/index.html")
    assert {name for name in ours if name.startswith("posts/a/")} == {name for name in hugo if
                                                                     name.startswith("posts/a/")}


def test_keywords_in_any_form_are_read_as_hugo_reads_them(tmp_path: Path) -> None:
    """A page's keywords as cast.ToStringSlice reads them: a text's words, a list's scalars as text, none for a
    list holding a map (a YAML `key: value` item); .Related by the keywords index follows them."""
    page = ("[{{ range .Site.RegularPages.Related . }}{{ .Title }} {{ end }}]"
            "[{{ range .Keywords }}({{ . }}){{ end }}]\n")
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[related]\nthreshold = 0\n'
                           'includeNewer = true\n[[related.indices]]\nname = "keywords"\nweight = 100\n'),
             "layouts/_default/list.html": "L\n", "layouts/_default/single.html": page,
             "content/posts/a.md": '---\ntitle: a\nkeywords: ["x", {"SLUB": "mem"}, "y"]\n---\nA.\n',
             "content/posts/c.md": '---\ntitle: c\nkeywords: ["y", "k2"]\n---\nC.\n',
             "content/posts/d.md": '---\ntitle: d\nkeywords: "k1, k2 k3"\n---\nD.\n',
             "content/posts/e.md": '---\ntitle: e\nkeywords: [1, true, 2.5, "s", "y"]\n---\nE.\n'}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for name in "acde":
        assert _text(ours, f"posts/{name}/index.html") == _text(hugo, f"posts/{name}/index.html"), name
    assert _text(ours, "posts/d/index.html").endswith("[(k1,)(k2)(k3)]")


def test_what_themes_before_hugo_0_124_read_of_the_site_is_there(tmp_path: Path) -> None:
    """.Site.LastChange, .Author, .Social, .GoogleAnalytics, .DisqusShortname and .IsMultiLingual, which old
    PaperMod and Stack themes read (Hugo 0.168 no longer has them, so the oracle is not asked): what the Hugo of
    their time gave, from the config."""
    from support.hugo_build import blogbuild_files
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\ngoogleAnalytics = "G-ABC123"\n'
                           'disqusShortname = "blog"\n[author]\nname = "Ann"\nemail = "ann@example.org"\n'
                           '[social]\ntwitter = "ann"\nfacebook_admin = "fb"\n'),
             "layouts/_default/list.html": ("{{ eq .Site.LastChange .Site.Lastmod }}|{{ .Site.Author.name }}|"
                                            "{{ .Site.Author.email }}|{{ site.Social.twitter }}|"
                                            "{{ site.Social.facebook_admin }}|{{ .Site.GoogleAnalytics }}|"
                                            "{{ .Site.DisqusShortname }}|{{ .Site.IsMultiLingual }}|"
                                            "{{ .Site.LastChange.Year }}\n"),
             "layouts/_default/single.html": "S\n",
             "content/posts/a.md": "---\ntitle: a\ndate: 2024-05-06\n---\nA.\n"}
    ours, warnings = blogbuild_files(_write(tmp_path / "ours", files))
    assert not _fell_back(warnings)
    assert _text(ours, "index.html") == "true|Ann|ann@example.org|ann|fb|G-ABC123|blog|false|2024"


def test_a_config_folders_key_file_merges_over_the_main_files_key(tmp_path: Path) -> None:
    """config/_default/params.toml over hugo.toml's [params]: merged map by map, the key's own file winning (a
    list, menus' entries, replaced), as Hugo merges them; and relURL of a URL under the base URL is its path."""
    files = {"config/_default/hugo.toml": ('baseURL = "https://example.org/blog/"\ntitle = "Rules"\n[params]\na = 1\n'
                                           'b = 1\n[params.m]\nx = 1\ny = 1\n[menus]\n[[menus.main]]\nname = "One"\n'
                                           'url = "/one/"\n'),
             "config/_default/params.toml": "b = 2\nc = 2\n[m]\ny = 2\nz = 2\n",
             "config/_default/menus.toml": '[[main]]\nname = "Two"\nurl = "/two/"\n',
             "layouts/partials/p.html": "{{ with . }}{{ .Title }}{{ else }}nil{{ end }}",
             "layouts/_default/list.html": ("{{ .Site.Params.a }}|{{ .Site.Params.b }}|{{ .Site.Params.c }}|"
                                            "{{ .Site.Params.m }}|{{ range .Site.Menus.main }}{{ .Name }} {{ end }}|"
                                            '{{ .Site.BaseURL | relURL }}|{{ .Site.BaseURL | relLangURL }}|'
                                            '{{ "https://example.org/blog/x/" | relURL }}|{{ "https://example.org/y" | relURL }}|'
                                            '{{ partial "p" . .RelPermalink "more" }}\n'),
             "layouts/_default/single.html": "S\n", "content/a.md": "---\ntitle: A\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "index.html") == _text(hugo, "index.html")
    assert _text(ours, "index.html").startswith("1|2|2|map[x:1 y:2 z:2]|Two |/blog|/blog|/blog/x/|")


def test_a_module_import_of_a_folder_under_themes_is_the_sites_theme(tmp_path: Path) -> None:
    """`module.imports` naming a path Hugo finds under themes/ (a theme imported as a module, with no `theme`
    key) is the site's theme: its layouts render the site; a disabled import is not."""
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[module]\n[[module.imports]]\n'
                           'path = "off"\ndisable = true\n[[module.imports]]\npath = "t"\n'),
             "themes/t/layouts/_default/list.html": "theme list {{ .Title }}\n",
             "themes/t/layouts/_default/single.html": "theme single {{ .Title }}\n",
             "themes/off/layouts/_default/single.html": "disabled {{ .Title }}\n",
             "content/a.md": "---\ntitle: A\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for path in ("index.html", "a/index.html"):
        assert _text(ours, path) == _text(hugo, path), path
    assert _text(ours, "a/index.html") == "theme single A"


def test_a_goldmark_parser_attribute_written_as_a_bool_is_its_title_setting(tmp_path: Path) -> None:
    """`markup.goldmark.parser.attribute = true`, a bool before Hugo 0.81, which Hugo 0.168 still reads as the
    headings' attributes on and the blocks' off."""
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[markup.goldmark.parser]\n'
                           "attribute = true\n"),
             "layouts/_default/single.html": "{{ .Content }}", "layouts/_default/list.html": "L\n",
             "content/a.md": "---\ntitle: A\n---\n## Head {#hid .hc}\n\nPara\n{.pc}\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "a/index.html") == _text(hugo, "a/index.html")
    assert '<h2 id="hid" class="hc">Head</h2>' in _text(ours, "a/index.html")


def test_process_names_the_action_and_its_options_in_one_text(tmp_path: Path) -> None:
    """`.Process SPEC` (Hugo 0.119): "fit 20x10", "crop 10x10 jpg", a bundle's image or an asset; options alone
    ("webp q80") convert at the image's size; the same sizes and types as Hugo's, and what it publishes."""
    import io
    from PIL import Image

    def png(size: tuple[int, int]) -> bytes:
        buffer = io.BytesIO()
        Image.new("RGB", size, "red").save(buffer, "PNG")
        return buffer.getvalue()
    layout = ('{{ with .Resources.Get "p.png" }}{{ with .Process "fit 20x10" }}{{ .Width }}x{{ .Height }} '
              '{{ .MediaType }}|{{ end }}{{ with .Process "webp q80" }}{{ .Width }}x{{ .Height }} {{ .MediaType }}|'
              '{{ end }}{{ with .Process "Crop 10x10 jpg" }}{{ .Width }}x{{ .Height }} {{ .MediaType }}{{ end }}'
              '{{ end }}{{ with resources.Get "q.png" }}|{{ (.Process "resize 8x").Width }}{{ end }}\n')
    files = {**SITE, "layouts/_default/single.html": layout, "content/a/index.md": "---\ntitle: A\n---\nA.\n"}
    for site in (tmp_path / "hugo", tmp_path / "ours"):
        _write(site, files)
        (site / "content" / "a" / "p.png").write_bytes(png((40, 30)))
        (site / "assets").mkdir()
        (site / "assets" / "q.png").write_bytes(png((16, 4)))
    from support.hugo_build import blogbuild_files, hugo_files
    hugo = hugo_files(tmp_path / "hugo", tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(tmp_path / "ours")
    assert not _fell_back(warnings)
    assert _text(ours, "a/index.html") == _text(hugo, "a/index.html") == \
        "13x10 image/png|40x30 image/webp|10x10 image/jpeg|8"
    assert {name for name in ours if name.startswith("a/")} == {name for name in hugo if name.startswith("a/")}


def test_an_image_alone_in_its_paragraph_unwrapped_and_image_config(tmp_path: Path) -> None:
    """`wrapStandAloneImageWithinParagraph = false`: an image alone in its paragraph is written without the
    paragraph (a hook's `.IsBlock`), one among text is not; `imageConfig` (images.Config) gives a site file's
    size. With and without a render-image hook, as Hugo writes them."""
    import io
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (30, 20), "red").save(buffer, "PNG")
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[markup.goldmark.parser]\n'
                           "wrapStandAloneImageWithinParagraph = false\n"),
             "layouts/_default/single.html": ('{{ .Content }}|{{ with imageConfig "static/i.png" }}{{ .Width }}x'
                                              '{{ .Height }}{{ end }}|{{ (images.Config "static/i.png").Width }}'),
             "layouts/_default/list.html": "L\n", "static/i.png": buffer.getvalue(),
             "content/a.md": '---\ntitle: A\n---\n![x](p.png)\n\nText ![y](q.png) more\n\n![z](r.png "T")\n## H\n'}
    hook = {"layouts/_default/_markup/render-image.html": "[{{ .Destination }}|{{ .IsBlock }}|{{ .Text }}]"}
    for name, given in (("plain", files), ("hooked", {**files, **hook})):
        hugo, ours, warnings = _both(tmp_path / name, given)
        assert not _fell_back(warnings)
        assert _text(ours, "a/index.html") == _text(hugo, "a/index.html"), name
    assert _text(ours, "a/index.html").startswith("[p.png|true|x]<p>Text [q.png|false|y] more</p>")
    assert _text(ours, "a/index.html").endswith("|30x20|30")


def test_a_list_pages_own_aliases_redirect_to_it(tmp_path: Path) -> None:
    """aliases in a section's, a term's, a taxonomy's and the home page's _index.md are written, as Hugo writes
    any page's (a term page keeping its old tags' URLs)."""
    files = {**SITE, "layouts/_default/single.html": "S {{ .Title }}\n",
             "content/_index.md": "---\ntitle: Home\naliases: [/start/]\n---\n",
             "content/posts/_index.md": "---\ntitle: Posts\naliases: [/blog/, /articles/]\n---\n",
             "content/tags/_index.md": "---\ntitle: Tags\naliases: [/labels/]\n---\n",
             "content/tags/amiga/_index.md": '---\ntitle: Amiga\naliases: ["/tags/a1200/", "/tags/amigaos/"]\n---\n',
             "content/posts/a.md": "---\ntitle: A\ntags: [amiga]\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    aliases = ("start/index.html", "blog/index.html", "articles/index.html", "labels/index.html",
               "tags/a1200/index.html", "tags/amigaos/index.html")
    for path in aliases:
        assert path in hugo and ours.get(path) == hugo[path], path


def test_rel_urls_resolve_dot_segments_as_go_joins_them(tmp_path: Path) -> None:
    """relURL and relLangURL join a relative path as Go's path.Join does, `.` and `..` resolved (a LoveIt menu's
    `url: ../` in the English site is the whole site's root), a last slash kept; in a language's site and not."""
    shown = ('{{ "../" | relLangURL }}|{{ "a/../b/" | relURL }}|{{ "./c" | relURL }}|{{ "../x" | relURL }}|'
             '{{ "posts/" | relLangURL }}|{{ "" | relLangURL }}|{{ "a/./b" | relLangURL }}\n')
    files = {"hugo.toml": ('baseURL = "https://example.org/blog/"\ntitle = "Rules"\ndefaultContentLanguage = "zh"\n'
                           "[languages.zh]\nweight = 1\n[languages.en]\nweight = 2\n"),
             "layouts/_default/list.html": shown, "layouts/_default/single.html": "S\n",
             "content/a.md": "---\ntitle: A\n---\nA.\n", "content/a.en.md": "---\ntitle: A\n---\nA.\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for path in ("index.html", "en/index.html"):
        assert _text(ours, path) == _text(hugo, path), path
    assert _text(ours, "en/index.html").startswith("/blog/|")


def test_a_hooks_destination_is_the_url_as_written(tmp_path: Path) -> None:
    """A render hook's `.Destination` is the URL as written, percent-escapes as they are (`%E7%81%B0`, `%e7`) and
    non-ASCII as it is, in the hook's text and in an href."""
    hook = '[{{ .Destination }}]<a href="{{ .Destination | safeURL }}">x</a><a href="{{ .Destination }}">y</a>'
    files = {**SITE, "layouts/_default/single.html": "{{ .Content }}",
             "layouts/_default/_markup/render-link.html": hook,
             "layouts/_default/_markup/render-image.html": "[{{ .Destination }}]",
             "content/a.md": ("---\ntitle: A\n---\n[a](https://a.org/item/%E7%81%B0/8?q=%e7) [b](/x/%C3%A9) "
                              "[c](/y/é) ![d](/i/%E7.png) [e][r]\n\n[r]: /ref/%C3%A9\n")}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "a/index.html") == _text(hugo, "a/index.html")
    assert "[https://a.org/item/%E7%81%B0/8?q=%e7]" in _text(ours, "a/index.html")


def test_one_tilde_strikes_through_as_goldmark_does(tmp_path: Path) -> None:
    """goldmark's strikethrough takes one tilde or two (a Chinese post's "4~6次…10~15秒" is struck through in Hugo,
    and its word count is Hugo's); three are text."""
    files = {**SITE, "hugo.toml": SITE["hugo.toml"] + "hasCJKLanguage = true\n",
             "layouts/_default/single.html": "{{ .WordCount }}{{ .Content }}",
             "content/a.md": "---\ntitle: A\n---\n每分钟4~6次，每次10~15秒 ~a~ ~~b~~ ~~~c~~~ a~b~c x ~ y\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "a/index.html") == _text(hugo, "a/index.html")
    assert "<del>a</del> <del>b</del> ~~~c~~~" in _text(ours, "a/index.html")


def test_a_module_import_blogbuild_cannot_fetch_is_named_with_what_to_do(tmp_path: Path) -> None:
    """A Go module path in module.imports, not under themes/: one warning names it, says a build never downloads
    it, and where to put its files (the unused-settings line does not name module again)."""
    from support.hugo_build import blogbuild_files
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[module]\n[[module.imports]]\n'
                           'path = "github.com/CaiJimmy/hugo-theme-stack/v3"\n'),
             "content/a.md": "---\ntitle: A\n---\nA.\n"}
    _ours, warnings = blogbuild_files(_write(tmp_path / "ours", files))
    said = [warning.message for warning in warnings if "module" in warning.message]
    assert said == ["theme 'github.com/CaiJimmy/hugo-theme-stack/v3' is a Hugo module "
                    "(module.imports), which a build never downloads, and _vendor/modules.txt does not list it, so "
                    "blogbuild's default theme renders the site; vendor it with `hugo mod vendor` (which writes its "
                    "files under _vendor/), or put its files in themes/hugo-theme-stack/ and name it as the theme "
                    '(theme = "hugo-theme-stack")']


VENDORED = "_vendor/example.org/people/paper/v2"


def test_a_theme_vendored_with_hugo_mod_vendor_renders_the_site_as_hugo_reads_it(tmp_path: Path) -> None:
    """`hugo mod vendor` writes the site's modules under _vendor/ and lists them in _vendor/modules.txt: Hugo
    reads the theme's layouts, partials, assets, data, i18n, static files and config params from there (before a
    themes/ folder of the same path), whether the config imports it as a module or names it as the theme."""
    theme = {f"{VENDORED}/layouts/_default/baseof.html": ('<html><head>{{ partial "head.html" . }}</head><body>'
                                                          "{{ block \"main\" . }}{{ end }}</body></html>\n"),
             f"{VENDORED}/layouts/partials/head.html": ('{{ with resources.Get "css/main.css" | minify | fingerprint }}'
                                                        '<link rel="stylesheet" href="{{ .RelPermalink }}">{{ end }}'
                                                        "<title>{{ .Title }}</title>\n"),
             f"{VENDORED}/layouts/_default/single.html": ('{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}'
                                                          '<p>{{ i18n "readMore" }} {{ site.Params.accent }} '
                                                          "{{ site.Params.motto }} {{ site.Data.people.owner }}</p>"
                                                          "{{ end }}\n"),
             f"{VENDORED}/layouts/_default/list.html": ('{{ define "main" }}{{ range .Pages }}<a href="{{ .RelPermalink }}">'
                                                        "{{ .Title }}</a>{{ end }}{{ end }}\n"),
             f"{VENDORED}/assets/css/main.css": "body {  color: red;  }\n",
             f"{VENDORED}/data/people.yaml": "owner: Ada\n",
             f"{VENDORED}/i18n/en.yaml": "readMore: Read on\n",
             f"{VENDORED}/static/theme.txt": "from the vendored theme\n",
             f"{VENDORED}/hugo.toml": '[params]\naccent = "teal"\nmotto = "the theme\'s"\n',
             # The same path under themes/: Hugo reads the vendored copy first.
             "themes/example.org/people/paper/v2/layouts/_default/single.html": "<p>themes/ copy</p>\n",
             "_vendor/modules.txt": ("# example.org/people/paper/v2 v2.1.0\n# ../outside v1.0.0\n"
                                     "# example.org/not/there v1.0.0\n"),
             "content/posts/a.md": "---\ntitle: A post\n---\nHello.\n"}
    for config in ('[[module.imports]]\npath = "example.org/people/paper/v2"\n',
                   'theme = "example.org/people/paper/v2"\n'):
        files = {**theme, "hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Vendored"\n'
                                        f'{config}[params]\nmotto = "the site\'s"\n')}
        case = tmp_path / str(len(config))
        hugo, ours, warnings = _both(case, files)
        assert not _fell_back(warnings)
        assert not [str(warning) for warning in warnings if "theme" in str(warning)]
        page = _text(ours, "posts/a/index.html")
        assert page == _text(hugo, "posts/a/index.html")
        assert "<h1>A post</h1>" in page and "Read on teal the site&#39;s Ada" in page
        generator = re.compile(r'<meta name="generator" content="[^"]*">')   # the home page's, each its own
        assert generator.sub("", _text(ours, "index.html")) == generator.sub("", _text(hugo, "index.html"))
        assert ours["theme.txt"] == hugo["theme.txt"]
        css = sorted(name for name in hugo if name.startswith("css/main."))
        assert css and css == sorted(name for name in ours if name.startswith("css/main."))
        assert ours[css[0]] == hugo[css[0]]


def test_a_module_the_vendor_list_does_not_name_is_the_missing_theme_it_was(tmp_path: Path) -> None:
    """A vendored folder that _vendor/modules.txt does not list is not read (Hugo reads the list, not the
    folder): the module is missing, named in a warning that says how to vendor it."""
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\n[module]\n[[module.imports]]\n'
                           'path = "example.org/people/paper/v2"\n'),
             f"{VENDORED}/layouts/_default/single.html": "<p>vendored</p>\n",
             "_vendor/modules.txt": "# example.org/people/other v1.0.0\n",
             "content/a.md": "---\ntitle: A\n---\nA.\n"}
    ours, warnings = blogbuild_files(_write(tmp_path / "ours", files))
    assert "<p>vendored</p>" not in ours["a/index.html"].decode()
    assert [warning.message for warning in warnings if "module" in warning.message] == [
        "theme 'example.org/people/paper/v2' is a Hugo module (module.imports), which a build never downloads, and "
        "_vendor/modules.txt does not list it, so blogbuild's default theme renders the site; vendor it with "
        "`hugo mod vendor` (which writes its files under _vendor/), or put its files in themes/paper/ and name it "
        'as the theme (theme = "paper")']


PLURALS_LAYOUT = ("{{ range slice 0 1 2 3 5 11 99 100 102 1.0 1.5 \"2\" \"1.50\" \"x\" }}"
                  "{{ i18n \"minutes\" . }}|{{ i18n \"days\" . }}|{{ i18n \"hours\" (dict \"Count\" .) }}\n{{ end }}"
                  "{{ i18n \"minutes\" }}|{{ i18n \"onlyEnglish\" 2 }}|{{ i18n \"onlyEnglish\" 1 }}\n")


def test_i18n_picks_the_plural_form_by_the_languages_cldr_rule(tmp_path: Path) -> None:
    """go-i18n's plural forms: Arabic's zero, one, two, few, many and other by CLDR's rule for the count (an
    integer, a float as "1.0", a number written as text, a map's Count); a form the translation lacks falls back to
    other; a string only the default language has takes that language's rule; the message runs as a Go template
    on the data (an integer's Count, a map's key, "<no value>" without data, "" when a field fails)."""
    files = {"hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Plurals"\ndefaultContentLanguage = "en"\n'
                           "[languages.en]\nweight = 1\n[languages.ar]\nweight = 2\n[languages.ru]\nweight = 3\n"),
             "i18n/en.yaml": ("minutes:\n  one: a minute\n  other: '{{ .Count }} minutes'\ndays:\n  other: days\n"
                              "hours:\n  one: an hour\n  other: hours\nonlyEnglish:\n  one: one (en)\n"
                              "  other: other (en)\n"),
             "i18n/ar.yaml": ("minutes:\n  zero: صفر\n  one: دقيقة\n  two: دقيقتان\n  few: '{{ .Count }} دقائق'\n"
                              "  many: '{{ .Count }} دقيقة'\n  other: '{{ .Count }} دقيقة أخرى'\n"
                              "days:\n  one: يوم\n  other: أيام\nhours:\n  two: ساعتان\n  other: ساعات\n"),
             "i18n/ru.yaml": ("minutes:\n  one: минута\n  few: минуты\n  many: минут\n  other: минуты (дробь)\n"
                              "days:\n  one: день\n  other: дни\nhours:\n  few: часа\n  other: часов\n"),
             "layouts/index.html": PLURALS_LAYOUT, "layouts/_default/list.html": "{{ .Title }}\n",
             "layouts/_default/single.html": "{{ .Title }}\n",
             "content/_index.md": "---\ntitle: Home\n---\n", "content/_index.ar.md": "---\ntitle: Home\n---\n",
             "content/_index.ru.md": "---\ntitle: Home\n---\n"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    for page in ("index.html", "ar/index.html", "ru/index.html"):
        assert _text(ours, page) == _text(hugo, page), page
    arabic = _text(ours, "ar/index.html").splitlines()
    assert arabic[:4] == ["صفر|أيام|ساعات", "دقيقة|يوم|ساعات", "دقيقتان|أيام|ساعتان", "3 دقائق|أيام|ساعات"]
    english = _text(ours, "index.html").splitlines()
    # 1.0 picks other ("1.0" has a fraction digit), whose {{ .Count }} fails on a float: Hugo writes ""; the map's
    # Count is read; without data a field is "<no value>".
    assert english[9] == "|days|hours" and english[1] == "a minute|days|an hour"
    assert english[-1] == "&lt;no value&gt; minutes|other (en)|one (en)"


def test_a_term_pages_name_is_the_term_as_written(tmp_path: Path) -> None:
    """.Name of a term page is its term as the front matter writes it (its .Title is title-cased); of any other
    page, its title."""
    files = {**SITE, "content/posts/a.md": ('---\ntitle: A\ntags: ["data-visualization", "Others", "machine learning", '
                                            '"C++", "数据 科学"]\n---\nA\n'),
             "layouts/_default/single.html": "{{ .Name }}\n",
             "layouts/_default/list.html": "{{ range .Pages }}{{ .Name }}|{{ .Title }}|{{ .RelPermalink }}\n{{ end }}"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    assert _text(ours, "tags/index.html") == _text(hugo, "tags/index.html")
    assert "data-visualization|Data-Visualization|" in _text(ours, "tags/index.html")
    assert _text(ours, "posts/a/index.html") == _text(hugo, "posts/a/index.html") == "A"


def test_a_static_folders_hidden_files_are_published_as_hugo_publishes_them(tmp_path: Path) -> None:
    """static/'s hidden files are the site's (.nojekyll for GitHub Pages, .well-known/, .htaccess), the site's
    and its theme's, as in Hugo; editor and OS droppings and version control's folders are left out (Hugo
    copies .DS_Store; blogbuild does not)."""
    files = {**SITE, "layouts/_default/single.html": "{{ .Title }}\n", "content/a.md": "---\ntitle: A\n---\nA\n",
             "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Rules"\ntheme = "plain"\n',
             "static/.nojekyll": "", "static/.well-known/security.txt": "Contact: mailto:a@example.org\n",
             "static/.htaccess": "Options -Indexes\n", "themes/plain/static/.well-known/theme.txt": "theme\n",
             "static/.DS_Store": "litter", "static/notes.md.swp": "swap", "static/.#lock": "lock"}
    hugo, ours, warnings = _both(tmp_path, files)
    assert not _fell_back(warnings)
    kept = {".nojekyll", ".well-known/security.txt", ".htaccess", ".well-known/theme.txt"}
    assert kept <= set(hugo) and kept <= set(ours)
    assert all(ours[name] == hugo[name] for name in kept)
    assert not {".DS_Store", "notes.md.swp", ".#lock"} & set(ours)


def test_a_blogbuild_sites_static_hidden_files_are_published(tmp_path: Path) -> None:
    from support.hugo_build import blogbuild_files
    files = {"blogbuild.yaml": "title: Mine\nbase_url: https://example.org/\n", "static/.nojekyll": "",
             "static/.well-known/security.txt": "Contact: mailto:a@example.org\n", "static/.git/config": "[core]\n",
             "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-01\n---\nA.\n"}
    ours, _warnings = blogbuild_files(_write(tmp_path / "ours", files))
    assert ".nojekyll" in ours and ".well-known/security.txt" in ours
    assert not [name for name in ours if name.startswith(".git/")]


def test_a_multilingual_sites_robots_txt_is_one_file_at_the_top(tmp_path: Path) -> None:
    """robots.txt is the default language's, written once at the top of the site (with the default language's
    pages in a folder of their own or not), by a cold build and by one after an edit."""
    from blogbuild.cli import main
    for in_subdir in ("false", "true"):
        files = {**SITE, "layouts/_default/single.html": "{{ .Title }}\n",
                 "hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Rules"\nenableRobotsTXT = true\n'
                               f'defaultContentLanguage = "en"\ndefaultContentLanguageInSubdir = {in_subdir}\n'
                               "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n"),
                 "content/a.md": "---\ntitle: A\n---\nA\n", "content/a.fr.md": "---\ntitle: A\n---\nA\n"}
        hugo, ours, _warnings = _both(tmp_path / in_subdir, files)
        assert [name for name in hugo if name.endswith("robots.txt")] == ["robots.txt"]
        assert [name for name in ours if name.endswith("robots.txt")] == ["robots.txt"]
        assert ours["robots.txt"] == hugo["robots.txt"]
        site = _write(tmp_path / in_subdir / "edited", files)
        assert main(["build", "--root", str(site), "--quiet"]) == 0
        (site / "content" / "a.md").write_text("---\ntitle: A\n---\nEdited.\n", encoding="utf-8")
        assert main(["build", "--root", str(site), "--quiet"]) == 0
        assert sorted(path.relative_to(site / "public").as_posix()
                      for path in (site / "public").rglob("robots.txt")) == ["robots.txt"]


LINK_HOOK = """{{- $u := urls.Parse .Destination -}}
{{- $href := $u.String -}}
{{- if strings.HasPrefix $u.String "#" -}}
  {{- $href = printf "%s#%s" .PageInner.RelPermalink $u.Fragment -}}
{{- else if and $href (not $u.IsAbs) -}}
  {{- $path := strings.TrimPrefix "./" $u.Path -}}
  {{- with or ($.PageInner.GetPage $path) ($.PageInner.Resources.Get $path) (resources.Get $path) -}}
    {{- $href = .RelPermalink -}}
    {{- with $u.RawQuery -}}{{- $href = printf "%s?%s" $href . -}}{{- end -}}
    {{- with $u.Fragment -}}{{- $href = printf "%s#%s" $href . -}}{{- end -}}
  {{- end -}}
{{- end -}}
<a href="{{ $href }}" {{- with .Title }} title="{{ . }}" {{- end }}>{{ .Text }}</a>
{{- /**/ -}}
"""
NAMING_SITE = {
    **SITE, "layouts/_default/single.html": "{{ .Content }}\n",
    "layouts/_default/_markup/render-link.html": LINK_HOOK,
    "layouts/_default/_markup/render-image.html": ('<img src="{{ .Destination }}" alt="{{ .Text }}" '
                                                   'data-rel="{{ relref .Page "c" }}" data-abs="{{ ref .Page "posts/b" }}" '
                                                   'data-page="{{ .Page.RelRef (dict "path" "/posts/b/index.md") }}">'),
    "layouts/shortcodes/to.html": ('{{ with .Page.GetPage (.Get 0) }}<a class="to" href="{{ .Permalink }}">to</a>'
                                   "{{ else }}none{{ end }}"),
    "content/posts/a.md": ("---\ntitle: A\n---\nSee [b](b), [b md](b/index.md#x), [up](/posts/b/), [c](../c.md), "
                           "[self](#top), [file](b/data.txt), [web](https://x.org/a), [q](b?x=1#y), [C](C), "
                           "[gone](nothere), [draft](e).\n\n![pic](b/data.txt)\n\n{{< to \"../c\" >}} {{< to \"nothere\" >}}\n"),
    "content/posts/e.md": "---\ntitle: E\ndraft: true\n---\nE.\n",
    "content/posts/b/index.md": "---\ntitle: B\n---\n## X {#x}\n\nB\n", "content/posts/b/data.txt": "data\n",
    "content/c.md": "---\ntitle: C\n---\nSee [a](posts/a).\n",
}


def test_a_hook_or_shortcode_names_other_pages_by_getpage_ref_and_relref_as_in_hugo(tmp_path: Path) -> None:
    """A render hook's or shortcode's `.Page.GetPage` (Hugo's own link hook's lookup: relative to the page's
    folder, then from the content root, a bundle's index, any case), `ref`, `relref` and `.RelRef` while the
    content renders give the pages' URLs, as Hugo writes them; a page not found (or a draft) is nil."""
    hugo, ours, warnings = _both(tmp_path, NAMING_SITE)
    assert not _fell_back(warnings)
    assert not [str(warning) for warning in warnings if "not supported" in str(warning) or "no site" in str(warning)]
    # A draft is no page of the build: Hugo's GetPage gives nil, and the hook writes the link as written; blogbuild,
    # which knew only the files when the content rendered, writes it as asked and says so.
    assert '<a href="e">draft</a>' in _text(ours, "posts/a/index.html")
    assert [warning.message for warning in warnings if "GetPage" in warning.message] == [
        "GetPage 'e' found posts/e.md, which is not published (a draft, or a date to come or past): written as "
        "asked, where Hugo's GetPage gives nil"]
    for page in ("posts/a/index.html", "c/index.html"):
        assert _text(ours, page) == _text(hugo, page), page
    assert '<a href="/posts/b/#x">b md</a>' in _text(ours, "posts/a/index.html")
    assert '<a class="to" href="https://example.org/c/">to</a> none' in _text(ours, "posts/a/index.html")


def test_a_post_that_named_a_page_is_rendered_again_when_that_page_appears_or_goes(tmp_path: Path) -> None:
    """What GetPage found while a post rendered is kept with it: a rebuild after the named page is removed, or
    after a page it did not find is added, renders the post again and publishes what a cold build does."""
    from blogbuild.cli import main
    files = {**NAMING_SITE, "content/posts/d.md": "---\ntitle: D\n---\nD.\n",
             "content/posts/a.md": NAMING_SITE["content/posts/a.md"] + "\nAnd [d](d).\n"}
    site = _write(tmp_path / "site", files)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    first = (site / "public" / "posts" / "a" / "index.html").read_text(encoding="utf-8")
    assert '<a href="/posts/d/">d</a>' in first and '<a href="nothere">gone</a>' in first
    (site / "content" / "posts" / "nothere.md").write_text("---\ntitle: Now here\n---\nHere.\n", encoding="utf-8")
    (site / "content" / "posts" / "d.md").unlink()
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    again = (site / "public" / "posts" / "a" / "index.html").read_text(encoding="utf-8")
    cold = tmp_path / "cold"
    assert main(["build", "--root", str(site), "--no-cache", "--quiet", "--output", str(cold)]) == 0
    assert again == (cold / "posts" / "a" / "index.html").read_text(encoding="utf-8")
    assert '<a href="/posts/nothere/">gone</a>' in again and '<a href="d">d</a>' in again
