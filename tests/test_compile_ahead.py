"""A one-shot build compiles a Hugo site's translated templates ahead, in a forked child (compile_ahead.py):
the build takes each template's code from the child when it has arrived, renders it as if it had compiled it
itself, and tells the child which ones it compiled itself so that the child skips them."""
from __future__ import annotations

import marshal
import os
import shutil
from pathlib import Path

import jinja2
import pytest

from blogbuild.core.frames import read_frames
from blogbuild.hugo.gotemplate import compile_ahead
from blogbuild.hugo.gotemplate.environment import compiled, go_environment
from blogbuild.hugo.gotemplate.translate import translate
from support.files import write_files

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="compiling ahead needs fork")

GO_TEMPLATES = [
    '<h1>{{ .Title }}</h1>{{ range .Tags }}<a href="/tags/{{ . | urlize }}">{{ . }}</a>{{ end }}',
    '{{ with .Params.cover }}<img src="{{ .image }}" alt="{{ .alt }}">{{ else }}<p>none</p>{{ end }}',
    '{{ $n := len .Tags }}{{ if gt $n 1 }}<b>{{ $n }} tags</b>{{ end }}<script>var t = {{ .Title }};</script>',
]
DOT = {"Title": "A <b> & \"c\"", "Tags": ["a b", "c"], "Params": {"cover": {"image": "/x.png", "alt": "x\"y"}}}


@pytest.fixture()
def count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every compile in this process of the Go environment, by source (the child's are in another process)."""
    seen: list[str] = []
    environment = go_environment()
    original = type(environment).compile

    def counted(self: jinja2.Environment, source: str, *args: object, **kwargs: object) -> object:
        seen.append(source)
        return original(self, source, *args, **kwargs)
    monkeypatch.setattr(type(environment), "compile", counted)
    monkeypatch.setattr(compile_ahead, "_AHEAD", None)
    compiled.cache_clear()
    yield seen
    compiled.cache_clear()


def test_the_build_takes_the_childs_code_and_renders_the_same(count_compiles: list[str]) -> None:
    sources = [translate(text) for text in GO_TEMPLATES]
    expected = [go_environment().from_string(source).render(dot=DOT) for source in sources]
    count_compiles.clear()
    compile_ahead.start(sources, go_environment())
    ahead = compile_ahead._AHEAD
    assert ahead is not None and ahead.child != os.getpid()
    ahead.reader.join(timeout=60)   # every template has arrived and the child is reaped
    assert not ahead.reader.is_alive()
    assert [compiled(source).render(dot=DOT) for source in sources] == expected
    assert count_compiles == []   # none compiled in this process: each came from the child


def test_what_has_not_arrived_is_compiled_here(count_compiles: list[str]) -> None:
    sources = [translate(text) for text in GO_TEMPLATES]
    compile_ahead.start(sources, go_environment())
    ahead = compile_ahead._AHEAD
    assert ahead is not None
    ahead.reader.join(timeout=60)
    other = translate("<i>{{ .Title }}</i>")   # not in the list: compiled here
    assert compiled(other).render(dot=DOT) == "<i>A &lt;b&gt; &amp; &#34;c&#34;</i>"
    assert count_compiles == [other]


def test_the_child_skips_what_the_build_compiled_itself() -> None:
    sources = [translate(text) for text in GO_TEMPLATES]
    results, results_in = os.pipe()
    skips, skips_in = os.pipe()
    os.set_blocking(skips, False)
    os.write(skips_in, compile_ahead._INDEX.pack(1))   # the build said: the second one is mine
    compile_ahead._compile_and_send(go_environment(), sources, results_in, skips)
    frames = list(read_frames(results))
    os.close(skips)
    os.close(skips_in)
    places = []
    for place, data in frames:
        code = marshal.loads(data)
        assert code.co_filename == "<template>"
        places.append(place)
    assert places == [2, 0]   # the last first, the skipped one never


def test_a_one_shot_build_of_own_layouts_equals_one_without_a_second_process(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from blogbuild.cli import main
    monkeypatch.setattr(compile_ahead, "_AHEAD", None)
    compiled.cache_clear()
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent / "hugo_sites" / "own_layouts", site)
    write_files(site, {"content/posts/third.md": "---\ntitle: Third\ndate: 2024-03-03\ntags: [x]\n---\n\nThird.\n"})
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "2", "--output", str(tmp_path / "two")]) == 0
    ahead = compile_ahead._AHEAD
    assert ahead is not None and ahead.owner == os.getpid()   # the build with two processes compiled ahead
    monkeypatch.setattr(compile_ahead, "_AHEAD", None)
    compiled.cache_clear()
    assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1", "--output", str(tmp_path / "one")]) == 0
    assert compile_ahead._AHEAD is None   # with one, nothing forked
    two = {path.relative_to(tmp_path / "two"): path.read_bytes() for path in (tmp_path / "two").rglob("*")
           if path.is_file()}
    one = {path.relative_to(tmp_path / "one"): path.read_bytes() for path in (tmp_path / "one").rglob("*")
           if path.is_file()}
    assert len(two) > 5 and two == one


def test_the_child_keeps_no_file_of_the_build_open(tmp_path: Path) -> None:
    """What a forked child does first (compile_ahead.keep_only): only the standard descriptors and its pipes stay
    open, so a file the build holds (its site lock) is not held by the child too."""
    import json
    import subprocess
    import sys
    script = (
        "import json, os\n"
        "from blogbuild.hugo.gotemplate.compile_ahead import keep_only\n"
        f"held = os.open({str(tmp_path / 'lock')!r}, os.O_RDWR | os.O_CREAT)\n"
        "first, second = os.pipe()\n"
        "keep_only(second)\n"
        "def is_open(descriptor):\n"
        "    try:\n"
        "        os.fstat(descriptor)\n"
        "        return True\n"
        "    except OSError:\n"
        "        return False\n"
        "print(json.dumps([is_open(held), is_open(first), is_open(second), [is_open(n) for n in range(3)],\n"
        "                  sum(is_open(n) for n in range(3, 64))]))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    held, first, second, standard, others = json.loads(done.stdout)
    assert (held, first, second, standard, others) == (False, False, True, [True, True, True], 1)


def test_before_a_pool_forks_every_template_a_page_may_run_is_compiled(tmp_path: Path,
                                                                       count_compiles: list[str]) -> None:
    """The page engine's preload compiles each layout and every partial and named template they call, so a pool's
    workers (forked after it) inherit the code instead of each compiling it again."""
    from blogbuild.config import load_config
    from blogbuild.hugo.site_theme import _translations
    from blogbuild.pipeline import Builder
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent / "hugo_sites" / "own_layouts", site)
    engine = Builder(load_config(None, root=site))._load_templates().templates
    layouts = {source.file.main for source in engine.layouts.sources.values()}
    engine.preload([])
    sources = _translations(engine.layouts, engine.go)
    assert len(set(sources) - layouts) >= 3   # partials and defines besides the layouts' own
    count_compiles.clear()
    for source in sources:
        compiled(source)
    assert count_compiles == []
