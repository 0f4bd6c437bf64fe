"""Code: Pygments highlighting for fences, indented blocks, inline code and the highlight shortcode."""
from __future__ import annotations

import functools
import html
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.renderer import RendererProtocol
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from ..config.markup import MarkupConfig
from .code_attributes import UNPARSED_ATTRIBUTES, code_block_attributes, wrapper_attributes
from .environment import environment_of
from .fences import fence_options, needs_lines, number_lines

if TYPE_CHECKING:   # Pygments is imported when a block is highlighted: most edits highlight none
    from pygments.formatters import HtmlFormatter
    from pygments.lexer import Lexer

_DEFAULT_MARKUP = MarkupConfig()
_SVG_TEXT = re.compile(r"<text [^>]*>([^<]*)</text>")


@functools.lru_cache(maxsize=256)
def _lexer(language: str) -> Lexer | None:
    """The Pygments lexer for a language name, or None; one instance per process, as building one
    (and a formatter, below) costs more than highlighting a short block. Lexers keep no state
    between get_tokens() calls, so one instance serves every block."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@functools.lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter:
    """The one HtmlFormatter (CSS classes, no wrapper); it only caches class names between calls."""
    from pygments.formatters import HtmlFormatter
    return HtmlFormatter(nowrap=True)


@functools.lru_cache(maxsize=4096)
def _highlight(language: str, code: str) -> str | None:
    """Pygments HTML (CSS classes, no wrapper) for code in a known language, else None."""
    lexer = _lexer(language)
    if lexer is None:
        return None
    from pygments import highlight
    return highlight(code, lexer, _formatter())


# A fence's opening line, as far as compile_lexers reads it (indented, quoted or listed fences are found too:
# a fence it misses only has its lexer compiled where it is highlighted).
_FENCE_LINE = re.compile(r"^[ \t>*+\-0-9.]*(?:`{3,}|~{3,})([^\n`]*)$", re.MULTILINE)


def compile_lexers(texts: Sequence[str]) -> None:
    """Compile in this process the Chroma lexers of the languages the fences of these texts name, before a pool
    of workers is forked to render them: the workers, and the page workers forked later (a hook that highlights
    again), inherit them instead of each compiling its own (10-60 ms a language: Python's, CSS's, SQL's rules
    are long). A lexer that does not compile is left to fail where it highlights, as before."""
    from .chroma.lexer import LexerError
    from .chroma.registry import get_lexer
    languages = {fence_language(info) for text in texts if "``" in text or "~~~" in text
                 for info in _FENCE_LINE.findall(text)}
    for language in sorted(languages - {"", "mermaid", "math", "goat"}):
        lexer = get_lexer(language)
        if lexer is None:
            continue
        try:
            lexer.rules()
        except LexerError:
            continue


def fence_language(info: str) -> str:
    """The language name of a fence's info string ("python" of "{.python}" or "python{linenos=true}")."""
    info = unescapeAll(info).strip() if info else ""
    if not info:
        return ""
    language = info.split(maxsplit=1)[0]
    # "{.python}" and "python{linenos=true}" styles: keep the name only.
    return language.strip("{}.").split("{", 1)[0]



def fence_html(code: str, info: str, markup: MarkupConfig = _DEFAULT_MARKUP, ordinal: int = 0,
               warnings: list[str] | None = None) -> str:
    """The HTML of a fence: a mermaid or math block, highlighted code, or plain code; ordinal is its place among
    the page's code blocks (Hugo's default line anchors, hl-ORDINAL-); Chroma's warnings go to warnings."""
    return fence_html_and_text(code, info, markup, ordinal, warnings)[0]


def fence_html_and_text(code: str, info: str, markup: MarkupConfig = _DEFAULT_MARKUP,
                        ordinal: int = 0, warnings: list[str] | None = None) -> tuple[str, str]:
    """(HTML of a fence, the text that HTML shows), with line numbers and highlighted lines when the
    fence's attributes or the site's highlight settings ask for them.

    The text lets text measures skip parsing the fence's HTML: it is the code itself (Pygments keeps
    every character of it but a leading byte order mark, and carriage returns, which markdown-it has
    already replaced); line numbers are not text of the code."""
    if markup.render_hooks and not markup.code_fences:   # Hugo's codeFences = false: goldmark's own block
        return _goldmark_fence(code, info), code
    language = fence_language(info)
    lowered = language.lower()
    if lowered == "mermaid":
        return f'<pre class="mermaid">{escapeHtml(code)}</pre>\n', code
    if lowered == "math":
        tex = code.strip("\n")
        return f'<div class="math display">{escapeHtml(tex)}</div>\n', tex
    # A Hugo site's own layouts: Hugo's embedded goat hook draws a ```goat block (the name as written: ```GOAT is code).
    if markup.render_hooks and language == "goat":
        return _goat_html_and_text(code, info, warnings)
    if markup.render_hooks:   # a Hugo site's own layouts: Chroma's HTML, as Hugo writes it
        code = code.rstrip("\r\n") + "\n"   # Hugo chomps every line end after the code, then Chroma adds one
        return chroma_fence_html(code, language, info, markup, ordinal, warnings), code.removeprefix("\ufeff")
    class_attribute = f' class="language-{escapeHtml(language)}"' if language else ""
    highlighted = _highlight(lowered, code) if language else None
    options = fence_options(info, line_numbers=markup.line_numbers, table=markup.line_numbers_in_table,
                            start=markup.line_number_start)
    if needs_lines(options):
        numbers, lines = number_lines(highlighted if highlighted is not None else escapeHtml(code), options)
        body = f"<pre><code{class_attribute}>{lines}</code></pre>"
        if numbers:
            # Hugo's table layout: the numbers in a column of their own, so that copying takes only code.
            body = (f'<table class="lntable"><tr><td class="lntd"><pre><code>{numbers}</code></pre></td>'
                    f'<td class="lntd">{body}</td></tr></table>')
        return f'<div class="highlight">{body}</div>\n', code.removeprefix("\ufeff")
    if highlighted is None:
        return f"<pre><code{class_attribute}>{escapeHtml(code)}</code></pre>\n", code
    html = f'<div class="highlight"><pre><code{class_attribute}>{highlighted}</code></pre></div>\n'
    return html, code.removeprefix("\ufeff")


def _goat_html_and_text(code: str, info: str, warnings: list[str] | None) -> tuple[str, str]:
    """(HTML, text) of a ```goat block as Hugo's embedded render-codeblock-goat.html draws it: an SVG diagram,
    which shows the characters goat reads as text, each on a line of its own."""
    from ..hugo.gotemplate import build_svg, goat_code_block
    parsed = code_block_attributes(info)
    if parsed is None and warnings is not None:
        warnings.append(UNPARSED_ATTRIBUTES)
    svg = build_svg(code.rstrip("\n\r"))   # the block's text as Hugo gives its hook: no line ends after it
    text = "".join(html.unescape(character) + "\n" for character in _SVG_TEXT.findall(svg.body))
    return goat_code_block(svg, parsed[1] if parsed is not None else []), text


def chroma_fence_html(code: str, language: str, info: str, markup: MarkupConfig, ordinal: int = 0,
                      warnings: list[str] | None = None) -> str:
    """A fenced block as Hugo's Chroma highlights it: the site's markup.highlight, then the fence's options
    ({linenos=table hl_lines=[2,"4-5"]}), line anchors hl-ORDINAL unless set; its other attributes go on the
    wrapper div."""
    # Here, not at the top: Chroma's lexers load only for a site that highlights as Hugo does.
    from .chroma.hugo import apply_options, config_from_settings, normalize
    from .chroma.hugo import highlight as chroma_highlight
    parsed = chroma_fence_attributes(info)
    if parsed is None and warnings is not None:
        warnings.append(UNPARSED_ATTRIBUTES)
    options, attributes = parsed if parsed is not None else ({}, [])
    config = apply_options(config_from_settings(markup.highlight), normalize(options))
    if not config.lineanchors:
        config = replace(config, lineanchors=f"hl-{ordinal}")
    classes, others = wrapper_attributes(attributes)
    if not code.endswith("\n"):
        code += "\n"
    # Hugo writes the block with no line break after it (`</div></li>`, `</div><p>`).
    return chroma_highlight(code, language, config, wrapper_classes=classes, wrapper_attributes=others,
                            warnings=warnings)


def chroma_fence_attributes(info: str) -> tuple[dict[str, Any], list[tuple[str, Any]]] | None:
    """A fence's {…} as Hugo reads it: (Hugo's highlighting options, the other attributes); None when it is not
    an attribute list."""
    parsed = code_block_attributes(info)
    if parsed is None:
        return None
    options, attributes = parsed
    return dict(options), attributes


def render_fence(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                 env: EnvType) -> str:
    """A fenced block, with shortcode source put back into it; on a Hugo site, after a line break when it follows
    a tight list item's text (`<li>text\n<div class="highlight">`), as goldmark writes it."""
    token = tokens[index]
    environment = environment_of(env)
    markup = markup_of(options)
    warnings: list[str] = []
    html, text = fence_html_and_text(environment.restore_text(token.content), token.info, markup,
                                     environment.code_block_ordinal(), warnings)
    for message in warnings:   # a lexer that failed or ran out of time: at the fence's line
        environment.warn(token.map[0] if token.map else 0, message)
    if markup.render_hooks and index and tokens[index - 1].hidden:
        html = "\n" + html
    token.meta["fence"] = (html, text)   # the text measures read it (text_tree.py), not highlighting twice
    return html


def _goldmark_fence(code: str, info: str) -> str:
    """A fence as goldmark writes it when Hugo's markup.highlight.codeFences is false (no Chroma, no code block hook,
    no attributes read): `<pre><code class="language-X">`, X the info up to its first space, the code escaped."""
    language = info.strip().split(" ", 1)[0] if info.strip() else ""
    class_attribute = f' class="language-{escapeHtml(language)}"' if language else ""
    return f"<pre><code{class_attribute}>{escapeHtml(code)}</code></pre>\n"


def markup_of(options: OptionsDict) -> MarkupConfig:
    """The site's markup settings, which parser.py keeps in the parser's options."""
    markup = options.get("markup")
    return markup if isinstance(markup, MarkupConfig) else _DEFAULT_MARKUP


def render_code_block(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                      env: EnvType) -> str:
    """An indented code block (never highlighted: it has no language)."""
    return f"<pre><code>{escapeHtml(environment_of(env).restore_text(tokens[index].content))}</code></pre>\n"


def render_code_inline(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                       env: EnvType) -> str:
    """`code` in a paragraph."""
    return f"<code>{escapeHtml(environment_of(env).restore_text(tokens[index].content))}</code>"


def highlight_html(code: str, language: str) -> str:
    """A code block as a fence would render it (used by the highlight shortcode)."""
    return fence_html(code, language)


def highlight_css(light_style: str, dark_style: str) -> str:
    """One stylesheet: light code colours, and dark ones for the system preference or data-theme=dark."""
    from pygments.formatters import HtmlFormatter
    light = HtmlFormatter(style=light_style)
    dark = HtmlFormatter(style=dark_style)
    system_dark = [":root:not([data-theme=light]) .highlight"]
    toggled_dark = ["[data-theme=dark] .highlight"]
    # Pygments returns lists of rule lines here.
    lines = [f"/* code colours: {light_style} (light), {dark_style} (dark) */"]
    lines += light.get_background_style_defs(".highlight") + light.get_token_style_defs(".highlight")
    lines.append("@media (prefers-color-scheme: dark) {")
    lines += ["  " + line for line in dark.get_background_style_defs(system_dark)
              + dark.get_token_style_defs(system_dark)]
    lines.append("}")
    lines += dark.get_background_style_defs(toggled_dark) + dark.get_token_style_defs(toggled_dark)
    return "\n".join(line for line in lines if line) + "\n"


