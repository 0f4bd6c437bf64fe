"""The import graph of src/blogbuild, read from the AST: no module may reach itself through imports, and
the layers import downwards only.

Every import counts, at module level, inside a function (a lazy import is still a dependency) or under
`if TYPE_CHECKING:` (a type-only import still ties the two modules: neither can be read, moved or reused
without the other).

The layers (docs/architecture.md): core/ imports nothing of blogbuild but core/; the stages (every module
but cli.py, __main__.py and commands/) import no command; Hugo's knowledge stays in hugo/, which the rest
reaches through its seams only (HUGO_SEAMS).
"""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

from support.files import write_files

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "blogbuild"

# Cycles that exist today and are being removed; no other cycle may appear.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _Imports(ast.NodeVisitor):
    """The blogbuild modules one module imports (targets resolved against the known module names)."""

    def __init__(self, name: str, is_package: bool, modules: set[str]) -> None:
        self.name = name
        self.package = name.split(".") if is_package else name.split(".")[:-1]
        self.modules = modules
        self.found: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name in self.modules:
                self.found.add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package[: len(self.package) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for alias in node.names:
            submodule = f"{target}.{alias.name}"
            if submodule in self.modules:
                self.found.add(submodule)
            elif target in self.modules:
                self.found.add(target)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module name -> the blogbuild modules it imports."""
    paths = {_module_name(path, package): path for path in package.rglob("*.py")}
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        visitor = _Imports(name, path.name == "__init__.py", modules)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        graph[name] = visitor.found - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = lowest[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = lowest[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    lowest[node] = min(lowest[node], index[child])
                continue
            work.pop()
            if work:
                lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
            if lowest[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_import_cycle_between_modules() -> None:
    new = [sorted(cycle) for cycle in cycles(import_graph()) if cycle not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}; move the shared code into a module both can import"


def test_the_cycle_finder_sees_lazy_and_type_only_imports(tmp_path: Path) -> None:
    package = tmp_path / "blogbuild"
    (package / "commands").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "commands" / "__init__.py").write_text("")
    (package / "commands" / "serve.py").write_text("def run():\n    from ..serve import DevServer\n")
    (package / "serve.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from .commands.serve import ServeOptions\n")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from .a import g\n")
    graph = import_graph(package)
    assert graph["blogbuild.commands.serve"] == {"blogbuild.serve"}
    assert graph["blogbuild.serve"] == {"blogbuild.commands.serve"}
    assert sorted(sorted(cycle) for cycle in cycles(graph)) == [
        ["blogbuild.a", "blogbuild.b"], ["blogbuild.commands.serve", "blogbuild.serve"]]


# The modules of hugo/ the rest of blogbuild may import: a Hugo site's config read in, its shortcodes written
# out as Jinja (init --from-hugo), and the Go-template translator's face (its package: the parser, objects and
# functions behind it are its own business), and a site's own page layouts as a Theme.
HUGO_SEAMS = {"blogbuild.hugo.config", "blogbuild.hugo.export", "blogbuild.hugo.gotemplate", "blogbuild.hugo.site_theme"}
COMMANDS = ("blogbuild.cli", "blogbuild.commands")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs against the layers, as 'importer -> imported: the rule'."""
    found = []
    for name, imported in sorted(graph.items()):
        for target in sorted(imported):
            if _within(name, "blogbuild.core") and not _within(target, "blogbuild.core"):
                found.append(f"{name} -> {target}: core/ imports only core/")
            if not (name == "blogbuild.__main__" or any(_within(name, command) for command in COMMANDS)) \
                    and any(_within(target, command) for command in COMMANDS):
                found.append(f"{name} -> {target}: a stage imports no command")
            if _within(target, "blogbuild.hugo") and not _within(name, "blogbuild.hugo") \
                    and target not in HUGO_SEAMS:
                found.append(f"{name} -> {target}: outside hugo/, only {sorted(HUGO_SEAMS)}")
    return found


def test_the_layers_import_downwards() -> None:
    assert layer_violations(import_graph()) == []


def test_the_layer_check_sees_each_rule() -> None:
    graph = {"blogbuild.core.dates": {"blogbuild.hugo.gotemplate", "blogbuild.core.errors"},
             "blogbuild.disk.manifest": {"blogbuild.commands.build", "blogbuild.core.dates"},
             "blogbuild.content.posts": {"blogbuild.hugo.gotemplate.objects", "blogbuild.hugo.config"},
             "blogbuild.commands.build": {"blogbuild.disk.manifest", "blogbuild.cli"},
             "blogbuild.hugo.config": {"blogbuild.hugo.unused"}}
    assert layer_violations(graph) == [
        "blogbuild.content.posts -> blogbuild.hugo.gotemplate.objects: outside hugo/, only "
        "['blogbuild.hugo.config', 'blogbuild.hugo.export', 'blogbuild.hugo.gotemplate', 'blogbuild.hugo.site_theme']",
        "blogbuild.core.dates -> blogbuild.hugo.gotemplate: core/ imports only core/",
        "blogbuild.disk.manifest -> blogbuild.commands.build: a stage imports no command",
    ]


def test_nothing_imports_the_cli_but_the_entry_point() -> None:
    graph = import_graph()
    importers = sorted(name for name, imported in graph.items() if "blogbuild.cli" in imported)
    assert importers == ["blogbuild.__main__"]


def _options_misuse(package: Path) -> list[str]:
    """Parameters named options typed Any (or untyped), and getattr(options, ...) calls."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for argument in [*node.args.args, *node.args.kwonlyargs]:
                    annotation = argument.annotation
                    if argument.arg == "options" and (annotation is None or ast.unparse(annotation) in ("Any",
                                                                                                      "'Any'")):
                        found.append(f"{relative}:{node.lineno} {node.name}(options)")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                    and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "options":
                found.append(f"{relative}:{node.lineno} getattr(options, ...)")
    return found


def test_options_travel_as_typed_dataclasses() -> None:
    assert _options_misuse(PACKAGE) == [], "take the command's options dataclass (commands/), not Any"


def test_the_options_check_sees_any_and_getattr(tmp_path: Path) -> None:
    (tmp_path / "stage.py").write_text("from typing import Any\n\n\ndef run(options: Any) -> int:\n"
                                       "    return getattr(options, 'jobs', 0)\n", encoding="utf-8")
    assert _options_misuse(tmp_path) == ["stage.py:4 run(options)", "stage.py:5 getattr(options, ...)"]


# A build that carries on from its cache (a deploy with one post edited) is mostly the interpreter's start.
# With these standard modules it took 0.16 s more CPU at 1,000 posts (A/B, a slow machine), and it needs none
# of them (feeds.py escapes XML itself; pools, thread pools and ctypes are imported where they are used).
HEAVY_MODULES = ("urllib.request", "http.client", "ssl", "email", "xml.sax", "concurrent.futures",
                 "multiprocessing", "ctypes.util", "subprocess", "difflib", "fractions",
                 # not standard: no post of the test site has a code block to highlight or an image to size, and
                 # an edit draws no social card
                 "pygments", "blogbuild.media.images", "blogbuild.media.cards")
# What only a Hugo site needs: a site with no Go templates (no layouts/ or themes/ folder, a blogbuild.yaml)
# builds without the Go-template translator, Hugo's config reader and the port of Chroma (~0.1 s of imports).
HUGO_PACKAGES = ("blogbuild.hugo", "blogbuild.markdown.chroma")

_LIST_HEAVY = (
    "import json, sys\n"
    "from blogbuild.cli import main\n"
    "code = main(['build', '--quiet', *sys.argv[1:]])\n"
    f"print(json.dumps([code, [name for name in {HEAVY_MODULES!r} if name in sys.modules],\n"
    f"                  sorted(name for name in sys.modules if name.startswith({HUGO_PACKAGES!r}))]))\n"
)


def _build_listing(site: Path, *args: str) -> list:
    """[exit code, heavy standard modules imported, Hugo-only modules imported] of a build in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", _LIST_HEAVY, *args], cwd=site, capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_carried_on_build_imports_no_heavy_standard_module(tmp_path: Path) -> None:
    """Neither the cold build nor the carried-on one imports the Hugo modules; the carried-on one imports none
    of the heavy standard modules either."""
    post = "---\ntitle: {title}\ndate: 2025-03-0{day}T09:00:00+08:00\ntags: [infra]\n---\n\n{body}\n"
    site = write_files(tmp_path / "site", {
        "blogbuild.yaml": "title: Imports\nbase_url: https://example.org/\n",
        **{f"content/posts/post-{day}.md": post.format(title=f"Post {day}", day=day, body=f"Text $x^{day}$ 中文。")
           for day in range(1, 4)},
    })

    code, _, hugo = _build_listing(site)   # the cold build that makes the cache
    assert (code, hugo) == (0, [])
    edited = site / "content/posts/post-2.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert _build_listing(site) == [0, [], []]
    assert "One more line." in (site / "public/posts/post-2/index.html").read_text(encoding="utf-8")


def test_a_hugo_site_with_its_own_layouts_imports_the_translator(tmp_path: Path) -> None:
    """The other side of the check above: the listing does see the Hugo modules a Hugo site needs."""
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).resolve().parent / "hugo_sites" / "own_layouts", site)
    code, _, hugo = _build_listing(site, "--jobs", "1")
    assert code == 0
    assert "blogbuild.hugo.gotemplate" in hugo and "blogbuild.hugo.config" in hugo
