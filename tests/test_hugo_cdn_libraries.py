"""A Hugo page that loads KaTeX or mermaid from a CDN loads blogbuild's own copy instead (hugo/local_libraries.py):
the site builds and reads offline, and KaTeX's version is the one its formulas were typeset with. The CDNs' URLs
name KaTeX's package in either case (jsDelivr's and unpkg's `katex@`, cdnjs's `KaTeX/`); a page that names none
is left as it is, without its tags being looked at one by one. mermaid's one-file build (a classic script's) and
its module build (a module script's import, as Hugo's documentation writes it) each become the copy of that build
(the one-file build of a version before 12 keeps its dagre layout); a URL that no tag or script loads (a post's
link or code) is kept. Each page's record names the files it loads
(KaTeX's fonts with its stylesheet, the module's chunks with its entry); a build publishes them (test_vendor.py)."""
from __future__ import annotations

from blogbuild.hugo.local_libraries import local_libraries, vendored_file
from blogbuild.media.assets import manifest


def _url(path: str) -> str:
    return "/blog" + path


TAGS = {
    '<link rel="stylesheet" href="https://cdnjs.cloudflare.com/ajax/libs/KaTeX/0.16.9/katex.min.css" '
    'integrity="sha384-x" crossorigin="anonymous">':
        '<link rel="stylesheet" href="/blog/vendor/katex-0.19.1/katex.min.css">',
    '<script defer src="//cdn.jsdelivr.net/npm/KATEX@0.16.9/dist/contrib/auto-render.min.js"></script>':
        '<script defer src="/blog/vendor/katex-0.19.1/contrib/auto-render.min.js"></script>',
    "<script src='https://unpkg.com/katex@0.16.9/dist/katex.js'></script>":
        "<script src='/blog/vendor/katex-0.19.1/katex.min.js'></script>",
    '<script src="https://cdn.jsdelivr.net/npm/katex@0.16.21/dist/contrib/copy-tex.min.js"></script>':
        '<script src="/blog/vendor/katex-0.19.1/contrib/copy-tex.min.js"></script>',
}
FONTS = '<link rel="stylesheet" href="https://fonts.example/css?family=Lato">'


def test_each_cdn_s_katex_becomes_the_vendored_copy_whatever_the_case_of_its_url() -> None:
    for tag, local in TAGS.items():   # each alone: a page holding one of them
        html, needed = local_libraries(f"<head>\n{FONTS}\n{tag}\n</head>", _url)
        assert html == f"<head>\n{FONTS}\n{local}\n</head>"
        file = local.split("katex-0.19.1/")[1].split('"')[0].split("'")[0]
        assert needed[f"vendor/katex-0.19.1/{file}"] == f"vendored:katex/{file}"
        # The stylesheet brings its fonts; a script itself alone (and the licence).
        fonts = {path for path in needed if "/fonts/" in path}
        assert len(fonts) == (len([f for f in manifest()["katex"]["files"] if f.startswith("fonts/")])
                              if file.endswith(".css") else 0)
        assert len(needed) == 2 + len(fonts)


def test_a_page_that_names_no_cdn_library_is_returned_as_it_is() -> None:
    page = ('<p><span class="katex"><span class="katex-mathml">x</span></span> '
            '<a href="https://example.org/katex-notes/">notes on katex</a> <pre class="mermaid">graph LR</pre></p>')
    html, needed = local_libraries(page, _url)
    assert html is page and needed == {}


def test_every_tag_of_a_page_is_replaced_and_a_link_to_katex_s_site_is_kept() -> None:
    tags, local = "\n".join(TAGS), "\n".join(TAGS.values())
    for text in ('<p>See <a href="https://github.com/KaTeX/KaTeX">KaTeX</a>.</p>', "<p>No link.</p>"):
        page = f"<head>\n{tags}\n</head>\n{text}\n{tags}\n"
        assert local_libraries(page, _url)[0] == f"<head>\n{local}\n</head>\n{text}\n{local}\n"


SCRIPT = "/blog/vendor/mermaid-12.3.0/mermaid.min.js"
# What follows the one-file build of a version before 12: the copy (12) lays diagrams out with dagre, as they did.
DAGRE = ('mermaid.initialize=(function(m,i){return function(c){return i.call(m,Object.assign({layout:"dagre"},c))}})'
         '(mermaid,mermaid.initialize);mermaid.initialize({});')
MODULE = "/blog/vendor/mermaid-12.3.0/mermaid.esm.min.mjs"
MERMAID = {
    # The one-file build, from jsDelivr (with and without a version), unpkg and cdnjs, SRI and CORS dropped.
    # Before 12, a blocking script is followed by the dagre script, a deferred one by it as a module script (run
    # after it, in order); an async one cannot be followed; version 12 on and a CDN's latest are left as they are.
    '<script src="https://cdn.jsdelivr.net/npm/mermaid@11.5.0/dist/mermaid.min.js" integrity="sha384-y" '
    'crossorigin="anonymous"></script>': f'<script src="{SCRIPT}"></script><script>{DAGRE}</script>',
    '<script src="https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.js"></script>': f'<script src="{SCRIPT}"></script>',
    '<script src="https://cdn.jsdelivr.net/npm/mermaid@12.0.2/dist/mermaid.min.js"></script>':
        f'<script src="{SCRIPT}"></script>',
    "<script defer src=https://unpkg.com/mermaid@9.4.3/dist/mermaid.min.js></script>":
        f'<script defer src={SCRIPT}></script><script type="module">{DAGRE}</script>',
    '<script async src="https://unpkg.com/mermaid@9.4.3/dist/mermaid.min.js"></script>':
        f'<script async src="{SCRIPT}"></script>',
    '<SCRIPT src="https://cdnjs.cloudflare.com/ajax/libs/mermaid/10.9.0/mermaid.min.js"></SCRIPT>':
        f'<SCRIPT src="{SCRIPT}"></SCRIPT><script>{DAGRE}</script>',
    # The module build, imported by a module script (Hugo's documentation's form) and jsDelivr's +esm.
    "<script type=\"module\">\n  import mermaid from 'https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.esm.min.mjs';\n"
    "  mermaid.initialize({ startOnLoad: true });\n</script>":
        f"<script type=\"module\">\n  import mermaid from '{MODULE}';\n  mermaid.initialize({{ startOnLoad: true }});\n"
        "</script>",
    '<script type="module">import m from "https://cdn.jsdelivr.net/npm/mermaid@11/+esm"; m.run();</script>':
        f'<script type="module">import m from "{MODULE}"; m.run();</script>',
    '<link rel="modulepreload" href="https://unpkg.com/mermaid@10/dist/mermaid.esm.mjs">':
        f'<link rel="modulepreload" href="{MODULE}">',
    # A preload of the one-file build: its link rewritten, no script after it (the script tag that loads it has).
    '<link rel="preload" as="script" href="https://cdn.jsdelivr.net/npm/mermaid@11/dist/mermaid.min.js"><script>x</script>':
        f'<link rel="preload" as="script" href="{SCRIPT}"><script>x</script>',
}


def test_each_cdn_s_mermaid_becomes_the_copy_of_the_same_build() -> None:
    chunks = {file for file in manifest()["mermaid"]["files"] if file.startswith("chunks/")}
    for tag, local in MERMAID.items():
        html, needed = local_libraries(f"<head>\n{FONTS}\n{tag}\n</head><p>x</p>", _url)
        assert html == f"<head>\n{FONTS}\n{local}\n</head><p>x</p>"
        files = {key.removeprefix("vendored:mermaid/") for key in needed.values()}
        assert set(needed) == {f"vendor/mermaid-12.3.0/{file}" for file in files}
        assert files == ({"mermaid.esm.min.mjs", "LICENSE", *chunks} if "mjs" in local else {"mermaid.min.js", "LICENSE"})


def test_a_mermaid_url_no_script_loads_is_kept() -> None:
    page = ('<p>Load <a href="https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.min.js">mermaid</a>:</p>\n'
            '<pre><code>&lt;script src=&quot;https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.min.js&quot;&gt;'
            "\nimport mermaid from 'https://cdn.jsdelivr.net/npm/mermaid@11/+esm';</code></pre>\n"
            '<script>const text = "a"; </script><p>"https://cdn.jsdelivr.net/npm/mermaid@11/+esm"</p>')
    html, needed = local_libraries(page, _url)
    assert html is page and needed == {}
    # In a page that also loads it, the page's own tag alone changes.
    tag, local = list(MERMAID.items())[1]
    html, needed = local_libraries(tag + page, _url)
    assert html == local + page and len(needed) == 2


def test_a_record_names_only_files_blogbuild_ships() -> None:
    assert vendored_file("vendored:mermaid/mermaid.min.js") is not None
    assert vendored_file("vendored:katex/contrib/copy-tex.min.js") is not None
    for key in ("vendored:mermaid/../../etc/passwd", "vendored:chroma/LICENSE", "vendored:katex/nothing.js",
                "0" * 64, "vendored:", "vendored:katex"):
        assert vendored_file(key) is None, key
