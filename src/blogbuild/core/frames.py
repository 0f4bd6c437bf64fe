"""Numbered frames through a pipe, from a forked child to the process that forked it: a frame is its number, its
payload's length and the payload (bytes the child made: marshalled code, pickled results). The reader takes the
frames that arrived whole; a frame cut short (its writer died in the middle of it) ends the reading, as the pipe's
end does."""
from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from typing import BinaryIO

_HEADER = struct.Struct("<IQ")   # the frame's number, the length of its payload


def write_frame(pipe: BinaryIO, number: int, payload: bytes) -> None:
    """One frame, flushed: the reader can take it at once."""
    pipe.write(_HEADER.pack(number, len(payload)) + payload)
    pipe.flush()


def read_frames(read_end: int) -> Iterator[tuple[int, bytes]]:
    """(number, payload) of each whole frame the pipe brings, until it ends or a frame is cut short; the pipe's
    read end is closed when the reading stops."""
    with os.fdopen(read_end, "rb") as pipe:
        while True:
            header = pipe.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return
            number, length = _HEADER.unpack(header)
            payload = pipe.read(length)
            if len(payload) < length:
                return
            yield number, payload
