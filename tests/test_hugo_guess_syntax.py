"""markup.highlight.guessSyntax as Hugo 0.168 applies it with Chroma v2.27.0: a fence without a language is
highlighted with the lexer lexers.Analyse scores highest (the analysers of the lexer files' <analyse> and the
ones Chroma writes in Go, analysers.py), else as "fallback". One post of unlabelled fences, typical snippets of
the languages with an analyser, ties between them and snippets no analyser claims, built by the hugo binary and
by blogbuild: the post the same bytes, each block of the language Hugo picked."""
from __future__ import annotations

import re

import pytest
from support.files import write_files
from support.hugo_build import blogbuild_files, hugo_files

from blogbuild.markdown.chroma import analysers
from blogbuild.markdown.chroma.registry import registry

# (label, the fence's text, the language Hugo picks: the lexer's name lower-cased, as data-lang shows it)
SNIPPETS = (
    ("mysql", "SELECT `id`, `name` FROM `users` WHERE `id` = 1;\n", "mysql"),
    ("makefile", "CURDIR := `pwd`\n\nall: build\n\nbuild:\n\tgo build -o bin/app ./cmd/app\n", "mysql"),
    ("tsql-brackets", "SELECT [id], [name] FROM [users] WHERE `id` = 1;\n", "mysql"),          # 0.1
    ("mysql-more-backticks", "SELECT `a`, `b`, `c`, [d], [e] FROM t;\n", "mysql"),              # 0.2
    ("mysql-non-ascii", "SELECT `café` FROM t;\n", "fallback"),              # RE2's \w is ASCII only
    ("mysql-non-ascii-digit", "SELECT `x\u0661` FROM t;\n", "fallback"),
    ("mysql-no-overlap", "`a`b` [c]\n#include <stdio>\n", "c++"),          # one `name`, not two: 0.1 < 0.2
    ("dns", "$TTL 3600\n@ IN SOA ns1.example.com. admin.example.com. (\n  2024010101 3600 900 604800 86400 )\n",
     "dns"),
    ("dns-lower-case", "@ in soa ns1.example.com. admin.example.com.\n", "fallback"),
    ("dns-form-feed", "@\fIN\tSOA ns1.example.com.\n", "dns"),
    ("dns-vertical-tab", "@\vIN SOA ns1.example.com.\n", "fallback"),      # not in RE2's \s
    ("dns-no-break-space", "@\u00a0IN SOA ns1.example.com.\n", "fallback"),
    ("zed", "definition user {}\n\ndefinition document {\n  relation viewer: user\n  permission view = viewer\n}\n",
     "zed"),
    ("zed-definition", "definition user {}\n", "zed"),
    ("zed-relation", "relation owner: user\n", "zed"),
    ("zed-permission", "permission edit = owner\n", "zed"),
    ("zed-over-c++", "permission x\n#include <foo>\n", "zed"),             # 0.25 > 0.2
    ("go", 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n', "go"),
    ("go-package-only", "package util\n", "go"),
    ("go-without-fmt", "package util\n\nfunc Add(a, b int) int { return a + b }\n", "gdscript3"),   # 0.4 > 0.1
    ("python-shebang", "#!/usr/bin/env python3\nimport sys\nprint(sys.argv)\n", "fallback"),
    ("bash-shebang", '#!/bin/bash\necho "hello"\n', "bash"),
    ("sh-env", "#!/usr/bin/env sh\nset -e\nls\n", "bash"),
    ("zsh-env", "#!/usr/bin/env zsh\necho hi\n", "bash"),
    ("nu", "#!/usr/bin/env nu\nls | where size > 10kb\n", "nu"),
    ("c", '#include <stdio.h>\n\nint main(void) {\n    printf("hi\\n");\n    return 0;\n}\n', "c"),
    ("c-ifdef", "#ifndef FOO_H\n#define FOO_H\nint foo(void);\n#endif\n", "c"),
    ("c++", "#include <iostream>\nusing namespace std;\nint main() { cout << 1; }\n", "c++"),
    ("templ", "package main\n\ntempl hello(name string) {\n\t<div>Hello, { name }</div>\n}\n", "templ"),
    ("rpgle", "**free\ndcl-s x int(10);\n", "rpgle"),
    ("gdscript", 'extends Node\n\nfunc _ready():\n\tprint("hi")\n', "gdscript3"),
    ("javascript", "const x = 1;\nconsole.log(x);\n", "gdscript3"),
    # equal scores: the first registered wins (the lexer files by name, then the Go-coded lexers)
    ("tie-c-go", "#include <x.h>\npackage foo\n", "c"),                   # 0.1 each
    ("tie-mysql-go", "package x\nfmt.Println(`a`)\n", "mysql"),            # 0.5 each
    ("tie-mysql-zed", "definition `x`\n", "mysql"),                        # 0.5 each
    ("tie-rpgle-zed", "**free\ndefinition a relation b permission c\n", "rpgle"),   # 0.9 each
    # analysers set on a delegating lexer's language lexer, which lexers.Analyse does not ask
    ("php", "<?php\necho 'hello';\n?>\n", "fallback"),
    ("erb", "<p><%= @user.name %></p>\n", "fallback"),
    # no analyser claims these
    ("html", "<!DOCTYPE html>\n<html>\n<head><title>Hi</title></head>\n<body><p>Hello</p></body>\n</html>\n",
     "fallback"),
    ("xml", '<?xml version="1.0"?>\n<note><to>Tove</to></note>\n', "fallback"),
    ("tex", "\\documentclass{article}\n\\begin{document}\nHello\n\\end{document}\n", "fallback"),
    ("json", '{"name": "x", "version": 1}\n', "fallback"),
    ("yaml", "name: x\nitems:\n  - a\n  - b\n", "fallback"),
    ("lua", 'local function hi()\n  print("hi")\nend\n', "fallback"),
    ("rust", 'fn main() {\n    println!("hi");\n}\n', "fallback"),
    ("css", "body { color: red; }\n", "fallback"),
    ("diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "fallback"),
    ("prose", "Hello world, nothing to see here.\n", "fallback"),
)

SITE = {
    "hugo.toml": ('baseURL = "https://example.org/"\ntitle = "Guess"\n'
                  "[markup.highlight]\nguessSyntax = true\nnoClasses = false\n"),
    "layouts/_default/single.html": "{{ .Content }}",
    "layouts/_default/list.html": "",
    "content/posts/snippets.md": "---\ntitle: Snippets\n---\n" + "".join(
        f"\nsnippet {label}\n\n```\n{code}```\n" for label, code, _ in SNIPPETS),
}
PAGE = "posts/snippets/index.html"
_LANGUAGE = re.compile(r'<p>snippet ([^<]+)</p>\n<div class="highlight"><pre[^>]*><code class="language-([^"]+)" '
                       r'data-lang="([^"]+)">')


# blogbuild deletes from a page the control characters feeds cannot carry (with a warning), after
# highlighting; Hugo keeps them. The two snippets holding one (\f, \v) differ from Hugo's page by that only.
_CONTROL = re.compile("[\x0b\x0c]")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(Hugo's post, blogbuild's post)."""
    tmp_path = tmp_path_factory.mktemp("guess")
    hugo = hugo_files(write_files(tmp_path / "hugo", SITE), tmp_path / "hugo-public")
    ours, warnings = blogbuild_files(write_files(tmp_path / "ours", SITE))
    assert warnings and all(warning.message.startswith("control character U+000") for warning in warnings)
    return hugo[PAGE].decode("utf-8"), ours[PAGE].decode("utf-8")


def _languages(page: str) -> dict[str, str]:
    found = {}
    for label, language, data_lang in _LANGUAGE.findall(page):
        assert language == data_lang
        found[label] = language
    return found


def test_hugo_picks_the_languages_the_snippets_expect(pages: tuple[str, str]) -> None:
    hugo, _ = pages
    assert _languages(hugo) == {label: language for label, _, language in SNIPPETS}


def test_each_unlabelled_fence_is_highlighted_with_the_lexer_hugo_picks(pages: tuple[str, str]) -> None:
    hugo, ours = pages
    assert _languages(ours) == _languages(hugo)
    assert ours == _CONTROL.sub("", hugo)


def test_the_go_coded_analysers_are_set_on_their_lexers() -> None:
    lexers = registry()
    for name, analyser in analysers.ANALYSERS.items():
        assert lexers.by_name[name].analyser is analyser
    assert lexers.by_name["ERB"].analyse("<%= x %>") == 0.0
    assert analysers.erb("<%= x %>") == 0.4 and analysers.phtml("<?php") == 0.5


def test_scores_are_go_float32s() -> None:
    lexers = registry()
    assert lexers.by_name["MySQL"].analyse("[a] `b`") == analysers.float32(0.1) != 0.1
    # GDScript3's <analyse> sums 0.4 and 0.2 as float32s: 0.6 in float32, where float64 gives 0.6000000000000001
    assert lexers.by_name["GDScript3"].analyse("extends x var") == analysers.float32(0.6)
