"""CPU time per social card (draw, PNG encode, file write) over the synthetic corpus' titles and two fixed sets.

    python bench/bench_cards.py --n 1000

One process, no pools, time.process_time(), caches as cold as a build's (a new process, a new cache
folder). "synth" is the corpus' posts as a build draws them (Chinese and mixed titles, series parts, the
site's name, dates); "latin" and "mixed" are 100 long English titles and 100 Chinese titles with Latin
words. The file write is the card cache's (a temporary file renamed): it depends on the disk and its load.
A figure, not a test: results are written into docs/performance.md by hand.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # noqa: E402  (bench/ is not a package)

from blogbuild.media import indexed_png  # noqa: E402
from blogbuild.config.cards import CardOptions  # noqa: E402
from blogbuild.media.card_paths import series_line  # noqa: E402
from blogbuild.media.cards import CardMaker, CardText, draw_card  # noqa: E402

SITE = "Synthetic AI Infra Blog"


def synth_texts(n: int, seed: int) -> list[CardText]:
    """The cards a build of the corpus draws: title, series part of the total, site title, date."""
    posts = synth.generate(n=n, seed=seed)
    totals = Counter(post.series for post in posts if post.series)
    return [CardText(post.title, series_line(post.series, post.series_order or 1, totals[post.series], "zh-CN")
                     if post.series else "", SITE, post.date[:10]) for post in posts]


def fixed_texts() -> dict[str, list[CardText]]:
    """Long English titles, and Chinese titles with Latin words in them."""
    latin = [CardText(f"Understanding paged attention, part {index}: large language model serving systems and "
                      "the memory they wait on", f"Serving · Part {index} of 100", "Test Blog", "2025-01-01")
             for index in range(100)]
    mixed = [CardText(f"vLLM 的 PagedAttention 第 {index} 讲：KV cache 分页管理与显存碎片", "推理系列 · 第 2 篇，共 5 篇",
                      "AI 基础设施笔记", "2025-03-02") for index in range(100)]
    return {"latin": latin, "mixed": mixed}


def measure(texts: list[CardText], folder: Path) -> tuple[float, float, float]:
    """(draw, encode, write) CPU seconds over texts."""
    maker = CardMaker(CardOptions(), "zh-CN", str(folder), folder / "cards")
    (folder / "cards").mkdir(parents=True, exist_ok=True)
    draw_seconds = encode_seconds = write_seconds = 0.0
    for number, text in enumerate(texts):
        started = time.process_time()
        card = draw_card(text, maker.options, maker.title_faces, maker.body_faces)
        drawn = time.process_time()
        data = indexed_png.encode(card.image, card.inked_rows)
        encoded = time.process_time()
        temporary = folder / "cards" / f".{number}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, folder / "cards" / f"{number:08d}.png")
        written = time.process_time()
        draw_seconds += drawn - started
        encode_seconds += encoded - drawn
        write_seconds += written - encoded
    return draw_seconds, encode_seconds, write_seconds


def main(argv: list[str] | None = None) -> int:
    """Print milliseconds of CPU per card for each set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    sets = {"synth": synth_texts(options.n, options.seed), **fixed_texts()}
    started = time.process_time()
    CardMaker(CardOptions(), "zh-CN", ".", Path("cards"))    # the fonts' cmaps, read once per build
    print(f"fonts: {(time.process_time() - started) * 1000:.0f} ms once per build")
    for name, texts in sets.items():
        with tempfile.TemporaryDirectory() as folder:
            draw_seconds, encode_seconds, write_seconds = measure(texts, Path(folder))
            size = sum(path.stat().st_size for path in (Path(folder) / "cards").glob("*.png")) / len(texts)
        per_card = [seconds / len(texts) * 1000 for seconds in (draw_seconds, encode_seconds, write_seconds)]
        print(f"{name}: {len(texts)} cards, ms CPU per card: draw {per_card[0]:.2f}, encode {per_card[1]:.2f}, "
              f"write {per_card[2]:.2f}, total {sum(per_card):.2f}; {size / 1000:.1f} kB per card")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
