"""The social cards' PNG writer: files that decode to the image given, rows spliced from a cached segment
included, and a checksum that combines as zlib's does."""
from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image, ImageChops, ImageDraw

from blogbuild.media.indexed_png import adler32_combine, encode


def test_adler32_combine_is_the_checksum_of_the_joined_bytes():
    generator = random.Random(7)
    for _ in range(200):
        first = bytes(generator.randrange(256) for _ in range(generator.randrange(0, 300)))
        second = bytes(generator.randrange(256) for _ in range(generator.randrange(0, 70000, 7)))
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def picture(seed: int) -> tuple[Image.Image, list[tuple[int, int]]]:
    """A palette image with a bar down its left edge on every row and random blocks of ink in some bands."""
    generator = random.Random(seed)
    image = Image.new("P", (301, 157), 0)
    image.putpalette(bytes(generator.randrange(256) for _ in range(768)))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 6, 156), fill=255)
    bands = []
    for _ in range(generator.randrange(0, 5)):
        top = generator.randrange(0, 150)
        bottom = min(157, top + generator.randrange(1, 30))
        for _ in range(20):
            left = generator.randrange(7, 290)
            draw.rectangle((left, top, left + generator.randrange(0, 10), bottom - 1), fill=generator.randrange(256))
        bands.append((top, bottom))
    return image, bands


@pytest.mark.parametrize("seed", range(12))
def test_the_file_decodes_to_the_image(seed):
    image, bands = picture(seed)
    for rows in (bands, None, [(-5, 3), *bands, (150, 400)]):
        with Image.open(io.BytesIO(encode(image, rows))) as decoded:
            decoded.load()
            assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == image.size
            assert decoded.getpalette() == image.getpalette()
            assert ImageChops.difference(decoded.convert("RGB"), image.convert("RGB")).getbbox() is None


def test_rows_left_out_of_the_bands_come_out_as_the_blank_row():
    """The contract: outside the bands every row is taken to be the first blank one (ink there is lost)."""
    image, _ = picture(3)
    ImageDraw.Draw(image).rectangle((100, 100, 120, 110), fill=9)
    with Image.open(io.BytesIO(encode(image, [(0, 0)]))) as decoded:
        assert decoded.crop((100, 100, 121, 111)).getcolors() == [(21 * 11, 0)]
