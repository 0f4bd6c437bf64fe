"""Code on a Hugo site its own layouts render is highlighted as Hugo 0.168 highlights it, with Chroma v2.27.0:
tests/hugo_sites/chroma_code (fences in 26 languages, ERB among them (Ruby in HTML, whose HTML the HTML lexer lexes), line numbers inline and in a table, hl_lines, linenostart,
an unknown language and none, blank lines after the code (chomped), transform.Highlight with an option string and a map, the highlight shortcode, transform.CanHighlight, a
shortcode written literally ({{</* x */>}}) inside code, lexed as the text it shows) built by the hugo binary and
by blogbuild: every code block the same bytes (quotes escaped as Go's &#34; and &#39;). Unit tests of the engine cover
what the oracle does not reach (a lexer file that fails to load, a pattern that runs out of time)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, built_by_both, copy_site

from blogbuild.markdown.chroma import lexer as chroma_lexer
from blogbuild.markdown.chroma.hugo import HighlightConfig, highlight, tokens_of
from blogbuild.markdown.chroma.patterns import translate
from blogbuild.markdown.chroma.registry import Registry, get_lexer, registry
from blogbuild.markdown.chroma.xml_lexers import XmlLexerFile

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "chroma_code"
PAGES = ("posts/systems/index.html", "posts/ops/index.html", "posts/web/index.html", "posts/options/index.html",
         "posts/literal/index.html")
_BLOCK = re.compile(r'<div class="highlight">.*?</code></pre>(?:</td></tr></table>\n</div>\n)?</div>'
                    r'|<pre tabindex="0"><code[^>]*>.*?</code></pre>|<code class="code-inline[^>]*>.*?</code>'
                    r'|<pre><code[^>]*>.*?</code></pre>', re.S)


def _blocks(page: str) -> list[str]:
    return _BLOCK.findall(page)


# The fixture's markup.highlight (classes), then Hugo's default (noClasses: inline styles of monokai), then
# inline styles of another Chroma style, then fences not highlighted (codeFences = false).
_CONFIGS = {"classes": lambda text: text,
            "monokai": lambda text: text.replace("noClasses = false\n", ""),
            "dracula": lambda text: text.replace("noClasses = false\n", 'style = "dracula"\n'),
            # no highlighting of fences at all (a highlight.js theme's setting): goldmark's own <pre><code>
            "no-fences": lambda text: text.replace("noClasses = false\n", "codeFences = false\n")}


@pytest.fixture(scope="module", params=sorted(_CONFIGS))
def both(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[dict[str, bytes], dict[str, bytes]]:
    hugo, ours, _warnings = built_by_both(FIXTURE, tmp_path_factory.mktemp("chroma"), _CONFIGS[request.param])
    return hugo, ours


@pytest.mark.parametrize("page", PAGES)
def test_every_code_block_is_the_dom_hugo_writes(both, page: str) -> None:
    hugo, ours = both
    theirs, mine = _blocks(hugo[page].decode()), _blocks(ours[page].decode())
    assert len(theirs) == len(mine) and theirs
    for index, (expected, got) in enumerate(zip(theirs, mine, strict=True)):
        assert dom_tokens(got) == dom_tokens(expected), f"{page} block {index}"
        assert got == expected, f"{page} block {index}: the same DOM, other bytes"   # Go's &#34; and &#39;


def test_transform_highlight_and_can_highlight_are_hugos(both) -> None:
    hugo, ours = both
    page = "posts/systems/index.html"
    section = re.compile(r'<section id="transform">.*?</section>', re.S)
    expected = section.search(hugo[page].decode())
    got = section.search(ours[page].decode())
    assert expected and got
    assert dom_tokens(got.group(0)) == dom_tokens(expected.group(0))


def test_lexer_lookup_is_chromas() -> None:
    assert get_lexer("Go") is get_lexer("golang")
    assert get_lexer("PYTHON") is get_lexer("py")
    assert get_lexer("Dockerfile") is not None
    lexer = get_lexer("rs")   # no alias: the lexer of a file named filename.rs
    assert lexer is not None and lexer.config.name == "Rust"
    assert get_lexer("no-such-language") is None


def test_dotnet_constructs_mean_what_regexp2_makes_of_them() -> None:
    assert translate(r"a\Z") == r"a(?=\n?\Z)"
    assert translate(r"a{,2}") == r"a\{,2}"
    assert translate(r"x(?i)y|z") == r"x(?i:y)|(?i:z)"
    assert translate(r"(a)(\2)") == r"(a)((?!))"


def test_a_lexer_file_that_fails_to_load_is_a_warning_naming_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("<lexer>\n  <config><name>Broken</name></config>\n  <rules>\n    <state name='root'>\n"
                      "      <rule pattern='('><token type='Text'/></rule>\n    </state>\n  </rules>\n</lexer>\n")
    source = XmlLexerFile(broken, "broken.xml")
    lexer = chroma_lexer.RegexLexer(source.config(source.document()), source.rules, Registry(), "broken.xml")
    with pytest.raises(chroma_lexer.LexerError, match=r"broken\.xml:5: the pattern"):
        lexer.rules()
    bad = tmp_path / "bad.xml"
    bad.write_text("<lexer>\n<config><name>x</name>\n</lexer>\n")
    with pytest.raises(chroma_lexer.LexerError, match=r"bad\.xml:3"):
        XmlLexerFile(bad, "bad.xml").document()


def test_a_catastrophic_pattern_gives_plain_text_and_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chroma_lexer, "BLOCK_BUDGET", 0.5)
    rules = {"root": [chroma_lexer.Rule(r"(a|aa)+c", chroma_lexer.TokenEmitter(1000), where="slow.xml:3"),
                      chroma_lexer.Rule(r".|\n", chroma_lexer.TokenEmitter(8000), where="slow.xml:4")]}
    slow = chroma_lexer.RegexLexer(chroma_lexer.Config("Slow"), lambda: rules, where="slow.xml")
    warnings: list[str] = []
    from blogbuild.markdown.chroma import hugo
    tokens = hugo._lex(slow, "a" * 40 + "!\n", warnings)
    assert "".join(value for _kind, value in tokens) == "a" * 40 + "!\n"
    assert warnings and ("slow.xml:3" in warnings[0] or "longer than" in warnings[0])


def test_an_unknown_language_is_escaped_code_without_the_wrapper() -> None:
    assert highlight("<b>\n", "nope", HighlightConfig()) == \
        '<pre tabindex="0"><code class="language-nope" data-lang="nope">&lt;b&gt;\n</code></pre>'
    assert tokens_of("x", "nope") is None


_BROKEN_LEXERS = {
    "broken.xml": "<lexer>\n  <config><name>Broken</name><alias>broken</alias></config>\n  <rules>\n"
                  "    <state name='root'>\n      <rule pattern='('><token type='Text'/></rule>\n    </state>\n"
                  "  </rules>\n</lexer>\n",
    "slow.xml": "<lexer>\n  <config><name>Slow</name><alias>slow</alias></config>\n  <rules>\n"
                "    <state name='root'>\n      <rule pattern='(a|aa)+c'><token type='Keyword'/></rule>\n"
                "      <rule pattern='[a!]+|\\n'><token type='Text'/></rule>\n    </state>\n  </rules>\n</lexer>\n",
}


def test_a_lexer_that_fails_or_runs_out_of_time_is_a_warning_at_its_block(tmp_path: Path) -> None:
    """Lexer files loaded through the registry's own loader: one with a pattern that does not compile, one whose
    pattern backtracks past regexp2's bound. The build goes on; each block's warning names its file and line."""
    folder = tmp_path / "lexers"
    folder.mkdir()
    for name, text in _BROKEN_LEXERS.items():
        (folder / name).write_text(text)
    loaded = registry().load_folder(folder, "lexers")
    assert [lexer.config.name for lexer in loaded] == ["Broken", "Slow"]
    try:
        site = copy_site(FIXTURE, tmp_path / "site")
        (site / "content" / "posts" / "bad.md").write_text(
            "---\ntitle: Bad\ndate: 2024-02-01\n---\n\n```broken\n<b>x</b>\n```\n\ntext\n\n```slow\n"
            + "a" * 40 + "!\n```\n")
        files, warnings = blogbuild_files(site)
    finally:
        for lexer in loaded:
            registry().unregister(lexer)
    assert get_lexer("broken") is None
    page = files["posts/bad/index.html"].decode()
    assert '<span class="line"><span class="cl">&lt;b&gt;x&lt;/b&gt;\n</span></span>' in page   # plain text
    assert "a" * 40 + "!" in page
    found = {(warning.path, warning.line): warning.message for warning in warnings if "highlighting" in warning.message}
    assert set(found) == {("content/posts/bad.md", 6), ("content/posts/bad.md", 12)}, warnings
    assert "lexers/broken.xml:5" in found[("content/posts/bad.md", 6)]
    assert "shown as plain text" in found[("content/posts/bad.md", 6)]
    assert "lexers/slow.xml:5" in found[("content/posts/bad.md", 12)]


HOOKS = Path(__file__).resolve().parent / "hugo_sites" / "chroma_hooks"


def test_a_codeblock_hook_reads_options_and_attributes_and_highlights_the_block_as_hugo(tmp_path: Path) -> None:
    """tests/hugo_sites/chroma_hooks: a render-codeblock hook printing .Options (Chroma's options under the name
    as written, hl_lines as 0-based ranges) and .Attributes (lower-cased: classes, id, the rest), then
    transform.HighlightCodeBlock's .Wrapped and .Inner, with the fence's options and with options given to it:
    the page's content is Hugo's, byte for byte (a task list too: goldmark's checkbox markup, which LoveIt
    rewrites into icons)."""
    hugo, ours, _warnings = built_by_both(HOOKS, tmp_path)
    main = re.compile(r"<main>.*</main>", re.S)
    expected = main.search(hugo["posts/hooks/index.html"].decode())
    got = main.search(ours["posts/hooks/index.html"].decode())
    assert expected and got
    assert 'lineNoStart=3' in expected.group(0)
    assert got.group(0) == expected.group(0)


def test_a_fence_whose_attributes_do_not_parse_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """Hugo fails the build with "failed to parse Markdown attributes"; blogbuild highlights the block without them and
    names the line."""
    site = copy_site(FIXTURE, tmp_path / "site")
    (site / "content" / "posts" / "quotes.md").write_text(
        "---\ntitle: Quotes\ndate: 2024-02-02\n---\n\ntext\n\n```go {title='single quotes'}\nx := 1\n```\n")
    files, warnings = blogbuild_files(site)
    assert [(warning.path, warning.line) for warning in warnings if "attributes" in warning.message] == \
        [("content/posts/quotes.md", 8)]
    assert 'data-lang="go"' in files["posts/quotes/index.html"].decode()
