"""Hugo's image filters (`images.Grayscale`, `images.Text`, …) for `images.Filter` and an image's `.Filter`, drawn
with Pillow.

Hugo draws them with the gift library and Go's fonts; the pixels here are Pillow's, made by the same rule where
the rule is simple (a brightness or contrast percentage, gamma, an inverse, a sepia or grayscale, an opacity) and by
Pillow's nearest equivalent where it is not (a Gaussian blur of the same sigma, a saturation, a hue shift). What
decides a page's look is the same: the filters a template asks for, in its order, on an image of the same size,
published beside the image. `images.Text` writes text with the font the template gives (a TrueType resource) or
Pillow's own (Hugo's is Go Regular), at the size, colour, position, alignment and line spacing Hugo reads, wrapping
lines at the image's width as Hugo wraps them.
"""
from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

NAMES = ("autoorient", "brightness", "contrast", "gamma", "gaussianblur", "grayscale", "hue", "invert", "opacity",
         "overlay", "padding", "pixelate", "saturation", "sepia", "text")


@dataclass(frozen=True)
class ImageFilter:
    """One filter: its name, its arguments (what keys the processed image) and, for text and overlay, the bytes
    of the font or image it draws (not compared: the arguments name it)."""

    name: str
    args: tuple[Any, ...] = ()
    data: Callable[[], bytes] | None = field(default=None, compare=False, hash=False)

    def describe(self) -> str:
        return self.name + ("(" + ", ".join(repr(arg) for arg in self.args) + ")" if self.args else "")


def _channels(picture: Any, table: Callable[[int], float]) -> Any:
    """The picture with each colour channel (not alpha) mapped through table, clamped to 0..255."""
    lookup = [max(0, min(255, round(table(value)))) for value in range(256)]
    picture = picture.convert("RGBA")
    red, green, blue, alpha = picture.split()
    from PIL import Image
    return Image.merge("RGBA", (red.point(lookup), green.point(lookup), blue.point(lookup), alpha))


def _with_alpha(picture: Any, make: Callable[[Any], Any]) -> Any:
    """make() of the picture's colours (RGB), its alpha kept."""
    picture = picture.convert("RGBA")
    alpha = picture.getchannel("A")
    made = make(picture.convert("RGB")).convert("RGBA")
    made.putalpha(alpha)
    return made


def apply_filter(picture: Any, item: ImageFilter) -> Any:
    """The picture (a Pillow image) with one filter applied."""
    from PIL import Image, ImageEnhance, ImageFilter as PillowFilter, ImageOps
    name, args = item.name, item.args
    if name == "autoorient":
        return ImageOps.exif_transpose(picture)
    if name == "brightness":   # -100..100: the percentage of white added or taken
        return _channels(picture, lambda value: value + 255 * args[0] / 100)
    if name == "contrast":     # -100..100: the distance from middle grey scaled
        return _channels(picture, lambda value: (value / 255 - 0.5) * (1 + args[0] / 100) * 255 + 127.5)
    if name == "gamma":
        return _channels(picture, lambda value: 255 * (value / 255) ** (1 / args[0]) if args[0] > 0 else value)
    if name == "invert":
        return _channels(picture, lambda value: 255 - value)
    if name == "grayscale":
        return _with_alpha(picture, lambda rgb: ImageOps.grayscale(rgb).convert("RGB"))
    if name == "sepia":
        return _with_alpha(picture, lambda rgb: Image.blend(rgb, ImageOps.colorize(ImageOps.grayscale(rgb), "#000000",
                                                                                    "#fff0c8"), args[0] / 100))
    if name == "saturation":
        return _with_alpha(picture, lambda rgb: ImageEnhance.Color(rgb).enhance(max(0.0, 1 + args[0] / 100)))
    if name == "gaussianblur":
        return picture.filter(PillowFilter.GaussianBlur(args[0]))
    if name == "pixelate":
        size = max(1, int(args[0]))
        small = picture.resize((max(1, picture.width // size), max(1, picture.height // size)), Image.Resampling.BOX)
        return small.resize(picture.size, Image.Resampling.NEAREST)
    if name == "hue":
        return _with_alpha(picture, lambda rgb: _hue_shifted(rgb, args[0]))
    if name == "opacity":
        picture = picture.convert("RGBA")
        picture.putalpha(picture.getchannel("A").point(lambda value: round(value * max(0.0, min(1.0, args[0])))))
        return picture
    if name == "overlay":
        assert item.data is not None
        with Image.open(io.BytesIO(item.data())) as opened:
            top = opened.convert("RGBA")
        picture = picture.convert("RGBA")
        picture.alpha_composite(top, (int(args[0]), int(args[1])))
        return picture
    if name == "text":
        return _text(picture, item)
    if name == "padding":   # top, right, bottom, left, the canvas colour; the picture drawn over the canvas
        top, right, bottom, left, color = args
        canvas = Image.new("RGBA", (picture.width + left + right, picture.height + top + bottom), color)
        canvas.alpha_composite(picture.convert("RGBA"), (left, top))
        return canvas
    raise ValueError(name)


def _hue_shifted(rgb: Any, shift: float) -> Any:
    from PIL import Image
    hue, saturation, value = rgb.convert("HSV").split()
    turned = hue.point(lambda level: round(level + shift / 360 * 256) % 256)
    return Image.merge("HSV", (turned, saturation, value)).convert("RGB")


def _text(picture: Any, item: ImageFilter) -> Any:
    """Hugo's text filter: the text's lines, each wrapped where its next word would reach the width Hugo allows
    (the image's width less 20 pixels, less x, by alignment), drawn from (x, y + the font's ascent) down, a line's
    height the ascent plus the line spacing."""
    from PIL import ImageDraw, ImageFont
    text, color, size, x, y, align_x, align_y, spacing, _font = item.args
    font = (ImageFont.truetype(io.BytesIO(item.data()), size=max(1, round(size))) if item.data is not None
            else ImageFont.load_default(size=max(1, round(size))))
    picture = picture.convert("RGBA")
    draw = ImageDraw.Draw(picture)
    limit = picture.width - 20
    available = {"right": x, "center": min(limit - x, x) * 2}.get(align_x, limit - x)
    scalable = isinstance(font, ImageFont.FreeTypeFont)   # Pillow without FreeType has a bitmap font only
    ascent = font.getmetrics()[0] if isinstance(font, ImageFont.FreeTypeFont) else round(font.getbbox("Ay")[3])
    lines: list[str] = []
    for line in str(text).replace("\r", "").split("\n"):
        current = ""
        for word in line.split():
            if round(draw.textlength(current, font=font)) + round(draw.textlength(word, font=font)) >= available:
                lines.append(current)
                current = ""
            current += word + " "
        lines.append(current)
    total = len(lines) * ascent + (len(lines) - 1) * spacing
    top = y + ascent - {"center": total // 2, "bottom": total}.get(align_y, 0)
    for line in lines:
        line = line.strip()
        width = round(draw.textlength(line, font=font))
        left = {"right": x - width, "center": x - width // 2}.get(align_x, x)
        if scalable:
            draw.text((left, top), line, fill=color, font=font, anchor="ls")   # from the baseline, as Go draws
        else:
            draw.text((left, top - ascent), line, fill=color, font=font)
        top += ascent + spacing
    return picture
