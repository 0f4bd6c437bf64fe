"""The search index the search page reads in pieces: a small meta file, term shards, text chunks.

The search page must not download the whole site. It loads `search/meta.json` (titles, dates,
links, terms, text lengths, and the version of every shard) when the box gets focus; a query then fetches
only the shards of its pieces, and the text of the results it shows, chunk by chunk.

A shard holds, for each content piece in it and each post that has it, how often the piece occurs (capped
at 10, as search.js counts) and where it first occurs (a UTF-16 offset into the post's text, as JavaScript
indexes strings): enough for search.js to compute today's score and to fetch the snippet's chunk. The
pieces are search.js's: CJK characters and overlapping CJK bigrams, and Latin words, which match as word
prefixes: a query word of one or two characters reads a prefix total (`p`), a longer one reads every word
sharing its first three characters (`w`) and keeps those it prefixes. Folding and the character classes
are search.js's too (NFKC per character, then lowercase; JavaScript's Script=Han/Hiragana/Katakana/Hangul
and [\\p{L}\\p{N}_]); tests/test_search_index.py checks the agreement with Node over real posts.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import accumulate, compress, repeat
from operator import itemgetter, sub
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig
    from ..core.model import Post

# \p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul} as Node 20 (Unicode 17) matches
# them, listed by a Node one-liner: Python's unicodedata has no scripts, and must agree with search.js.
CJK_RANGES = (
    (0x1100, 0x11FF), (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005), (0x3007, 0x3007),
    (0x3021, 0x3029), (0x302E, 0x302F), (0x3038, 0x303B), (0x3041, 0x3096), (0x309D, 0x309F), (0x30A1, 0x30FA),
    (0x30FD, 0x30FF), (0x3131, 0x318E), (0x31F0, 0x321E), (0x3260, 0x327E), (0x32D0, 0x32FE), (0x3300, 0x3357),
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97C), (0xAC00, 0xD7A3), (0xD7B0, 0xD7C6), (0xD7CB, 0xD7FB),
    (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0xFF66, 0xFF6F), (0xFF71, 0xFF9D), (0xFFA0, 0xFFBE), (0xFFC2, 0xFFC7),
    (0xFFCA, 0xFFCF), (0xFFD2, 0xFFD7), (0xFFDA, 0xFFDC), (0x16FE2, 0x16FE3), (0x16FF0, 0x16FF6),
    (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB), (0x1AFFD, 0x1AFFE), (0x1B000, 0x1B122), (0x1B132, 0x1B132),
    (0x1B150, 0x1B152), (0x1B155, 0x1B155), (0x1B164, 0x1B167), (0x1F200, 0x1F200), (0x20000, 0x2A6DF),
    (0x2A700, 0x2B81D), (0x2B820, 0x2CEAD), (0x2CEB0, 0x2EBE0), (0x2EBF0, 0x2EE5D), (0x2F800, 0x2FA1D),
    (0x30000, 0x3134A), (0x31350, 0x33479),
)
_CJK_STARTS = tuple(start for start, _ in CJK_RANGES)
LIMIT = 10            # search.js counts at most this many occurrences of a piece per post
CHUNK = 4096          # UTF-16 units of text per chunk file: most posts' text in one
FOLDER = "search"


def is_cjk(character: str) -> bool:
    """search.js's CJK test for one character."""
    code = ord(character)
    index = bisect_right(_CJK_STARTS, code) - 1
    return index >= 0 and code <= CJK_RANGES[index][1]


@lru_cache(maxsize=65536)
def is_word(character: str) -> bool:
    """search.js's isWordCharacter: a letter, digit or underscore that is not CJK."""
    return (character == "_" or unicodedata.category(character)[0] in "LN") and not is_cjk(character)


@lru_cache(maxsize=65536)
def _fold_character(character: str) -> str:
    return unicodedata.normalize("NFKC", character).lower()


def utf16_length(text: str) -> int:
    """The length JavaScript gives text."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def fold(text: str) -> tuple[str, list[int]]:
    """search.js's fold(): the text NFKC-folded per character and lowercased, with each folded character's
    UTF-16 offset in the original text."""
    parts: list[str] = []
    offsets: list[int] = []
    offset = 0
    for character in text:
        piece = _fold_character(character)
        parts.append(piece)
        offsets.extend([offset] * len(piece))
        offset += 2 if ord(character) > 0xFFFF else 1
    return "".join(parts), offsets


def _note(found: dict[str, list[int]], key: str, offset: int) -> None:
    entry = found.get(key)
    if entry is None:
        found[key] = [1, offset]
    elif entry[0] < LIMIT:
        entry[0] += 1


def postings_by_walk(text: str) -> dict[str, dict[str, list[int]]]:
    """postings(), one character at a time: the definition, which tests compare postings() with."""
    folded, offsets = fold(text)
    found: dict[str, list[int]] = {}
    length = len(folded)
    previous_word = False
    for index, character in enumerate(folded):
        if is_cjk(character):
            _note(found, "c" + character, offsets[index])
            if index + 1 < length and is_cjk(folded[index + 1]):
                _note(found, "c" + character + folded[index + 1], offsets[index])
            previous_word = False
            continue
        word = is_word(character)
        # JavaScript sees an astral character as two surrogates, neither of them a word character.
        if word and not previous_word:
            end = index + 1
            while end < length and is_word(folded[end]):
                end += 1
            _note(found, "p" + character, offsets[index])
            if end - index >= 2:
                _note(found, "p" + folded[index:index + 2], offsets[index])
            _note(found, "w" + folded[index:end], offsets[index])
        previous_word = word and ord(character) <= 0xFFFF
    by_kind: dict[str, dict[str, list[int]]] = {"c": {}, "p": {}, "w": {}}
    for key, value in found.items():
        by_kind[key[0]][key[1:]] = value
    return by_kind


# Per character, once per process: its fold, and its class ('c' CJK, 'w' word, 'a' astral word, ' ' other).
_FOLDS: dict[int, str] = {}
_CLASSES: dict[int, str] = {}
_SPECIAL: dict[int, str] = {}   # '.' for a character folding to one BMP character, else 's'
_SEEN: set[str] = set()         # the characters learned
_MOVING: set[str] = set()       # those marked 's': the folded text's indexes move after them


def _learn(characters: set[str]) -> None:
    """Fold and classify the characters not seen yet."""
    for character in characters - _SEEN:
        code = ord(character)
        _SEEN.add(character)
        folded = _fold_character(character)
        _FOLDS[code] = folded
        _SPECIAL[code] = "." if len(folded) == 1 and code <= 0xFFFF else "s"
        if _SPECIAL[code] == "s":
            _MOVING.add(character)
        for piece in folded:
            if ord(piece) not in _CLASSES:
                _CLASSES[ord(piece)] = "c" if is_cjk(piece) else ("a" if ord(piece) > 0xFFFF else "w") \
                    if is_word(piece) else " "
        _CLASSES.setdefault(code, " ")


_CJK_RUN = re.compile("c+")
_WORD_RUN = re.compile("[wa]+")


class _Offsets:
    """Folded index -> UTF-16 offset in the original, from the few characters that fold to more than one
    character or are astral (every other character keeps its place)."""

    def __init__(self, text: str, characters: set[str]) -> None:
        marks = "" if characters.isdisjoint(_MOVING) else text.translate(_SPECIAL)
        self.starts: list[int] = []     # folded index of each such character
        self.widths: list[int] = []     # its folded length
        self.offsets: list[int] = []    # its UTF-16 offset
        self.units: list[int] = []      # its UTF-16 length
        grown = astral = 0
        index = marks.find("s")
        while index >= 0:
            code = ord(text[index])
            width = len(_FOLDS[code])
            self.starts.append(index + grown)
            self.widths.append(width)
            self.offsets.append(index + astral)
            self.units.append(2 if code > 0xFFFF else 1)
            grown += width - 1
            astral += code > 0xFFFF
            index = marks.find("s", index + 1)

    def __call__(self, folded_index: int) -> int:
        at = bisect_right(self.starts, folded_index) - 1
        if at < 0:
            return folded_index
        start, width = self.starts[at], self.widths[at]
        if folded_index < start + width:
            return self.offsets[at]
        return self.offsets[at] + self.units[at] + folded_index - start - width


Columns = tuple[list[str], list[int], list[int]]


def _tally(keys: list[str], positions: list[int], offset: _Offsets) -> Columns:
    """The distinct keys, the occurrences of each capped at LIMIT, and the UTF-16 offset of its first."""
    firsts = dict(zip(reversed(keys), reversed(positions), strict=True))   # the last write is the first occurrence
    counts = Counter(keys)
    distinct = list(counts)
    at = list(map(firsts.__getitem__, distinct))
    return distinct, list(map(min, counts.values(), repeat(LIMIT))), \
        list(map(offset, at)) if offset.starts else at   # nothing moved: folded indexes are the offsets


def _pieces(text: str) -> dict[str, Columns]:
    """The pieces of postings(), by kind, as columns: pieces, occurrences, first offsets."""
    characters = set(text)
    _learn(characters)
    folded = text.translate(_FOLDS)
    classes = folded.translate(_CLASSES)
    offset = _Offsets(text, characters)
    cjk: list[str] = []
    cjk_at: list[int] = []
    for match in _CJK_RUN.finditer(classes):
        start, end = match.span()
        run = folded[start:end]
        cjk += run
        cjk_at += range(start, end)
        cjk += map(str.__add__, run, run[1:])   # the bigrams
        cjk_at += range(start, end - 1)
    words: list[str] = []
    words_at: list[int] = []
    for match in _WORD_RUN.finditer(classes):
        start, end = match.span()
        words.append(folded[start:end])
        words_at.append(start)
        if "a" in match.group():   # after an astral character JavaScript sees a word start
            words += [folded[index + 1:end] for index in range(start, end - 1) if classes[index] == "a"]
            words_at += [index + 1 for index in range(start, end - 1) if classes[index] == "a"]
    longer = list(map((2).__le__, map(len, words)))   # the words with a two-character prefix
    prefixes = list(map(itemgetter(0), words))
    prefixes += compress(map(itemgetter(slice(2)), words), longer)
    prefixes_at = words_at + list(compress(words_at, longer))
    return {"c": _tally(cjk, cjk_at, offset), "p": _tally(prefixes, prefixes_at, offset),
            "w": _tally(words, words_at, offset)}


def postings(text: str) -> dict[str, dict[str, list[int]]]:
    """Every piece of a post's text, by kind: 'c' CJK characters and bigrams, 'p' one- and two-character
    prefixes of words, 'w' words (from where a word starts in search.js's sense to the end of its run of
    word characters): [occurrences capped at LIMIT, UTF-16 offset of the first] each. Whole-string
    operations, so a 10,000-post site is indexed in seconds; postings_by_walk() is the definition."""
    return {kind: {piece: [hits, first] for piece, hits, first in zip(*found, strict=True)}
            for kind, found in _pieces(text).items()}


def post_postings(post: Post) -> tuple[list[str], list[int], list[int]]:
    """A post's piece keys (kind and piece), occurrences and first offsets: postings() as columns."""
    keys: list[str] = []
    hits: list[int] = []
    firsts: list[int] = []
    for kind, (pieces, kind_hits, kind_firsts) in _pieces(search_text(post)).items():
        keys += [kind + piece for piece in pieces]
        hits += kind_hits
        firsts += kind_firsts
    return keys, hits, firsts


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over UTF-16 code units (search.js's shard hash)."""
    value = 0x811C9DC5
    data = text.encode("utf-16-le", "surrogatepass")
    for index in range(0, len(data), 2):
        value ^= data[index] | (data[index + 1] << 8)
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


RANGE = 256           # posts per range: an edit re-encodes its range's part of each shard it touches
MAX_SHARDS = 4096


def shard_count(posts: int) -> int:
    """How many term shards a site of this many posts has: a power of two, about one per four posts, at
    least 64 and at most MAX_SHARDS, so a query's pieces fetch a small part of the index (at 1,000 posts a
    shard holds ~3,500 postings, ~12 kB gzipped) while a build writes (and every build checks) few files (a
    body edit keeps the number: posts decide it, not text)."""
    count = 64
    while 4 * count < posts and count < MAX_SHARDS:
        count *= 2
    return count


@lru_cache(maxsize=1 << 18)
def shard_of(key: str, shards: int) -> int:
    """The term shard holding a piece key: a word by its kind and first three characters."""
    return fnv1a(key[:4] if key[0] == "w" else key) % shards


def chunk_paths(post: Post) -> list[str]:
    """The output paths of a post's text chunks: search/text/<post url>/<k>.json, chunk k holding the
    text's UTF-16 units [k * CHUNK, (k + 1) * CHUNK)."""
    count = max(1, -(-utf16_length(search_text(post)) // CHUNK))
    folder = f"{FOLDER}/text/{post.url.strip('/')}/".replace("//", "/")
    return [f"{folder}{number}.json" for number in range(count)]


def search_text(post: Post) -> str:
    """The text search.js searched and showed: the content, or the summary when there is none."""
    return post.plain_text or post.summary_text


def chunk_file(post: Post, number: int) -> bytes:
    """Chunk number of a post's text as a JSON string. A surrogate pair the boundary cuts is written as
    two escapes, which JavaScript joins back when it concatenates the chunks."""
    units = search_text(post).encode("utf-16-le", "surrogatepass")[2 * CHUNK * number:2 * CHUNK * (number + 1)]
    text = json.dumps(units.decode("utf-16-le", "surrogatepass"), ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text).encode("utf-8")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def _link_path(config: SiteConfig, url: str) -> str:
    absolute = config.absolute_url(url)
    after_host = absolute.split("://", 1)[-1]
    return "/" + after_host.split("/", 1)[1] if "/" in after_host else "/"


@dataclass(frozen=True)
class RangeShards:
    """One range of posts' part of every term shard (oldest first: a post's local id is its place in the
    range), each part a JSON object, with what the next build needs to re-encode only the parts an edit
    touches. Never changed in place (its lists neither): a build whose range holds the same posts keeps the
    last build's object, which a saved state's delta then names instead of writing it again."""

    parts: list[bytes]               # per term shard
    fingerprints: tuple[str, ...]    # the posts indexed, in local id order
    urls: tuple[str, ...]
    keys: list[str]                  # per post, its piece keys (kind and piece), sorted, space-joined

    @classmethod
    def of(cls, posts: Sequence[Post], count: int, last: RangeShards | None) -> RangeShards:
        """The parts of posts (the range's, oldest first); from last (the previous build's range) when it
        holds the same posts, re-indexing only the posts whose fingerprint changed."""
        urls = tuple(post.url for post in posts)
        fingerprints = tuple(post.fingerprint for post in posts)
        if last is not None and last.urls == urls and len(last.parts) == count:
            if last.fingerprints == fingerprints:
                return last
            changed = [post_id for post_id, fingerprint in enumerate(fingerprints)
                       if fingerprint != last.fingerprints[post_id]]
            parts, keys = _update(last, posts, changed)
        else:
            parts, keys = _whole(posts, count)
        return cls(parts, fingerprints, urls, keys)


@dataclass(frozen=True)
class SearchIndex:
    """The meta file and every term shard of a site's posts. The posts are newest first (a post's id in
    meta.json is its position) and cut into ranges of RANGE from the oldest; a shard file is the JSON list
    of its ranges' parts, so a body edit re-encodes parts of its own range only, and a new post parts of
    the newest range only, while a query still fetches one file per piece. The files are joined when
    written (shard()): the index a build keeps holds each part once."""

    meta: bytes
    versions: list[str]              # each shard file's digest
    ranges: list[RangeShards]

    @classmethod
    def of(cls, posts: Sequence[Post], config: SiteConfig, last: SearchIndex | None = None) -> SearchIndex:
        """The index of posts; each range from last's (the previous build's) where it holds the same posts,
        each shard file from last's where none of its parts changed."""
        count = shard_count(len(posts))
        oldest = list(reversed(posts))
        previous = last.ranges if last is not None and len(last.versions) == count else []
        ranges = [RangeShards.of(oldest[start:start + RANGE], count,
                                 previous[number] if number < len(previous) else None)
                  for number, start in enumerate(range(0, len(oldest), RANGE))]
        same = last is not None and len(previous) == len(ranges)
        versions = []
        for number in range(count):
            if same and all(now.parts[number] is then.parts[number] for now, then in zip(ranges, previous, strict=True)):
                assert last is not None
                versions.append(last.versions[number])
            else:
                versions.append(_version(part.parts[number] for part in ranges))
        return cls(_meta(posts, config, versions), versions, ranges)

    @property
    def shards(self) -> list[bytes]:
        """Every shard file."""
        return [self.shard(number) for number in range(len(self.versions))]

    def shard(self, number: int) -> bytes:
        """Shard file number: the JSON list of its ranges' parts."""
        return b"[" + b",".join(part.parts[number] for part in self.ranges) + b"]"


def _version(parts: Iterable[bytes]) -> str:
    """The digest (hex) of the shard file of these parts, without joining them: its dependency key; its
    first three bytes are its version in meta.json."""
    digest = hashlib.blake2b(b"[", digest_size=16)
    for number, part in enumerate(parts):
        digest.update(b"," + part if number else part)
    digest.update(b"]")
    return digest.hexdigest()


def _whole(posts: Sequence[Post], count: int) -> tuple[list[bytes], list[str]]:
    """A range's part of every shard, and each post's keys: made in V8 (search_engine.py), or by
    _whole_in_python(), the definition, where mini-racer is missing."""
    from .search_engine import range_parts, untaught
    texts: list[str] = []
    lengths: list[str] = []
    learn: list[str] = []
    premade: list[str] = []
    numbers: list[int] = []
    for post in posts:
        text = search_text(post)
        characters = set(text)
        _learn(characters)
        if characters.isdisjoint(_MOVING):   # every character folds to one BMP character, in its place
            texts.append(text)
            lengths.append(str(len(text)))
            learn += [character + _FOLDS[ord(character)] + _CLASSES[ord(_FOLDS[ord(character)])]
                      for character in untaught(characters)]
        else:
            keys, hits, firsts = post_postings(post)
            premade.append(" ".join(keys))
            pairs = [0] * (2 * len(hits))
            pairs[0::2], pairs[1::2] = hits, firsts
            numbers += pairs
            lengths.append("-1")
    try:
        out = range_parts("".join(learn), "".join(texts), ",".join(lengths), "\n".join(premade),
                          ",".join(map(str, numbers)), count)
    except Exception:   # no mini-racer (v8.EngineMissing), or V8 failed: the definition makes the same parts
        return _whole_in_python(posts, count)
    parts, *keys = out.split("\uffff")
    return [part.encode("utf-8") for part in parts.split("\n")], keys


def _whole_in_python(posts: Sequence[Post], count: int) -> tuple[list[bytes], list[str]]:
    """A range's part of every shard, and each post's piece keys (sorted, space-joined)."""
    table: dict[str, list[int]] = {}
    get = table.get
    numbered: list[list[str]] = []
    for post_id, post in enumerate(posts):
        keys, hits, firsts = post_postings(post)
        numbered.append(keys)
        for key, hit, first in zip(keys, hits, firsts, strict=True):
            triples = get(key)
            if triples is None:
                table[key] = [post_id, hit, first]
            else:
                triples += (post_id, hit, first)
    numbers: dict[str, int] = {}
    buckets: list[dict[str, dict[str, list[int]]]] = [{} for _ in range(count)]
    for key in sorted(table):   # in key order: the parts are encoded without sorting
        triples = table[key]
        ids = triples[0::3]
        triples[3::3] = map(sub, ids[1:], ids)   # ids as differences from the previous one
        number = numbers[key] = shard_of(key, count)
        buckets[number].setdefault(key[0], {})[key[1:]] = triples
    return [_JSON_SORTED.encode(bucket).encode("utf-8") for bucket in buckets], \
        [" ".join(sorted(keys)) for keys in numbered]


# _json() of a value whose dictionaries are made in key order: no sorting.
_JSON_SORTED = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _update(last: RangeShards, posts: Sequence[Post], changed: list[int]) -> tuple[list[bytes], list[str]]:
    """last's parts with the changed posts' entries replaced, each part as _whole() would have made it. Only
    the parts their old or new pieces are in change, and in those only the lists of those pieces, spliced
    into the part's text; an unchanged part stays the same object, so its shard file is not joined again."""
    count = len(last.parts)
    parts, keys = list(last.parts), list(last.keys)
    edits: dict[int, dict[str, list[tuple[int, int, int]]]] = {}   # part -> key -> the changed posts' rows
    for post_id in changed:
        for key in last.keys[post_id].split(" ") if last.keys[post_id] else ():
            edits.setdefault(shard_of(key, count), {}).setdefault(key, [])
        new_keys, hits, firsts = post_postings(posts[post_id])
        for key, hit, first in zip(new_keys, hits, firsts, strict=True):
            edits.setdefault(shard_of(key, count), {}).setdefault(key, []).append((post_id, hit, first))
        keys[post_id] = " ".join(sorted(new_keys))
    gone = set(changed)
    for number in sorted(edits):
        text = parts[number].decode("utf-8")
        spliced = _splice_text(text, gone, edits[number])
        if spliced is None:   # a piece the part gains or loses: the part written again from its entries
            spliced = _part_again(text, gone, edits[number])
        if spliced != text:
            parts[number] = spliced.encode("utf-8")
    return parts, keys


def _splice_text(text: str, gone: set[int], edits: dict[str, list[tuple[int, int, int]]]) -> str | None:
    """A part's JSON text with the lists of the edited keys made again where they stand: the rows of the
    posts gone removed, the edits' rows added. None when a piece is new to the part or leaves it. A piece
    holds no quote, bracket or brace, so `"piece":[` finds its list and `}` ends its kind's object."""
    replacements: list[tuple[int, int, str]] = []
    for kind in "cpw":
        kind_edits = {key[1:]: rows for key, rows in edits.items() if key[0] == kind}
        if not kind_edits:
            continue
        start = text.find(f'"{kind}":{{')
        if start < 0:
            return None
        end = text.find("}", start)
        for piece, rows in kind_edits.items():
            at = text.find(f'"{piece}":[', start, end)
            if at < 0:
                return None
            list_start = at + len(piece) + 4
            list_end = text.find("]", list_start)
            numbers = _list_again(text[list_start:list_end], gone, rows)
            if not numbers:
                return None
            replacements.append((list_start, list_end, numbers))
    pieces: list[str] = []
    cursor = 0
    for start, stop, replacement in sorted(replacements):
        pieces += (text[cursor:start], replacement)
        cursor = stop
    pieces.append(text[cursor:])
    return "".join(pieces)


def _part_again(text: str, gone: set[int], edits: dict[str, list[tuple[int, int, int]]]) -> str:
    """A part written again from its entries, the edited lists made again (a piece without rows, a kind
    without pieces, left out), as _whole() lays it out."""
    kinds: dict[str, dict[str, str]] = {}
    for kind in "cpw":
        start = text.find(f'"{kind}":{{')
        kinds[kind] = dict(_ENTRY.findall(text, start, text.find("}", start))) if start >= 0 else {}
    for key, rows in edits.items():
        entries = kinds[key[0]]
        entries[key[1:]] = _list_again(entries.get(key[1:], ""), gone, rows)
        if not entries[key[1:]]:
            del entries[key[1:]]
    return "{" + ",".join(f'"{kind}":{{' + ",".join(f'"{piece}":[{entries[piece]}]' for piece in sorted(entries)) + "}"
                          for kind, entries in kinds.items() if entries) + "}"


_ENTRY = re.compile(r'"([^"]*)":\[([^\]]*)\]')


def _list_again(numbers: str, gone: set[int], rows: list[tuple[int, int, int]]) -> str:
    """A piece's list (ids written as differences) without the rows of the posts gone, with rows added; ""
    when none is left. With one post gone, its row is changed, cut or put in place among the others (the
    next row's difference mended), not the whole list decoded."""
    values = numbers.split(",") if numbers else []
    if len(gone) == 1 and len(rows) <= 1:
        post_id = next(iter(gone))
        ids = list(accumulate(map(int, values[0::3])))
        at = bisect_left(ids, post_id)
        present = at < len(ids) and ids[at] == post_id
        if present and rows:
            values[3 * at + 1:3 * at + 3] = (str(rows[0][1]), str(rows[0][2]))
        elif present:
            difference = int(values[3 * at])
            del values[3 * at:3 * at + 3]
            if 3 * at < len(values):
                values[3 * at] = str(int(values[3 * at]) + difference)
        elif rows:
            values[3 * at:3 * at] = (str(post_id - (ids[at - 1] if at else 0)), str(rows[0][1]), str(rows[0][2]))
            if 3 * at + 3 < len(values):
                values[3 * at + 3] = str(ids[at] - post_id)
        return ",".join(values)
    ids = list(accumulate(map(int, values[0::3])))
    kept = [row for row in zip(ids, map(int, values[1::3]), map(int, values[2::3]), strict=True) if row[0] not in gone]
    return ",".join(map(str, _flat(sorted(kept + rows))))


def _flat(triples: list[tuple[int, int, int]]) -> list[int]:
    """(post id, occurrences, first) triples as one list, ids as differences from the previous one."""
    flat: list[int] = []
    previous = 0
    for post_id, hits, first in triples:
        flat += (post_id - previous, hits, first)
        previous = post_id
    return flat


def _meta(posts: Sequence[Post], config: SiteConfig, versions: list[str]) -> bytes:
    """search/meta.json: the posts (title, date, url, tags, categories, series, text length), the links'
    base path, the posts per range, the version of each shard and of the text chunks, so a changed file is
    a new URL and caches stay right."""
    # By column, not by post: each column compresses against its own kind (a third less gzipped).
    columns = {"title": [post.title for post in posts], "date": [post.date_text for post in posts],
               "url": [post.url for post in posts], "tags": [list(post.tags) for post in posts],
               "categories": [list(post.categories) for post in posts], "series": [list(post.series) for post in posts],
               "length": [utf16_length(search_text(post)) for post in posts]}
    # The chunks' version: their text (a post's fingerprint also moves with blogbuild's own code).
    digest = hashlib.blake2b(digest_size=4)
    for post in posts:
        digest.update(post.url.encode("utf-8", "surrogatepass") + b"\x00")
        digest.update(search_text(post).encode("utf-8", "surrogatepass") + b"\x00")
    # Four characters per shard, in one string: 4,096 shards cost 16 KB, not 45.
    short = "".join(base64.urlsafe_b64encode(bytes.fromhex(version[:6])).decode("ascii") for version in versions)
    return _json({"base": _link_path(config, "/"), "chunk": CHUNK, "posts": columns, "range": RANGE,
                  "shards": short, "text": digest.hexdigest()})


def shard_path(number: int) -> str:
    """The output path of shard number."""
    return f"{FOLDER}/s-{number}.json"
