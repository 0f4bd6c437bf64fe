"""Hugo-style shortcodes: built-ins, a site's own Jinja ones, and the placeholder pass around markdown."""
from __future__ import annotations

import bisect
import functools
import html as html_lib
import re
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence
from urllib.parse import quote, unquote

import jinja2
from markupsafe import Markup

from ..core.errors import SourceError, SourceWarning
from ..config.markup import MarkupConfig
from ..core.model import RenderedMarkdown, SourceMark, TocEntry
from ..core.names import layout_folders
from ..core.urls import url_origin
from ..templating.environment import jinja_environment
from ..templating.markdownify import markdownify
from .code import highlight_html
from .html_math import mark_math_in_html
from .marks import html_marks

if TYPE_CHECKING:
    from ..config import SiteConfig
    from ..hugo.gotemplate import GoSource, GoTemplates

from .embeds import EMBEDS, TAKE_INNER
from ..core.records import dataclass

BUILTIN_NAMES = ("figure", "details", "highlight", "ref", "relref", "rawhtml", *EMBEDS)


@dataclass(frozen=True)
class ShortcodeTemplate:
    """A site shortcode: templates/shortcodes/NAME.html and its source text."""

    name: str
    path: str
    source: str

    @property
    def template(self) -> jinja2.Template:
        """The compiled template (compiled once per process; the set itself stays picklable)."""
        return _compile(self.path, self.source)


@dataclass(frozen=True)
class ShortcodeSet:
    """The shortcodes a build knows besides the built-ins; a site template overrides a built-in."""

    templates: Mapping[str, ShortcodeTemplate] = field(default_factory=dict)
    go: "GoTemplates | None" = None      # a Hugo site's own Go shortcodes and partials (gotemplate/)
    site_params: Mapping[str, Any] = field(default_factory=dict)   # the config's params (the param shortcode)
    translated: "Mapping[str, GoSource]" = field(default_factory=dict)   # init --from-hugo's, the author's now
    language: str = ""   # the site's language: the words of the built-in embeds' boxes (Chinese for zh*)
    own_layouts: bool = False   # the site's own layouts render it: a theme's highlight is Hugo's override
    inline: bool = False        # Hugo's enableInlineShortcodes: `{{< name.inline >}}` runs its inner template

    def knows(self, name: str) -> bool:
        """Whether name is a site shortcode or a built-in one."""
        return (name in self.templates or name in BUILTIN_NAMES or name in self.translated
                or self.go_source(name) is not None)

    def go_source(self, name: str) -> "GoSource | None":
        """The Go template that renders name: the site's layouts/ before blogbuild's built-ins; a theme's
        before Hugo's embeds (youtube, gist, x, …: a theme's overrides Hugo's, as in Hugo); under blogbuild's own
        theme, after blogbuild's own figure, details, highlight, refs and PaperMod stand-ins, and on a site its own
        layouts render, before them too, as a theme's shortcode overrides Hugo's own of the name. A translation in
        templates/shortcodes/ is the author's own and comes first."""
        if name in self.translated:
            return self.translated[name]
        if self.go is None or name in self.templates:
            return None
        source = self.go.shortcodes.get(name)
        if source is None or (name in _OWN_BUILTINS and not source.path.startswith("layouts/")
                              and not self.own_layouts):
            return None
        return source

    def takes_inner(self, name: str) -> bool:
        """Whether the shortcode uses its inner content, so that an open tag must be closed or self-closed
        (Hugo decides the same way, by whether the template uses .Inner)."""
        site = self.templates.get(name)
        if site is not None:
            return _USES_INNER.search(site.source) is not None
        go = self.go_source(name)
        if go is not None:
            return go.uses_inner()
        return name in _BUILTINS_WITH_INNER


# The built-ins a theme's shortcode of the same name does not replace: blogbuild's own, and its stand-ins for
# PaperMod's (collapse, inTextImg).
_OWN_BUILTINS = frozenset({"figure", "details", "highlight", "ref", "relref", "rawhtml", "collapse", "inTextImg"})
_BUILTINS_WITH_INNER = frozenset({"details", "highlight", "rawhtml", *TAKE_INNER})
_USES_INNER = re.compile(r"\binner(?:_text)?\b")


@jinja2.pass_context
def _markdownify(context: jinja2.runtime.Context, text: object) -> Markup:
    """{{ inner | markdownify }}: markdown rendered in the post being built (Hugo's markdownify: one
    paragraph loses its <p>), with that post's shortcodes, heading ids and warnings."""
    render = context.get("_markdownify")
    if not callable(render):
        raise jinja2.TemplateRuntimeError("markdownify is only available while a post is rendered")
    return markdownify(render, text)


def _environment() -> jinja2.Environment:
    return jinja_environment(strict=False, keep_trailing_newline=False, filters={"markdownify": _markdownify})


@functools.lru_cache(maxsize=256)
def _compile(path: str, source: str) -> jinja2.Template:
    try:
        return _environment().from_string(source)
    except jinja2.TemplateSyntaxError as error:
        raise SourceError(path, error.lineno or 1,
                          f"shortcode template syntax error: {error.message}; fix the template",
                          stage="shortcode") from error


@functools.lru_cache(maxsize=1)
def builtin_shortcodes() -> ShortcodeSet:
    """The set with the built-in shortcodes only."""
    return ShortcodeSet()


def load_shortcodes(template_dirs: Sequence[Path], inside: Sequence[str] = (),
                    config: "SiteConfig | None" = None) -> ShortcodeSet:
    """Read templates/shortcodes/NAME.html from each template dir; earlier dirs win. A file whose real path
    is outside its template dir and the folders inside names (sources.site_folders) is not read. With the
    site's config, a Hugo site's Go shortcodes and partials (layouts/) come too."""
    import os
    from ..core.names import TRANSLATED_MARK, is_inside
    templates: dict[str, ShortcodeTemplate] = {}
    translated: dict[str, GoSource] = {}
    for directory in template_dirs:
        folder = Path(directory) / "shortcodes"
        if not folder.is_dir():
            continue
        allowed = (os.path.realpath(directory), *inside)
        for file in sorted(folder.glob("*.html")):
            name = file.stem
            if name in templates or not file.is_file() or not is_inside(os.path.realpath(file), allowed):
                continue
            try:
                source = file.read_text(encoding="utf-8-sig")
            except UnicodeDecodeError as error:
                raise SourceError(str(file), 1, "shortcode template is not UTF-8 text; save it as UTF-8",
                                  stage="shortcode") from error
            if source.startswith(TRANSLATED_MARK):
                if name not in translated:
                    translated[name] = _translated(file, source)
                continue
            _compile(str(file), source)   # syntax errors surface here, at load time
            templates[name] = ShortcodeTemplate(name, str(file), source)
    go = None
    if config is not None and _has_go_templates(config):
        from ..hugo.gotemplate import load_go_templates
        go = load_go_templates(Path(config.root), inside=tuple(inside),
                               title=config.title if config.hugo_title is None else config.hugo_title,
                               base_url=config.base_url, params=config.params, language=config.language_code,
                               copyright_text=config.copyright, highlight=config.markup.highlight,
                               embedded_shortcodes=config.markup.render_hooks,
                               privacy=config.hugo_privacy, **_language_of(config))
    elif translated:
        from ..hugo.gotemplate import GoTemplates
        go = GoTemplates()
    return ShortcodeSet(templates, go, dict(config.params) if config is not None else {}, translated,
                        config.language_code if config is not None else "",
                        config is not None and config.markup.render_hooks,
                        config is not None and config.hugo_inline_shortcodes)


def _has_go_templates(config: "SiteConfig") -> bool:
    """Whether the site may have Go templates to run: a layout folder (layouts/, themes/*/layouts/), Hugo's
    embedded shortcodes and hooks (its own layouts render it) or inline shortcodes. A site with none does
    without the translator, which is then not even imported."""
    return config.markup.render_hooks or config.hugo_inline_shortcodes or bool(layout_folders(Path(config.root)))


def _translated(file: Path, source: str) -> "GoSource":
    """A translation init --from-hugo wrote (and the author may have edited): checked for syntax at load."""
    from ..hugo.gotemplate import GoSource, check_jinja
    check_jinja(str(file), source)
    return GoSource(str(file), "", source)


# --------------------------------------------------------------------------- parsing

_QUOTED = r'"(?:[^"\\]|\\.)*"|`[^`]*`'
# {{< name args >}}, {{< /name >}}, {{< name />}}, {{% … %}}; quoted args may hold anything.
_TAG = re.compile(
    r"\{\{(?P<open>[<%])\s*(?P<closing>/)?\s*(?P<name>[A-Za-z_][\w\-./]*)"
    r"(?P<args>(?:" + _QUOTED + r"|[^\"`>%]|>(?!\}\})|%(?!\}\}))*?)"
    r"\s*(?P<self>/)?\s*(?P<close>[>%])\}\}", re.S)
# Hugo's way to write a shortcode literally: {{</* figure */>}} shows {{< figure >}}.
_COMMENT = re.compile(r"\{\{([<%])/\*(.*?)\*/([>%])\}\}", re.S)
_ARGUMENT = re.compile(r"\s*(?:(?P<key>[A-Za-z_][\w\-]*)\s*=\s*(?P<value>" + _QUOTED + r"|[^\s\"`]+)"
                       r"|(?P<positional>" + _QUOTED + r"|[^\s\"`]+))", re.S)


def _unquote(value: str) -> str:
    if value.startswith('"') and value.endswith('"') and len(value) >= 2:
        return re.sub(r"\\(.)", r"\1", value[1:-1], flags=re.S)
    if value.startswith("`") and value.endswith("`") and len(value) >= 2:
        return value[1:-1]
    return value


def parse_arguments(text: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Positional and named arguments of a shortcode: a "b c" key="v" key2=w."""
    positional: list[str] = []
    named: dict[str, str] = {}
    position = 0
    while position < len(text):
        match = _ARGUMENT.match(text, position)
        if not match or match.end() == position:
            break
        if match.group("key"):
            named[match.group("key")] = _unquote(match.group("value"))
        elif match.group("positional"):
            positional.append(_unquote(match.group("positional")))
        position = match.end()
    return tuple(positional), named


def raw_arguments(text: str) -> list[tuple[str, str, str]]:
    """Each argument as (name, or "" when positional; the value as written; the value unquoted)."""
    found = []
    position = 0
    while position < len(text):
        match = _ARGUMENT.match(text, position)
        if match is None or match.end() == position:
            break
        if match.group("key"):
            found.append((match.group("key"), match.group("value"), _unquote(match.group("value"))))
        elif match.group("positional"):
            found.append(("", match.group("positional"), _unquote(match.group("positional"))))
        position = match.end()
    return found


@dataclass(frozen=True)
class _Node:
    name: str
    kind: str                     # "<" (inner is text) or "%" (inner is markdown)
    start: int                    # offsets in the text, the whole shortcode
    end: int
    arguments: str
    inner: str | None = None      # None: not paired
    inner_start: int = 0
    literal: str | None = None    # for {{</* … */>}}: the text to show
    self_closed: bool = False     # {{< name />}}


def _find_nodes(text: str) -> list[_Node]:
    """The top-level shortcodes of a text, in order; nested ones stay in their inner text."""
    candidates: list[_Node] = []
    for match in _COMMENT.finditer(text):
        opening, inside, closing = match.groups()
        candidates.append(_Node("", opening, match.start(), match.end(), "",
                                literal="{{" + opening + inside + closing + "}}"))
    comment_spans = [(node.start, node.end) for node in candidates]
    # Pair each closing tag with the nearest open tag of the same name; open tags left
    # without a closing one are standalone (Hugo decides by the template; we by the text).
    stack: list[re.Match] = []
    paired: set[int] = set()
    for match in _TAG.finditer(text):
        if any(start <= match.start() < end for start, end in comment_spans):
            continue
        if match.group("closing"):
            depth = next((index for index in range(len(stack) - 1, -1, -1)
                          if stack[index].group("name") == match.group("name")), None)
            if depth is None:
                continue   # a closing tag without an opening one stays as text
            opening = stack[depth]
            del stack[depth:]
            paired.add(opening.start())
            candidates.append(_Node(opening.group("name"), opening.group("open"), opening.start(), match.end(),
                                    opening.group("args"), inner=text[opening.end():match.start()],
                                    inner_start=opening.end()))
            continue
        if match.group("self"):
            candidates.append(_Node(match.group("name"), match.group("open"), match.start(), match.end(),
                                    match.group("args"), self_closed=True))
        else:
            stack.append(match)
            candidates.append(_Node(match.group("name"), match.group("open"), match.start(), match.end(),
                                    match.group("args")))
    # An open tag that found its closing one is represented by the pair only.
    candidates = [node for node in candidates
                  if node.inner is not None or node.literal is not None or node.start not in paired
                  or not _is_open_tag_only(node, text)]
    candidates.sort(key=lambda node: (node.start, -node.end))
    nodes: list[_Node] = []
    covered_until = -1
    for node in candidates:
        if node.start >= covered_until:
            nodes.append(node)
            covered_until = node.end
    return nodes


def _ordinals(nodes: list[_Node]) -> list[int]:
    """Each node's Hugo .Ordinal: its place among the shortcodes of one text (literal ones not counted)."""
    ordinals = []
    count = 0
    for node in nodes:
        ordinals.append(count)
        if node.literal is None:
            count += 1
    return ordinals


def _is_open_tag_only(node: _Node, text: str) -> bool:
    match = _TAG.match(text, node.start)
    return match is not None and match.end() == node.end and not match.group("self")


# What may stand before a shortcode that is alone on its line: indentation, quote markers, a list marker.
_CONTAINER_PREFIX = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t>]*\Z")


def _placeholder_prefix(text: str) -> str:
    """Letters that do not occur in the text, so a placeholder cannot collide with content."""
    prefix = "BBSC"
    while prefix in text:
        prefix += "Q"
    return prefix


# --------------------------------------------------------------------------- rendering

RenderFunction = Callable[..., RenderedMarkdown]


@dataclass
class _Collected:
    """What inner renders add to the page: flags and warnings (mutable only inside one render)."""

    warnings: list[SourceWarning] = field(default_factory=list)
    marks: list[SourceMark] = field(default_factory=list)
    has_math: bool = False
    has_mermaid: bool = False
    has_code: bool = False
    toc: list[TocEntry] = field(default_factory=list)   # the headings of inner renders, in the order rendered

    def add(self, rendered: RenderedMarkdown) -> None:
        """Take in what an inner render found."""
        self.toc.extend(rendered.toc)
        self.warnings.extend(rendered.warnings)
        self.marks.extend(rendered.marks)
        self.has_math = self.has_math or rendered.has_math
        self.has_mermaid = self.has_mermaid or rendered.has_mermaid
        self.has_code = self.has_code or rendered.has_code


_SINGLE_PARAGRAPH = re.compile(r"\A<p>((?:(?!</?p>).)*)</p>\n?\Z", re.S)
_TAGS = re.compile(r"<[^>]*>")


def _strip_paragraph(html: str) -> str:
    match = _SINGLE_PARAGRAPH.match(html)
    return match.group(1) if match else html


def _attribute(name: str, value: str | None) -> str:
    return f' {name}="{html_lib.escape(value, quote=True)}"' if value else ""


class _Context:
    """One render of one body: the path, the shortcodes, and the markdown renderer."""

    def __init__(self, path: str, shortcodes: ShortcodeSet, render: RenderFunction, used_ids: set[str],
                 collected: _Collected, page: Any = None, markup: MarkupConfig | None = None) -> None:
        self.path = path
        self.markup = markup   # the site's markup settings (the highlight shortcode reads markup.highlight)
        self.shortcodes = shortcodes
        self.render = render
        self.used_ids = used_ids
        self.collected = collected
        self.page = page     # gotemplate.objects.PageInfo for Go shortcodes' .Page (None outside a post)
        self.nested = False  # whether the built-in shortcode being expanded is inside another's inner text

    def markdown(self, text: str, line_offset: int, *, inline: bool) -> str:
        """Render inner markdown (with its own shortcodes); inline drops a lone <p> wrapper."""
        rendered = render_with_shortcodes(text, path=self.path, line_offset=line_offset,
                                          shortcodes=self.shortcodes, render=self.render,
                                          used_ids=self.used_ids, page=self.page, markup=self.markup)
        self.collected.add(rendered)
        html = rendered.html
        return _strip_paragraph(html) if inline else html

    def inner_markdown(self, text: str, line_offset: int) -> str:
        """A nested {{% %}} shortcode's .Inner as Hugo gives it: rendered as markdown on its own (a lone <p> taken
        off when it is one line); its headings are not the page's."""
        headings = len(self.collected.toc)
        html = self.markdown(text, line_offset, inline="\n" not in text)
        del self.collected.toc[headings:]
        return html

    def expand_text(self, text: str, line_offset: int) -> str:
        """Expand shortcodes in a {{< >}} inner text, which is not markdown."""
        nodes = _find_nodes(text)
        if not nodes:
            return text
        parts = []
        cursor = 0
        ordinals = _ordinals(nodes)
        for number, node in enumerate(nodes):
            parts.append(text[cursor:node.start])
            line = line_offset + text.count("\n", 0, node.start) + 1
            parts.append(self.expand(node, text, line, line_offset, standalone=False, ordinal=ordinals[number],
                                     nested=True))
            cursor = node.end
        parts.append(text[cursor:])
        return "".join(parts)

    def expand(self, node: _Node, text: str, line: int, line_offset: int, *, standalone: bool,
               ordinal: int = 0, nested: bool = False) -> str:
        """The HTML of one shortcode; line is its file line, ordinal its place among its siblings, nested whether
        it is inside another's inner text."""
        if node.literal is not None:
            return html_lib.escape(node.literal, quote=False)
        positional, named = parse_arguments(node.arguments)
        inner_line_offset = line_offset + text.count("\n", 0, node.inner_start)
        if node.name.endswith(".inline") and node.name not in self.shortcodes.templates:
            return self._inline(node, text, line, inner_line_offset, standalone=standalone, ordinal=ordinal)
        site = self.shortcodes.templates.get(node.name)
        builtin = _BUILTINS.get(node.name)
        go = self.shortcodes.go_source(node.name)
        if node.inner is None and not node.self_closed and self.shortcodes.takes_inner(node.name):
            opening = "{{" + node.kind
            closing = (">" if node.kind == "<" else "%") + "}}"
            raise SourceError(self.path, line,
                              f"shortcode '{node.name}' must be closed or self-closed (its template uses the "
                              f"inner content); add '{opening} /{node.name} {closing}' where the content "
                              f"ends, or write '{opening} {node.name} /{closing}'", stage="shortcode")
        if go is not None:
            from .go_shortcodes import expand_go
            column = node.start - text.rfind("\n", 0, node.start)
            return expand_go(self, go, node, line, column, inner_line_offset, standalone=standalone,
                             ordinal=ordinal, arguments=raw_arguments(node.arguments), nested=nested)
        if site is None and builtin is not None:
            self.nested = nested
            return builtin(self, node, positional, named, line, inner_line_offset, standalone)
        if site is None:
            self.collected.warnings.append(SourceWarning(
                self.path, line, f"unknown shortcode '{node.name}'; add templates/shortcodes/{node.name}.html "
                                 "or remove it"))
            if node.inner is None:
                return ""
            return self.markdown(node.inner, inner_line_offset, inline=not standalone)
        inner_html = ""
        if node.inner is not None:
            if node.kind == "%":
                inner_html = self.markdown(node.inner, inner_line_offset, inline=not standalone)
            else:
                inner_html = self.expand_text(node.inner, inner_line_offset)
        try:
            # inner_text: the inner content as written (Hugo's .Inner), for "{{ inner_text | markdownify }}".
            return site.template.render(
                args=list(positional), params=dict(named), inner=Markup(inner_html), name=node.name,
                inner_text=node.inner or "",
                _markdownify=lambda source: self.markdown(source, inner_line_offset, inline=False))
        except Exception as error:   # a broken template must not crash the build
            raise SourceError(self.path, line,
                              f"shortcode '{node.name}' failed in {site.path}: {error}; "
                              "fix the template or the arguments", stage="shortcode") from error


    def _inline(self, node: _Node, text: str, line: int, inner_line_offset: int, *, standalone: bool,
                ordinal: int) -> str:
        """Hugo's inline shortcode: `{{< name.inline >}}TEMPLATE{{< /name.inline >}}` runs its inner text as the
        shortcode's Go template (`.Page`, `.Get`, `.Site`; no .Inner), `{{< name.inline />}}` runs it again on
        the same page; only with enableInlineShortcodes, else nothing is written, as in Hugo (a warning says so)."""
        from dataclasses import replace as replaced
        if not self.shortcodes.inline or self.shortcodes.go is None:
            self.collected.warnings.append(SourceWarning(
                self.path, line, f"inline shortcode '{node.name}' is not run: enableInlineShortcodes is not on in "
                                 "the site's Hugo config (Hugo leaves it out too); set it to true to run it"))
            return ""
        from ..hugo.gotemplate import GoSource
        defined: dict[str, GoSource] = self.__dict__.setdefault("inline_shortcodes", {})
        if node.inner is not None:
            defined[node.name] = GoSource(f"{self.path}:{line} ({node.name})", node.inner)
        source = defined.get(node.name)
        if source is None:   # an error in Hugo too ("no earlier definition")
            raise SourceError(self.path, line, f"inline shortcode '{node.name}' is used before its template; write "
                                               f"{{{{< {node.name} >}}}}…{{{{< /{node.name} >}}}} first",
                              stage="shortcode")
        from .go_shortcodes import expand_go
        column = node.start - text.rfind("\n", 0, node.start)
        return expand_go(self, source, replaced(node, inner=None), line, column, inner_line_offset,
                         standalone=standalone, ordinal=ordinal, arguments=raw_arguments(node.arguments))


def _figure(context: _Context, node: _Node, positional, named, line, inner_offset, standalone) -> str:
    source = named.get("src") or (positional[0] if positional else "")
    from ..hugo.gotemplate import content_resource_url
    hugo_source = content_resource_url(context.page, source)
    if hugo_source is not None:   # a Hugo site's own layouts render the page: Hugo's embedded figure
        url, problem = hugo_source
        if problem:
            context.collected.warnings.append(SourceWarning(context.path, line, f"figure: {problem}; the image's "
                                                            "src is linked as written"))
        return _hugo_figure(context, named, line, url)
    caption = named.get("caption", "")
    title = named.get("title", "")
    caption_html = context.markdown(caption, line - 1, inline=True) if caption else ""
    alt = named.get("alt") or " ".join(html_lib.unescape(_TAGS.sub("", caption_html)).split())
    # alt is always written (empty when nothing describes the image), as accessibility checks want.
    image = ("<img" + _attribute("src", source) + f' alt="{html_lib.escape(alt, quote=True)}"'
             + _attribute("title", title or None) + _attribute("width", named.get("width"))
             + _attribute("height", named.get("height")) + ' loading="lazy">')
    link = named.get("link")
    if link:
        image = "<a" + _attribute("href", link) + _attribute("target", named.get("target")) + ">" + image + "</a>"
    parts = ["<figure" + _attribute("class", named.get("class")) + ">", image]
    if caption or title:
        parts.append("<figcaption>")
        if title:
            parts.append(f"<h4>{html_lib.escape(title, quote=False)}</h4>")
        if caption:
            parts.append(caption_html)
        parts.append("</figcaption>")
    parts.append("</figure>")
    return "".join(parts)


def _hugo_figure(context: _Context, named: Mapping[str, str], line: int, source: str) -> str:
    """The figure Hugo's embedded shortcode writes: the image (in the link, when one is given), an alt only when
    alt or a caption gives one, and a caption of the title (h4) and the caption and attribution (p), markdown."""
    def markdown(text: str) -> str:
        return context.markdown(text, line - 1, inline=True) if text else ""
    caption, attribution = named.get("caption", ""), named.get("attr", "")
    alt = named.get("alt") or (html_lib.unescape(_TAGS.sub("", markdown(caption))) if caption else None)
    image = ("<img" + _attribute("src", source) + _attribute("alt", alt) + _attribute("width", named.get("width"))
             + _attribute("height", named.get("height")) + _attribute("loading", named.get("loading")) + ">")
    if named.get("link"):
        image = ("<a" + _attribute("href", named["link"]) + _attribute("target", named.get("target"))
                 + _attribute("rel", named.get("rel")) + ">" + image + "</a>")
    parts = ["<figure" + _attribute("class", named.get("class")) + ">", image]
    if named.get("title") or caption or attribution:
        parts.append("<figcaption>")
        if named.get("title"):
            parts.append(f"<h4>{html_lib.escape(named['title'], quote=False)}</h4>")
        if caption or attribution:
            credit = markdown(attribution)
            if named.get("attrlink"):
                credit = "<a" + _attribute("href", named["attrlink"]) + ">" + credit + "</a>"
            parts.append(f"<p>{markdown(caption)}{credit}</p>")
        parts.append("</figcaption>")
    parts.append("</figure>")
    return "".join(parts)


def _details(context: _Context, node: _Node, positional, named, line, inner_offset, standalone) -> str:
    summary = named.get("summary") or (positional[0] if positional else "Details")
    is_open = "open" in named and named["open"].lower() not in ("false", "0", "no") or "open" in positional
    inner = context.markdown(node.inner, inner_offset, inline=False) if node.inner is not None else ""
    summary_html = context.markdown(summary, line - 1, inline=True)
    return (f"<details{' open' if is_open else ''}><summary>{summary_html}</summary>\n"
            f"{inner}</details>")


def _highlight(context: _Context, node: _Node, positional, named, line, inner_offset, standalone) -> str:
    context.collected.has_code = True
    if context.markup is not None and context.markup.render_hooks:
        return _chroma_highlight(context, node, positional, line)
    language = named.get("lang") or (positional[0] if positional else "")
    code = (node.inner or "").strip("\n") + "\n"
    return highlight_html(code, language).rstrip("\n")


def _chroma_highlight(context: _Context, node: _Node, positional: Sequence[str], line: int) -> str:
    """Hugo's embedded highlight shortcode: `highlight (trim .InnerDeindent "\\n\\r") (.Get 0) (.Get 1)`, the
    options ("linenos=table,hl_lines=2") over the site's markup.highlight."""
    from .chroma.hugo import HighlightError, apply_options, config_from_settings, highlight, parse_option_string
    assert context.markup is not None
    language = positional[0] if positional else ""
    code = (node.inner or "").strip("\n\r")
    try:
        options = parse_option_string(positional[1]) if len(positional) == 2 else {}
        config = apply_options(config_from_settings(context.markup.highlight), options)
        warnings: list[str] = []
        html = highlight(code, language, config, warnings=warnings)
    except HighlightError as error:
        raise SourceError(context.path, line, f"highlight shortcode: {error}; write its options as "
                          f'"linenos=table, hl_lines=2 4-5"', stage="shortcode") from None
    context.collected.warnings.extend(SourceWarning(context.path, line, warning) for warning in warnings)
    return html


# The ref shortcode's marker, as it is or as a link's destination percent-encodes its braces (markdown-it's
# normaliser, before a render-link hook writes it): `[text]({{< ref "x" >}})`.
_REF_MARKER = re.compile(r"(?:\{\{|%7[bB]%7[bB])bbref:(\d+):([A-Za-z0-9%/._\-~]*?)(:abs)?(?:\}\}|%7[dD]%7[dD])")


def _ref(context: _Context, node: _Node, positional, named, line, inner_offset, standalone) -> str:
    """A marker the links stage replaces by the page's URL; a Hugo site's ref (its own layouts render it) is the
    absolute permalink, as Hugo gives it, relref the URL from the site's root. Inside another shortcode's inner
    text, which Hugo renders with its shortcodes done (RenderString of .Inner), an absolute ref's marker starts
    with the site's scheme and host, so that a render-link hook given it as a link's destination sees a URL that
    starts as the permalink does (`strings.HasPrefix .Destination "http"`); outside, Hugo's hook sees a
    placeholder there, and so does blogbuild's."""
    target = named.get("path") or (positional[0] if positional else "")
    absolute = ":abs" if node.name == "ref" and context.markup is not None and context.markup.render_hooks else ""
    origin = url_origin(getattr(context.page, "Permalink", "")) if absolute and context.nested else ""
    return "%s{{bbref:%d:%s%s}}" % (origin, line, quote(target, safe="/._-~"), absolute)



def _rawhtml(context: _Context, node: _Node, positional, named, line, inner_offset, standalone) -> str:
    # Formulas in the HTML are typeset like any other (Hugo sites run KaTeX over the whole article).
    marked = mark_math_in_html(node.inner or "", MarkupConfig())
    if 'class="math ' in marked:
        context.collected.has_math = True
    return marked


_BUILTINS = {"figure": _figure, "details": _details, "highlight": _highlight, "ref": _ref, "relref": _ref,
             "rawhtml": _rawhtml, **EMBEDS}


def resolve_refs(html: str, resolve: Callable[[str], str | None], *, path: str, origin: str = "",
                 warnings: list[SourceWarning] | None = None,
                 resolve_page: Callable[[str], str | None] | None = None) -> tuple[str, tuple[SourceError, ...]]:
    """Replace ref/relref markers by the URL resolve(path) gives (an absolute ref's after origin, the site's
    scheme and host): the ref shortcode's, and those of a page content named while it rendered
    (core/page_lookups.MARKER: GetPage's, ref's and relref's in a hook or shortcode); unknown pages are errors."""
    from ..core.page_lookups import MARKER, MARKER_START
    errors: list[SourceError] = []

    def url_of(target: str, line: int, absolute: bool, asked: str | None = None) -> str:
        """The URL of the page a marker names; asked: what GetPage was asked (its page left out by the build,
        a draft, is written as asked, where Hugo's GetPage gives nil)."""
        page, hash_mark, fragment = target.partition("#")
        url = ((resolve_page or resolve) if asked is not None else resolve)(page) if page else ""
        if url is None and asked is not None:
            (warnings if warnings is not None else []).append(SourceWarning(
                path, line, f"GetPage {asked!r} found {target}, which is not published (a draft, or a date to come "
                "or past): written as asked, where Hugo's GetPage gives nil"))
            return asked
        if url is None:
            errors.append(SourceError(path, line, f"ref '{target}' names no page; check the path relative to "
                                      "content/", stage="shortcode"))
            return "#"
        if absolute and url.startswith("/"):
            url = origin + url
        return url + (hash_mark + fragment if hash_mark else "")

    if "bbref:" in html:   # {{bbref:LINE:TARGET[:abs]}}, its braces percent-encoded in a link's destination
        # An absolute ref's marker comes after the site's origin (_ref), which its URL then carries itself.
        marker = re.compile(f"(?:{re.escape(origin)})?{_REF_MARKER.pattern}") if origin else _REF_MARKER
        html = marker.sub(lambda match: url_of(unquote(match[2]), int(match[1]), bool(match[3])), html)
    if MARKER_START in html:   # bbref~LINE~KIND~TARGET~[ASKED~]: absolute by its a or P, GetPage's by p or P
        html = MARKER.sub(lambda match: url_of(unquote(match[3]), int(match[1]), match[2] in "aP",
                                               unquote(match[4] or "") if match[2] in "pP" else None), html)
    return html, tuple(errors)


# --------------------------------------------------------------------------- the placeholder pass

class ShortcodeBody:
    """A body with its shortcodes replaced by placeholders (Hugo's method): markdown renders the
    processed text, then finish() puts each shortcode's HTML where its placeholder landed."""

    def __init__(self, body: str, *, path: str, line_offset: int, shortcodes: ShortcodeSet,
                 render: RenderFunction, used_ids: set[str], page: Any = None,
                 markup: MarkupConfig | None = None) -> None:
        self.body = body
        self.line_offset = line_offset
        self.collected = _Collected()
        self.context = _Context(path, shortcodes, render, used_ids, self.collected, page, markup)
        self.nodes = _find_nodes(body) if "{{<" in body or "{{%" in body else []
        self.prefix = _placeholder_prefix(body) if self.nodes else ""
        self.originals: dict[str, str] = {}
        self.calls: dict[str, tuple[_Node, int, bool, int]] = {}
        self.block_placeholders: set[str] = set()
        # (processed line, body line) pairs: where a removed multi-line shortcode shifts the lines.
        self.anchors: list[tuple[int, int]] = [(0, 0)]
        self.processed = self._replace_nodes() if self.nodes else body
        self.anchor_keys = [processed for processed, _ in self.anchors]
        self.pattern: re.Pattern[str] | None = re.compile(re.escape(self.prefix) + r"\d+X") if self.nodes else None
        self.outputs: dict[str, str] = {}
        self.toc_of: dict[str, tuple[TocEntry, ...]] = {}   # a {{% %}} shortcode's headings, by its placeholder

    def _replace_nodes(self) -> str:
        """The body with a placeholder for each shortcode; fills originals, calls and anchors."""
        body = self.body
        pieces: list[str] = []
        processed_line = 0
        body_line = 0
        cursor = 0
        ordinals = _ordinals(self.nodes)
        literal_text = self.context.markup is not None and self.context.markup.render_hooks
        for number, node in enumerate(self.nodes):
            before = body[cursor:node.start]
            pieces.append(before)
            newlines = before.count("\n")
            processed_line += newlines
            body_line += newlines
            if literal_text and node.literal is not None:
                # A Hugo site's own layouts: {{</* x */>}} is put in the markdown as {{< x >}}, text the typographer
                # and the rest of markdown read (its line breaks are the written ones: no line moves)
                pieces.append(node.literal)
                processed_line += node.literal.count("\n")
                body_line += body.count("\n", node.start, node.end)
                cursor = node.end
                continue
            line_start = body.rfind("\n", 0, node.start) + 1
            line_stop = body.find("\n", node.end)
            line_stop = len(body) if line_stop < 0 else line_stop
            standalone = (node.literal is None and _CONTAINER_PREFIX.match(body, line_start, node.start) is not None
                          and not body[node.end:line_stop].strip())
            placeholder = f"{self.prefix}{number}X"
            self.originals[placeholder] = node.literal if node.literal is not None else body[node.start:node.end]
            self.calls[placeholder] = (node, self.line_offset + body_line + 1, standalone, ordinals[number])
            if standalone:
                self.block_placeholders.add(placeholder)
            pieces.append(placeholder)
            body_line += body.count("\n", node.start, node.end)
            self.anchors.append((processed_line + 1, body_line + 1))
            cursor = node.end
        pieces.append(body[cursor:])
        return "".join(pieces)

    def line_of(self, line: int) -> int:
        """The file line of a 0-based line of the processed text."""
        if not self.nodes:
            return line + self.line_offset + 1
        index = bisect.bisect_right(self.anchor_keys, line) - 1
        processed_anchor, body_anchor = self.anchors[index]
        return body_anchor + (line - processed_anchor) + self.line_offset + 1

    def restore(self, text: str) -> str:
        """Inside code the shortcode is text: put the original source back."""
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda match: self.originals.get(match.group(0), match.group(0)), text)

    def restore_literals(self, text: str) -> str:
        """Inside code on a site its own layouts render: only {{</* … */>}} goes back, as its literal text (Hugo
        puts it in the markdown as written); other shortcodes run there."""
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda match: self.originals[match.group(0)]
                                if match.group(0) in self.originals and self.calls[match.group(0)][0].literal
                                is not None else match.group(0), text)

    def output(self, match: re.Match[str]) -> str:
        """The HTML of the shortcode behind a placeholder, expanded once."""
        # Expanded only where markdown left the placeholder outside code, so a shortcode
        # shown in a code block is neither run nor warned about.
        placeholder = match.group(0)
        if placeholder not in self.calls:
            return placeholder
        if placeholder not in self.outputs:
            node, line, standalone, ordinal = self.calls[placeholder]
            headings = len(self.collected.toc)
            html = self.context.expand(node, self.body, line, self.line_offset, standalone=standalone,
                                       ordinal=ordinal)
            # A {{% %}} shortcode's output is markdown of the page (Hugo's): its headings are in the page's table
            # of contents, where it stands; a {{< >}} one's HTML is not.
            if node.kind == "%" and len(self.collected.toc) > headings:
                self.toc_of[placeholder] = tuple(self.collected.toc[headings:])
            del self.collected.toc[headings:]
            # The URLs a shortcode writes are at its line (its inner markdown's have their own).
            self.collected.marks.extend(replace(mark, line=line) for mark in html_marks(html, 0))
            self.outputs[placeholder] = html
        return self.outputs[placeholder]

    def substitute(self, html: str) -> str:
        """HTML with every placeholder replaced by its shortcode's HTML."""
        return self.pattern.sub(self.output, html) if self.pattern is not None else html

    def finish(self, rendered: RenderedMarkdown) -> RenderedMarkdown:
        """The rendered processed text with the shortcodes' HTML, flags and warnings put in."""
        if self.pattern is None:
            return rendered
        pattern = self.pattern
        html = self.substitute(rendered.html)
        toc = tuple(replace(entry, text=pattern.sub(
            lambda match: html_lib.unescape(_TAGS.sub("", self.output(match))), entry.text),
            html=pattern.sub(lambda match: html_lib.escape(_TAGS.sub("", self.output(match)), quote=False),
                             entry.html) if entry.html else "")
            for entry in rendered.toc)
        if self.toc_of:
            toc = self._with_shortcode_headings(rendered.html, toc)
        own = self.collected
        warnings = sorted(rendered.warnings + tuple(own.warnings), key=lambda warning: warning.line)
        return RenderedMarkdown(html=html, toc=toc,
                                has_math=rendered.has_math or own.has_math,
                                has_mermaid=rendered.has_mermaid or own.has_mermaid,
                                has_code=rendered.has_code or own.has_code,
                                warnings=tuple(warnings), marks=rendered.marks + tuple(own.marks))


    def _with_shortcode_headings(self, html: str, toc: tuple[TocEntry, ...]) -> tuple[TocEntry, ...]:
        """The page's headings and its {{% %}} shortcodes' in the order of the page: each where its heading's id
        or its shortcode's placeholder is in the HTML rendered around the placeholders."""
        placed: list[tuple[int, int, tuple[TocEntry, ...]]] = []
        at = 0
        for order, entry in enumerate(toc):
            found = html.find(f'id="{entry.id}"')
            at = found if found >= 0 else at   # a heading a hook drew without the id: after the one before
            placed.append((at, order, (entry,)))
        for placeholder, entries in self.toc_of.items():
            placed.append((html.find(placeholder), len(placed), entries))
        return tuple(entry for _, _, entries in sorted(placed, key=lambda item: item[:2]) for entry in entries)


def render_with_shortcodes(body: str, *, path: str, line_offset: int, shortcodes: ShortcodeSet,
                           render: RenderFunction, used_ids: set[str] | None = None,
                           page: Any = None, markup: MarkupConfig | None = None) -> RenderedMarkdown:
    """Hugo's method: shortcodes become placeholders, markdown renders, the shortcode HTML goes back in."""
    used_ids = used_ids if used_ids is not None else set()
    prepared = ShortcodeBody(body, path=path, line_offset=line_offset, shortcodes=shortcodes, render=render,
                             used_ids=used_ids, page=page, markup=markup)
    if prepared.pattern is None:
        return render(body, path=path, line_of=prepared.line_of, restore=None, used_ids=used_ids)
    rendered = render(prepared.processed, path=path, line_of=prepared.line_of, restore=prepared.restore,
                      used_ids=used_ids, placeholders=frozenset(prepared.block_placeholders),
                      placeholder_pattern=prepared.pattern)
    return prepared.finish(rendered)


def _language_of(config: SiteConfig) -> dict[str, Any]:
    """The language key and name a Go shortcode's `.Site.Language` gives (Hugo's: "en", not "en-GB"), whether
    the site has several (hugo.IsMultilingual), and the default language's key, whose i18n strings stand in for
    those a language lacks."""
    key = config.language or config.date_language
    own = next((item for item in config.languages if item.key == key), None)
    default = next((item.key for item in config.languages if not item.prefix), "")
    return {"language_key": key, "language_name": own.name if own is not None else config.language_name,
            "multilingual": len(config.languages) > 1, "fallback_language": default}
