"""Hugo's built-in shortcodes that embed another site (youtube, vimeo, gist, x/twitter/tweet, instagram),
the small ones (param, qr, comment) and PaperMod's collapse and inTextImg, with Hugo's parameters.

An embed loads nothing from another host until the reader asks: the page holds a box with the title, a
plain link to the original, and a button; js/render.js puts the player (YouTube's privacy-enhanced
youtube-nocookie.com, Vimeo with dnt=1) in its place on a click. So a page reads offline and tells no
other host it was opened. A Hugo site's own layouts get Hugo's youtube, vimeo and instagram shortcodes
(hugo/gotemplate hugo_embedded: the player as Hugo embeds it); the others are a box with the title and the
link there (no render.js runs on those pages). The qr code is drawn at build time (segno) and inlined as a PNG data URL.
"""
from __future__ import annotations

import base64
import html as html_lib
import io
import re
from typing import Any, Callable, Mapping
from urllib.parse import quote, urlencode

from ..core.errors import SourceError, SourceWarning

_ID = re.compile(r"[A-Za-z0-9_\-]+")


def _attribute(name: str, value: object) -> str:
    return f' {name}="{html_lib.escape(str(value), quote=True)}"' if value not in (None, "") else ""


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.lower() not in ("false", "0", "no")


def _identifier(context: Any, node: Any, line: int, value: str, what: str) -> str:
    if not _ID.fullmatch(value):
        raise SourceError(context.path, line, f"shortcode '{node.name}' needs {what} (letters, digits, - and _), "
                                              f"got '{value}'", stage="shortcode")
    return value


# The words of an embed's box, in Chinese for a zh* site language and in English otherwise (as the theme's
# partials/i18n.html chooses); an author's own title= wins over the default title.
_WORDS = {
    "en": {"load": "Load from {site}", "youtube": "YouTube video", "vimeo": "Vimeo video",
           "x": "Post on X", "x_by": "Post by @{user}", "instagram": "Instagram post"},
    "zh": {"load": "从 {site} 加载", "youtube": "YouTube 视频", "vimeo": "Vimeo 视频",
           "x": "X 上的帖子", "x_by": "@{user} 在 X 上的帖子", "instagram": "Instagram 帖子"},
}


def _words(context: Any) -> Mapping[str, str]:
    language = getattr(context.shortcodes, "language", "") or ""
    return _WORDS["zh" if language.lower().startswith("zh") else "en"]


def _placeholder(context: Any, kind: str, title: str, link: str, site: str, *, src: str = "", script: str = "",
                 css_class: str = "") -> str:
    """The box a reader clicks to load an embed: title, a link to the original, and what loading does. A site's
    own layouts load no js/render.js: there the box is the title and the link, without a button that would do
    nothing (Hugo's x shortcode fetches the post's HTML while building, which a build never does)."""
    label = html_lib.escape(title, quote=False)
    classes = f"embed embed-{kind}" + (f" {css_class}" if css_class else "")
    if getattr(context.shortcodes, "own_layouts", False):
        return (f'<div class="{html_lib.escape(classes, quote=True)}"><p class="embed-title">'
                f'<a href="{html_lib.escape(link, quote=True)}">{label}</a></p></div>')
    load = _words(context)["load"].format(site=html_lib.escape(site, quote=False))
    return (f'<div class="{html_lib.escape(classes, quote=True)}"' + _attribute("data-embed-src", src)
            + _attribute("data-embed-script", script) + _attribute("data-embed-title", title) + ">"
            + f'<p class="embed-title"><a href="{html_lib.escape(link, quote=True)}">{label}</a></p>'
            + f'<button type="button" class="embed-load">{load}</button>'
            + "</div>")


def _youtube(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
             inner_offset: int, standalone: bool) -> str:
    video = _identifier(context, node, line, named.get("id") or (positional[0] if positional else ""), "a video id")
    query: dict[str, str] = {"autoplay": "1"}   # the reader has just clicked to play
    for key in ("start", "end"):
        if named.get(key):
            query[key] = str(int(named[key])) if named[key].isdigit() else named[key]
    if _flag(named.get("loop"), False):
        query.update(loop="1", playlist=video)
    if _flag(named.get("mute"), False):
        query["mute"] = "1"
    if not _flag(named.get("controls"), True):
        query["controls"] = "0"
    title = named.get("title") or _words(context)["youtube"]
    link = f"https://www.youtube.com/watch?v={video}" + (f"&t={query['start']}" if "start" in query else "")
    return _placeholder(context, "youtube", title, link, "youtube-nocookie.com", css_class=named.get("class", ""),
                        src=f"https://www.youtube-nocookie.com/embed/{video}?{urlencode(query)}")


def _vimeo(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
           inner_offset: int, standalone: bool) -> str:
    video = _identifier(context, node, line, named.get("id") or (positional[0] if positional else ""), "a video id")
    title = named.get("title") or _words(context)["vimeo"]
    return _placeholder(context, "vimeo", title, f"https://vimeo.com/{video}", "vimeo.com", css_class=named.get("class", ""),
                        src=f"https://player.vimeo.com/video/{video}?dnt=1&autoplay=1")


def _gist(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
          inner_offset: int, standalone: bool) -> str:
    if len(positional) < 2:
        raise SourceError(context.path, line, "shortcode 'gist' needs a user and a gist id: "
                                              "{{< gist user 23932424365401ffa5e9d9810102a477 >}}", stage="shortcode")
    user = _identifier(context, node, line, positional[0], "a GitHub user")
    gist = _identifier(context, node, line, positional[1], "a gist id")
    file = positional[2] if len(positional) > 2 else ""
    script = f"https://gist.github.com/{user}/{gist}.js" + (f"?file={quote(file)}" if file else "")
    title = f"Gist {user}/{gist}" + (f" ({file})" if file else "")
    return _placeholder(context, "gist", title, f"https://gist.github.com/{user}/{gist}", "gist.github.com", script=script)


def _x(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
       inner_offset: int, standalone: bool) -> str:
    post = named.get("id") or (positional[0] if positional else "")
    user = named.get("user") or "i"
    post = _identifier(context, node, line, post, "a post id")
    user = _identifier(context, node, line, user, "a user name")
    words = _words(context)
    title = words["x_by"].format(user=user) if user != "i" else words["x"]
    return _placeholder(context, "x", title, f"https://x.com/{user}/status/{post}",
                        "platform.twitter.com", src=f"https://platform.twitter.com/embed/Tweet.html?id={post}&dnt=true")


def _instagram(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
               inner_offset: int, standalone: bool) -> str:
    post = _identifier(context, node, line, named.get("id") or (positional[0] if positional else ""), "a post id")
    return _placeholder(context, "instagram", _words(context)["instagram"], f"https://www.instagram.com/p/{post}/", "instagram.com",
                        src=f"https://www.instagram.com/p/{post}/embed/")


def _param(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
           inner_offset: int, standalone: bool) -> str:
    key = named.get("name") or (positional[0] if positional else "")
    page = getattr(context.page, "Params", None) or {}
    site = getattr(context.shortcodes, "site_params", None) or {}
    for source in (page, site):
        value = _dotted(source, key)
        if value is not None:
            return html_lib.escape(_text(value), quote=False)
    context.collected.warnings.append(SourceWarning(
        context.path, line, f"shortcode 'param': no parameter '{key}' in the front matter or the site's params"))
    return ""


def _dotted(data: Mapping[str, Any], key: str) -> Any:
    value: Any = data
    for part in key.split("."):
        if not isinstance(value, Mapping):
            return None
        lowered = {str(name).lower(): item for name, item in value.items()}
        value = lowered.get(part.lower())
    return value


def _text(value: Any) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + " ".join(_text(item) for item in value) + "]"
    return str(value)


_QR_LEVELS = {"low": "L", "medium": "M", "quartile": "Q", "high": "H"}


def _qr(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
        inner_offset: int, standalone: bool) -> str:
    import segno
    text = named.get("text") or (node.inner or "").strip()
    if not text:
        raise SourceError(context.path, line, "shortcode 'qr' needs the text to encode: "
                                              '{{< qr text="https://example.org/" />}}', stage="shortcode")
    level = _QR_LEVELS.get(named.get("level", "medium").lower())
    if level is None:
        raise SourceError(context.path, line, f"qr level '{named.get('level')}' is not one of low, medium, "
                                              "quartile, high", stage="shortcode")
    # Bounded: a scale of 10,000 would be a picture of gigabytes (each module is scale x scale pixels).
    scale = min(int(named.get("scale", "4")), 32) if named.get("scale", "4").isdigit() else 4
    try:
        code = segno.make(text, error=level, micro=False, boost_error=False)
    except ValueError as error:   # segno's DataOverflowError: more than a QR code holds
        raise SourceError(context.path, line, f"shortcode 'qr': {len(text)} characters do not fit in a QR code "
                                              f"({error}); shorten the text or use level=\"low\"",
                          stage="shortcode") from None
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=4)
    size = code.symbol_size(scale=scale, border=4)
    source = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return ("<img" + _attribute("src", source) + _attribute("width", size[0]) + _attribute("height", size[1])
            + f' alt="{html_lib.escape(named.get("alt", ""), quote=True)}"' + _attribute("class", named.get("class"))
            + _attribute("id", named.get("id")) + _attribute("title", named.get("title"))
            + _attribute("loading", named.get("loading")) + ">")


def _comment(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
             inner_offset: int, standalone: bool) -> str:
    return ""


def _collapse(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
              inner_offset: int, standalone: bool) -> str:
    summary = named.get("summary", "")
    if not summary:
        context.collected.warnings.append(SourceWarning(
            context.path, line, "shortcode 'collapse' has no summary; add summary=\"…\" (the line readers click)"))
    opened = " open=true " if named.get("openByDefault", "").lower() == "true" else " "
    inner = context.markdown(node.inner, inner_offset, inline=True) if node.inner else ""
    summary_html = context.markdown(summary, line - 1, inline=True) if summary else ""
    return (f"<p><details{opened}>\n  <summary markdown=\"span\">{summary_html}</summary>\n  {inner}\n</details></p>")


def _in_text_image(context: Any, node: Any, positional: tuple[str, ...], named: Mapping[str, str], line: int,
                   inner_offset: int, standalone: bool) -> str:
    return ('<img class="in-text"' + f' height="{html_lib.escape(named.get("height") or "15", quote=True)}"'
            + f' src="{html_lib.escape(named.get("url", ""), quote=True)}"'
            + f' alt="{html_lib.escape(named.get("alt", ""), quote=True)}">')


BuiltIn = Callable[[Any, Any, tuple[str, ...], Mapping[str, str], int, int, bool], str]
EMBEDS: dict[str, BuiltIn] = {
    "youtube": _youtube, "vimeo": _vimeo, "gist": _gist, "x": _x, "twitter": _x, "tweet": _x,
    "instagram": _instagram, "param": _param, "qr": _qr, "comment": _comment, "collapse": _collapse,
    "inTextImg": _in_text_image,
}
TAKE_INNER = frozenset({"comment", "collapse", "qr"})
