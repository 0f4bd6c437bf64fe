"""The `images:` options: which sizes of a post's local images are made, and how they are shown."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import SourceError
from ..core.records import dataclass


@dataclass(frozen=True)
class ImageOptions:
    """The images: block of the config."""

    enabled: bool = True
    widths: tuple[int, ...] = (480, 960, 1600)     # variant widths; only those below the original are made
    webp: bool = True
    quality: int = 82
    sizes: str = "(max-width: 46rem) 100vw, 46rem"  # the theme's column (--width) or the whole phone screen


def parse_image_options(value: Any, fail: Callable[[str], SourceError]) -> ImageOptions:
    """The images: block (or false) as ImageOptions; errors name the setting."""
    if value is False:
        return ImageOptions(enabled=False)
    if value in (None, True):
        return ImageOptions()
    if not isinstance(value, Mapping):
        raise fail("images must be false or a mapping {widths, webp, quality, sizes}")
    unknown = sorted(str(key) for key in value if key not in ("widths", "webp", "quality", "sizes"))
    if unknown:
        raise fail(f"images: unknown setting {unknown[0]!r}; known ones are widths, webp, quality, sizes")
    options = ImageOptions()
    widths = value.get("widths", list(options.widths))
    if not isinstance(widths, list) or not widths or not all(
            isinstance(width, int) and not isinstance(width, bool) and 16 <= width <= 10000 for width in widths):
        raise fail(f"images.widths must be a list of widths in pixels (16-10000), not {widths!r}")
    webp = value.get("webp", options.webp)
    quality = value.get("quality", options.quality)
    sizes = value.get("sizes", options.sizes)
    if not isinstance(webp, bool):
        raise fail(f"images.webp must be true or false, not {webp!r}")
    if not isinstance(quality, int) or isinstance(quality, bool) or not 1 <= quality <= 100:
        raise fail(f"images.quality must be a whole number from 1 to 100, not {quality!r}")
    if not isinstance(sizes, str) or not sizes.strip():
        raise fail(f"images.sizes must be a sizes attribute value, not {sizes!r}")
    return ImageOptions(True, tuple(sorted(set(widths))), webp, quality, sizes.strip())
