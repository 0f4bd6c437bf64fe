"""The default theme's templates as the package compiled them (templating/packaged.py): a build takes their code
instead of compiling them, only while the file is what scripts/compile_theme.py writes from the templates as they
are, and never for a template the site changed or for a setting that changes the code."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from blogbuild.config import load_config
from blogbuild.disk.sources import template_dirs
from blogbuild.publish.environment import make_environment
from blogbuild.templating.packaged import COMPILED, header, packaged_templates

REPO = Path(__file__).resolve().parent.parent
THEME = REPO / "src" / "blogbuild" / "theme" / "templates"
NAMES = sorted(path.relative_to(THEME).as_posix() for path in THEME.rglob("*") if path.is_file())


def _environment(root: Path, base_url: str = "") -> jinja2.Environment:
    (root / "content").mkdir(parents=True, exist_ok=True)
    if base_url:
        (root / "blogbuild.yaml").write_text(f"base_url: {base_url}\n", encoding="utf-8")
    config = load_config(None, root=root)
    return make_environment(config, template_dirs(config))


def _made_here(environment: jinja2.Environment) -> None:
    if COMPILED.read_bytes().split(b"\n", 1)[0] + b"\n" != header(environment):
        pytest.skip("the compiled templates were made for another Python or Jinja; scripts/compile_theme.py on "
                    "this one makes them")


def test_the_compiled_file_is_what_the_templates_make(tmp_path: Path) -> None:
    _made_here(_environment(tmp_path / "site"))
    completed = subprocess.run([sys.executable, str(REPO / "scripts" / "compile_theme.py"), "--check"],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def _counting_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from now on (in this test)."""
    compiled: list[str] = []
    real = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, name: str | None = None, *args: object, **kwargs: object):
        compiled.append(str(name))
        return real(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return compiled


def _compiled_names(environment: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled = _counting_compiles(monkeypatch)
    for name in NAMES:
        environment.get_template(name)
    return compiled


def test_a_build_compiles_none_of_the_themes_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment = _environment(tmp_path / "site")
    _made_here(environment)
    assert _compiled_names(environment, monkeypatch) == []
    assert environment.get_template("base.html").filename == str(THEME / "base.html")   # errors point at it


def test_a_template_the_site_changed_is_compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "templates" / "partials").mkdir(parents=True)
    footer = next(name for name in NAMES if name.startswith("partials/"))
    (site / "templates" / footer).write_text((THEME / footer).read_text(encoding="utf-8") + "<!-- the site's -->",
                                             encoding="utf-8")
    environment = _environment(site)
    _made_here(environment)
    assert _compiled_names(environment, monkeypatch) == [footer]
    assert environment.get_template(footer).filename == str(site / "templates" / footer)


def test_the_code_calls_every_filter_when_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A filter on a constant (`'/search/' | url` in 404.html) is not folded into the package's code: each site's
    URL is under its own base path, with no template compiled by the build."""
    from blogbuild.pipeline import Builder
    _made_here(_environment(tmp_path / "probe"))
    compiled = _counting_compiles(monkeypatch)
    pages = []
    for base in ("https://example.org/", "https://example.org/blog/"):
        site = tmp_path / ("blog" if base.endswith("blog/") else "top")
        (site / "content" / "posts").mkdir(parents=True)
        (site / "content" / "posts" / "a.md").write_text("---\ntitle: A\ndate: 2024-01-02\n---\nText.\n",
                                                         encoding="utf-8")
        (site / "blogbuild.yaml").write_text(f"base_url: {base}\ncards: false\n", encoding="utf-8")
        result = Builder(load_config(None, root=site)).build()
        assert result.ok, result.errors
        pages.append(result.files["404.html"].data.decode())
    assert [name for name in compiled if name in NAMES] == []
    assert 'href="/search/"' in pages[0] and 'href="/blog/search/"' in pages[1]


def test_another_environment_is_not_given_the_packages_code(tmp_path: Path) -> None:
    environment = _environment(tmp_path / "site")
    environment.trim_blocks = not environment.trim_blocks   # code compiled under other settings
    assert packaged_templates(environment) is None
