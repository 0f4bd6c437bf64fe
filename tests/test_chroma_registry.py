"""The Chroma lexer registry is made from the packaged index of the vendored lexers' configs
(markdown/chroma/lexer-configs.json, scripts/index_chroma_lexers.py) instead of reading every lexer file: the
index must be what the files say, and a registry made from it must be the one the files make."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from blogbuild.markdown.chroma import registry as chroma_registry
from blogbuild.markdown.chroma.registry import CONFIG_INDEX, LEXER_DIR, Registry, read_config_index

REPO = Path(__file__).resolve().parent.parent


def test_the_index_is_what_the_lexer_files_say() -> None:
    completed = subprocess.run([sys.executable, str(REPO / "scripts" / "index_chroma_lexers.py"), "--check"],
                               capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_a_registry_from_the_index_equals_one_from_the_files() -> None:
    index = read_config_index()
    assert len(index) == len(list(LEXER_DIR.glob("*.xml"))) > 250
    from_files, from_index = Registry(), Registry()
    from_files.load_folder(LEXER_DIR, "lexers")
    from_index.load_folder(LEXER_DIR, "lexers", index)
    assert [lexer.config for lexer in from_index.lexers] == [lexer.config for lexer in from_files.lexers]
    assert from_index.get("py") is not None and from_index.get("py").config == from_files.get("py").config
    assert from_index.get("python").tokens("x = 1\n") == from_files.get("python").tokens("x = 1\n")
    assert from_index.match("Makefile").config.name == from_files.match("Makefile").config.name == "Makefile"


def test_a_damaged_or_missing_index_is_not_used(tmp_path: Path) -> None:
    for text in ("", "{", '{"configs": {"a.xml": ["A"]}}', '{"other": 1}', '{"configs": [1]}', "[]",
                 '{"configs": {"a.xml": ["A", 1, [], [], [], 0, 0, 0, 0, 0, [], 0]}}'):
        (tmp_path / "index.json").write_text(text, encoding="utf-8")
        assert read_config_index(tmp_path / "index.json") == {}
    assert read_config_index(tmp_path / "missing.json") == {}
    assert chroma_registry.registry().get("go") is not None and CONFIG_INDEX.is_file()
