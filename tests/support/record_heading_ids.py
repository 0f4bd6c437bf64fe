"""Record Hugo's heading ids and links for the fixtures: python tests/support/record_heading_ids.py.

headings/headings.expected.tsv: Hugo's id of each heading of headings/headings.txt per variant;
combinations/expected.jsonl: the heading ids and links Hugo makes of each snippet of combinations/
under every combination of typographer, linkify, attribute and autoHeadingIDType.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.hugo_oracle import (  # noqa: E402
    HEADING_ID_VARIANTS,
    MARKUP_COMBINATIONS,
    hugo_heading_ids,
    hugo_version,
    ids_and_links,
    render_with_hugo,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FOLDER = FIXTURES / "headings"
COMBINATIONS = FIXTURES / "combinations"

# Hugo's answer for one snippet: (heading ids, links as (href, text)).
Answer = tuple[list[str], list[tuple[str, str]]]


def _lines(path: Path) -> list[str]:
    """The lines of a fixture list, comments ('# ...') and blank lines left out."""
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line and not line.startswith("# ")]


def read_headings() -> list[str]:
    """The heading texts of headings.txt, comments and blank lines left out."""
    return _lines(FOLDER / "headings.txt")


def combination_snippets() -> list[str]:
    """The markdown of every snippet of combinations/: each heading after '## ', each paragraph ('\\n' a newline)."""
    headings = [f"## {heading}\n" for heading in _lines(COMBINATIONS / "headings.txt")]
    paragraphs = [paragraph.replace("\\n", "\n") + "\n" for paragraph in _lines(COMBINATIONS / "paragraphs.txt")]
    return headings + paragraphs


def hugo_answers(snippets: list[str], markup: dict[str, Any]) -> list[Answer]:
    """Hugo's heading ids and links of each snippet, all in one site build."""
    return [ids_and_links(page.content) for page in render_with_hugo(snippets, markup)]


def read_combination_answers() -> dict[str, dict[str, Answer]]:
    """{snippet: {combination name: Hugo's answer}} from combinations/expected.jsonl."""
    lines = (COMBINATIONS / "expected.jsonl").read_text(encoding="utf-8").split("\n")
    answers: dict[str, dict[str, Answer]] = {}
    for line in lines[1:]:
        if not line:
            continue
        row = json.loads(line)
        answers[row["source"]] = {name: (answer["ids"], [tuple(link) for link in answer["links"]])
                                  for answer in row["answers"] for name in answer["combinations"]}
    return answers


def _record_combinations() -> None:
    snippets = combination_snippets()
    columns = {combination.name: hugo_answers(snippets, combination.markup()) for combination in MARKUP_COMBINATIONS}
    lines = [json.dumps({"recorded_from": hugo_version(), "by": "tests/support/record_heading_ids.py",
                         "note": "one line per snippet; combinations with the same answer share it"})]
    for index, source in enumerate(snippets):
        grouped: dict[str, dict[str, Any]] = {}
        for name, answers in columns.items():
            ids, found = answers[index]
            key = json.dumps([ids, found], ensure_ascii=False)
            grouped.setdefault(key, {"combinations": [], "ids": ids, "links": found})["combinations"].append(name)
        lines.append(json.dumps({"source": source, "answers": list(grouped.values())}, ensure_ascii=False))
    (COMBINATIONS / "expected.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _record_headings() -> None:
    headings = read_headings()
    columns = {name: hugo_heading_ids(headings, markup) for name, markup in HEADING_ID_VARIANTS.items()}
    rows = ["\t".join(["heading", *columns])]
    for index, heading in enumerate(headings):
        rows.append("\t".join([heading.replace("\t", "\\t"), *(columns[name][index] for name in columns)]))
    header = f"# Recorded from {hugo_version()} by tests/support/record_heading_ids.py; do not edit by hand.\n"
    (FOLDER / "headings.expected.tsv").write_text(header + "\n".join(rows) + "\n", encoding="utf-8")


def main() -> int:
    """Write headings.expected.tsv and combinations/expected.jsonl from the installed Hugo."""
    _record_headings()
    _record_combinations()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
