"""Highlight every fenced code block of the markdown under FOLDER with blogbuild's Chroma port (as a Hugo site its
own layouts gets it) and with Pygments (the default theme's), and print each one's process CPU seconds: a first
pass (lexers compiled on first use) and a second (warm; Chroma's kept tokens cleared, so it lexes again).
It prints and asserts nothing else.

    python bench/bench_highlight.py FOLDER
"""
from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from blogbuild.markdown import code as pygments_code  # noqa: E402  (bench/ is a folder of scripts)
from blogbuild.markdown.chroma import hugo as chroma  # noqa: E402

_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)


def main() -> None:
    blocks = [found for path in sorted(Path(sys.argv[1]).rglob("*.md"))
              for found in _FENCE.findall(path.read_text(encoding="utf-8", errors="replace"))]
    config = chroma.HighlightConfig(noclasses=False)
    figures = []
    for run in ("first", "warm"):
        chroma._lexed.cache_clear()
        start = time.process_time()
        for language, text in blocks:
            chroma.highlight(text, language, config)
        figures.append(f"chroma {run} {time.process_time() - start:.2f} s")
    for run in ("first", "warm"):
        pygments_code._highlight.cache_clear()
        start = time.process_time()
        for language, text in blocks:
            if language:
                pygments_code._highlight(language.lower(), text)
        figures.append(f"pygments {run} {time.process_time() - start:.2f} s")
    print(f"{len(blocks)} blocks: " + ", ".join(figures))


if __name__ == "__main__":
    main()
