"""A page's DOM as a comparable list: start tags with their attributes sorted, end tags, and text with its
whitespace collapsed (empty text left out), comments dropped; what two tools' pages are compared by when
only whitespace, attribute order and minification may differ."""
from __future__ import annotations

import html
from html.parser import HTMLParser


class _Tokens(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tokens: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        shown = " ".join(f'{name}="{html.escape(value or "", quote=True)}"' for name, value in sorted(attrs))
        self.tokens.append(f"<{tag}{' ' + shown if shown else ''}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.tokens.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text:
            self.tokens.append(text)

    def handle_decl(self, decl: str) -> None:
        self.tokens.append(f"<!{decl.lower()}>")


def dom_tokens(page: str, *, drop: tuple[str, ...] = ()) -> list[str]:
    """The page's DOM tokens, without any start tag that begins with one of drop (e.g. '<meta content=\"Hugo')."""
    parser = _Tokens()
    parser.feed(page)
    parser.close()
    return [token for token in parser.tokens if not token.startswith(drop)]


def with_hugos_mermaid(ours: str, hugo: str) -> str:
    """blogbuild's page with the mermaid copy it loads named by the CDN URL Hugo's page loads instead, and without
    the script after it that keeps the layout of the CDN's version (hugo/local_libraries.py): what a theme's CDN
    mermaid is compared by."""
    import re
    cdn = re.search(r'https://[^"]*/mermaid(?:@[^"/]*)?/dist/mermaid\.min\.js', hugo)
    if cdn is None:
        return ours
    ours = re.sub(r'<script>mermaid\.initialize=\(function.*?</script>', "", ours, count=1)
    return re.sub(r'/vendor/mermaid-[0-9.]+/mermaid\.min\.js', cdn.group(0), ours)
