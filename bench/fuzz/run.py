"""Run one atheris fuzz target for a set time; crashes land in bench/fuzz/crashes/TARGET/ as regression cases.

    python bench/fuzz/run.py header --seconds 60
    python bench/fuzz/run.py importer --seconds 300
    python bench/fuzz/run.py mermaid --seconds 60

Seeds come from bench/fuzz/seeds/TARGET/ (and, for the importer, the corpus dumps when present). Each crash
file is replayed by tests/test_hostile.py::test_fuzz_crashes_stay_fixed; commit it with the fix."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> int:
    """Parse the target and the time budget, then hand over to libFuzzer."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", choices=["header", "importer", "mermaid"])
    parser.add_argument("--seconds", type=int, default=60, help="total fuzzing time (default 60)")
    parser.add_argument("--max-len", type=int, default=4096, help="largest input in bytes (default 4096)")
    options = parser.parse_args()

    import atheris
    # Coverage guidance needs blogbuild's own modules instrumented, so import them inside this block.
    with atheris.instrument_imports(include=["blogbuild"]):
        import blogbuild.disk.frontmatter  # noqa: F401
        import blogbuild.importer  # noqa: F401
        import blogbuild.importer.dump  # noqa: F401
        import blogbuild.importer.mermaid  # noqa: F401
    import harnesses
    check = harnesses.TARGETS[options.target]
    crashes = HERE / "crashes" / options.target
    crashes.mkdir(parents=True, exist_ok=True)
    # libFuzzer grows its working corpus in the first folder: keep that in a temp folder, seeds stay clean.
    working = Path(tempfile.mkdtemp(prefix=f"fuzz-{options.target}-"))
    seeds = [str(folder) for folder in (HERE / "seeds" / options.target,) if folder.is_dir()]
    arguments = [sys.argv[0], str(working), *seeds, f"-max_total_time={options.seconds}",
                 f"-max_len={options.max_len}", f"-artifact_prefix={crashes}/", "-print_final_stats=1"]
    print(f"fuzzing {options.target} for {options.seconds} s; working corpus {working}", file=sys.stderr)
    atheris.Setup(arguments, check)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
