"""Record Hugo's heading ids for tests/fixtures/headings/headings.txt: python tests/support/record_heading_ids.py."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.hugo_oracle import HEADING_ID_VARIANTS, hugo_heading_ids, hugo_version  # noqa: E402

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "headings"


def read_headings() -> list[str]:
    """The heading texts of headings.txt, comments and blank lines left out."""
    lines = (FOLDER / "headings.txt").read_text(encoding="utf-8").split("\n")
    return [line for line in lines if line and not line.startswith("# ")]


def main() -> int:
    """Write headings.expected.tsv: the heading, then Hugo's id under each variant's settings."""
    headings = read_headings()
    columns = {name: hugo_heading_ids(headings, markup) for name, markup in HEADING_ID_VARIANTS.items()}
    rows = ["\t".join(["heading", *columns])]
    for index, heading in enumerate(headings):
        rows.append("\t".join([heading.replace("\t", "\\t"), *(columns[name][index] for name in columns)]))
    header = f"# Recorded from {hugo_version()} by tests/support/record_heading_ids.py; do not edit by hand.\n"
    (FOLDER / "headings.expected.tsv").write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
