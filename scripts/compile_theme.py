"""Write src/blogbuild/theme/templates.compiled: the default theme's templates compiled by Jinja, for the Python
and Jinja this runs on (templating/packaged.py reads it; a build on another Python or Jinja compiles the templates
itself, as it does a template the site changed).

    python scripts/compile_theme.py [--check]

Run it after changing a template of src/blogbuild/theme/templates/ (tests/test_packaged_templates.py fails until
the file is made again); --check exits 1 when the file is not what this would write.
"""
from __future__ import annotations

import marshal
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.config import load_config  # noqa: E402  (the checkout's package, not an installed one)
from blogbuild.disk.sources import template_dirs  # noqa: E402
from blogbuild.publish.environment import make_environment  # noqa: E402
from blogbuild.templating.packaged import COMPILED, compile_all  # noqa: E402
from generated_file import run  # noqa: E402  (beside this script)

THEME = REPO / "src" / "blogbuild" / "theme" / "templates"


def compiled_bytes() -> bytes:
    """What the file holds: every template of the theme, compiled in the environment a build's pages use."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "content").mkdir()
        config = load_config(None, root=Path(folder))
        environment = make_environment(config, template_dirs(config))
        names = [path.relative_to(THEME).as_posix() for path in THEME.rglob("*") if path.is_file()]
        return compile_all(environment, names)


def _decoded(data: bytes) -> tuple[bytes, object]:
    first, _, rest = data.partition(b"\n")
    try:
        return first, marshal.loads(rest)
    except (EOFError, ValueError, TypeError):
        return first, None


def main() -> int:
    # Compared as what they hold, not as bytes: marshal marks shared objects by their reference counts.
    return run(__doc__ or "", COMPILED, compiled_bytes, "compile_theme.py",
               lambda current, made: _decoded(current) == _decoded(made))


if __name__ == "__main__":
    sys.exit(main())
