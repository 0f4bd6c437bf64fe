"""Hugo's image filters (hugo/gotemplate/image_filters.py) through a site's own layouts: tests/hugo_sites/image_filters
filters an asset with images.Grayscale, Brightness, Contrast, Padding (CSS's shorthand and a colour), Invert, Sepia,
Saturation, Gamma, GaussianBlur, Hue, Pixelate, Opacity, Text and Overlay, publishes a processed image again at a
path of its own with resources.Copy, and links a stylesheet through resources.PostProcess. Built by the hugo binary
and by blogbuild: every page the same DOM but for the processed images' hashes (blogbuild's are its own), so each
image has Hugo's size (Padding's margins added) and the copy Hugo's path. The pixels are Pillow's, not gift's: what
each filter did is checked on blogbuild's own images."""
from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image
from support.dom import dom_tokens
from support.hugo_build import built_by_both

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "image_filters"
_HASH = re.compile(r"_hu_[0-9a-f]{16}\.")
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


def _images(page: str) -> dict[str, str]:
    return dict(re.findall(r'<img class="(\w+)" src="/([^"]+)"', page))


def test_filtered_images_have_hugos_sizes_and_paths(tmp_path: Path) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path)
    assert not [warning for warning in warnings if "default theme" in str(warning) or "not supported" in str(warning)]
    for path in sorted(path for path in hugo if path.endswith(".html")):
        assert dom_tokens(_HASH.sub("_hu_.", ours[path].decode()), drop=_GENERATOR) == \
            dom_tokens(_HASH.sub("_hu_.", hugo[path].decode()), drop=_GENERATOR), path
    page = ours["posts/a/index.html"].decode()
    images = {name: Image.open(io.BytesIO(ours[path])).convert("RGBA") for name, path in _images(page).items()}
    base = Image.open(FIXTURE / "assets/images/base.png").convert("RGBA")
    red, green, blue, _ = images["gray"].getpixel((30, 30))
    assert red == green == blue and red > 0   # grayscale, then brightness and contrast on every channel alike
    padded = images["padded"]
    assert padded.size == (140, 90) and padded.getpixel((0, 0))[:3] == (255, 0, 0)   # 5 above and below, 10 beside
    assert padded.getpixel((10, 5)) == images["gray"].getpixel((0, 0))
    assert images["four"].size == (126, 84) and images["four"].getpixel((60, 40))[3] < 255   # opacity 0.8
    written = [images["text"].getpixel((x, y)) for x in range(8, 60) for y in range(8, 26)]
    assert (255, 255, 255, 255) in written and (255, 255, 255, 255) not in [base.getpixel((x, y)) for x in range(base.width) for y in range(base.height)]   # the title, in white
    assert images["overlay"].getpixel((95, 55)) != base.getpixel((95, 55))   # the 20 px copy drawn at (90, 50)
    assert ours["posts/a/og.png"] == ours[_images(page)["padded"]]   # resources.Copy: the same bytes, another path
