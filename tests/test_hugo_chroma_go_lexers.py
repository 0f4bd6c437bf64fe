"""The lexers Chroma v2.27.0 writes in Go (not in its lexer XML files) highlight as Hugo 0.168 highlights with
them: HTTP (its body lexed by the lexer of its Content-Type: JSON, XML and JSON by an +xml or +json type,
reStructuredText, PHP and PHTML by their MIME types, an unknown type as text), reStructuredText (sections, lists,
directives, roles, a code-block directive's code in its language, HTTP too, literal blocks), Svelte (script and
style by their lang, template blocks, TypeScript in braces), YAML+Jinja (Salt and Ansible), both Caddyfile lexers
(a heredoc too), PHTML, Haxe (its preprocessor, the states kept at #if as Go keeps a slice), Raku (quotes,
heredocs, regexes, substitutions, pod, colon pairs, and a regex left open in one block changing the next, as
Chroma's shared rules do), Gemtext, the three Genshi lexers and Markless, each named by aliases, by names Chroma
matches to file patterns (ties to the first registered) and, with guessSyntax on, not at all. One post of fences
built by the hugo binary and by blogbuild: every code block the same bytes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.files import write_files
from support.hugo_build import blogbuild_files, hugo_files

from blogbuild.markdown.chroma.registry import registry

HTTP_JSON = """\
POST /api/v1/users?active=true HTTP/1.1
Host: example.org
Content-Type: application/json; charset=utf-8
Accept: */*
X-Long: first part
  continued part

{"name": "Ada", "tags": ["a", "b"], "age": 36, "ok": true}
"""

HTTP_XML = """\
HTTP/1.1 200 OK
Content-Type: application/calendar+xml
Content-Length: 120

<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Hi &amp; bye</title><!-- c --></feed>
"""

HTTP_RST = """\
HTTP/2 404 Not Found
content-type: text/x-rst

Title
=====

Some *text* with ``code``.
"""

HTTP_PHP = """\
HTTP/1.0 200 OK
Content-Type: application/x-php

<p><?php echo $x; ?></p>
"""

HTTP_TEXT_PHP = """\
GET /index.php HTTP/1.1
Content-Type: text/x-php

<?php echo "php's own lexer"; ?>
"""

HTTP_UNKNOWN = """\
GET /index.html HTTP/2
Host: example.org
Content-Type: text/x-unknown

plain body
"""

RST = """\
=====
Title
=====

Section
-------

Some *emphasis*, **strong**, ``literal text``, `a link <https://x.org>`_, :ref:`target` and
`interpreted`:role: text with a footnote [1]_ and <tag>.

- item one
- item two
  continued

1. first
2. second

#) auto

| line block
| another

.. note:: This is a note
   with more text.

.. _target:

.. [1] The footnote.

.. |sub| image:: pic.png

.. code-block:: python

   def f(x):
       return x + 1

.. code-block:: nosuchlang

   raw text

:field: value
:Author: Me

Term
   Definition here.

A paragraph with a literal block::

   literal line 1
   literal line 2

.. a comment
   continued
"""

RST_HTTP = """\
.. code-block:: http

   GET / HTTP/1.1
   Content-Type: application/vnd.api+json

   {"a": [1, 2]}
"""

SVELTE = """\
<script lang="ts">
  let count: number = 0;
  const items = ["a", "b"];
  function inc() { count += 1; }
</script>

<style lang="scss">
  .btn { color: red; }
</style>

<!-- a comment with <script>ignored</script> -->
<h1 class="title">Count: {count}</h1>
<button on:click|preventDefault={inc}>+1</button>
{#if count > 1}
  <p>{count} is "big" {@html "<b>x</b>"}</p>
{:else if count === 1}
  <p>one</p>
{:else}
  <p>zero</p>
{/if}
{#each items as item, i}
  <li>{i}: {item}</li>
{/each}
{#await promise then value}
  <p>{value}</p>
{/await}
{@debug count}
"""

SALT = """\
{% set user = salt['pillar.get']('user', 'web') %}
# a comment
nginx:
  pkg.installed:
    - name: nginx
  service.running:
    - enable: True
    - watch:
      - file: /etc/nginx/nginx.conf
{% for site in ['a', 'b'] %}
/etc/nginx/sites/{{ site }}.conf:
  file.managed:
    - source: salt://nginx/{{ site }}.conf
    - user: {{ user | upper }}
{% endfor %}
{# a jinja comment #}
"""

ANSIBLE = """\
- hosts: "{{ target | default('all') }}"
  tasks:
    - name: install
      apt: name={{ item }} state=present
      loop: "{{ packages }}"
      when: ansible_os_family == "Debian"
"""

CADDYFILE = """\
{
\temail admin@example.org
\tauto_https off
}

(common) {
\tencode gzip zstd
\tlog
}

example.org, www.example.org {
\timport common
\troot * /srv/www
\t@api {
\t\tpath /api/*
\t\tnot header X-Skip 1
\t}
\treverse_proxy @api localhost:8080 {
\t\theader_up Host {host}
\t\tlb_policy first
\t}
\thandle_path /static/* {
\t\tfile_server
\t}
\turi strip_prefix /old
\trespond /health "OK {http.request.uri}" 200
\tredir https://example.com{uri} permanent # moved
\ttls internal
\ttry_files {path} /index.html
\theader Cache-Control "max-age=3600"
\ttimeouts 30s
}

:8080 {
\trespond `raw body` 404
}
"""

CADDY_HEREDOC = """\
example.com {
\trespond <<HTML
\t\t<html>Hi</html>
\t\tHTML 200
\t@cel expression `{path}.startsWith("/x")`
\turi replace /a /b
\troute /api/* {
\t\treverse_proxy {env.UPSTREAM}:80
\t}
\tencode [<matcher>] gzip
}
"""

CADDY_DIRECTIVES = """\
reverse_proxy /api/* localhost:9000
file_server browse
@post method POST
handle @post {
\trespond "posted" 201
}
"""

PHTML = """\
<!DOCTYPE html>
<html>
<head><title><?php echo $title; ?></title></head>
<body>
<?php
// list the items
$items = ['a' => 1, 'b' => 2];
foreach ($items as $key => $value) {
    echo "<li>$key: {$value}</li>";
}
?>
<p class="x">Done at <?= date('Y') ?></p>
</body>
</html>
"""

HAXE = """\
package com.example;

import haxe.ds.StringMap;
using StringTools;

/** A class. */
@:keep
class Main<T> extends Base implements IFoo {
    static inline var MAX:Int = 10;
    public var name(default, null):String;
    var map = new StringMap<Int>();

    public function new(name:String) {
        super();
        this.name = name;
    }

    static function main() {
        var x = 1.5e3 + 0xFF;
        var s = 'Hello ${name} and $x';
        var r = ~/ab+c/gi;
        #if js
        trace("js");
        #elseif (cpp && !debug)
        trace("cpp");
        #else
        trace("other");
        #end
        for (i in 0...MAX) {
            if (i % 2 == 0) continue else break;
        }
        switch (x) {
            case 1, 2: trace("small");
            default: trace('big');
        }
        var f = function(a:Int, ?b:Int):Int return a + b;
        var obj = {a: 1, b: "two"};
        try { throw "err"; } catch (e:Dynamic) { trace(e); }
        var v = cast(x, Float);
        var y = #if debug 1 + 2 #elseif release 3 * 4 #else "x" #end;
        trace(#if js "js" #else "other" #end);
        call(#if a [1, 2] #elseif b {x: 1} #else null #end, 3);
    }
    #error "Not supported"
}

enum Color { Red; Green; Rgb(r:Int, g:Int, b:Int); }
typedef Point = { x:Float, y:Float };
abstract Meters(Float) from Float to Float {}
"""

RAKU = """\
#!/usr/bin/env raku
use v6.d;

#`( a multi-line
    comment (nested) )
# a line comment
my $name = 'World';
my @list = <apple banana cherry>;
my %hash = :a(1), :b<two>, c => 3;
my \\sigilless = 42;

sub greet(Str $who, Int :$times = 1 --> Str) {
    return "Hello, $who! " x $times;
}

say greet($name, :times(2));
say "Interpolated: {$name.uc} and @list[0] and %hash<a> and $name.chars() done";
say q{single {nested} quote}, Q[raw $text], q:w/a b c/, Q:c{closure {1 + 2} here};
say qq:to/END/;
    heredoc with $name
    END
my @w = «one two $three»;
say "escapes \\n\\t \\x[41] \\c[LATIN SMALL LETTER A] \\qq[$name]", 'it\\'s';

class Point is Cool does Positional {
    has Num $.x = 0e0;
    has $!y is rw;
    method distance(Point $other) { sqrt(($!x - $other.x)² + 0.5) }
}

grammar Calc {
    token TOP { <number> [ '+' <number> ]* }
    rule expr { <term> +% '*' }
}

if $name ~~ m/^ W \\w+ $/ { say "matched" }
my $rx = rx:i{ hello \\s+ <[a..z]>+ <?before b> $( $x + 1 ) :my $y = 2; <foo(1, 2)> <bar: 'x'> };
(my $s = 'hello') ~~ s/l+/L/;
$s ~~ s{ (\\w+) } = "[$0]";
my @z = (1, 2) Z+ (3, 4);
for 1..10 -> $i { next if $i %% 2; say $i, 0x1F, 0b101, 1_000, 3.14e-2 }
say :2nd, :!verbose, %h<a>:exists, $x.^name, [+] 1..10, 1 ∈ (1, 2), ｢corner｣;

=begin pod

=head1 NAME

Some B<bold I<and italic>> and C<code> and L<a link|https://raku.org>.

=item One item

=end pod

=begin code :lang<python>
print("hi")
=end code

#| declarator pod
sub documented() { }
"""

# A regex left open: its closing delimiter stays the first rule of "regex" (Chroma's lexers share their rules),
# so the next block's regex ends at a "}".
RAKU_OPEN_REGEX = "my $x ~~ m{abc\n"
RAKU_AFTER_OPEN_REGEX = 'say "a" ~~ /a}b/;\n'

GEMTEXT = """\
# Heading
## Sub
### Subsub
* list item
> a quote
=> gemini://example.org/ A link
=> /relative
```python
print("hi")
```
```
plain preformatted
```
```alt text
more
```
Some plain text.
"""

GENSHI_TEXT = """\
Dear $name,
## a comment
#if greeting
  ${greeting.upper()} there!
#end
#for item in items
  * ${item}
#end
#choose
#when x == 1
one
#end
#otherwise
#end
"""

GENSHI_HTML = """\
<html xmlns:py="http://genshi.edgewall.org/">
<?python
  title = "Hi"
?>
<body>
  <h1 py:content="title">Title</h1>
  <ul py:if="items">
    <li py:for="item in items" class="x $cls">${item.name}</li>
  </ul>
  <script>var a = "<b>";</script>
  <p title='$t'>$$escaped ${1 + 2}</p>
</body>
</html>
"""

GENSHI = """\
<div py:match="body" id="x">
  <py:if test="x">${x}</py:if>
</div>
"""

MARKLESS = """\
# A header
## Subheader
This is //italic//, **bold**, __underline__, <-struck->, ``code`` and --- dashes.
A url https://example.org/x and a footnote [1].
- unordered item
1. ordered item
| a blockquote
~ Author| quoted text
   | more
; a comment
! set var value
[ image pic.png, width 10, float right ]
:: python
print("x")
::
''compound''(red, bold, https://x.org)
v(subtext) ^(super)
==
[1] The footnote.
|| centred
"""

# (fence language, code): aliases, names Chroma resolves by file pattern ("p6", "rakumod", "markless"; "t" and
# "pm" tie Raku with Perl, the first registered), and no language (guessSyntax).
FENCES = [
    ("http", HTTP_JSON), ("http", HTTP_XML), ("http", HTTP_RST), ("http", HTTP_PHP), ("http", HTTP_TEXT_PHP),
    ("http", HTTP_UNKNOWN),
    ("rst", RST), ("restructuredtext", "Title\n=====\n\n- a *b*\n"), ("rest", RST_HTTP),
    ("svelte", SVELTE),
    ("sls", SALT), ("ansible", ANSIBLE), ("yaml+jinja", "a: {{ b }}\n"),
    ("caddyfile", CADDYFILE), ("Caddyfile", "localhost\n\nfile_server\n"), ("caddy", CADDY_HEREDOC),
    ("caddy-d", CADDY_DIRECTIVES),
    ("phtml", PHTML), ("inc", "<?php $a = 1; ?>\n"),
    ("haxe", HAXE), ("hx", "var a = #if x 1 #elseif y 2 #else 4 #end;\n"),
    ("raku", RAKU), ("p6", "my @a = 1, 2;\n"), ("rakumod", "unit module M;\n"), ("t", "ok 1;\n"),
    ("pm", "sub f { 1 }\n"), ("perl6", RAKU_OPEN_REGEX), ("raku", RAKU_AFTER_OPEN_REGEX),
    ("gemtext", GEMTEXT), ("gmi", "=> https://x.org X\n"),
    ("genshitext", GENSHI_TEXT), ("html+genshi", GENSHI_HTML), ("genshi", GENSHI), ("kid", "<p>$x</p>\n"),
    ("mess", MARKLESS), ("markless", "# T\n//i//\n"),
    ("", "<?php echo 1; ?>\n"), ("", "{% if x %}\nkey: value\n{% endif %}\n"),
]

_BLOCK = re.compile(r'<div class="highlight">.*?</code></pre></div>|<pre tabindex="0"><code[^>]*>.*?</code></pre>',
                    re.S)


def _post() -> str:
    fences = "\n".join(f"`````{language}\n{code}`````\n" for language, code in FENCES)
    return "---\ntitle: Code\n---\n\n" + fences


SITE = {
    "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Lexers"\ndisableKinds = ["taxonomy", "term", "RSS", '
                 '"sitemap"]\n\n[markup.highlight]\nnoClasses = false\nguessSyntax = true\n',
    "layouts/_default/single.html": "{{ .Content }}\n",
    "layouts/_default/list.html": "{{ range .Pages }}{{ .RelPermalink }}{{ end }}\n",
    "content/posts/code.md": _post(),
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder: Path = tmp_path_factory.mktemp("go_lexers")
    hugo = hugo_files(write_files(folder / "hugo", SITE), folder / "hugo-public")
    ours, _warnings = blogbuild_files(write_files(folder / "ours", SITE))
    page = "posts/code/index.html"
    return hugo[page].decode(), ours[page].decode()


def test_every_code_block_is_the_html_hugo_writes(pages: tuple[str, str]) -> None:
    hugo, ours = pages
    theirs, mine = _BLOCK.findall(hugo), _BLOCK.findall(ours)
    assert len(theirs) == len(FENCES) == len(mine)
    for (language, code), expected, got in zip(FENCES, theirs, mine, strict=True):
        where = f"{language or 'no language'}: {code.splitlines()[0]!r}"
        assert dom_tokens(got) == dom_tokens(expected), where
        assert got == expected, f"{where}: the same DOM, other bytes"


def test_every_block_named_is_highlighted(pages: tuple[str, str]) -> None:
    hugo, _ours = pages
    named = [block for (language, _code), block in zip(FENCES, _BLOCK.findall(hugo), strict=True) if language]
    assert all(block.startswith('<div class="highlight">') and '<span class="' in block for block in named)


def test_the_lexers_are_registered_as_chroma_registers_them() -> None:
    lexers = registry()
    order = [lexer.config.name for lexer in lexers.lexers[-18:]]   # after the lexer files' lexers
    assert order == ["Caddyfile", "Caddyfile Directives", "Gemtext", "Genshi Text", "Genshi HTML", "Genshi", "Go",
                     "Go HTML Template", "Go Text Template", "Haxe", "HTTP", "markdown", "Markless", "PHTML", "Raku",
                     "reStructuredText", "Svelte", "YAML+Jinja"]
    found = {name: lexer.config.name if lexer else None for name, lexer in (
        ("application/x-php", lexers.match_mime_type("application/x-php")),
        ("text/x-php", lexers.match_mime_type("text/x-php")),
        ("text/x-sls", lexers.match_mime_type("text/x-sls")),
        ("text/gemini", lexers.match_mime_type("text/gemini")),
        ("Caddyfile.prod", lexers.match("Caddyfile.prod")),
        ("x.kid", lexers.match("x.kid")),
        ("x.pm6", lexers.match("x.pm6")),
        ("x.phtml", lexers.match("x.phtml")))}
    assert found == {"application/x-php": "PHTML", "text/x-php": "PHP", "text/x-sls": "YAML+Jinja",
                     "text/gemini": "Gemtext", "Caddyfile.prod": "Caddyfile", "x.kid": "Genshi", "x.pm6": "Raku",
                     "x.phtml": "PHTML"}
    new = [lexers.by_name[name.lower()] for name in order if name not in ("Go", "markdown")]
    assert all(lexer.analyse("<?php echo 1; ?>\n{% if x %}\n") == 0 for lexer in new)   # none has an analyser
