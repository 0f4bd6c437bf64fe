"""A Hugo site's own layouts after an edit: what a rebuild publishes is what a cold build of the same files
publishes. A layout may show anything of any page (a param of the front matter, a date, a summary, a word count,
the text), so a page is made again whenever anything it showed of another page changed, and only then.

The site is written by the tests: a home page listing every post with a param of its own front matter, its
lastmod, its summary and word count; a feed page holding every post's plain text; post pages showing their own
content and the next post's title."""
from __future__ import annotations

from pathlib import Path

import pytest

from blogbuild.cli import main

LAYOUTS = {
    "_default/baseof.html": "<!doctype html><html><body>{{ block \"main\" . }}{{ end }}</body></html>\n",
    "index.html": ("{{ define \"main\" }}{{ range site.RegularPages }}<p>{{ .Title }}: {{ .Params.subtitle }}, "
                   "{{ .Lastmod.Format \"2006-01-02\" }}, {{ .WordCount }} words: {{ .Summary }}</p>"
                   "{{ end }}{{ end }}\n"),
    "_default/list.html": "{{ define \"main\" }}{{ range .Pages }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>"
                          "{{ end }}{{ end }}\n",
    "_default/single.html": ("{{ define \"main\" }}<h1>{{ .Title }}</h1>{{ .Content }}"
                             "{{ with .NextInSection }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}"
                             "{{ partialCached \"newest.html\" . \"newest\" }}"
                             "{{ partial \"count.html\" (index (where site.RegularPages \"Section\" \"posts\") 1) }}"
                             "{{ end }}\n"),
    # kept for every page that calls it: partialCached's result, and a pure partial's for the same page
    "_partials/newest.html": "{{ with index (where site.RegularPages \"Section\" \"posts\") 0 }}<aside>{{ .Summary }}"
                             "</aside>{{ end }}\n",
    "_partials/count.html": "<small>{{ .Title }}: {{ .WordCount }} words</small>\n",
    "_default/texts.html": "{{ define \"main\" }}{{ range site.RegularPages }}<pre>{{ .Plain }}</pre>{{ end }}{{ end }}\n",
}


def _post(number: int, subtitle: str = "", body: str = "") -> str:
    return (f"---\ntitle: Post {number}\ndate: 2024-01-0{number}\nsubtitle: {subtitle or f'sub {number}'}\n---\n"
            f"{body or f'The words of post {number}.'}\n")


def _site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "content" / "posts").mkdir(parents=True)
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Edits"\n', encoding="utf-8")
    for name, text in LAYOUTS.items():
        path = site / "layouts" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for number in range(1, 6):
        (site / "content" / "posts" / f"p{number}.md").write_text(_post(number), encoding="utf-8")
    (site / "content" / "texts.md").write_text("---\ntitle: Texts\nlayout: texts\n---\n", encoding="utf-8")
    return site


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _cold(site: Path, tmp_path: Path) -> dict[str, bytes]:
    cold = tmp_path / "cold"
    assert main(["build", "--root", str(site), "--no-cache", "--quiet", "--output", str(cold)]) == 0
    return _tree(cold)


EDITS = {
    "a param another page shows": lambda text: text.replace("subtitle: sub 2", "subtitle: changed"),
    "a lastmod another page shows": lambda text: text.replace("date: 2024-01-02", "date: 2024-01-02\n"
                                                             "lastmod: 2024-03-04"),
    "the title the page before shows": lambda text: text.replace("title: Post 2", "title: Renamed"),
    "the body: its summary, count and text": lambda text: text.replace("The words of post 2.",
                                                                       "Other words of the second post, more of them."),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_rebuild_after_an_edit_publishes_what_a_cold_build_does(tmp_path: Path, edit: str) -> None:
    site = _site(tmp_path)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    post = site / "content" / "posts" / "p2.md"
    post.write_text(EDITS[edit](post.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0   # a new process: the cache and the last output
    assert _tree(site / "public") == _cold(site, tmp_path)


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_servers_rebuild_after_an_edit_publishes_what_a_cold_build_does(tmp_path: Path, edit: str) -> None:
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder
    site = _site(tmp_path)
    builder = Builder(load_config(None, root=site), use_cache=True)
    assert builder.build().ok
    post = site / "content" / "posts" / "p2.md"
    post.write_text(EDITS[edit](post.read_text(encoding="utf-8")), encoding="utf-8")
    again = builder.build([str(post)])   # serve's rebuild of the edited file
    assert again.ok, again.errors
    files = {path: item.data if not item.source else Path(item.source).read_bytes()
             for path, item in again.files.items() if path.endswith(".html")}
    cold = _cold(site, tmp_path)
    assert files == {path: data for path, data in cold.items() if path.endswith(".html")}


def _stamped(site: Path) -> Path:
    """The site with the time of its render on every page (Hugo's now): a page made again shows a new one."""
    base = site / "layouts" / "_default" / "baseof.html"
    base.write_text(base.read_text(encoding="utf-8").replace("<body>", "<body><i>{{ now.UnixNano }}</i>"),
                    encoding="utf-8")
    return site


def _stamps(folder: Path) -> dict[str, str]:
    return {str(page.relative_to(folder)): page.read_text(encoding="utf-8").split("<i>", 1)[1].split("</i>", 1)[0]
            for page in folder.rglob("*.html") if "<i>" in page.read_text(encoding="utf-8")}


# After an edit to the body of post 2: its own page, the home page (its summary and count), the texts page (its
# text) and the section's list (its entry's summary) are made again; the other posts' pages, which show its title
# at most, are not.
REMADE = ["index.html", "posts/index.html", "posts/p2/index.html", "texts/index.html"]


@pytest.mark.parametrize("number", [5, 4])
def test_a_partial_kept_for_many_pages_makes_each_of_them_again(tmp_path: Path, number: int) -> None:
    """Post 5's summary is in a partialCached result every post page shows, post 4's word count in a pure
    partial's result each post page shows: an edit to either body makes every post page again."""
    site = _site(tmp_path)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    post = site / "content" / "posts" / f"p{number}.md"
    post.write_text(post.read_text(encoding="utf-8").replace(f"The words of post {number}.", "Words, now more."),
                    encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    assert _tree(site / "public") == _cold(site, tmp_path)


def _result_stamps(files: dict) -> dict[str, str]:
    pages = {path: (item.data if not item.source else Path(item.source).read_bytes()).decode()
             for path, item in files.items() if path.endswith(".html")}
    return {path: text.split("<i>", 1)[1].split("</i>", 1)[0] for path, text in pages.items() if "<i>" in text}


def _edit_body(site: Path) -> Path:
    post = site / "content" / "posts" / "p2.md"
    post.write_text(EDITS["the body: its summary, count and text"](post.read_text(encoding="utf-8")), encoding="utf-8")
    return post


def test_a_body_edit_makes_again_only_the_pages_that_showed_the_body(tmp_path: Path) -> None:
    site = _stamped(_site(tmp_path))
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    before = _stamps(site / "public")
    _edit_body(site)
    assert main(["build", "--root", str(site), "--quiet"]) == 0   # a new process
    after = _stamps(site / "public")
    assert sorted(before) == sorted(after)
    assert sorted(path for path in after if after[path] != before[path]) == REMADE


def test_a_servers_rebuild_after_a_body_edit_makes_again_only_the_pages_that_showed_it(tmp_path: Path) -> None:
    from blogbuild.config import load_config
    from blogbuild.pipeline import Builder
    site = _stamped(_site(tmp_path))
    builder = Builder(load_config(None, root=site), use_cache=True)
    first = builder.build()
    assert first.ok, first.errors
    before = _result_stamps(first.files)
    again = builder.build([str(_edit_body(site))])
    assert again.ok, again.errors
    after = _result_stamps(again.files)
    assert sorted(before) == sorted(after)
    assert sorted(path for path in after if after[path] != before[path]) == REMADE


def test_a_multilingual_sites_rebuild_publishes_what_a_cold_build_does(tmp_path: Path) -> None:
    """Each language's own sitemap stands under the default language's folder and /sitemap.xml is the index of
    them all: a rebuild takes neither for the other."""
    import shutil
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent / "hugo_sites" / "site_languages", site)
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    post = site / "content" / "posts" / "hello.fr.md"
    post.write_text(post.read_text(encoding="utf-8") + "\nUne phrase de plus.\n", encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    assert _tree(site / "public") == _cold(site, tmp_path)


def test_a_lists_page_count_is_not_worked_out_again_after_an_edit_it_does_not_show(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan renders a paginated list's first page to count its pages; after an edit to a post that page does
    not show, the count is the one the last build found (kept with its state), and the page is not rendered."""
    from blogbuild.hugo import site_theme
    site = _site(tmp_path)
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Edits"\n[pagination]\npagerSize = 2\n',
                                    encoding="utf-8")
    (site / "layouts" / "index.html").write_text(
        "{{ define \"main\" }}{{ range (.Paginate site.RegularPages).Pages }}<p>{{ .Title }}: {{ .Summary }}</p>"
        "{{ end }}{{ end }}\n",
        encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    rendered: list[tuple[str, int]] = []
    real = site_theme.GoPageEngine._render

    def render(self: site_theme.GoPageEngine, layout: object, base: object, dot: site_theme.HugoPage) -> str:
        rendered.append((dot.Kind, dot.page_number))
        return real(self, layout, base, dot)   # type: ignore[arg-type]
    monkeypatch.setattr(site_theme.GoPageEngine, "_render", render)
    post = site / "content" / "posts" / "p1.md"   # the oldest: on the home's last page
    post.write_text(post.read_text(encoding="utf-8").replace("The words of post 1.", "Other words."), encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    assert ("home", 3) in rendered and ("home", 1) not in rendered
    assert _tree(site / "public") == _cold(site, tmp_path)


THEMED = "_vendor/example.org/people/paper"
SITE_FILE_EDITS = {
    # (file, text before, text after): a file outside content/ and layouts/ that a page or the output shows
    "the site's data file a layout reads": ("data/people.yaml", "owner: Ada\n", "owner: Bob\n"),
    "a data file appearing in the site's data/": ("data/extra.yaml", None, "owner: Cy\n"),
    "a theme's data file": ("themes/plain/data/plain.yaml", "owner: Di\n", "owner: Ed\n"),
    "a vendored theme's data file": (f"{THEMED}/data/vendored.yaml", "owner: Flo\n", "owner: Gus\n"),
    "a theme's static file": ("themes/plain/static/a.txt", "one\n", "two\n"),
    "a vendored theme's static file": (f"{THEMED}/static/b.txt", "one\n", "two\n"),
    "a vendored theme's config params": (f"{THEMED}/hugo.toml", '[params]\nmotto = "first"\n',
                                         '[params]\nmotto = "second"\n'),
    "the list of vendored modules": ("_vendor/modules.txt", "# example.org/people/paper v1.0.0\n", ""),
}


@pytest.mark.parametrize("edit", sorted(SITE_FILE_EDITS))
def test_a_rebuild_after_an_edit_of_data_a_themes_files_or_the_vendor_list_publishes_what_a_cold_build_does(
        tmp_path: Path, edit: str) -> None:
    """Data files (the site's and its themes'), a theme's static files and own config, and _vendor/modules.txt
    are inputs of the build: a rebuild after one changes publishes what a cold build does (the no-op check
    and the templates' key see them)."""
    site = _site(tmp_path)
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Edits"\n'
                                    'theme = ["example.org/people/paper", "plain"]\n', encoding="utf-8")
    files = {"layouts/_default/single.html": ("<h1>{{ .Title }}</h1>{{ range $k, $v := site.Data }}{{ $k }}="
                                              "{{ $v.owner }} {{ end }}{{ site.Params.motto }}\n"),
             "data/people.yaml": "owner: Ada\n", "themes/plain/data/plain.yaml": "owner: Di\n",
             "themes/plain/static/a.txt": "one\n", f"{THEMED}/data/vendored.yaml": "owner: Flo\n",
             f"{THEMED}/static/b.txt": "one\n", f"{THEMED}/hugo.toml": '[params]\nmotto = "first"\n',
             "_vendor/modules.txt": "# example.org/people/paper v1.0.0\n"}
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    name, before, after = SITE_FILE_EDITS[edit]
    assert (site / name).read_text(encoding="utf-8") == before if before else not (site / name).exists()
    (site / name).parent.mkdir(parents=True, exist_ok=True)
    (site / name).write_text(after, encoding="utf-8")
    assert main(["build", "--root", str(site), "--quiet"]) == 0
    built = _tree(site / "public")
    assert built == _cold(site, tmp_path)
    assert built != _cold_of(tmp_path, files, before_edit=True)


def _cold_of(tmp_path: Path, files: dict[str, str], *, before_edit: bool) -> dict[str, bytes]:
    """A cold build of the site as it was before the edit: the edit changed what is published."""
    site = _site(tmp_path / "before")
    (site / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "Edits"\n'
                                    'theme = ["example.org/people/paper", "plain"]\n', encoding="utf-8")
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    return _cold(site, tmp_path / "before")
