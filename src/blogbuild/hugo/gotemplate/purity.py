"""Which partials give the same result for the same page wherever they are called, so that a build runs each
once per page it is given.

A list page runs a partial for each page it lists: PaperMod's post_meta.html (date, reading time, words,
author) runs for a post on the home page, its section, each of its tags and categories and the archive, seven
times a post on a 1,000-post blog, with the same output each time. A partial whose actions read nothing but
its page, the site and the build's fixed inputs is such a partial; Runner.partial keeps its result per page
for the rest of the build.

The test is on the partial's text and that of every partial it calls (by a literal name: a computed name
could be anything), and it is conservative: any of these words in an action makes a partial impure.
- A page's or the site's mutable store (`.Scratch`, `.Store`; a template's own `newScratch` is its own), and
  the list page being rendered (`.Paginator`, `.Paginate`).
- What runs other templates with their own inputs: content views and markdown rendered with the page's render
  hooks (`.Render`, `.RenderString`, `markdownify`), and named templates (`template`, `block`, `define`: the
  caller's named templates are visible to the partial).
- What publishes files or reads outside the site's model: Hugo Pipes (`resources.`, `.Resources`, `images.`,
  image methods, `js.`, `css.`, ...), `os.`, `readFile`, remote data.
- What depends on the call rather than the page: `page` (the page the render started from),
  `templates.Current`, `.IsMenuCurrent`/`.HasMenuCurrent`, the time (`now`), random order (`shuffle`,
  `math.Rand`), and what writes to the log (`warnf`, `errorf`).
"""
from __future__ import annotations

import functools
import re
from typing import Any, Mapping

from ..layouts import partial_key

_ACTION = re.compile(r"\{\{(.*?)\}\}", re.S)
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_IMPURE = re.compile(r"""
    (?<!new)Scratch\b | \bStore\b | \bPaginat(?:e|or)\b
  | \.Render\w*\b | \bmarkdownify\b | \b(?:template|block|define)\b
  | \bResources\b | \b(?:resources|images|js|css|os|babel|postCSS|tailwindcss)\.
  | \.(?:Resize|Fit|Fill|Crop|Filter|Process|Publish|Colors)\b
  | \b(?:toCSS|fingerprint|minify|postCSS|postProcess|getJSON|getCSV|readFile|readDir|fileExists)\b
  | (?<![.$\w])page\b | \btemplates\.Current\b | \w*MenuCurrent\b
  | \bnow\b | \btime\.Now\b | \bshuffle\b | \bcollections\.Shuffle\b | \bmath\.Rand\b | \bdebug\.Timer\b
  | \b(?:warnf|errorf|warnidf|erroridf)\b | \bfmt\.(?:Warnf|Errorf|Warnidf|Erroridf)\b
""", re.X)
_PARTIAL_CALL = re.compile(r"\bpartial(?:Cached)?\b")
# A partial called by a literal name, and the name (what the build's dependency and compile lists follow too).
CALLED_PARTIAL = re.compile(r"""\bpartial(?:Cached)?\s*\(?\s*["`]([^"`]+)["`]""")


@functools.lru_cache(maxsize=1024)
def local_calls(text: str) -> tuple[str, ...] | None:
    """The partials a template's text calls (by their names as written), or None when its own actions make it
    impure (a word above, or a partial called by a computed name)."""
    actions = [_COMMENT.sub("", action) for action in _ACTION.findall(text)]
    code = "\n".join(actions)
    if _IMPURE.search(code):
        return None
    called = CALLED_PARTIAL.findall(code)
    if len(called) != len(_PARTIAL_CALL.findall(code)):
        return None
    return tuple(dict.fromkeys(called))


def is_pure(key: str, partials: Mapping[str, Any], known: dict[str, bool]) -> bool:
    """Whether the partial file `key` (a key of partials, whose values have .source) and every partial it calls
    are pure; known holds the answers found so far (a partial that calls itself is taken as impure)."""
    answer = known.get(key)
    if answer is not None:
        return answer
    known[key] = False   # while its callees are looked at: a cycle is impure
    source = partials.get(key)
    calls = local_calls(source.source) if source is not None else None
    if calls is None:
        return False
    for name in calls:
        bare = name.removeprefix("partials/").removeprefix("_partials/")
        callee = partial_key(partials, bare)
        if callee not in partials or not is_pure(callee, partials, known):   # an inline partial: the caller's
            return False
    known[key] = True
    return True
