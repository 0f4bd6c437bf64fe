"""cache_codec: the cache's records come back as they were written (types, values, shared objects), and
anything that is not a cache file of this version and kind is NotACacheFile, never code run."""
from __future__ import annotations

import os
import pickle
import re
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blogbuild.pipeline.state import CACHE_RECORDS, PublishedPage, RenderOutcome, SourceEntry
from blogbuild.disk.cache_codec import FORMAT, LONG_TEXT, NotACacheFile, UnstorableValue, dumps, loads
from blogbuild.core.errors import BlogbuildError, SourceError, SourceWarning
from blogbuild.core.model import OutputFile, Post, SourceFile, SourceMark, TocEntry, pack_html, pack_marks
from blogbuild.disk.sources import FoundFile


def shape(value: Any) -> Any:
    """value as nested tuples naming every type, so that equal shapes mean equal types and values (a
    SourceError has no __eq__; a tuple must not come back a list)."""
    if isinstance(value, SourceError):
        return ("SourceError", value.path, value.line, value.message, value.stage, value.location.column,
                value.source_line)
    if isinstance(value, BlogbuildError):
        return ("BlogbuildError", value.args)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, *(shape(item) for item in value))
    if hasattr(value, "__dataclass_fields__"):
        return (type(value).__name__, *(shape(getattr(value, name)) for name in value.__dataclass_fields__))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *(shape(item) for item in value))
    if isinstance(value, dict):
        return ("dict", *((shape(key), shape(item)) for key, item in value.items()))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, frozenset(shape(item) for item in value))
    if isinstance(value, (datetime, time)):
        return (type(value).__name__, value.isoformat(), value.tzname(), value.fold)
    return (type(value).__name__, value)


def round_trip(value: Any, kind: str = "posts") -> Any:
    return loads(dumps(value, kind, CACHE_RECORDS), kind, CACHE_RECORDS)


zones = st.sampled_from([None, timezone.utc, timezone(timedelta(hours=8)),
                         timezone(timedelta(hours=-5, minutes=-30), "Somewhere")])
# Short texts, and long ones (kept in the blob area), one character either side of the bound.
texts = st.one_of(st.text(max_size=12), st.text(min_size=LONG_TEXT - 1, max_size=LONG_TEXT + 1))
keys = st.one_of(texts, st.integers(), st.tuples(texts, st.integers()))
plain = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts, st.binary(max_size=12),
                  st.datetimes(timezones=zones), st.dates(), st.times(timezones=zones), st.timedeltas())
values = st.recursive(plain, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(keys, inner, max_size=4), st.frozensets(keys, max_size=4), st.sets(keys, max_size=4)),
    max_leaves=12)
strings = st.lists(texts, max_size=3).map(tuple)
warnings = st.builds(SourceWarning, texts, st.integers(0, 999), texts, st.integers(0, 99))
errors = st.one_of(st.builds(lambda path, line, message, stage: SourceError(path, line, message, stage=stage),
                             texts, st.integers(0, 999), texts, texts),
                   st.builds(BlogbuildError, texts))
marks = st.builds(SourceMark, st.sampled_from(["url", "math", "mermaid", "dollars"]), texts, st.integers(1, 99))
posts = st.builds(
    Post, source=texts, rel_path=texts, section=texts, slug=texts, url=texts, title=texts,
    date=st.none() | st.datetimes(timezones=zones), lastmod=st.none() | st.datetimes(timezones=zones),
    date_text=texts, draft=st.booleans(), tags=strings, categories=strings, series=strings,
    series_order=st.none() | st.integers(), description=texts, aliases=strings, math=st.booleans(),
    toc_enabled=st.booleans(), packed_html=texts.map(pack_html),
    toc=st.lists(st.builds(TocEntry, st.integers(1, 6), texts, texts), max_size=3).map(tuple),
    summary_html=texts, truncated=st.booleans(), plain_text=texts, word_count=st.integers(0, 10**6),
    reading_minutes=st.integers(0, 99), has_math=st.booleans(), has_mermaid=st.booleans(), has_code=st.booleans(),
    params=st.dictionaries(texts, values, max_size=4), packed_marks=st.lists(marks, max_size=3).map(pack_marks))
outcomes = st.builds(RenderOutcome, st.none() | posts, st.lists(warnings, max_size=2).map(tuple),
                     st.lists(errors, max_size=2).map(tuple))
sources = st.builds(SourceFile, texts, texts, texts, st.sampled_from(["page", "section"]), strings, st.booleans())
records = st.one_of(
    outcomes, sources, st.builds(FoundFile, texts, texts, st.integers(0), st.integers(0)),
    st.builds(SourceEntry, st.integers(0), st.integers(0), sources | errors),
    st.builds(PublishedPage, texts, st.integers(0), st.integers(0)),
    st.builds(OutputFile, texts, st.binary(max_size=12), texts, st.booleans(), st.booleans()))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(texts, st.one_of(records, values), max_size=6))
def test_every_record_and_value_comes_back_as_it_was_written(stored: dict) -> None:
    assert shape(round_trip(stored)) == shape(stored)


def test_an_object_held_twice_comes_back_as_one_object_and_references_resolve() -> None:
    post = Post("a.md", "a.md", "", "a", "/a/", "A", None, None, "", False, (), (), (), None, "", (), False,
                False, pack_html("<p>a</p>"), (), "", False, "", 0, 0, False, False, False)
    kept = Post(*[getattr(post, name) for name in post.__dataclass_fields__][:6], "Kept", None, None, "", False, (),
                (), (), None, "", (), False, False, b"", (), "", False, "", 0, 0, False, False, False)
    value = {"site": (post, post), "pages": [post], "kept": (kept, kept), "both": (post, kept, post), "one": kept}
    data = dumps(value, "state", CACHE_RECORDS, {id(kept): "fingerprint"})
    assert b'"T":' in data   # a tuple of objects already written, as numbers
    back = loads(data, "state", CACHE_RECORDS, {"fingerprint": kept}.__getitem__)
    assert back["site"][0] is back["site"][1] is back["pages"][0] is back["both"][0] is back["both"][2]
    assert back["kept"][0] is kept and back["kept"][1] is kept and back["both"][1] is kept and back["one"] is kept
    assert type(back["both"]) is tuple and len(back["both"]) == 3
    assert shape(back["site"][0]) == shape(post)


def test_text_that_is_not_valid_unicode_is_kept() -> None:
    assert round_trip(("\udcff lone surrogate", "中文 \x00 \"quotes\"")) == ("\udcff lone surrogate", "中文 \x00 \"quotes\"")
    long = "中文 \x00 \"quotes\"\n\udcff" * LONG_TEXT
    assert round_trip((long, long[:LONG_TEXT])) == (long, long[:LONG_TEXT])


def test_a_long_text_is_kept_in_the_blob_area_once() -> None:
    """A post's plain text and summaries are read as UTF-8 from the blob area, not scanned as JSON strings; a
    text held twice is written once and comes back as one object."""
    long = "A paragraph of a post's plain text, \"quoted\",\nwith 中文. " * 8
    data = dumps({"text": long, "again": long, "short": long[:LONG_TEXT - 1]}, "posts", CACHE_RECORDS)
    assert data.count(long.encode("utf-8")) == 1 and b'{"u":' in data
    back = loads(data, "posts", CACHE_RECORDS)
    assert back["text"] == long and back["again"] is back["text"] and back["short"] == long[:LONG_TEXT - 1]


def test_a_type_outside_the_allow_list_is_not_written() -> None:
    class Stranger:
        pass
    with pytest.raises(UnstorableValue, match="Stranger"):
        dumps({"x": Stranger()}, "posts", CACHE_RECORDS)
    with pytest.raises(UnstorableValue):
        dumps(Path("x").resolve().parent.stat(), "posts", CACHE_RECORDS)   # a NamedTuple-like of the stdlib


def _planted_pickle(marker: Path) -> bytes:
    class Payload:
        def __reduce__(self) -> Any:
            return (os.system, (f"touch {marker}",))
    return pickle.dumps({"format": 5, "posts": Payload()}, protocol=pickle.HIGHEST_PROTOCOL)


def test_a_pickle_is_not_a_cache_file_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with pytest.raises(NotACacheFile):
        loads(_planted_pickle(marker), "posts", CACHE_RECORDS)
    assert not marker.exists()


def _valid() -> bytes:
    post = Post("a.md", "a.md", "", "a", "/a/", "A", datetime(2024, 1, 2, tzinfo=timezone.utc), None, "", False,
                ("t",), (), (), None, "", (), False, False, pack_html("<p>a</p>"), (), "", False, "", 0, 0, False,
                False, False, params={"when": date(2024, 1, 2), "description": "A long description. " * 8})
    return dumps({"format": 5, "posts": {"f": RenderOutcome(post, (), ())}}, "posts", CACHE_RECORDS)


def resealed(data: bytes) -> bytes:
    """data with its checksum made again: a file whose damage only its meaning can tell."""
    import zlib
    first, rest = data.split(b"\n", 1)
    return first.rsplit(b" ", 1)[0] + b" %d\n" % zlib.crc32(rest) + rest


@pytest.mark.parametrize("name, damage", [
    ("another kind", lambda data: data.replace(b" posts ", b" state ", 1)),
    ("another version", lambda data: data.replace(b"blogbuild-cache %d " % FORMAT, b"blogbuild-cache 0 ", 1)),
    ("a pickle after the first line", lambda data: data[:data.index(b"\n") + 1] + pickle.dumps({"posts": {}})),
    ("empty", lambda data: b""),
    ("cut in the header", lambda data: data[:30]),
    ("cut in the body", lambda data: data[:len(data) // 2]),
    ("one byte short", lambda data: resealed(data[:-1])),
    ("one byte more", lambda data: resealed(data + b"\0")),
    ("a class outside the allow-list", lambda data: resealed(data.replace(b'"Post"', b'"Popen"'))),
    ("a record of other fields", lambda data: resealed(data.replace(b'"toc_enabled"', b'"toc_shown"', 1))),
    ("an unknown tag", lambda data: resealed(data.replace(b'{"t":', b'{"q":', 1))),
    ("a text outside the file", lambda data: resealed(re.sub(rb'\{"u":\[\d+,', b'{"u":[99999999,', data, count=1))),
    ("a text that is not UTF-8", lambda data: resealed(data.replace("A long description".encode(), b"\xff long description", 1))),
    ("a reference in a file without", lambda data: resealed(data.replace(b'"refs":[]', b'"refs":["x"]', 1))),
])
def test_a_damaged_or_foreign_file_is_not_a_cache_file(name: str, damage: Any) -> None:
    data = _valid()
    assert shape(loads(data, "posts", CACHE_RECORDS)) is not None
    with pytest.raises(NotACacheFile):
        loads(damage(data), "posts", CACHE_RECORDS)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_byte_changed_or_cut_is_not_a_cache_file(data: st.DataObject) -> None:
    valid = _valid()
    position = data.draw(st.integers(0, len(valid) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda byte: byte != valid[position]))
    damaged = data.draw(st.sampled_from([valid[:position], valid[:position] + bytes([byte]) + valid[position + 1:]]))
    with pytest.raises(NotACacheFile):
        loads(damaged, "posts", CACHE_RECORDS)
