"""An image's `.Colors`: its dominant colours as Hugo finds them (the image's pixels, sampled on a grid of at
most about 224 x 224, put into the eight buckets of their high bits, each bucket's average, the largest
buckets first, those under 1% of the samples left out), with each pixel's colour as Go's decoders give it: a
JPEG's chroma at its stored resolution (no smoothing between samples) and Go's YCbCr to RGB arithmetic, so
the averages come out as Hugo's to the last digit."""
from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, cast

from .objects import GoObject

_DOWN_SIZE_TO = 224.0     # the grid of samples: about this many across and down
_SMALL_BUCKET = 0.01      # a bucket with this share of the samples or less is left out


class Color(GoObject):
    """One of Hugo's image colours: prints as `#rrggbb`; `.ColorHex`, `.Luminance`."""

    kind = "images.Color"

    def __init__(self, red: int, green: int, blue: int) -> None:
        self.rgb = (red, green, blue)
        self.ColorHex = "#%02x%02x%02x" % self.rgb

    def __str__(self) -> str:
        return self.ColorHex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Color) and other.rgb == self.rgb

    def __hash__(self) -> int:
        return hash(self.rgb)

    @property
    def Luminance(self) -> float:  # noqa: N802 - relative luminance (WCAG), as Hugo computes it
        def linear(value: int) -> float:
            channel = value / 255
            return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4
        red, green, blue = (linear(value) for value in self.rgb)
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _go_ycbcr(luma: int, blue: int, red: int) -> tuple[int, int, int]:
    """Go's color.YCbCr.RGBA(), each channel then taken to 8 bits as the extractor does."""
    scaled = luma * 0x10101
    out = []
    for value in (scaled + 91881 * (red - 128), scaled - 22554 * (blue - 128) - 46802 * (red - 128),
                  scaled + 116130 * (blue - 128)):
        out.append((value >> 8 if 0 <= value <= 0xFFFFFF else (0 if value < 0 else 0xFFFF)) >> 8)
    return out[0], out[1], out[2]


def _pixels(data: bytes) -> tuple[int, int, Callable[[int, int], tuple[int, int, int, int]]]:
    """(width, height, the colour at x, y as 8-bit premultiplied RGBA, as Go's image.At(x, y).RGBA() >> 8)."""
    from PIL import Image, JpegImagePlugin
    image = Image.open(io.BytesIO(data))
    width, height = image.size
    if image.format == "JPEG" and image.mode == "RGB":
        image.draft("YCbCr", image.size)
        full = cast(Any, image.convert("YCbCr").load())
        if JpegImagePlugin.get_sampling(image) == 2 and width > 1 and height > 1:   # 4:2:0: chroma at half size
            half = Image.open(io.BytesIO(data))
            half.draft("YCbCr", (width // 2, height // 2))
            chroma = cast(Any, half.convert("YCbCr").load()) if half.size != image.size else None
        else:
            chroma = None

        def ycbcr(x: int, y: int) -> tuple[int, int, int, int]:
            luma, blue, red = full[x, y]
            if chroma is not None:
                _, blue, red = chroma[x // 2, y // 2]
            return (*_go_ycbcr(luma, blue, red), 255)
        return width, height, ycbcr
    rgba = cast(Any, image.convert("RGBA").load())

    def premultiplied(x: int, y: int) -> tuple[int, int, int, int]:
        red, green, blue, alpha = rgba[x, y]
        if alpha == 255:
            return red, green, blue, alpha
        return (*(((value * 0x101) * (alpha * 0x101) // 0xFFFF) >> 8 for value in (red, green, blue)), alpha)
    return width, height, premultiplied


def dominant_colors(data: bytes) -> list[Color]:
    """The image's dominant colours, the most common first, as Hugo's `.Colors` gives them."""
    width, height, pixel = _pixels(data)
    step_x, step_y = max(int(width / _DOWN_SIZE_TO), 1), max(int(height / _DOWN_SIZE_TO), 1)
    buckets: dict[tuple[int, int, int], list[float]] = {}
    total = 0.0
    for x in range(0, width, step_x):
        for y in range(0, height, step_y):
            red, green, blue, alpha = pixel(x, y)
            if alpha == 0:
                continue
            factor = alpha / 255
            bucket = buckets.setdefault((red >> 7, green >> 7, blue >> 7), [0.0, 0.0, 0.0, 0.0])
            bucket[0] += red * factor
            bucket[1] += green * factor
            bucket[2] += blue * factor
            bucket[3] += factor
            total += factor
    averages = [(count, red / count, green / count, blue / count)
                for _, (red, green, blue, count) in sorted(buckets.items())]
    averages.sort(key=lambda average: -average[0])   # stable: equal buckets keep their order, as in Go
    return [Color(*(int(_round_half_away(value)) for value in average[1:])) for average in averages
            if average[0] / total > _SMALL_BUCKET]


def _round_half_away(value: float) -> float:
    """Go's math.Round: halves away from zero (Python's round() takes them to even)."""
    return float(int(value + 0.5)) if value >= 0 else -float(int(-value + 0.5))


def colors_of(data: Callable[[], bytes], what: str) -> list[Any]:
    """`.Colors` of a raster image's bytes; a file Pillow cannot read is a HugoFunctionError naming it."""
    from PIL import UnidentifiedImageError

    from .objects import HugoFunctionError
    try:
        return list(dominant_colors(data()))
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise HugoFunctionError(f"{what}: .Colors: not an image Pillow reads ({error})") from None
