"""Write src/blogbuild/markdown/chroma/lexer-configs.json: the <config> of every vendored Chroma lexer file, which
the lexer registry (markdown/chroma/registry.py) is made from instead of reading every file.

    python scripts/index_chroma_lexers.py [--check]

Run it after changing a file of src/blogbuild/vendor/chroma/lexers/ (tests/test_chroma_registry.py fails until the
index is made again); --check exits 1 when the index is not what this would write.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.markdown.chroma.lexer import LexerError  # noqa: E402  (the checkout's package, not an installed one)
from blogbuild.markdown.chroma.registry import CONFIG_INDEX, LEXER_DIR, config_record  # noqa: E402
from blogbuild.markdown.chroma.xml_lexers import XmlLexerFile  # noqa: E402


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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when the index is not up to date")
    args = parser.parse_args()
    text = index_text()
    if args.check:
        same = CONFIG_INDEX.exists() and CONFIG_INDEX.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{CONFIG_INDEX} is out of date: run scripts/index_chroma_lexers.py")
        return 0 if same else 1
    CONFIG_INDEX.write_text(text, encoding="utf-8")
    print(f"wrote {CONFIG_INDEX} ({len(text)} characters, {text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
