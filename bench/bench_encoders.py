"""The images stage's encoder settings, measured: ms and bytes per variant for each setting, on the images given.

Each image is turned by its EXIF orientation and resized to --width with Lanczos as the images stage does, then
encoded with each setting (best of --runs, this process's CPU time); the table gives the mean ms and kB per
image. It prints and asserts nothing.

    python bench/bench_encoders.py [--width 960] [--runs 3] IMAGE...
"""
from __future__ import annotations

import argparse
import io
import statistics
import time
from typing import Any

from PIL import Image, ImageOps

# (label, Pillow format, save options); the images stage's choice is marked in the table.
SETTINGS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    *((f"WebP method={method} quality=82", "WEBP", {"method": method, "quality": 82}) for method in range(7)),
    *((f"WebP method=2 quality={quality}", "WEBP", {"method": 2, "quality": quality}) for quality in (75, 90)),
    ("JPEG quality=82", "JPEG", {"quality": 82}),
    ("JPEG quality=82 optimize", "JPEG", {"quality": 82, "optimize": True}),
    ("JPEG quality=82 progressive", "JPEG", {"quality": 82, "progressive": True}),
    ("JPEG quality=82 optimize progressive", "JPEG", {"quality": 82, "optimize": True, "progressive": True}),
    ("PNG", "PNG", {}),
    ("PNG optimize", "PNG", {"optimize": True}),
)


def resized(path: str, width: int) -> Image.Image:
    with Image.open(path) as opened:
        image = ImageOps.exif_transpose(opened)
        image.load()
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
    if image.width > width:
        image = image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.LANCZOS)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("images", nargs="+")
    parser.add_argument("--width", type=int, default=960)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chosen", default="WebP method=2 quality=82,JPEG quality=82 optimize,PNG",
                        help="the settings the images stage uses, marked in the table")
    args = parser.parse_args()
    chosen = set(args.chosen.split(","))
    images = [(path, resized(path, args.width)) for path in args.images]
    print(f"{len(images)} images resized to {args.width} px wide (PNG rows: the PNG images only)\n")
    print("| setting | ms per image | kB per image |\n|---|---:|---:|")
    for label, image_format, options in SETTINGS:
        wanted = [image for path, image in images if (image_format == "PNG") == path.lower().endswith(".png")]
        if not wanted:
            continue
        times, sizes = [], []
        for image in wanted:
            if image_format == "JPEG" and image.mode != "RGB":
                image = image.convert("RGB")
            best = float("inf")
            for _ in range(args.runs):
                buffer = io.BytesIO()
                started = time.process_time()
                image.save(buffer, image_format, **options)
                best = min(best, time.process_time() - started)
            times.append(best * 1000)
            sizes.append(len(buffer.getvalue()) / 1000)
        mark = " (used)" if label in chosen else ""
        print(f"| {label}{mark} | {statistics.mean(times):.1f} | {statistics.mean(sizes):.1f} |")


if __name__ == "__main__":
    main()
