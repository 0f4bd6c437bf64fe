"""Code: Pygments highlighting for fences, indented blocks, inline code and the highlight shortcode."""
from __future__ import annotations

import functools
from typing import Sequence

from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.renderer import RendererProtocol
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from ..config.markup import MarkupConfig
from .environment import environment_of
from .fences import FenceOptions, fence_options, needs_lines, number_lines

_DEFAULT_MARKUP = MarkupConfig()


@functools.lru_cache(maxsize=256)
def _lexer(language: str) -> Lexer | None:
    """The Pygments lexer for a language name, or None; one instance per process, as building one
    (and a formatter, below) costs more than highlighting a short block. Lexers keep no state
    between get_tokens() calls, so one instance serves every block."""
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@functools.lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter:
    """The one HtmlFormatter (CSS classes, no wrapper); it only caches class names between calls."""
    return HtmlFormatter(nowrap=True)


@functools.lru_cache(maxsize=4096)
def _highlight(language: str, code: str) -> str | None:
    """Pygments HTML (CSS classes, no wrapper) for code in a known language, else None."""
    lexer = _lexer(language)
    if lexer is None:
        return None
    return pygments_highlight(code, lexer, _formatter())


def fence_language(info: str) -> str:
    """The language name of a fence's info string ("python" of "{.python}" or "python{linenos=true}")."""
    info = unescapeAll(info).strip() if info else ""
    if not info:
        return ""
    language = info.split(maxsplit=1)[0]
    # "{.python}" and "python{linenos=true}" styles: keep the name only.
    return language.strip("{}.").split("{", 1)[0]



def fence_html(code: str, info: str, markup: MarkupConfig = _DEFAULT_MARKUP) -> str:
    """The HTML of a fence: a mermaid or math block, highlighted code, or plain code."""
    return fence_html_and_text(code, info, markup)[0]


def fence_html_and_text(code: str, info: str, markup: MarkupConfig = _DEFAULT_MARKUP) -> tuple[str, str]:
    """(HTML of a fence, the text that HTML shows), with line numbers and highlighted lines when the
    fence's attributes or the site's highlight settings ask for them.

    The text lets text measures skip parsing the fence's HTML: it is the code itself (Pygments keeps
    every character of it but a leading byte order mark, and carriage returns, which markdown-it has
    already replaced); line numbers are not text of the code."""
    language = fence_language(info)
    lowered = language.lower()
    if lowered == "mermaid":
        return f'<pre class="mermaid">{escapeHtml(code)}</pre>\n', code
    if lowered == "math":
        tex = code.strip("\n")
        return f'<div class="math display">{escapeHtml(tex)}</div>\n', tex
    class_attribute = f' class="language-{escapeHtml(language)}"' if language else ""
    highlighted = _highlight(lowered, code) if language else None
    options = fence_options(info, line_numbers=markup.line_numbers, table=markup.line_numbers_in_table,
                            start=markup.line_number_start)
    if markup.render_hooks and highlighted is not None:   # a Hugo site's own layouts: Chroma's HTML, as Hugo's
        return _chroma_html(highlighted, class_attribute + f' data-lang="{escapeHtml(language)}"', options), \
            code.removeprefix("\ufeff")
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


def _chroma_html(highlighted: str, code_attributes: str, options: FenceOptions) -> str:
    """Highlighted code as Hugo's Chroma writes it with CSS classes: each line in 'line' and 'cl' spans, the
    pre of class chroma, the line numbers in a table's first column or before each line."""
    numbers, lines = number_lines(highlighted, options)
    if numbers:
        return ('<div class="highlight"><div class="chroma">\n<table class="lntable"><tr><td class="lntd">\n'
                f'<pre tabindex="0" class="chroma"><code>{numbers}</code></pre></td>\n<td class="lntd">\n'
                f'<pre tabindex="0" class="chroma"><code{code_attributes}>{lines}</code></pre></td></tr></table>\n'
                '</div>\n</div>\n')
    return f'<div class="highlight"><pre tabindex="0" class="chroma"><code{code_attributes}>{lines}</code></pre></div>\n'


def render_fence(renderer: RendererProtocol, tokens: Sequence[Token], index: int, options: OptionsDict,
                 env: EnvType) -> str:
    """A fenced block, with shortcode source put back into it."""
    token = tokens[index]
    return fence_html(environment_of(env).restore_text(token.content), token.info, markup_of(options))


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


