"""The command line of a script that writes a file the package ships, made from files of the repository
(compile_theme.py, index_chroma_lexers.py): write it, or with --check say whether it is what would be written."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def run(description: str, target: Path, make: Callable[[], bytes], script: str,
        same: Callable[[bytes, bytes], bool] = bytes.__eq__) -> int:
    """Parse the command line; write target with make()'s bytes, or with --check exit 1 when target's bytes are
    not the same (by same) as make()'s."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when the file is not up to date")
    args = parser.parse_args()
    data = make()
    if args.check:
        up_to_date = target.exists() and same(target.read_bytes(), data)
        print("up to date" if up_to_date else f"{target} is out of date: run scripts/{script}")
        return 0 if up_to_date else 1
    target.write_bytes(data)
    print(f"wrote {target} ({len(data)} bytes)")
    return 0
