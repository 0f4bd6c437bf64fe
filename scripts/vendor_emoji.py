"""Write Hugo's two emoji tables into src/blogbuild/vendor/ from the Go sources of the versions Hugo pins.

    python scripts/vendor_emoji.py --goldmark-emoji PATH --kyokomi-emoji PATH

Each PATH is a git repository (a clone or a bare mirror) of github.com/yuin/goldmark-emoji and
github.com/kyokomi/emoji; the script reads the tags GOLDMARK_EMOJI_VERSION and KYOKOMI_EMOJI_VERSION
(src/blogbuild/media/assets.py) name, so the tables are the ones Hugo 0.168 compiles in:

- vendor/goldmark-emoji/github.json: goldmark-emoji's GitHub definition set (definition/github.gen.go),
  [name, characters, short name, ...] per emoji in the library's order; markdown's `:name:` with enableEmoji.
- vendor/kyokomi-emoji/codemap.json: kyokomi/emoji's code map (emoji_codemap.go), ":name:" -> characters;
  the `emojify` template function.

Both libraries are MIT; their LICENSE files are copied beside the tables. The manifest entries are then
written by scripts/vendor_assets.py (run it after this script).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from blogbuild.markdown.emoji import GOLDMARK_EMOJI_DIR, KYOKOMI_EMOJI_DIR  # noqa: E402
from blogbuild.media.assets import GOLDMARK_EMOJI_VERSION, KYOKOMI_EMOJI_VERSION  # noqa: E402

_GO_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_SIMPLE_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}


def go_string(literal: str) -> bytes:
    """The bytes a Go interpreted string literal's body (without its quotes) stands for."""
    out = bytearray()
    index = 0
    while index < len(literal):
        character = literal[index]
        if character != "\\":
            out += character.encode("utf-8")
            index += 1
            continue
        kind = literal[index + 1]
        if kind == "x":
            out.append(int(literal[index + 2:index + 4], 16))
            index += 4
        elif kind in "uU":
            width = 4 if kind == "u" else 8
            out += chr(int(literal[index + 2:index + 2 + width], 16)).encode("utf-8")
            index += 2 + width
        elif kind in "01234567":
            out.append(int(literal[index + 1:index + 4], 8))
            index += 4
        else:
            out.append(_SIMPLE_ESCAPES[kind])
            index += 2
    return bytes(out)


def _show(repository: Path, tag: str, path: str) -> str:
    """One file of a git repository at a tag."""
    result = subprocess.run(["git", "--git-dir", str(_git_dir(repository)), "show", f"{tag}:{path}"],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"git show {tag}:{path} in {repository} failed:\n{result.stderr}")
    return result.stdout


def _git_dir(repository: Path) -> Path:
    """A clone's .git folder, or a bare repository itself."""
    return repository / ".git" if (repository / ".git").exists() else repository


def _declaration(source: str, name: str) -> str:
    """The right-hand side of a top-level `const`/`var` declaration of github.gen.go (one line each)."""
    match = re.search(rf"^(?:const|var) {name}\b[^=]*=\s*(.*)$", source, re.MULTILINE)
    if match is None:
        raise SystemExit(f"github.gen.go has no {name}")
    return match.group(1)


def _string_declaration(source: str, name: str) -> str:
    """The body of a declaration's string literal."""
    match = _GO_STRING.match(_declaration(source, name))
    if match is None:
        raise SystemExit(f"github.gen.go's {name} is no string")
    return match.group(1)


def goldmark_emoji_table(source: str) -> list[list[str]]:
    """goldmark-emoji's GitHub set from github.gen.go: [name, characters, short names...] per emoji, in order.

    The generated file packs every field into one string or slice and gives each emoji's length in an
    index string of bytes; definition/github.go unpacks them the same way."""
    length = int(_declaration(source, "_githubLength"))
    names = go_string(_string_declaration(source, "_githubName"))
    name_index = go_string(_string_declaration(source, "_githubNameIndex"))
    short_names = [go_string(literal).decode("utf-8")
                   for literal in _GO_STRING.findall(_declaration(source, "_githubShortNames"))]
    short_index = go_string(_string_declaration(source, "_githubShortNamesIndex"))
    runes = [int(number) for number in re.findall(r"\d+", _declaration(source, "_githubUnicode").split("{", 1)[1])]
    rune_index = go_string(_string_declaration(source, "_githubUnicodeIndex"))
    if not len(name_index) == len(short_index) == len(rune_index) == length:
        raise SystemExit("github.gen.go's index strings disagree with _githubLength")
    table: list[list[str]] = []
    name_at = rune_at = short_at = 0
    for number in range(length):
        name = names[name_at:name_at + name_index[number]].decode("utf-8")
        characters = "".join(chr(rune) for rune in runes[rune_at:rune_at + rune_index[number]])
        table.append([name, characters, *short_names[short_at:short_at + short_index[number]]])
        name_at += name_index[number]
        rune_at += rune_index[number]
        short_at += short_index[number]
    if name_at != len(names) or rune_at != len(runes) or short_at != len(short_names):
        raise SystemExit("github.gen.go's index strings do not cover its data")
    return table


def kyokomi_code_map(source: str) -> dict[str, str]:
    """kyokomi/emoji's emojiCodeMap from emoji_codemap.go: ":name:" -> characters."""
    body = source.split("emojiCodeMap = map[string]string{", 1)[1].split("\n\t\t}", 1)[0]
    pair = re.compile(rf"^\s*{_GO_STRING.pattern}:\s*{_GO_STRING.pattern},\s*$")
    table: dict[str, str] = {}
    for line in body.splitlines():
        if not line.strip():
            continue
        match = pair.match(line)
        if match is None:
            raise SystemExit(f"emoji_codemap.go: cannot read {line!r}")
        table[go_string(match.group(1)).decode("utf-8")] = go_string(match.group(2)).decode("utf-8")
    return table


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text.replace("],[", "],\n[") + "\n" if isinstance(data, list) else
                    text.replace(',"', ',\n"') + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    """Read both libraries at their pinned tags and write the tables and licences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goldmark-emoji", type=Path, required=True, help="a git repository of yuin/goldmark-emoji")
    parser.add_argument("--kyokomi-emoji", type=Path, required=True, help="a git repository of kyokomi/emoji")
    options = parser.parse_args(argv)
    goldmark_tag = f"v{GOLDMARK_EMOJI_VERSION}"
    kyokomi_tag = f"v{KYOKOMI_EMOJI_VERSION}"
    github = goldmark_emoji_table(_show(options.goldmark_emoji, goldmark_tag, "definition/github.gen.go"))
    _write(GOLDMARK_EMOJI_DIR / "github.json", github)
    (GOLDMARK_EMOJI_DIR / "LICENSE").write_text(_show(options.goldmark_emoji, goldmark_tag, "LICENSE"), encoding="utf-8")
    code_map = kyokomi_code_map(_show(options.kyokomi_emoji, kyokomi_tag, "emoji_codemap.go"))
    _write(KYOKOMI_EMOJI_DIR / "codemap.json", code_map)
    (KYOKOMI_EMOJI_DIR / "LICENSE").write_text(_show(options.kyokomi_emoji, kyokomi_tag, "LICENSE"), encoding="utf-8")
    print(f"goldmark-emoji {GOLDMARK_EMOJI_VERSION}: {len(github)} emoji; "
          f"kyokomi/emoji {KYOKOMI_EMOJI_VERSION}: {len(code_map)} codes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
