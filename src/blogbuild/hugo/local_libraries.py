"""KaTeX and mermaid that a site's own layouts load from a CDN, loaded from blogbuild's copy instead.

A theme or an author's partial loads KaTeX's stylesheet and scripts (jsDelivr's `katex@V/dist/…`, cdnjs'
`KaTeX/V/…`, unpkg's) and mermaid (the one-file build a classic `<script>` loads, `mermaid@V/dist/mermaid.min.js`,
or the module build a module script imports, `mermaid@V/dist/mermaid.esm.min.mjs` or jsDelivr's `mermaid@V/+esm`,
as Hugo's own documentation writes it). Each such URL in a `<link>` or `<script>` tag, or quoted in a script's
text, becomes the URL of blogbuild's pinned copy: the site builds and reads offline, and its formulas' stylesheet
is the version they were typeset with. A rewritten tag loses its `integrity` and `crossorigin` attributes (the
CDN version's hash is not the copy's).

`local_libraries` returns the page and the vendored files it now loads (output path -> `vendored_key`): the page's
render publishes them with the files its Hugo Pipes published, so a site publishes a library only where a page
loads it, and every file that page needs (KaTeX's fonts with its stylesheet, the module build's chunks with its
entry).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..media.assets import PACKAGES, VENDOR_DIR, manifest

# A vendored file in a page's record of what it published: "vendored:<package>/<file>".
VENDORED = "vendored:"

# A <link> or <script> tag loading KaTeX (its stylesheet, script, or a contrib script) from a CDN.
_CDN_KATEX_TAG = re.compile(r"""<(?:link|script)\b[^>]*?\b(?:href|src)\s*=\s*["']?(?:https?:)?//[^"'\s>]*?"""
                            r"""(?:katex@[^/"'\s>]*/dist|KaTeX/[^/"'\s>]+)/"""
                            r"""(katex(?:\.min)?\.(?:css|js)|contrib/(?:auto-render|mhchem|copy-tex|"""
                            r"""mathtex-script-type|render-a11y-string)(?:\.min)?\.js)["'\s>][^>]*>""",
                            re.IGNORECASE)
# What every tag _CDN_KATEX_TAG finds holds: a URL naming KaTeX's package, in any case.
_CDN_KATEX_URL = re.compile(r"""//[^"'\s>]*?[kK][aA][tT][eE][xX][@/]""")
_SRI_ATTRIBUTES = re.compile(r"""\s(?:integrity|crossorigin)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?""", re.IGNORECASE)

# A CDN's URL of mermaid, quoted or an attribute's bare value: group 1 the one-file build (a classic script's),
# group 2 the module build.
_CDN_MERMAID_URL = re.compile(
    r"""(?<=["'=])(?:https?:)?//[^"'\s<>]*?/(?:"""
    r"""(mermaid(?:@[^/"'\s<>]*)?/dist/mermaid(?:\.min)?\.js|libs/mermaid/[^/"'\s<>]+/mermaid(?:\.min)?\.js)"""
    r"""|(mermaid(?:@[^/"'\s<>]*)?/(?:dist/mermaid\.esm(?:\.min)?\.mjs|\+esm)))(?=["'\s>])""", re.IGNORECASE)
# What each of the URLs above holds (a superset): a page without it loads neither library from a CDN. Its "//"
# is found by a fast search, where _CDN_MERMAID_URL's look-behind is tried at every character of a page.
_CDN_URL_HINT = re.compile(r"""//[^"'\s>]*?(?:katex[@/]|mermaid)""", re.IGNORECASE)
_VERSION = re.compile(r"(?:mermaid@|libs/mermaid/)v?(\d+)", re.IGNORECASE)
_ASYNC = re.compile(r"""\sasync(?=[\s>=/])""", re.IGNORECASE)
_DEFER = re.compile(r"""\sdefer(?=[\s>=/])""", re.IGNORECASE)
_SCRIPT_END = re.compile(r"</script\s*>", re.IGNORECASE)
# mermaid.initialize with dagre as the layout unless the page's configuration names one, and called once (a page
# that never calls it, startOnLoad, draws with dagre too).
_DAGRE = ('mermaid.initialize=(function(m,i){return function(c){return i.call(m,Object.assign({layout:"dagre"},c))}})'
          '(mermaid,mermaid.initialize);mermaid.initialize({});')
_MERMAID_SCRIPT = "mermaid.min.js"
_MERMAID_MODULE = "mermaid.esm.min.mjs"


def local_libraries(html: str, site_url: Callable[[str], str]) -> tuple[str, dict[str, str]]:
    """The page with the KaTeX and mermaid it loads from a CDN loaded from blogbuild's copy, and the vendored
    files it then needs (output path -> vendored key); the page itself when it loads neither. site_url: the URL of
    a path of the whole site's output (Hugo Pipes' files are the whole site's, not a language's)."""
    needed: dict[str, str] = {}
    found = _CDN_URL_HINT.search(html)
    if found is None:   # the usual page: one scan of its "//"s
        return html, needed
    if _CDN_KATEX_URL.search(html, found.start()) is not None:
        html = _local_katex(html, site_url, needed)
    if "ermaid" in html or "ERMAID" in html:
        html = _local_mermaid(html, site_url, needed)
    return html, needed


def vendored_file(key: str) -> Path | None:
    """The file blogbuild ships that a vendored key names, else None (a record read from the cache names no
    other file)."""
    if not key.startswith(VENDORED):
        return None
    package, _, file = key[len(VENDORED):].partition("/")
    return VENDOR_DIR / package / file if package in PACKAGES and file in manifest()[package]["files"] else None


def _need(needed: dict[str, str], package: str, *files: str) -> str:
    """Record that the page loads these files of a package (with its LICENSE); the first file's site URL path."""
    folder = PACKAGES[package].output_folder
    for file in (*files, "LICENSE"):
        needed[f"{folder}/{file}"] = f"{VENDORED}{package}/{file}"
    return f"/{folder}/{files[0]}"


def _local_katex(html: str, site_url: Callable[[str], str], needed: dict[str, str]) -> str:
    """KaTeX's tags loading a CDN's copy, loading blogbuild's; their SRI and CORS attributes go with them."""
    fonts = [file for file in manifest()["katex"]["files"] if file.startswith("fonts/")]

    def local(match: re.Match[str]) -> str:
        file = match.group(1).replace(".min", "").replace(".css", ".min.css").replace(".js", ".min.js")
        cdn = match.group(0)
        url_start = cdn.lower().find("//")
        start = cdn.rfind('"', 0, url_start) + 1 or cdn.rfind("'", 0, url_start) + 1 or cdn.rfind("=", 0, url_start) + 1
        end = cdn.find(match.group(1), url_start) + len(match.group(1))
        path = _need(needed, "katex", file, *(fonts if file.endswith(".css") else ()))
        return _SRI_ATTRIBUTES.sub("", cdn[:start] + site_url(path) + cdn[end:])
    # The tags' pattern tries every "<" of a page (a typeset formula holds hundreds): it is tried instead at the
    # tag holding each URL that names KaTeX's package (every tag it finds holds one), the page scanned whole
    # only when such a URL is in no tag it takes (a link to KaTeX's site in a post).
    parts: list[str] = []
    position = 0
    for found in _CDN_KATEX_URL.finditer(html):
        if found.start() < position:
            continue
        start = html.rfind("<", position, found.start())
        tag = _CDN_KATEX_TAG.match(html, start) if start >= 0 else None
        if tag is None or tag.end() <= found.start():
            return _CDN_KATEX_TAG.sub(local, html)
        parts += (html[position:tag.start()], local(tag))
        position = tag.end()
    return "".join((*parts, html[position:])) if parts else html


def _local_mermaid(html: str, site_url: Callable[[str], str], needed: dict[str, str]) -> str:
    """mermaid's CDN URLs in the page's <script> and <link> tags and in its scripts' text, blogbuild's copy's (a
    tag holding one loses its SRI and CORS attributes); a URL elsewhere (a post's text, a link) is kept."""
    parts: list[str] = []
    position = 0
    for found in _CDN_MERMAID_URL.finditer(html):
        if found.start() < position:
            continue
        tag_start = html.rfind("<", position, found.start())
        in_tag = tag_start >= 0 and html.find(">", tag_start, found.start()) < 0 and \
            re.match(r"<(?:script|link)[\s>]", html[tag_start:tag_start + 8], re.IGNORECASE) is not None
        if not in_tag and not _in_script_text(html, found.start()):
            continue
        if found.group(1):
            local = _need(needed, "mermaid", _MERMAID_SCRIPT)
        else:
            chunks = [file for file in manifest()["mermaid"]["files"] if file.startswith("chunks/")]
            local = _need(needed, "mermaid", _MERMAID_MODULE, *chunks)
        local = site_url(local)
        if in_tag:
            tag_end = html.find(">", found.end())
            tag_end = len(html) if tag_end < 0 else tag_end + 1
            tag = html[tag_start:found.start()] + local + html[found.end():tag_end]
            parts += (html[position:tag_start], _SRI_ATTRIBUTES.sub("", tag))
            position = tag_end
            script = tag[1:7].lower() == "script"   # a <link> (a preload) is followed by no script
            shim = _dagre_shim(tag, found.group(0)) if found.group(1) and script else ""
            closed = _SCRIPT_END.search(html, tag_end) if shim else None
            if closed is not None:   # after the script element
                parts += (html[tag_end:closed.end()], shim)
                position = closed.end()
        else:
            parts += (html[position:found.start()], local)
            position = found.end()
    return "".join((*parts, html[position:])) if parts else html


def _dagre_shim(tag: str, url: str) -> str:
    """The script that keeps mermaid's layout of the version a classic script tag asked for: mermaid before 12
    laid flowcharts and state diagrams out with dagre, 12 with ELK. blogbuild's copy then defaults to dagre
    (what the page sets in its own `mermaid.initialize` wins); "" for version 12 on, or no version named (a
    CDN's latest), or an async tag (nothing can run right after it)."""
    version = _VERSION.search(url)
    if version is None or int(version.group(1)) >= 12 or _ASYNC.search(tag):
        return ""
    # A deferred script runs after the page is parsed, in order with module scripts: the shim runs after it as
    # a module script; after a blocking script, as one.
    return f'<script type="module">{_DAGRE}</script>' if _DEFER.search(tag) else f"<script>{_DAGRE}</script>"


def _in_script_text(html: str, at: int) -> bool:
    """Whether position at is inside a <script> element's text (after its start tag, before its end tag)."""
    opened = html.rfind("<script", 0, at)
    return opened >= 0 and html.rfind("</script", opened, at) < 0 and html.find(">", opened, at) >= 0
