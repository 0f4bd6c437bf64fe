"""Make an image-heavy Hugo blog from photos you have: POSTS page bundles, each showing IMAGES pictures.

Each picture is a different crop of one of the photos (JPEG and PNG found below the SOURCE folders, at least
400 px on each side), scaled to a width drawn from the widths blogs show (320 to 2400 px) and saved in the
photo's format, so no two pictures share bytes and a cache cannot take one for another. The site's theme is
PaperMod, copied from --theme (a checkout of adityatelange/hugo-PaperMod). Seeded: the same sources give
the same blog.

    python bench/make_image_blog.py --out /tmp/blogs/photos --theme /tmp/PaperMod SOURCE...
"""
from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

from PIL import Image

WIDTHS = (320, 600, 700, 900, 1200, 1400, 1600, 1920, 2400)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", type=Path, metavar="SOURCE")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--theme", type=Path, required=True, help="the PaperMod theme folder")
    parser.add_argument("--posts", type=int, default=100)
    parser.add_argument("--images", type=int, default=7, help="pictures per post")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chance = random.Random(args.seed)
    photos = sorted(path for folder in args.sources for path in folder.rglob("*")
                    if path.suffix.lower() in (".jpg", ".jpeg", ".png"))
    opened = {path: image.convert("RGB") for path in photos if min((image := Image.open(path)).size) >= 400}
    if not opened:
        parser.error("no JPEG or PNG photo of at least 400 x 400 px below the sources")
    (args.out / "themes").mkdir(parents=True, exist_ok=True)
    if not (args.out / "themes" / "PaperMod").exists():   # a copy: a build reads nothing linked from outside the site
        shutil.copytree(args.theme, args.out / "themes" / "PaperMod", ignore=shutil.ignore_patterns(".git"))
    (args.out / "hugo.yaml").write_text("baseURL: https://example.org/\ntitle: Photos\ntheme: PaperMod\n"
                                        "languageCode: en\n", encoding="utf-8")
    for number in range(args.posts):
        folder = args.out / "content" / "posts" / f"post-{number:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        body = [f"---\ntitle: Post {number}\ndate: 2024-01-{number % 28 + 1:02d}\ntags: [t{number % 5}]\n---\n"]
        for index in range(args.images):
            path = chance.choice(sorted(opened))
            image = opened[path]
            width, height = image.size
            crop_width, crop_height = chance.randint(width // 2, width), chance.randint(height // 2, height)
            left, top = chance.randint(0, width - crop_width), chance.randint(0, height - crop_height)
            picture = image.crop((left, top, left + crop_width, top + crop_height))
            target = chance.choice(WIDTHS)
            if target < crop_width:
                picture = picture.resize((target, max(1, round(crop_height * target / crop_width))))
            png = path.suffix.lower() == ".png"
            name = f"img{index}.{'png' if png else 'jpg'}"
            picture.save(folder / name, "PNG" if png else "JPEG", quality=88)
            body.append(f"Paragraph {index} of post {number}, some words about the picture.\n\n![picture {index}]({name})\n")
        (folder / "index.md").write_text("\n".join(body), encoding="utf-8")


if __name__ == "__main__":
    main()
