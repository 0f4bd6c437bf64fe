"""Write src/blogbuild/markdown/chroma/lexer-configs.json: the <config> of every vendored Chroma lexer file, which
the lexer registry (markdown/chroma/registry.py) is made from instead of reading every file.

    python scripts/index_chroma_lexers.py [--check]

Run it after changing a file of src/blogbuild/vendor/chroma/lexers/ (tests/test_chroma_registry.py fails until the
index is made again); --check exits 1 when the index is not what this would write.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.markdown.chroma.lexer import LexerError  # noqa: E402  (the checkout's package, not an installed one)
from blogbuild.markdown.chroma.registry import CONFIG_INDEX, LEXER_DIR, config_record  # noqa: E402
from blogbuild.markdown.chroma.xml_lexers import XmlLexerFile  # noqa: E402
from generated_file import run  # noqa: E402  (beside this script)


def index_text() -> str:
    """The index: each lexer file's config (a file whose config cannot be read is left out: it is read, and
    reported, when a registry is made)."""
    configs = {}
    for path in sorted(LEXER_DIR.glob("*.xml")):
        source = XmlLexerFile(path, path.name)
        try:
            configs[path.name] = config_record(source.config(source.head()))
        except LexerError:
            continue
    lines = ",\n".join(f"{json.dumps(name)}: {json.dumps(record, ensure_ascii=False)}" for name, record in configs.items())
    return '{"configs": {\n' + lines + "\n}}\n"


def main() -> int:
    return run(__doc__ or "", CONFIG_INDEX, lambda: index_text().encode("utf-8"), "index_chroma_lexers.py")


if __name__ == "__main__":
    sys.exit(main())
