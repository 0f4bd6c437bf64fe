"""8-bit indexed PNG files written with zlib: what the social cards are published as.

A card is mostly background. Two things make it cheap to write. Rows are left unfiltered (filter type 0,
the right one for an indexed image; Pillow's encoder spends most of its time choosing filters) and
deflated with run-length matching only. And the rows the caller knows hold no ink, which are all alike
(the background and the accent bar), are not compressed again for every card: their deflate segment is
made once per count and spliced in, which deflate allows because every segment ends on a byte boundary and
no match reaches back out of its own segment.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

_ADLER_BASE = 65521
_FINAL_EMPTY_BLOCK = b"\x03\x00"    # a last, empty block (fixed Huffman codes)
_ZLIB_HEADER = b"\x78\x01"          # deflate, 32 kB window, no preset dictionary


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's checksum (zlib's adler32_combine)."""
    low = ((first & 0xFFFF) + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = ((first >> 16) + (second >> 16) + second_length * ((first & 0xFFFF) - 1)) % _ADLER_BASE
    return (high << 16) | low


def _deflated(data: bytes) -> bytes:
    """data as raw deflate blocks ending on a byte boundary, not final; a new compressor each time, so no
    match refers to bytes before data."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_RLE)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


@lru_cache(maxsize=256)
def _repeated(row: bytes, count: int) -> tuple[bytes, int]:
    """(deflated, Adler-32) of row repeated count times."""
    data = row * count
    return _deflated(data), zlib.adler32(data)


def _row_ranges(inked_rows: Sequence[tuple[int, int]] | None, height: int) -> list[tuple[int, int]]:
    """inked_rows clipped to the image, sorted and merged; every row when it is None."""
    if inked_rows is None:
        return [(0, height)]
    merged: list[tuple[int, int]] = []
    for top, bottom in sorted((max(0, top), min(height, bottom)) for top, bottom in inked_rows):
        if top >= bottom:
            continue
        if merged and top <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], bottom))
        else:
            merged.append((top, bottom))
    return merged


def encode(image: Any, inked_rows: Sequence[tuple[int, int]] | None = None) -> bytes:
    """A "P" image (PIL) as a PNG file. inked_rows: (top, bottom) row ranges, bottom excluded, outside of
    which every row is the same as every other (None: every row is read)."""
    width, height = image.size
    segments: list[bytes] = []
    checksum = 1       # the Adler-32 of nothing
    blank_row = b""
    row = 0
    for top, bottom in [*_row_ranges(inked_rows, height), (height, height)]:
        if row < top:
            if not blank_row:
                blank_row = b"\0" + image.crop((0, row, width, row + 1)).tobytes()
            deflated, adler = _repeated(blank_row, top - row)
            segments.append(deflated)
            checksum = adler32_combine(checksum, adler, len(blank_row) * (top - row))
        if top < bottom:
            raw = image.crop((0, top, width, bottom)).tobytes()
            rows = b"".join(b"\0" + raw[offset:offset + width] for offset in range(0, len(raw), width))
            segments.append(_deflated(rows))
            checksum = adler32_combine(checksum, zlib.adler32(rows), len(rows))
        row = bottom
    stream = b"".join((_ZLIB_HEADER, *segments, _FINAL_EMPTY_BLOCK, struct.pack(">I", checksum)))
    palette = bytes((image.getpalette() or [])[:768])
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
