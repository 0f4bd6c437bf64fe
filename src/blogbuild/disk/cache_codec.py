"""The data format of blogbuild's cache files: typed records written as tagged JSON, read back without
running anything the file holds.

A cache file is only ever data. Reading one builds nothing but JSON values, the few value types below and
the record classes of an explicit allow-list (`RecordTypes`), each by its name and checked against the
fields it has now; anything else (another format, another version, an unknown tag or class, a field list
that differs, a truncated file) is `NotACacheFile`, which the cache ignores and rebuilds.

A file is:

    blogbuild-cache <FORMAT> <kind> <CRC-32 of the rest>\\n
    {"classes": {name: [field, ...]}, "refs": [key, ...], "body": <bytes of JSON>, "blobs": <bytes of blobs>}\\n
    <body: one JSON value>
    <blobs: every bytes value, end to end>

In the body a value is JSON as it is (str, int, float, bool, None, list) or a one-key object whose key
tags it: `{"t": [...]}` a tuple, `{"d": [k, v, k, v, ...]}` a dict (any hashable keys), `{"f": [...]}` a
frozenset, `{"s": [...]}` a set, `{"b": [offset, length]}` bytes in the blob area, `{"u": [offset, length]}` a
text of LONG_TEXT characters or more, in the blob area as UTF-8 (a post's plain text and summaries: JSON's string
scan costs several times UTF-8's decoding), `{"dt": [...]}`,
`{"da": [...]}`, `{"ti": [...]}`, `{"td": [...]}` datetime values, `{"P": "..."}` a path, `{"H": "..."}` text
marked as HTML (markupsafe's Markup: what a Hugo site's shortcodes put in a page's Store), `{"E": [...]}` a
SourceError, `{"e": [...]}` a BlogbuildError, `{Name: [field values]}` a record (positional, in field
order), `{"r": n}` the n-th record already read (records shared in memory stay shared), `{"p": n}` the
n-th of the header's "refs", keys of records or bytes values the caller keeps elsewhere (a state's posts live in
the posts cache, and a state saved as a delta names what it shares with the full state it is of: references, not
copies), and `{"T": [n, ...]}` a tuple of such objects and records already read (n
a reference, ~n a record: a site's lists of posts, thousands of them, each one number).
Records are numbered in the order their objects close, which is the order a JSON parser meets their ends
(json's object_hook), so reading resolves `{"r": n}` without a second pass.
"""
from __future__ import annotations

import json
import zlib
from datetime import date, datetime, time, timedelta, timezone
from importlib import import_module
from operator import attrgetter
from pathlib import Path, PosixPath
from typing import Any, Callable, Iterable, Mapping

from markupsafe import Markup

from ..core.cache_keys import CODEC_FORMAT
from ..core.errors import BlogbuildError, SourceError

FORMAT = CODEC_FORMAT
MAGIC = b"blogbuild-cache"

_PLAIN = frozenset({str, int, float, bool, type(None)})
LONG_TEXT = 128   # a text this long or longer is kept in the blob area ({"u": ...}), a shorter one in the body
_NO_REFERENCES: Mapping[int, Any] = {}
_MICROSECOND = timedelta(microseconds=1)


class NotACacheFile(Exception):
    """The file is not a blogbuild cache file of this version and kind (foreign, old, damaged, truncated)."""


class UnstorableValue(BlogbuildError):
    """A value of a type the cache format does not hold: a record class missing from the allow-list."""


def _itself(value: Any) -> Any:
    return value


def _one_field(name: str) -> Callable[[Any], tuple[Any]]:
    get = attrgetter(name)
    return lambda value: (get(value),)


class _Record:
    """One allowed record class: how its values are read off an object and how an object is made again."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.name = cls.__name__
        named_tuple = issubclass(cls, tuple)
        names = getattr(cls, "_fields", None) if named_tuple else getattr(cls, "__dataclass_fields__", None)
        if names is None:
            raise TypeError(f"{cls.__qualname__} is neither a dataclass nor a NamedTuple")
        self.fields = tuple(names)
        self.values: Callable[[Any], Any] = _itself if named_tuple else \
            (attrgetter(*self.fields) if len(self.fields) > 1 else _one_field(self.fields[0]))
        self.named_tuple = named_tuple

    def maker(self, append: Callable[[Any], None]) -> Callable[[Any], Any]:
        """A decoder of this record's positional values (checked against its fields), remembering each object."""
        cls, count, names = self.cls, len(self.fields), self.fields
        if self.named_tuple:
            def make_tuple(values: Any) -> Any:
                if type(values) is not list or len(values) != count:
                    raise NotACacheFile(f"a {cls.__name__} without its {count} fields")
                made: Any = tuple.__new__(cls, values)
                append(made)
                return made
            return make_tuple
        new = object.__new__

        def make(values: Any) -> Any:
            if type(values) is not list or len(values) != count:
                raise NotACacheFile(f"a {cls.__name__} without its {count} fields")
            made: Any = new(cls)
            made.__dict__.update(zip(names, values))   # noqa: B905 - lengths checked; no __init__ of the file's choosing
            append(made)
            return made
        return make


class RecordTypes:
    """The allow-list: the record classes a cache file may hold, named "module:Class" (imported only when a
    file names one, or one is written), each a frozen dataclass, a dataclass or a NamedTuple of blogbuild."""

    def __init__(self, names: Iterable[str]) -> None:
        self._where: dict[str, str] = {}
        for qualified in names:
            module, _, name = qualified.partition(":")
            if not module.startswith("blogbuild.") or not name or name in self._where:
                raise ValueError(f"record name {qualified!r}: a blogbuild class, each name once")
            self._where[name] = module
        self._by_name: dict[str, _Record] = {}
        self.loaded: dict[type, _Record] = {}

    def by_name(self, name: str) -> _Record | None:
        """The allowed record called name, None when the allow-list has none."""
        record = self._by_name.get(name)
        if record is None and name in self._where:
            record = self._load(name)
        return record

    def by_type(self, cls: type) -> _Record | None:
        """The allowed record of this very class, None when it is not on the allow-list."""
        record = self.loaded.get(cls)
        if record is None and self._where.get(cls.__name__) == cls.__module__:
            record = self._load(cls.__name__)
        return record if record is not None and record.cls is cls else None

    def _load(self, name: str) -> _Record:
        record = _Record(getattr(import_module(self._where[name]), name))
        self._by_name[name] = record
        self.loaded[record.cls] = record
        return record


def _zone(value: Any) -> list[Any] | None:
    """A tzinfo as [offset in microseconds, name or None]; only fixed offsets (datetime.timezone) are held."""
    zone = value.tzinfo
    if zone is None:
        return None
    if type(zone) is not timezone:
        raise UnstorableValue(f"a time zone of type {type(zone).__name__} cannot be cached")
    arguments = zone.__getinitargs__()   # type: ignore[attr-defined]
    return [arguments[0] // _MICROSECOND, arguments[1] if len(arguments) > 1 else None]


def _tzinfo(zone: Any) -> timezone | None:
    if zone is None:
        return None
    offset, name = zone
    delta = timedelta(microseconds=offset)
    return timezone(delta) if name is None else timezone(delta, name)


class _Writer:
    """One file's encoding: the records met (by id, each written once), the bytes values set aside."""

    def __init__(self, records: RecordTypes, references: Mapping[int, Any]) -> None:
        self.records = records
        self.known = records.loaded   # the records met so far, by class (by_type adds the rest)
        self.references = references
        self.reference_numbers: dict[Any, int] = {}   # key -> its place in the header's "refs"
        self.numbers: dict[int, int] = {}
        self.count = 0
        self.classes: dict[str, list[str]] = {}
        self.blobs: list[bytes] = []
        self.blob_size = 0
        self.spans: dict[int, list[int]] = {}   # id of a bytes value written -> its [offset, length]
        self.handlers: dict[type, Callable[[Any], Any]] = {
            tuple: self.encode_tuple, list: self.encode_list, dict: self.encode_dict,
            frozenset: self.encode_frozenset, set: self.encode_set, bytes: self.encode_bytes,
            datetime: self.encode_datetime, date: self.encode_date, time: self.encode_time,
            timedelta: lambda value: {"td": [value.days, value.seconds, value.microseconds]},
            PosixPath: lambda value: {"P": str(value)}, Markup: lambda value: {"H": str(value)},
            SourceError: self.encode_source_error,
            BlogbuildError: lambda value: {"e": [self.encode(argument) for argument in value.args]},
        }

    def encode(self, value: Any) -> Any:
        kind = type(value)
        if kind is str:
            return value if len(value) < LONG_TEXT else self.encode_text(value)
        if kind in _PLAIN:
            return value
        handler = self.handlers.get(kind)
        if handler is not None:
            return handler(value)
        record = self.known.get(kind) or self.records.by_type(kind)
        if record is None:
            raise UnstorableValue(f"a {kind.__module__}.{kind.__qualname__} cannot be cached: add its class to "
                                  "the cache's record types")
        return self.record(value, record)

    def record(self, value: Any, record: _Record) -> Any:
        identity = id(value)
        reference = self.references.get(identity)
        if reference is not None:
            return {"p": self.reference_number(reference)}
        number = self.numbers.get(identity)
        if number is not None:
            if number < 0:
                raise UnstorableValue(f"a {record.name} that holds itself cannot be cached")
            return {"r": number}
        self.numbers[identity] = -1
        plain, encode, long = _PLAIN, self.encode, LONG_TEXT
        fields = [item if (kind := type(item)) in plain and (kind is not str or len(item) < long) else encode(item)
                  for item in record.values(value)]
        self.numbers[identity] = self.count
        self.count += 1
        if record.name not in self.classes:
            self.classes[record.name] = list(record.fields)
        return {record.name: fields}

    def encode_list(self, value: list) -> list:
        plain, encode, long = _PLAIN, self.encode, LONG_TEXT
        return [item if (kind := type(item)) in plain and (kind is not str or len(item) < long) else encode(item)
                for item in value]

    def reference_number(self, key: Any) -> int:
        number = self.reference_numbers.get(key)
        if number is None:
            number = self.reference_numbers[key] = len(self.reference_numbers)
        return number

    def encode_tuple(self, value: tuple) -> Any:
        if value and (id(value[0]) in self.references or self.numbers.get(id(value[0]), -1) >= 0):
            numbers = self.known_objects(value)
            if numbers is not None:
                return {"T": numbers}
        return {"t": self.encode_list(value)}   # type: ignore[arg-type]

    def known_objects(self, value: tuple) -> list[int] | None:
        """The tuple as numbers when each item is a reference (n) or a record already written (~n)."""
        references, written, numbers = self.references, self.numbers, []
        for item in value:
            key = references.get(id(item))
            if key is not None:
                numbers.append(self.reference_number(key))
                continue
            number = written.get(id(item), -1)
            if number < 0 or type(item) in _PLAIN:
                return None
            numbers.append(~number)
        return numbers

    def encode_frozenset(self, value: frozenset) -> Any:
        return {"f": self.encode_list(list(value))}

    def encode_set(self, value: set) -> Any:
        return {"s": self.encode_list(list(value))}

    def encode_dict(self, value: dict) -> Any:
        plain, encode, long = _PLAIN, self.encode, LONG_TEXT
        pairs: list[Any] = []
        append = pairs.append
        for key, item in value.items():
            append(key if (kind := type(key)) in plain and (kind is not str or len(key) < long) else encode(key))
            append(item if (kind := type(item)) in plain and (kind is not str or len(item) < long) else encode(item))
        return {"d": pairs}

    def encode_bytes(self, value: bytes) -> Any:
        reference = self.references.get(id(value))
        if reference is not None:
            return {"p": self.reference_number(reference)}
        span = self.spans.get(id(value))   # one object held in two places is written once
        if span is None:
            span = self.spans[id(value)] = [self.blob_size, len(value)]
            self.blobs.append(value)
            self.blob_size += len(value)
        return {"b": span}

    def encode_text(self, value: str) -> Any:
        span = self.spans.get(id(value))   # one object held in two places is written once
        if span is None:
            data = value.encode("utf-8", "surrogatepass")
            span = self.spans[id(value)] = [self.blob_size, len(data)]
            self.blobs.append(data)
            self.blob_size += len(data)
        return {"u": span}

    def encode_datetime(self, value: datetime) -> Any:
        return {"dt": [value.year, value.month, value.day, value.hour, value.minute, value.second,
                       value.microsecond, _zone(value), value.fold]}

    def encode_date(self, value: date) -> Any:
        return {"da": [value.year, value.month, value.day]}

    def encode_time(self, value: time) -> Any:
        return {"ti": [value.hour, value.minute, value.second, value.microsecond, _zone(value), value.fold]}

    def encode_source_error(self, value: SourceError) -> Any:
        return {"E": [value.location.path, value.location.line, value.message, value.stage, value.location.column,
                      value.source_line]}


def dumps(value: Any, kind: str, records: RecordTypes, references: Mapping[int, Any] = _NO_REFERENCES) -> bytes:
    """value as a cache file of this kind. references: records and bytes values (by id) written as their keys
    (JSON values), which loads() asks its resolve function for; raises UnstorableValue for a value the format
    does not hold."""
    return b"".join(dump_parts(value, kind, records, references))


def dump_parts(value: Any, kind: str, records: RecordTypes,
               references: Mapping[int, Any] = _NO_REFERENCES) -> list[bytes]:
    """dumps() as the pieces to write one after the other (the file's bytes values are not copied again)."""
    writer = _Writer(records, references)
    try:
        body = json.dumps(writer.encode(value), ensure_ascii=False, separators=(",", ":"),
                          check_circular=False).encode("utf-8", "surrogatepass")
    except RecursionError:
        raise UnstorableValue("a value nested too deeply to be cached") from None
    header = json.dumps({"classes": writer.classes, "refs": list(writer.reference_numbers), "body": len(body),
                         "blobs": writer.blob_size}, separators=(",", ":")).encode("utf-8") + b"\n"
    check = zlib.crc32(body, zlib.crc32(header))
    for blob in writer.blobs:
        check = zlib.crc32(blob, check)
    return [MAGIC + b" %d %s %d\n" % (FORMAT, kind.encode("ascii"), check), header, body, *writer.blobs]


def unresolved(key: Any) -> Any:
    """The resolve function of a file that names nothing kept elsewhere: any reference is damage."""
    raise NotACacheFile("a reference where none is expected")


def loads(data: bytes, kind: str, records: RecordTypes, resolve: Callable[[Any], Any] = unresolved,
          made: list[Any] | None = None) -> Any:
    """The value a cache file of this kind holds; NotACacheFile when it is anything else. resolve gives the
    object each reference key stands for (its own exceptions pass through). made, an empty list, receives
    every record read, in the order of their numbers (what a later file may name by reference)."""
    start = MAGIC + b" %d %s " % (FORMAT, kind.encode("ascii"))
    if not data.startswith(start):
        raise NotACacheFile("not a blogbuild cache file of this version and kind")
    try:
        first_end = data.index(b"\n", len(start))
        if int(data[len(start):first_end]) != zlib.crc32(memoryview(data)[first_end + 1:]):
            raise NotACacheFile("damaged (its checksum differs)")
        header_end = data.index(b"\n", first_end + 1)
        header = json.loads(data[first_end + 1:header_end])
        body_size, blob_size, classes, keys = header["body"], header["blobs"], header["classes"], header["refs"]
        if not (type(body_size) is int and type(blob_size) is int and type(classes) is dict and type(keys) is list):
            raise NotACacheFile("a header without its sizes")
    except (ValueError, KeyError, TypeError) as error:
        raise NotACacheFile(f"a damaged header ({type(error).__name__})") from None
    body_start = header_end + 1
    blob_start = body_start + body_size
    if len(data) != blob_start + blob_size:
        raise NotACacheFile("truncated or padded")
    if made is None:
        made = []
    elif made:
        raise ValueError("made: an empty list")
    referenced = [resolve(key) for key in keys]
    decoders = _decoders(data, blob_start, blob_size, made, referenced)
    for name, fields in classes.items():
        record = records.by_name(name)
        if record is None:
            raise NotACacheFile(f"holds a {name!r}, which is not a cache record")
        if fields != list(record.fields):
            raise NotACacheFile(f"holds a {name} of other fields")
        decoders[name] = record.maker(made.append)

    def hook(tagged: dict) -> Any:
        if len(tagged) != 1:
            raise NotACacheFile("an untagged object")
        tag, value = tagged.popitem()
        return decoders[tag](value)

    try:
        return json.loads(str(memoryview(data)[body_start:blob_start], "utf-8", "surrogatepass"), object_hook=hook)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError, RecursionError) as error:
        raise NotACacheFile(f"a damaged body ({type(error).__name__})") from None


def _blob_readers(data: bytes, blob_start: int, blob_size: int
                  ) -> tuple[Callable[[Any], bytes], Callable[[Any], str]]:
    """The decoders of the blob area's values: bytes ({"b": span}) and long texts ({"u": span})."""
    read: dict[tuple[int, int], bytes] = {}   # a span read twice gives one object, as it was written
    read_texts: dict[tuple[int, int], str] = {}
    view = memoryview(data)

    def inside(span: Any, what: str) -> tuple[int, int]:
        offset, length = span
        if not (type(offset) is int and type(length) is int and 0 <= offset and 0 <= length
                and offset + length <= blob_size):
            raise NotACacheFile(f"{what} outside the file")
        return offset, length

    def blob(span: Any) -> bytes:
        offset, length = inside(span, "a bytes value")
        value = read.get((offset, length))
        if value is None:
            value = read[offset, length] = data[blob_start + offset:blob_start + offset + length]
        return value

    def text(span: Any) -> str:
        offset, length = inside(span, "a text")
        value = read_texts.get((offset, length))
        if value is None:
            start = blob_start + offset
            value = read_texts[offset, length] = str(view[start:start + length], "utf-8", "surrogatepass")
        return value

    return blob, text


def _decoders(data: bytes, blob_start: int, blob_size: int, made: list[Any],
              referenced: list[Any]) -> dict[str, Callable[[Any], Any]]:
    """The value tags' decoders (the records' are added by loads)."""
    blob, text = _blob_readers(data, blob_start, blob_size)

    def pairs(items: Any) -> dict:
        if type(items) is not list or len(items) % 2:
            raise NotACacheFile("a dict of odd length")
        keys = iter(items)
        return dict(zip(keys, keys, strict=True))

    def earlier(number: Any) -> Any:
        if type(number) is not int or number < 0:
            raise NotACacheFile("a reference that is no record number")
        return made[number]

    def reference(number: Any) -> Any:
        if type(number) is not int or number < 0:
            raise NotACacheFile("a reference that is no number")
        return referenced[number]

    def known_objects(numbers: Any) -> tuple:
        if type(numbers) is not list:
            raise NotACacheFile("a tuple of references that is no list")
        return tuple([referenced[number] if number >= 0 else made[~number] for number in numbers])

    def sequence(kind: type) -> Callable[[Any], Any]:
        def make(items: Any) -> Any:
            if type(items) is not list:
                raise NotACacheFile(f"a {kind.__name__} that is no list")
            return kind(items)
        return make

    def moment(parts: Any) -> datetime:
        year, month, day, hour, minute, second, microsecond, zone, fold = parts
        return datetime(year, month, day, hour, minute, second, microsecond, tzinfo=_tzinfo(zone), fold=fold)

    def clock(parts: Any) -> time:
        hour, minute, second, microsecond, zone, fold = parts
        return time(hour, minute, second, microsecond, tzinfo=_tzinfo(zone), fold=fold)

    def path(text: Any) -> Path:
        if type(text) is not str:
            raise NotACacheFile("a path that is no string")
        return Path(text)

    def markup(text: Any) -> Markup:
        if type(text) is not str:
            raise NotACacheFile("HTML that is no string")
        return Markup(text)

    def source_error(fields: Any) -> SourceError:
        path_text, line, message, stage, column, source_line = fields
        return SourceError(path_text, line, message, stage=stage, column=column, source_line=source_line)

    return {
        "t": sequence(tuple), "f": sequence(frozenset), "s": sequence(set), "d": pairs, "b": blob, "u": text,
        "dt": moment, "da": lambda parts: date(*parts), "ti": clock, "td": lambda parts: timedelta(*parts),
        "P": path, "H": markup, "E": source_error, "e": lambda arguments: BlogbuildError(*arguments),
        "r": earlier, "p": reference, "T": known_objects,
    }
