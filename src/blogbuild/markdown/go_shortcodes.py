"""A Hugo site's own Go shortcode in a post: arguments typed as Hugo types them, `.Inner` as Hugo gives it
(the inner text as written, nested shortcodes already rendered; never through markdown or the
typographer unless the template calls markdownify), `{{% %}}` output rendered as markdown, and a
template blogbuild cannot run shown as its inner text with a warning at the post's line."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import jinja2

from ..core.page_lookups import set_line
from ..core.errors import SourceError, SourceWarning
from ..hugo.gotemplate import GoTemplateError, HugoFunctionError, PageInfo, ShortcodeCall, UnsupportedField, render, \
    typed_argument

if TYPE_CHECKING:
    from ..hugo.gotemplate import GoSource

_NO_PAGE = PageInfo()


def expand_go(context: Any, source: "GoSource", node: Any, line: int, column: int, inner_line_offset: int, *,
              standalone: bool, ordinal: int, arguments: list[tuple[str, str, str]], nested: bool = False) -> str:
    """The HTML of one call of a Go shortcode (its inner text, with a warning, if it cannot run); context and
    node are shortcodes.py's _Context and _Node, arguments its (name or "", as written, unquoted) triples. A
    {{% %}} shortcode's output is markdown of the page; nested in another's inner text, its .Inner is markdown
    rendered and its output is the outer one's text, as Hugo renders them."""
    templates = context.shortcodes.go
    assert templates is not None
    positional = tuple(typed_argument(raw, value) for name, raw, value in arguments if not name)
    named = {name: typed_argument(raw, value) for name, raw, value in arguments if name}
    if positional and named:
        raise SourceError(context.path, line, f"shortcode '{node.name}' mixes named and positional parameters, "
                                              "which Hugo refuses; use one kind", stage="shortcode")
    inner = context.expand_text(node.inner, inner_line_offset) if node.inner is not None else None
    if nested and node.kind == "%" and inner is not None:
        inner = context.inner_markdown(inner, inner_line_offset)

    def markdown(text: str) -> str:
        return context.markdown(text, inner_line_offset, inline=False)

    page = replace(context.page or _NO_PAGE, site_info=templates.site, markdownify=markdown)
    if context.page is not None:   # the page's one Store (.Page.Store, .Page.Scratch), which its layouts read
        object.__setattr__(page, "store", context.page.store)
    call = ShortcodeCall(Name=node.name, positional=positional, named=named, is_named=bool(named), inner=inner,
                         Ordinal=ordinal, Position=f"{context.path}:{line}:{column}", Page=page, Site=templates.site)
    state = templates.state(markdown)
    set_line(line)   # a page it names (GetPage, ref, relref): the marker's line
    try:
        html = render(source, call, state)
    except GoTemplateError as error:
        return _fallback(context, node, line, inner_line_offset, standalone,
                         f"{source.where(error)}: {error.message}")
    except RecursionError:
        return _fallback(context, node, line, inner_line_offset, standalone,
                         f"{source.path}: the template calls itself too deeply")
    except SourceError:
        raise   # a post's own error (markdownify of its text) stays the post's
    except (UnsupportedField, HugoFunctionError, jinja2.TemplateError) as error:
        return _fallback(context, node, line, inner_line_offset, standalone, f"{source.path}: {error}")
    except Exception as error:  # noqa: BLE001 - a template that fails in any way must not stop the build
        return _fallback(context, node, line, inner_line_offset, standalone,
                         f"{source.path}: {type(error).__name__}: {error}")
    if node.kind == "%" and not nested:
        # Hugo renders a {{% %}} shortcode's output as part of the page's markdown.
        html = context.markdown(html, line - 1, inline=not standalone)
    return html


def _fallback(context: Any, node: Any, line: int, inner_line_offset: int, standalone: bool,
              problem: str) -> str:
    context.collected.warnings.append(SourceWarning(
        context.path, line, f"shortcode '{node.name}' cannot run in blogbuild ({problem}); its inner text is "
                            f"shown instead; port the template to Jinja in templates/shortcodes/{node.name}.html"))
    if node.inner is None:
        return ""
    return context.markdown(node.inner, inner_line_offset, inline=not standalone)
