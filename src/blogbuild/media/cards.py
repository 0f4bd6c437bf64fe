"""Social cards: a 1200x630 PNG per post (title, series and part, site name, date) for og:image.

Drawn with Pillow at build time. Every character is drawn with the first font of a chain whose cmap has
it (the site's own font, then Noto Sans CJK in the site language's variant, then DejaVu Sans), so a
Chinese title never comes out as empty boxes (the failure MkDocs Material's cards are known for); a
character no font has is left out and reported. A card is kept in .blogbuild-cache/cards/ under the hash
of everything drawn on it, and its URL carries that hash, so a sharing platform's cached copy of an old
card is never shown for a new title.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import indexed_png
from .card_paths import CardText, card_path, card_text
from ..config.cards import CardOptions, site_font_file
from ..core.cache_keys import CARDS_FORMAT
from ..core.errors import SourceError
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..config import SiteConfig

WIDTH, HEIGHT = 1200, 630
PADDING = 80
CARD_CACHE = "cards"          # below .blogbuild-cache/
ELLIPSIS = "…"
# Where Debian (fonts-noto-cjk, fonts-dejavu-core), Fedora and Arch put the fonts the chain uses.
_CJK_FOLDERS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/google-noto-cjk", "/usr/share/fonts/noto-cjk",
                "/usr/share/fonts/opentype/noto-cjk")
_DEJAVU_FOLDERS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")
# Noto Sans CJK's collection: JP, KR, SC, TC, HK faces in this order; the language picks the glyph shapes.
_CJK_FACE = {"ja": 0, "ko": 1, "zh-cn": 2, "zh-sg": 2, "zh-hans": 2, "zh": 2, "zh-tw": 3, "zh-hant": 3, "zh-hk": 4}
# Closing punctuation never starts a line (kinsoku): it stays at the end of the line before.
_NO_LINE_START = set("，。、；：？！）」』》〉】〕”’,.;:?!)]}…・ー")
# The card's patterns are compiled when the first card is drawn, not on import: the config imports this module,
# and their Unicode ranges cost 3 ms to compile on every build, most of which (carried on) draw no card.
@lru_cache(maxsize=1)
def _token_pattern() -> re.Pattern[str]:
    return re.compile(r"[0-9A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF_\-'’.:/+#@&]+\s*|\s+|.", re.DOTALL)





class FontError(Exception):
    """A font of the chain could not be read (a damaged file): its path and what went wrong."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(path, problem)
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class FontFace:
    """One font of the chain: a file, the face's index in a collection, and the characters it has."""

    path: str
    index: int
    characters: frozenset[int]

    def covers(self, character: str) -> bool:
        """Whether the font's cmap maps this character to a glyph."""
        return ord(character) in self.characters


@lru_cache(maxsize=32)
def load_face(path: str, index: int = 0) -> FontFace:
    """A font's cmap read with fontTools (Pillow does not expose it); cached per process."""
    from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]
    if path.lower().endswith((".ttc", ".otc")):
        with TTCollection(path, lazy=True) as collection:
            characters = _characters(collection.fonts[index])
    else:
        with TTFont(path, lazy=True, fontNumber=index) as font:
            characters = _characters(font)
    return FontFace(path, index, characters)


def _characters(font: Any) -> frozenset[int]:
    """The characters a fontTools font maps. Glyphs are given numbers for names: the real names come from
    the CFF charset in an OpenType CJK font, half the time of reading its cmap, and only the keys are kept."""
    font.setGlyphOrder([f"glyph{number}" for number in range(font["maxp"].numGlyphs)])
    return frozenset(font.getBestCmap() or {})


def _first_file(folders: Sequence[str], names: Sequence[str]) -> str | None:
    for folder in folders:
        for name in names:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
    return None


def font_files(language: str, bold: bool, site_font: str = "") -> tuple[tuple[str, int], ...]:
    """The (file, face index) of each font of the chain, found without reading any: the site's, Noto Sans CJK,
    DejaVu Sans."""
    files = []
    if site_font:
        files.append((site_font, 0))
    weight = "Bold" if bold else "Regular"
    cjk = _first_file(_CJK_FOLDERS, (f"NotoSansCJK-{weight}.ttc", f"NotoSansCJKsc-{weight}.otf",
                                     f"NotoSansCJK-{weight}.otc"))
    if cjk is not None:
        lowered = language.lower()
        index = _CJK_FACE.get(lowered, _CJK_FACE.get(lowered.split("-")[0], 2)) if cjk.endswith((".ttc", ".otc")) else 0
        files.append((cjk, index))
    dejavu = _first_file(_DEJAVU_FOLDERS, (f"DejaVuSans{'-Bold' if bold else ''}.ttf",))
    if dejavu is not None:
        files.append((dejavu, 0))
    return tuple(files)


def font_chain(language: str, bold: bool, site_font: str = "") -> tuple[FontFace, ...]:
    """The fonts tried in order for each character (font_files), their cmaps read."""
    return _read_faces(font_files(language, bold, site_font))


def _read_faces(files: Sequence[tuple[str, int]]) -> tuple[FontFace, ...]:
    """load_face of each (file, face index); FontError names the file a damaged font came from."""
    faces = []
    for path, index in files:
        try:
            faces.append(load_face(path, index))
        except Exception as error:   # fontTools raises many kinds on a damaged file (TTLibError, struct.error, ...)
            raise FontError(path, f"{type(error).__name__}: {error}") from error
    return tuple(faces)


@dataclass(frozen=True)
class GlyphRun:
    """Text drawn in one font at one place: what tests look at to check each character's pixels."""

    x: float
    baseline: float
    text: str
    face: FontFace
    size: int
    accent: bool = False   # drawn in the accent colour (else the text colour)


@dataclass(frozen=True)
class DrawnCard:
    """A card's image, the runs drawn on it, and the characters no font had (left out)."""

    image: Any       # PIL.Image.Image
    runs: tuple[GlyphRun, ...]
    missing: str
    inked_rows: tuple[tuple[int, int], ...] | None = None   # rows with ink, outside them all rows alike


@lru_cache(maxsize=64)
def _pillow_font(path: str, index: int, size: int) -> Any:
    from PIL import ImageFont
    return ImageFont.truetype(path, size, index=index)


@lru_cache(maxsize=8)
def _coverage(faces: tuple[FontFace, ...]) -> dict[str, FontFace | None]:
    """A per-chain memo of the first face covering each character (filled as characters are met)."""
    return {}


def split_runs(text: str, faces: Sequence[FontFace]) -> tuple[list[tuple[str, FontFace]], str]:
    """text cut into runs of characters that the same (first covering) font draws, and the characters
    no font covers (left out: a box is never drawn)."""
    covering = _coverage(tuple(faces))
    runs: list[tuple[str, FontFace]] = []
    missing = []
    for character in text:
        if character in covering:
            face = covering[character]
        else:
            face = covering[character] = next((face for face in faces if face.covers(character)), None)
        if face is None:
            if not character.isspace() and unicodedata.category(character) not in ("Cc", "Cf"):
                missing.append(character)
            continue
        if runs and runs[-1][1] is face:
            runs[-1] = (runs[-1][0] + character, face)
        else:
            runs.append((character, face))
    return runs, "".join(missing)


@lru_cache(maxsize=1 << 16)
def _run_width(path: str, index: int, size: int, text: str) -> float:
    """getlength of one run, remembered: titles of a blog share words, and wrap asks about them often."""
    return float(_pillow_font(path, index, size).getlength(text))


def text_width(text: str, faces: Sequence[FontFace], size: int) -> float:
    """The advance width of text drawn through the chain at size."""
    return _chain_width(tuple(faces), size, text)


@lru_cache(maxsize=1 << 16)
def _chain_width(faces: tuple[FontFace, ...], size: int, text: str) -> float:
    runs, _ = split_runs(text, faces)
    return sum(_run_width(face.path, face.index, size, part) for part, face in runs)


def _fits(line: str, approximate: float, faces: Sequence[FontFace], size: int, width: float) -> bool:
    """Whether line fits in width, measured exactly only when the sum of its tokens' widths (which leaves out
    kerning across tokens, a fraction of the size at most) is too close to tell."""
    margin = size * 0.25
    if approximate < width - margin:
        return True
    if approximate > width + margin:
        return False
    return text_width(line, faces, size) <= width


def wrap(text: str, faces: Sequence[FontFace], size: int, width: float, max_lines: int) -> list[str]:
    """Lines of at most width: Latin words kept whole, CJK broken between characters, closing
    punctuation kept off a line's start; more than max_lines ends the last line with an ellipsis."""
    tokens = _token_pattern().findall(" ".join(text.split()))
    lines: list[str] = []
    current, current_width = "", 0.0     # current_width: the sum of its tokens' widths
    for token in tokens:
        stripped = token.rstrip()
        if current and token.strip() and token[0] not in _NO_LINE_START and not _fits(
                current + stripped, current_width + text_width(stripped, faces, size), faces, size, width):
            lines.append(current.rstrip())
            current = token.lstrip()
            current_width = text_width(current, faces, size)
        else:
            current += token
            current_width += text_width(token, faces, size)
        while current_width > width - size * 0.25 and len(current.strip()) > 1 \
                and len(_token_pattern().findall(current.strip())) == 1 \
                and text_width(current.rstrip(), faces, size) > width:
            # One word wider than the card: cut it where it overflows.
            cut = len(current)
            while cut > 1 and text_width(current[:cut], faces, size) > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
            current_width = text_width(current, faces, size)
    if current.strip():
        lines.append(current.rstrip())
    if len(lines) <= max_lines:
        return lines
    last = lines[max_lines - 1]
    while last and text_width(last + ELLIPSIS, faces, size) > width:
        last = last[:-1]
    return lines[:max_lines - 1] + [last.rstrip(" ,.;:，。、；：") + ELLIPSIS]


class _Canvas:
    """The card as palette indices: 0 is the background and 1..127 blend it toward the text colour; 128 is
    the background again and 129..255 blend it toward the accent. Ink is drawn by coverage into one "P"
    image, so the PNG is 8-bit indexed: a third of RGB's bytes to compress, and a smaller file to share."""

    def __init__(self, options: CardOptions) -> None:
        from PIL import Image, ImageDraw
        self.image = Image.new("P", (WIDTH, HEIGHT), 0)
        self.image.putpalette(card_palette(options))
        self.draw = ImageDraw.Draw(self.image)
        self.inked_rows: list[tuple[int, int]] = []   # (top, bottom): outside them a row is the bar only

    def line(self, text: str, x: float, baseline: int, faces: Sequence[FontFace], size: int, accent: bool,
             runs: list[GlyphRun]) -> None:
        """text drawn from x on baseline, each run in its font; the runs appended to runs."""
        parts = split_runs(text, faces)[0]
        for number, (part, face) in enumerate(parts):
            # A space's mask has no rows: nothing to draw, and no box to set.
            masks = [(mask, int(piece_x) + left, baseline + top)
                     for mask, (left, top), piece_x in _run_masks(face, size, part, x) if min(mask.size) > 0]
            if accent:
                # Accent ink blends from index 128 (the background's colour too) up to 255: the masks' boxes
                # are set to 128 first. Lines never share pixels, so no other ink is under them.
                for mask, column, row in masks:
                    self.draw.rectangle((column, row, column + mask.size[0] - 1, row + mask.size[1] - 1),
                                        fill=_ACCENT_ZERO)
            for mask, column, row in masks:
                # One baseline for every font of the line, so a Latin run sits level with the CJK beside it.
                self.draw.draw.draw_bitmap((column, row), mask, _ACCENT_FULL if accent else _COLOR_FULL)
                self.inked_rows.append((row, row + mask.size[1]))
            runs.append(GlyphRun(x, baseline, part, face, size, accent))
            if number + 1 < len(parts):   # a line's last run is measured by nothing after it
                x += _run_width(face.path, face.index, size, part)

    def bar(self) -> None:
        """The accent bar down the left edge."""
        self.draw.rectangle((0, 0, 18, HEIGHT), fill=_ACCENT_FULL)


def _run_masks(face: FontFace, size: int, text: str, x: float) -> list[tuple[Any, tuple[int, int], float]]:
    """(coverage mask, offset from the origin, origin) of each piece of a run drawn from x, as ImageDraw.text
    draws a line (the mask made at x's fraction of a pixel, blended in at its whole pixel). The pieces are
    the run itself, or its ideographs one by one and the text between them when that gives the same pixels:
    an ideograph's mask is kept, and a Chinese blog's titles share most of theirs."""
    pieces = _ideograph_pieces(face, size, text)
    if pieces is None:
        return [(*_run_mask(face.path, face.index, size, text, x - int(x)), x)]
    masks = []
    for piece in pieces:
        made = _glyph_mask if _is_ideograph(piece[0]) else _run_mask
        masks.append((*made(face.path, face.index, size, piece, x - int(x)), x))
        x += _run_width(face.path, face.index, size, piece)
    return masks


def _is_ideograph(character: str) -> bool:
    return "\u4e00" <= character <= "\u9fff" or "\u3400" <= character <= "\u4dbf"


@lru_cache(maxsize=1)
def _ideograph_or_not() -> re.Pattern[str]:
    return re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\u3400-\u4dbf\u4e00-\u9fff]+")


def _ideograph_pieces(face: FontFace, size: int, text: str) -> list[str] | None:
    """text cut around each ideograph, or None when the pieces drawn one after another could differ from the
    run: text shaped across a cut (marks, joiners, variation selectors, right-to-left text) or kerned across
    one (the pieces' widths do not add up to the run's)."""
    pieces = _ideograph_or_not().findall(text)
    if len(pieces) < 2 or not any(_is_ideograph(piece[0]) for piece in pieces):
        return None
    for character in text:
        if ord(character) >= 0x300 and not _is_ideograph(character) and (
                unicodedata.category(character) in ("Mn", "Me", "Cf") or
                unicodedata.bidirectional(character) in ("R", "AL", "AN")):
            return None
    whole = _run_width(face.path, face.index, size, text)
    if sum(_run_width(face.path, face.index, size, piece) for piece in pieces) != whole:
        return None
    return pieces


@lru_cache(maxsize=64)
def _run_mask(path: str, index: int, size: int, text: str, fraction: float) -> tuple[Any, tuple[int, int]]:
    """The anti-aliased coverage of text drawn at a fraction of a pixel, and its offset from the baseline's
    origin; remembered for the runs every card has (the site's name)."""
    return _pillow_font(path, index, size).getmask2(text, "L", anchor="ls", start=(fraction, 0.0))


@lru_cache(maxsize=2048)
def _glyph_mask(path: str, index: int, size: int, text: str, fraction: float) -> tuple[Any, tuple[int, int]]:
    """_run_mask for one ideograph, with room for a blog's worth of them (about 5 kB each at the title's size)."""
    return _pillow_font(path, index, size).getmask2(text, "L", anchor="ls", start=(fraction, 0.0))


_COLOR_FULL = 127     # the text colour at full coverage (0 is none: the background)
_ACCENT_ZERO, _ACCENT_FULL = 128, 255


@lru_cache(maxsize=8)
def card_palette(options: CardOptions) -> bytes:
    """256 RGB entries: the background blended toward the text colour (0..127) and toward the accent (128..255)."""
    background, color, accent = (bytes.fromhex(value[1:]) for value in (options.background, options.color,
                                                                      options.accent))
    palette = bytearray()
    for ink in (color, accent):
        for step in range(_COLOR_FULL + 1):
            palette += bytes(round(base + (top - base) * step / _COLOR_FULL) for base, top in zip(background, ink, strict=True))
    return bytes(palette)


def _title_layout(title: str, faces: Sequence[FontFace], width: float) -> tuple[int, list[str]]:
    """The largest title size at which the title fits in three lines (else the smallest, shortened)."""
    for size in (76, 68, 60):
        lines = wrap(title, faces, size, width, 3)
        if not lines[-1].endswith(ELLIPSIS) or size == 60:
            if size == 60 and lines[-1].endswith(ELLIPSIS):
                lines = wrap(title, faces, 52, width, 4)
                return 52, lines
            return size, lines
    raise AssertionError("unreachable")


def draw_card(text: CardText, options: CardOptions, title_faces: Sequence[FontFace],
              body_faces: Sequence[FontFace]) -> DrawnCard:
    """The card as an image, with the runs drawn (for tests) and the characters left out."""
    canvas = _Canvas(options)
    canvas.bar()
    runs: list[GlyphRun] = []
    inner = WIDTH - 2 * PADDING
    site = wrap(text.site, body_faces, 34, inner, 1)
    if site:
        canvas.line(site[0], PADDING, PADDING + 30, body_faces, 34, True, runs)
    size, lines = _title_layout(text.title, title_faces, inner)
    line_height = round(size * 1.3)
    top = PADDING + 60 + size
    for number, line in enumerate(lines):
        canvas.line(line, PADDING, top + number * line_height, title_faces, size, False, runs)
    bottom = HEIGHT - PADDING
    if text.date:
        canvas.line(text.date, PADDING, bottom, body_faces, 30, False, runs)
        bottom -= 50
    if text.series:
        series = wrap(text.series, body_faces, 30, inner, 1)
        canvas.line(series[0], PADDING, bottom, body_faces, 30, True, runs)
    missing = "".join(dict.fromkeys(split_runs(text.title, title_faces)[1] + split_runs(
        f"{text.site}{text.series}{text.date}", body_faces)[1]))
    return DrawnCard(canvas.image, tuple(runs), missing, tuple(canvas.inked_rows))


def font_identities(files: Sequence[tuple[str, int]]) -> list[str]:
    """Each font (file, face index) as its file, face, size and mtime: what a card's key says about the fonts."""
    identities = []
    for path, index in files:
        status = os.stat(path)
        identities.append(f"{path}:{index}:{status.st_size}:{status.st_mtime_ns}")
    return identities


def card_key(text: CardText, options: CardOptions, fonts: Sequence[str]) -> str:
    """The hash of everything drawn: the text, the options, the fonts (their font_identities)."""
    from PIL import __version__ as pillow_version
    return hashlib.sha256(repr((CARDS_FORMAT, pillow_version, text, options, list(fonts))).encode()).hexdigest()


class CardMaker:
    """Cards for one site's settings: the font chains, the URL of a post's card, the PNG (cached on disk)."""

    def __init__(self, options: CardOptions, language: str, root: str, cache_folder: Path) -> None:
        self.options = options
        self.language = language
        site_font = site_font_file(options, root)
        self._title_files = font_files(language, True, site_font)
        self._body_files = font_files(language, False, site_font)
        self.cache_folder = cache_folder
        self.drawn = 0        # cards drawn (not taken from the cache) by this maker
        # Read once per maker (a build), not per card: the fonts do not change during a build. Their files are
        # only stated: the cmaps (0.3 s for Noto Sans CJK) are read when a card is drawn, which a build whose
        # cards are all cached never does.
        self.fonts = font_identities((*self._title_files, *self._body_files))

    @cached_property
    def title_faces(self) -> tuple[FontFace, ...]:
        """The title's font chain, read on first use."""
        return _read_faces(self._title_files)

    @cached_property
    def body_faces(self) -> tuple[FontFace, ...]:
        """The chain of the site name, date and series line, read on first use."""
        return _read_faces(self._body_files)

    def is_cached(self, text: CardText) -> bool:
        """Whether the card for text is in the cache already."""
        return (self.cache_folder / f"{card_key(text, self.options, self.fonts)}.png").is_file()

    def png(self, text: CardText) -> tuple[str, str]:
        """(the card's PNG file in the cache, the characters left out); drawn only when not cached."""
        key = card_key(text, self.options, self.fonts)
        path = self.cache_folder / f"{key}.png"
        missing_record = self.cache_folder / f"{key}.missing"
        if path.is_file():
            missing = missing_record.read_text(encoding="utf-8") if missing_record.is_file() else ""
            return str(path), missing
        drawn = draw_card(text, self.options, self.title_faces, self.body_faces)
        self.cache_folder.mkdir(parents=True, exist_ok=True)
        if drawn.missing:
            missing_record.write_text(drawn.missing, encoding="utf-8")
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(indexed_png.encode(drawn.image, drawn.inked_rows))
        os.replace(temporary, path)
        self.drawn += 1
        return str(path), drawn.missing


def _font_error(config: SiteConfig, error: FontError) -> SourceError:
    """A font that could not be read, at the config's cards.font line when it is the site's own font."""
    from ..core.keys import nested_key_line
    if error.path == site_font_file(config.cards, config.root) and config.config_path:
        try:
            text = Path(config.config_path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        return SourceError(config.config_path, nested_key_line(text, ("cards", "font")) if text else 1,
                           f"cards.font: {config.cards.font!r} cannot be read as a font ({error.problem}); "
                           "replace it with an undamaged .ttf or .otf", stage="config")
    return SourceError(error.path, 1, f"social cards: this font cannot be read ({error.problem}); reinstall it "
                       "(fonts-noto-cjk, fonts-dejavu-core), or turn cards off with cards: false", stage="cards")


def _title_line(config: SiteConfig, post: Any) -> int:
    """The line of the post's title in its file (read only for a warning), 1 when it cannot be read."""
    from ..core.keys import key_line
    try:
        text = (Path(config.root) / config.source_dir / post.rel_path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 1
    return key_line(text, "title")


_FORKED_MAKER: CardMaker | None = None


def _draw_forked(text: CardText) -> tuple[str, str]:
    assert _FORKED_MAKER is not None
    return _FORKED_MAKER.png(text)


def _draw_all(maker: CardMaker, texts: list[CardText], jobs: int) -> list[tuple[str, str]]:
    """maker.png for every text; cards not cached yet are drawn in forked workers when there are many."""
    global _FORKED_MAKER
    uncached = [text for text in dict.fromkeys(texts) if not maker.is_cached(text)]
    if jobs > 1 and len(uncached) >= 32 and sys.platform.startswith("linux"):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        _FORKED_MAKER = maker
        _ = maker.title_faces, maker.body_faces   # read before forking: the workers inherit the cmaps
        try:
            with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
                list(pool.map(_draw_forked, uncached, chunksize=8))
        finally:
            _FORKED_MAKER = None
        maker.drawn += len(uncached)
    return [maker.png(text) for text in texts]


def card_stage(site: Any, config: SiteConfig, cache_folder: Path,
               jobs: int = 1) -> tuple[list[tuple[str, str]], list[Any], int]:
    """Every post's card: [(output path, cached PNG)], warnings for characters no font has, cards drawn."""
    from ..core.errors import SourceWarning
    if not config.cards.enabled:
        return [], [], 0
    wanted = []
    for post in site.pages:
        nav = site.navigation.get(post.url)
        path = card_path(post, nav, config)
        if path:
            wanted.append((post, path, card_text(post, nav, config)))
    if not wanted:   # the fonts' cmaps are read only when some post needs a card
        return [], [], 0
    maker = CardMaker(config.cards, config.language_code, config.root, cache_folder)
    try:
        drawn = _draw_all(maker, [text for _, _, text in wanted], jobs)
    except FontError as error:
        raise _font_error(config, error) from None
    files: list[tuple[str, str]] = []
    warnings: list[SourceWarning] = []
    for (post, path, _), (png, missing) in zip(wanted, drawn, strict=True):
        files.append((path, png))
        if missing:
            warnings.append(SourceWarning(post.source, _title_line(config, post), f"social card: no font has "
                                          f"{missing!r}; left out of the card (install fonts-noto-cjk, or name a "
                                          "font under cards: font:)"))
    return files, warnings, maker.drawn
