"""The checks behind `blogbuild check` (commands/check.py): links, anchors, resources, math, mermaid and repairs."""
from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable, Mapping
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from ..config import SiteConfig
from ..core.errors import SourceError, SourceWarning
from ..core.model import OutputFile, Post
from ..core.urls import output_path_to_url, url_to_output_path
from ..core.records import dataclass

_JS_DIR = Path(__file__).resolve().parent.parent / "js"
# The repository's pinned test packages, used when the site has no node_modules of its own.
_REPO_NODE_MODULES = Path(__file__).resolve().parents[3] / "tests" / "node" / "node_modules"
_NODE_TIMEOUT_SECONDS = 600


@dataclass(frozen=True)
class CheckReport:
    """Everything check found: problems (exit 1), repaired headers and notes (printed, exit 0)."""

    problems: tuple[SourceError, ...]
    repairs: tuple[SourceWarning, ...]
    notes: tuple[str, ...]
    counts: Mapping[str, int]


def check_site(config: SiteConfig, *, site_pages: Iterable[Post], files: Mapping[str, OutputFile] | None,
               node: str | None = "auto") -> CheckReport:
    """Check a built site: links and anchors (when files are given), math, mermaid, header repairs."""
    pages = sorted(site_pages, key=lambda post: post.rel_path)
    problems: list[SourceError] = []
    notes: list[str] = []
    counts = {"pages": 0, "links": 0, "math": 0, "diagrams": 0}
    if files is not None:
        link_problems, counts["pages"], counts["links"] = check_links(config, pages, files)
        problems += link_problems
    else:
        notes.append("links and anchors not checked: the build failed (fix the errors below first)")
    math_items = [(post, tex, display) for post in pages for tex, display in _math_of(post.content_html)]
    counts["math"] = len(math_items)
    problems += check_math_balance(pages)
    node_path = shutil.which("node") if node == "auto" else node
    diagrams = [(post, text) for post in pages for text in _mermaid_of(post.content_html)]
    counts["diagrams"] = len(diagrams)
    if diagrams:
        found, note = _run_mermaid(config, diagrams, node_path)
        problems += found
        if note:
            notes.append(note)
            counts["diagrams_unchecked"] = len(diagrams)
    if math_items:
        problems += _run_katex(math_items, dict(config.math_macros))
    return CheckReport(tuple(problems), tuple(find_repairs(config)), tuple(notes), counts)


# --- source lines --------------------------------------------------------------------------------

def _line_of(post: Post, kind: str, value: str) -> int:
    """The file line the markdown tokens recorded for something in the post's HTML; 0 when none did
    (a URL a site's shortcode template or a resolved ref wrote)."""
    return next((mark.line for mark in post.marks if mark.kind == kind and mark.value == value), 0)


# --- a tiny HTML scan ------------------------------------------------------------------------------

_LINK_ATTRIBUTES = {"a": ("href",), "img": ("src",), "link": ("href",), "script": ("src",),
                    "source": ("src",), "video": ("src", "poster"), "audio": ("src",), "iframe": ("src",),
                    "area": ("href",)}


class _PageScan(HTMLParser):
    """Ids, links, math and mermaid sources of one HTML document or fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []     # (tag, url)
        self.math: list[tuple[str, bool]] = []     # (tex, display)
        self.mermaid: list[str] = []
        self.prose_dollars = 0
        self._capture: list[list] = []             # [kind, tag, depth, text parts, display]
        self._code_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        element_id, name = values.get("id"), values.get("name")
        if element_id:
            self.ids.add(element_id)
        if tag == "a" and name:
            self.ids.add(name)
        for attribute in _LINK_ATTRIBUTES.get(tag, ()):
            if values.get(attribute) is not None:
                if tag == "link" and "stylesheet" not in (values.get("rel") or "") and \
                        "icon" not in (values.get("rel") or ""):
                    continue   # canonical, alternate feeds, preconnect: not files this site must have
                self.links.append((tag, values[attribute] or ""))
        if tag in ("img", "br", "hr", "link", "meta", "source", "input", "area", "col", "embed", "wbr", "track"):
            return
        classes = set((values.get("class") or "").split())
        if self._capture:
            self._capture[-1][2] += 1 if self._capture[-1][1] == tag else 0
        elif "math" in classes:
            self._capture.append(["math", tag, 1, [], "display" in classes])
        elif tag == "pre" and "mermaid" in classes:
            self._capture.append(["mermaid", tag, 1, [], False])
        if tag in ("code", "pre", "script", "style"):
            self._code_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("code", "pre", "script", "style") and self._code_depth:
            self._code_depth -= 1
        if self._capture and self._capture[-1][1] == tag:
            self._capture[-1][2] -= 1
            if self._capture[-1][2] == 0:
                kind, _, _, parts, display = self._capture.pop()
                if kind == "math":
                    self.math.append(("".join(parts), display))
                else:
                    self.mermaid.append("".join(parts))

    def handle_data(self, data: str) -> None:
        if self._capture:
            self._capture[-1][3].append(data)
        elif not self._code_depth:
            self.prose_dollars += data.count("$$")


def _scan(html_text: str) -> _PageScan:
    scan = _PageScan()
    scan.feed(html_text)
    scan.close()
    return scan


def _math_of(html_text: str) -> list[tuple[str, bool]]:
    return _scan(html_text).math


def _mermaid_of(html_text: str) -> list[str]:
    return _scan(html_text).mermaid


# --- links and anchors -----------------------------------------------------------------------------

def resolve_link(url: str, page_url: str, config: SiteConfig) -> tuple[str, str] | None:
    """(site-relative path, fragment) a link on page_url points to; None for other sites and mailto: etc."""
    url = url.strip()
    if not url:
        return None
    parts = urlsplit(url)
    base = urlsplit(config.base_url)
    if parts.scheme or parts.netloc:
        if parts.scheme not in ("", "http", "https") or parts.netloc != base.netloc or not base.netloc:
            return None
        if not (parts.path or "/").startswith(config.base_path) and (parts.path or "/") + "/" != config.base_path:
            return None   # same host, another site (GitHub Pages: user.github.io/other-repo/)
        # A link to this very site written in full: check it as the path it names.
        url = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    here = "http://site" + config.base_path.rstrip("/") + page_url
    joined = urlsplit(urljoin(here, url))
    path = unquote(joined.path)
    whole = _whole_site_base_path(config)
    if whole != config.base_path and path.startswith(whole) and not path.startswith(config.base_path):
        return None   # the whole multilingual site's (the top's files, another language's), not this language's
    return path, unquote(joined.fragment)


def _whole_site_base_path(config: SiteConfig) -> str:
    """The base path of the whole site a language's site is part of (its own without the language's prefix)."""
    language = next((item for item in config.languages if item.key == config.language), None)
    prefix = language.prefix if language is not None else ""
    return config.base_path[:-len(prefix)] if prefix and config.base_path.endswith(prefix) else config.base_path


def _target_file(path: str, config: SiteConfig, files: Mapping[str, OutputFile]) -> tuple[str | None, str]:
    """(output file the path serves, problem) — problem is '' when found."""
    base_path = config.base_path
    if not path.startswith(base_path) and path + "/" != base_path:
        return None, f"is outside the site's base path {base_path}"
    relative = path[len(base_path):]
    candidates = [relative + "index.html"] if relative == "" or relative.endswith("/") else \
        [relative, relative + "/index.html"]
    for candidate in candidates:
        if candidate in files:
            return candidate, ""
    return None, "does not exist in the built site"


def check_links(config: SiteConfig, pages: list[Post],
                files: Mapping[str, OutputFile]) -> tuple[list[SourceError], int, int]:
    """Every internal link, image and #anchor of every page resolves; content ones get path:line."""
    scans = {path: _scan(item.data.decode("utf-8", "replace")) for path, item in sorted(files.items())
             if path.endswith(".html") and item.data}
    problems: list[SourceError] = []
    link_count = 0
    reported: set[str] = set()

    def problem_of(url: str, page_url: str) -> str:
        target = resolve_link(url, page_url, config)
        if target is None:
            return ""
        path, fragment = target
        output, missing = _target_file(path, config, files)
        if output is None:
            return missing
        if fragment and fragment != "top" and output.endswith(".html"):
            ids = scans[output].ids if output in scans else set()
            if fragment not in ids:
                return f"has no element with id '{fragment}'"
        return ""

    for post in pages:
        page_url = post.url
        own_output = url_to_output_path(post.url)
        for tag, url in _scan(post.content_html).links:
            link_count += 1
            if url.startswith("#") and own_output not in scans:
                continue
            message = problem_of(url, page_url)
            if message:
                reported.add(url)
                line = _line_of(post, "url", url)
                kind = "image" if tag == "img" else "link"
                problems.append(SourceError(post.source, line, f"{kind} '{url}' {message}"))

    # Links the templates wrote: each broken one is reported once, with how many pages carry it.
    template_problems: dict[tuple[str, str], list[str]] = {}
    for path, scan in scans.items():
        page_url = output_path_to_url(path)
        for tag, url in scan.links:
            if url in reported:
                continue
            link_count += 1
            message = problem_of(url, page_url)
            if message:
                kind = "image" if tag == "img" else "link"
                template_problems.setdefault((f"{kind} '{url}' {message}", url), []).append(path)
    for (message, _), paths in template_problems.items():
        more = f" (and {len(paths) - 1} other page{'s' if len(paths) > 2 else ''})" if len(paths) > 1 else ""
        problems.append(SourceError(f"{config.output_dir}/{paths[0]}", 0, f"{message}{more}"))
    return problems, len(scans), link_count


# --- math ------------------------------------------------------------------------------------------

_TEX_TOKEN_RE = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\(?:[A-Za-z]+|.)|[{}]|%[^\n]*", re.S)
_ENVIRONMENT_RE = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")


def tex_balance_problem(tex: str) -> str:
    """What is unbalanced in a formula (braces, \\begin/\\end, \\left/\\right); '' when nothing is."""
    depth = 0
    environments: list[str] = []
    left_right = 0
    for token in _TEX_TOKEN_RE.findall(tex):
        environment = _ENVIRONMENT_RE.fullmatch(token)
        if environment:
            kind, name = environment.group(1), environment.group(2).strip()
            if kind == "begin":
                environments.append(name)
            elif not environments:
                return f"\\end{{{name}}} has no \\begin{{{name}}}"
            elif environments[-1] != name:
                return f"\\end{{{name}}} closes \\begin{{{environments[-1]}}}"
            else:
                environments.pop()
        elif token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return "'}' closes a brace that was never opened"
        elif token == "\\left":
            left_right += 1
        elif token == "\\right":
            left_right -= 1
            if left_right < 0:
                return "\\right has no \\left"
    if depth > 0:
        return f"{depth} '{{' never closed; add '}}'"
    if environments:
        return f"\\begin{{{environments[-1]}}} is never ended; add \\end{{{environments[-1]}}}"
    if left_right:
        return "\\left has no \\right; add \\right. or \\right)"
    return ""


def check_math_balance(pages: list[Post]) -> list[SourceError]:
    """Unbalanced braces and environments in formulas, and '$$' left over in the prose."""
    problems = []
    for post in pages:
        scan = _scan(post.content_html)
        for tex, _display in scan.math:
            message = tex_balance_problem(tex)
            if message:
                line = _line_of(post, "math", tex)
                problems.append(SourceError(post.source, line, f"math {_short(tex)}: {message}"))
        if scan.prose_dollars:
            line = _line_of(post, "dollars", "")
            problems.append(SourceError(post.source, line, "'$$' in the text outside math: a display formula is "
                                    "not closed, or a stray '$$' needs escaping as \\$\\$"))
    return problems


def _short(text: str, limit: int = 40) -> str:
    flat = " ".join(text.split())
    return "'" + (flat if len(flat) <= limit else flat[:limit - 1] + "…") + "'"


# --- node checkers (mermaid, KaTeX) -----------------------------------------------------------------

# What the mermaid checker loads in Node: mermaid itself, and jsdom for the browser it expects.
MERMAID_PACKAGES = ("mermaid", "jsdom")
MERMAID_INSTALL = "npm install --no-save mermaid@12.3.0 jsdom@29.1.1"


def find_node_modules(config: SiteConfig, package: str, *others: str) -> Path | None:
    """A node_modules folder holding package (and the others): the site's own first, then the folders of
    NODE_PATH, then the repository's tests/node."""
    candidates = [Path(config.root) / "node_modules"]
    candidates += [Path(folder) for folder in os.environ.get("NODE_PATH", "").split(os.pathsep) if folder]
    candidates.append(_REPO_NODE_MODULES)
    for folder in candidates:
        if all((folder / name / "package.json").is_file() for name in (package, *others)):
            return folder
    return None


def _run_node(script: str, node: str | None, modules: Path | None, items: list, what: str
              ) -> tuple[list[dict] | None, str]:
    """Results of a js/ checker over items, or (None, note) when it cannot run here."""
    if node is None:
        return None, f"{what} not checked: node is not installed (install Node.js to check {what})"
    if modules is None:
        install = MERMAID_INSTALL if "mermaid" in script else "npm install --no-save katex"
        return None, (f"{what} not checked: no node_modules folder has what the checker needs; run `{install}` "
                      "in the site folder (or point NODE_PATH at a node_modules folder that has them)")
    import subprocess   # here: a build checks its posts' links with this module, never with node
    try:
        completed = subprocess.run([node, str(_JS_DIR / script), "--node-modules", str(modules)],
                                   input=json.dumps(items), capture_output=True, text=True,
                                   timeout=_NODE_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"{what} not checked: node failed to run ({error})"
    if completed.returncode not in (0, 1):
        detail = completed.stderr.strip().splitlines()[-1:] or [f"exit {completed.returncode}"]
        return None, f"{what} not checked: {detail[0]}"
    try:
        results = json.loads(completed.stdout)
    except json.JSONDecodeError:
        return None, f"{what} not checked: the checker printed no results"
    return results, ""


def mermaid_problems(config: SiteConfig, posts: Iterable[Post], node: str | None) -> tuple[list[SourceError], str]:
    """The mermaid diagrams of these posts through mermaid's own parser in Node (at their file:line), and a
    note when they cannot be checked here; serve checks the saved posts with it."""
    diagrams = [(post, text) for post in posts for text in _mermaid_of(post.content_html)]
    return _run_mermaid(config, diagrams, node) if diagrams else ([], "")


def _run_mermaid(config: SiteConfig, diagrams: list[tuple[Post, str]],
                 node: str | None) -> tuple[list[SourceError], str]:
    items = [{"id": index, "text": text} for index, (_, text) in enumerate(diagrams)]
    results, note = _run_node("check_mermaid.mjs", node, find_node_modules(config, *MERMAID_PACKAGES), items,
                              "mermaid diagrams")
    if results is None:
        return [], note
    problems = []
    for result in results:
        if result.get("ok"):
            continue
        post, text = diagrams[int(result["id"])]
        fence_line = _line_of(post, "mermaid", text)
        error = str(result.get("error", "does not parse"))
        match = re.search(r"line (\d+)", error)
        line = fence_line + int(match.group(1)) if fence_line and match else fence_line
        message = "; ".join(part.strip() for part in error.splitlines() if part.strip() and
                            not set(part.strip()) <= set("-^"))
        problems.append(SourceError(post.source, line, f"mermaid: {message}"))
    return problems, ""


def _run_katex(items: list[tuple[Post, str, bool]], macros: dict[str, str]) -> list[SourceError]:
    """Every formula through blogbuild's own KaTeX (in-process, no Node), each post's in order with the macros
    its formulas define, as the build typesets them; one problem per formula KaTeX rejects."""
    from ..content.katex import typeset_pages
    by_post: dict[int, list[tuple[Post, str, bool]]] = {}
    for item in items:
        by_post.setdefault(id(item[0]), []).append(item)
    pages = list(by_post.values())
    outcomes = typeset_pages([[(tex, display) for _, tex, display in page] for page in pages], macros)
    problems = []
    reported: set[tuple[str, str]] = set()
    for page, page_outcomes in zip(pages, outcomes, strict=True):
        for (post, tex, _display), outcome in zip(page, page_outcomes, strict=True):
            if (post.source, tex) in reported:
                continue
            reported.add((post.source, tex))
            if outcome.error is None or tex_balance_problem(tex):
                continue   # rendered, or already reported with a plainer message
            problems.append(SourceError(post.source, _line_of(post, "math", tex),
                                        f"math {_short(tex)}: {' '.join(outcome.error.split())}"))
    return problems


# --- repaired headers ------------------------------------------------------------------------------

def find_repairs(config: SiteConfig) -> list[SourceWarning]:
    """The damaged headers the build repaired in memory, one warning per repair, by file."""
    from ..disk.frontmatter import parse_front_matter
    from ..disk.sources import display_path, read_source, scan_content
    repairs: list[SourceWarning] = []
    for found, kind, resources in scan_content(config).pages:
        try:
            source = read_source(found, kind=kind, resources=resources,
                                 shown_path=display_path(found.path, config.root))
            repairs.extend(parse_front_matter(source).repairs)
        except Exception:   # a file that does not parse is already a build error; nothing to list here
            continue
    return repairs


# --- the build's own look at content links -----------------------------------------------------------

_HREF = re.compile(r"""<(a|img)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_ID = re.compile(r"""\sid\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)


def _ids(html_text: str) -> set[str]:
    return {match.group(1) if match.group(1) is not None else match.group(2) for match in _ID.finditer(html_text)}


def _page_ids(output: OutputFile) -> set[str]:
    """The ids of a written page: its bytes, or the file it was spooled to."""
    data = output.data
    if not data and output.source:
        try:
            data = Path(output.source).read_bytes()
        except OSError:
            return set()
    return _ids(data.decode("utf-8", "replace"))


def content_link_warnings(config: SiteConfig, pages: Iterable[Post],
                          files: Mapping[str, OutputFile]) -> list[SourceWarning]:
    """Links and images in the posts' own text that lead nowhere in this build: a page that does not exist or a
    #fragment its page has no element for, each a warning at its line with what to do (`--strict`: an error).
    Read from the posts' HTML (every post of the site has its ids there), the target page itself only when the
    fragment is not among its text's ids (the theme's own ids: #top, #comments…)."""
    warnings: list[SourceWarning] = []
    texts: dict[str, Post] = {}
    published = list(pages)
    for post in published:
        texts[url_to_output_path(post.url)] = post
    content_ids: dict[str, set[str]] = {}
    page_ids: dict[str, set[str]] = {}

    def ids_of(output: str) -> tuple[set[str], set[str] | None]:
        if output not in content_ids:
            post = texts.get(output)
            content_ids[output] = _ids(post.content_html) if post is not None else set()
        return content_ids[output], page_ids.get(output)

    for post in published:
        if not post.has_links and not any(mark.kind == "url" for mark in post.marks):
            continue   # no link in its text (images are the images stage's)
        for match in _HREF.finditer(post.content_html):
            url = match.group(2) if match.group(2) is not None else match.group(3)
            if url.startswith("#") and url_to_output_path(post.url) not in files:
                continue
            target = resolve_link(url, post.url, config)
            if target is None:
                continue
            path, fragment = target
            output, missing = _target_file(path, config, files)
            kind = "image" if match.group(1).lower() == "img" else "link"
            if output is None:
                if kind == "image":
                    continue   # the images stage already warns of a missing image, with its own fix
                message = (f"{kind} '{url}' {missing}; check the address (a page's URL comes from its file name, "
                           "slug: or url:), or link to the page's file (other.md) so a renamed page keeps its "
                           "links")
            elif fragment and fragment != "top" and output.endswith(".html"):
                text_ids, written = ids_of(output)
                if fragment in text_ids:
                    continue
                if written is None:
                    written = page_ids[output] = _page_ids(files[output])
                if fragment in written:
                    continue
                message = (f"{kind} '{url}' has no element with id '{fragment}'; check the heading's id "
                           "(its text, lowercased, spaces as '-', or {#id} after the heading)")
            else:
                continue
            warnings.append(SourceWarning(post.source, _line_of(post, "url", url), message))
    return warnings
