"""LoveIt's exampleSite renders through LoveIt's own layouts (the snapshot beside the repository, copied into a
site's themes/LoveIt): two languages (English, and Chinese under zh-cn/), grouped and paginated archives, the
language switch, a bundle's files every language shares published once beside the English page (a file named
for Chinese, x.zh-cn.png, beside the Chinese one only), static/ copied once, Sass through Hugo Pipes, LoveIt's
shortcodes and render hooks publishing through Hugo Pipes (the image, music and version shortcodes, the
render-image and render-link hooks; a shortcode in a code block runs too, as in Hugo), what they set in the
page's Store read by its layouts, and the MarkDown output format its config defines (each page's index.md,
Hugo's bytes, linked by "Read Markdown"). Built by the hugo binary and by blogbuild: the same files and every
page the same DOM (Hugo without git info: blogbuild reads no git history), except the documented differences,
all in the posts and about pages (DIFFERENT, each page named with why). Every code block is Hugo's, byte for
byte: Chroma's markup, LoveIt's render-codeblock and highlight shortcode around it, a shortcode written literally
in code lexed as its text.
LoveIt's code-block partial and mapbox shortcode read the settings LoveIt's init.html
puts in the page's Scratch before the page's layout reads .Content, as in Hugo: a code block of up to
params.code.maxShownLines (50) lines is open, a map takes the site's styles and controls. What still differs:
- the basics and content pages: Hugo renders pages concurrently, and there these pages' content is first
  rendered for the home page's summaries, before their own init.html has run, so their long code blocks fold at
  10 lines; blogbuild renders each page's content for its own layouts (test_content_reads_what_init_set);
- the about and content pages' formulas are typeset at build time (blogbuild's KaTeX copy), where Hugo's keep the
  TeX for the browser;
- the built-in shortcodes pages: Hugo's x shortcode fetches the post while building (offline it writes nothing),
  where blogbuild writes a link to the post (Hugo's youtube, vimeo and instagram are Hugo's);
- the extended shortcodes pages: its style shortcode's stylesheet (css/2f1ef0.min.css) is linked and its code
  blocks are open, where Hugo's page links none and folds them (there too Hugo first renders the content for the
  home page's summaries, so its Store entry does not reach the page's layouts);
- the word counts of the pages above whose content differs (their JSON-LD wordcount);
- blogbuild writes its highlighting stylesheet (css/syntax.css) and its KaTeX and mermaid copies, which the pages
  load where Hugo's load the CDN's (the exampleSite's `params.cdn`): compared with Hugo's after the copy's URL is
  put back (test_every_page_has_hugos_dom)."""
from __future__ import annotations

import os
import re
import subprocess

import pytest
from support.dom import dom_tokens, with_hugos_mermaid
from support.hugo_site_oracle import hugo_binary
from support.loveit import loveit_site

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
# Compared apart: the version badges and the style shortcode's stylesheets.
_APART = re.compile(r"^svg/version/|^css/[0-9a-f]{6}\.min\.css$")


def _extra(path: str, hugo: set[str]) -> bool:
    """Whether blogbuild publishes path where Hugo does not, for a documented reason (or it is compared apart)."""
    if _APART.search(path):
        return True   # compared in test_the_same_files_are_published
    return path not in hugo and re.search(r"(^|/)css/syntax\.css$|(^|/)vendor/(katex|mermaid)-", path) is not None


# The pages that are not Hugo's DOM, by why (the module's docstring says more).
_OTHER = ("about", "theme-documentation-basics", "theme-documentation-built-in-shortcodes",
          "theme-documentation-content", "theme-documentation-extended-shortcodes")
DIFFERENT = {f"{language}{post}/index.html" for language in ("", "zh-cn/") for post in _OTHER}


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes], list]:
    tmp_path = tmp_path_factory.mktemp("loveit")
    site, destination = loveit_site(tmp_path / "hugo-site"), tmp_path / "hugo-public"
    completed = subprocess.run([hugo_binary() or "hugo", "--source", str(site), "--destination", str(destination),
                                "--enableGitInfo=false", "--quiet"], capture_output=True, text=True, timeout=300,
                               env={**os.environ, "HUGO_THEMESDIR": str(site / "themes")})
    assert completed.returncode == 0, completed.stderr
    hugo = {str(path.relative_to(destination)): path.read_bytes() for path in destination.rglob("*") if path.is_file()}
    result = Builder(load_config(None, root=loveit_site(tmp_path / "blogbuild-site"))).build()
    assert result.ok, result.errors
    return hugo, {path: item.data for path, item in result.files.items()}, list(result.warnings)


def test_loveits_own_layouts_render_the_site(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    _hugo, ours, warnings = both
    assert not [warning for warning in warnings if "cannot run the site's layouts" in warning.message]
    # Every content link leads somewhere: a shared bundle file or an asset at the top is the whole site's.
    assert [warning.path for warning in warnings if "link '" in warning.message] == []
    # LoveIt's goat diagrams run too (diagrams.Goat, in its goat hook).
    assert not [warning for warning in warnings if "diagrams.Goat" in warning.message]
    home = ours["index.html"].decode()
    assert '<div class="page home" data-home="posts"><div class="home-profile">' in home
    assert '<select class="language-select" id="language-select-desktop"' in home     # the language switch
    assert '<h3 class="group-title">' in ours["posts/index.html"].decode()              # the archive's years


def test_the_same_files_are_published(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    assert sorted(path for path in ours if not _extra(path, set(hugo))) == \
        sorted(path for path in hugo if not _APART.search(path))
    assert "css/style.min.css" in ours and "zh-cn/css/style.min.css" not in ours    # Hugo Pipes: once, at the top
    markdown = [path for path in hugo if path.endswith("/index.md")]   # the MarkDown output: Hugo's bytes
    assert len(markdown) == 26 and [path for path in markdown if ours[path] != hugo[path]] == []
    # What LoveIt's shortcodes and hooks publish, with Hugo's names: the version badges (each language's), the
    # images its image hook links, the music player's files the music shortcode's Store entry asks for, the
    # style shortcode's stylesheets.
    published = [path for path in hugo if path.startswith("svg/version/")]
    assert published and {path for path in ours if path.startswith("svg/version/")} == set(published)   # code too
    for path in ("svg/version/0.2.0-new.zh-cn.min.svg", "images/Wavelength.jpg", "images/lighthouse.jpg",
                 "lib/aplayer/APlayer.min.js", "lib/aplayer/dark.min.css", "lib/mapbox-gl/mapbox-gl-language.min.js"):
        assert path in ours and path in hugo, path
    # The style shortcode's stylesheets; Hugo's extended-shortcodes page links none for its own (its Store entry
    # does not reach that page's layouts in Hugo: its content is first rendered for another page's summary).
    assert sorted(path for path in ours if re.fullmatch(r"css/[0-9a-f]{6}\.min\.css", path)) == \
        sorted([*(path for path in hugo if re.fullmatch(r"css/[0-9a-f]{6}\.min\.css", path)), "css/2f1ef0.min.css"])


def test_every_page_has_hugos_dom(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    hugo, ours, _warnings = both
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) == 77
    differing = [path for path in pages if dom_tokens(with_hugos_mermaid(ours[path].decode(), hugo[path].decode()),
                                                      drop=_GENERATOR) != dom_tokens(hugo[path].decode(), drop=_GENERATOR)]
    assert sorted(differing) == sorted(DIFFERENT)   # every other page is Hugo's; each documented one still differs
    # Every page that loads mermaid loads blogbuild's copy (the content pages load it in blogbuild's build alone:
    # their diagram hook's Store entry does not reach Hugo's layouts, see above).
    loading = {path for path in pages if "/mermaid.min.js" in hugo[path].decode()}
    ours_loading = {path for path in pages if "/vendor/mermaid-" in ours[path].decode()}
    assert loading <= ours_loading and ours_loading - loading <= DIFFERENT
    assert "zh-cn/theme-documentation-mermaid-shortcode/index.html" in loading


def test_content_reads_what_init_set(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    """LoveIt's code-block partial and mapbox shortcode read the settings its init.html put in the page's Scratch
    before the layout read the content: maxShownLines 50 (not the partial's 10), the site's map styles."""
    _hugo, ours, _warnings = both
    syntax = ours["basic-markdown-syntax/index.html"].decode()
    assert syntax.count('<div class="code-block code-line-numbers open"') == syntax.count('<div class="code-block')
    assert '"lightStyle":"mapbox://styles/mapbox/light-v10?optimize=true"' in \
        ours["theme-documentation-mapbox-shortcode/index.html"].decode()


def test_every_code_block_is_hugos(both: tuple[dict[str, bytes], dict[str, bytes], list]) -> None:
    """Chroma's markup inside LoveIt's code-block partial: every highlight div the same bytes as Hugo's."""
    hugo, ours, _warnings = both
    blocks = re.compile(r'<div class="highlight">.*?</code></pre>(?:</td></tr></table>\n</div>\n)?</div>', re.S)
    compared = 0
    for path in sorted(path for path in hugo if path.endswith(".html")):
        theirs, mine = blocks.findall(hugo[path].decode()), blocks.findall(ours[path].decode())
        assert mine == theirs, path
        compared += len(theirs)
    assert compared == 242
