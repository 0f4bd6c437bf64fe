"""GoAT, the ASCII diagrams Hugo draws as SVG (`diagrams.Goat`, a ```goat code block): a port of bep/goat v0.5.0
(canvas.go, index.go, iter.go, svg.go), the library Hugo uses, so that a diagram's SVG is byte for byte Hugo's.

Origin: https://github.com/bep/goat at v0.5.0 (commit cc97a132eb5e894f8c4615d04029e4f4d071561c), itself a fork
of https://github.com/blampe/goat. Licence of the original, which this translation keeps:

    The MIT License (MIT)

    Copyright (c) 2016 Bryce Lampe

    Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
    documentation files (the "Software"), to deal in the Software without restriction, including without
    limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the
    Software, and to permit persons to whom the Software is furnished to do so, subject to the following
    conditions:

    The above copyright notice and this permission notice shall be included in all copies or substantial
    portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED
    TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL
    THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
    CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
    DEALINGS IN THE SOFTWARE.

The canvas is a grid of characters; goat walks it in four orders (row by row, column by column and along both
diagonals, iter.go), each cell by each. A blank cell only matters right after a drawn one (it ends the line being
followed), so this port visits the drawn cells in each order and the one cell after each: the work grows with the
characters drawn, not with the canvas's width times its height. Everything else follows the Go code step by step,
quirks included (a diagonal walk carries a line over from the end of one diagonal to the start of the next).
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

Index = tuple[int, int]   # (x, y): a column and a row of the diagram

# bufio.Scanner's largest line (bufio.MaxScanTokenSize): a longer one ends the diagram where it stands.
_MAX_LINE_BYTES = 64 * 1024

# Characters where more than one line segment can come together.
_JOINTS = frozenset(".'+*o")
_RESERVED = frozenset("-_|v^><o*+.'/\\)( ")


class _Orientation(IntEnum):
    NONE = 0
    N = 1
    NE = 2
    NW = 3
    S = 4
    SE = 5
    SW = 6
    E = 7
    W = 8


NONE, N, NE, NW, S, SE, SW, E, W = (_Orientation.NONE, _Orientation.N, _Orientation.NE, _Orientation.NW,
                                    _Orientation.S, _Orientation.SE, _Orientation.SW, _Orientation.E, _Orientation.W)


def _is_joint(rune: str) -> bool:
    return rune in _JOINTS


def _is_dot(rune: str) -> bool:
    return rune in ("o", "*")


def _is_triangle(rune: str) -> bool:
    return rune in ("^", "v", "<", ">")


def _east(i: Index) -> Index:
    return (i[0] + 1, i[1])


def _west(i: Index) -> Index:
    return (i[0] - 1, i[1])


def _north(i: Index) -> Index:
    return (i[0], i[1] - 1)


def _south(i: Index) -> Index:
    return (i[0], i[1] + 1)


def _north_west(i: Index) -> Index:
    return (i[0] - 1, i[1] - 1)


def _north_east(i: Index) -> Index:
    return (i[0] + 1, i[1] - 1)


def _south_west(i: Index) -> Index:
    return (i[0] - 1, i[1] + 1)


def _south_east(i: Index) -> Index:
    return (i[0] + 1, i[1] + 1)


@dataclass(frozen=True)
class GoatSVG:
    """A drawn diagram: the SVG's body (its `<g>`), its width and height in pixels (goat.SVG)."""

    body: str
    width: int
    height: int

    def wrapped(self) -> str:
        """The whole `<svg>` element, as goat.SVG.String writes it."""
        return (f"<svg class='diagram' xmlns='http://www.w3.org/2000/svg' version='1.1' height='{self.height}' "
                f"width='{self.width}' font-family='Menlo,Lucida Console,monospace'>\n{self.body}</svg>\n")


def build_svg(text: str) -> GoatSVG:
    """The SVG of a diagram written in text (goat.BuildSVG)."""
    canvas = _Canvas(_lines(str(text)))   # a plain string: markupsafe's Markup would escape what it is joined with
    return GoatSVG(canvas.svg_body(), (canvas.width + 1) * 8, canvas.height * 16 + 8 + 1)


def _lines(text: str) -> list[str]:
    """The lines bufio.Scanner reads of text: split at line feeds, a carriage return before one dropped, nothing
    after a final line feed, and none from the first line too long for its buffer on."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    read: list[str] = []
    for line in lines:
        if len(line) * 4 >= _MAX_LINE_BYTES and len(line.encode("utf-8", "surrogatepass")) >= _MAX_LINE_BYTES:
            break
        read.append(line.removesuffix("\r"))
    return read


# ---- the four orders goat walks a canvas in (iter.go), as sort keys and a step to the next cell --------------
@dataclass(frozen=True)
class _Walk:
    """One order of the cells of a width × height canvas: key sorts cells into it, after gives the next cell."""

    key: Callable[[Index], tuple[int, int]]
    after: Callable[[Index, int, int], Index | None]


def _after_left_right(i: Index, width: int, height: int) -> Index | None:
    x, y = i
    if x + 1 < width:
        return (x + 1, y)
    return (0, y + 1) if y + 1 < height else None


def _after_up_down(i: Index, width: int, height: int) -> Index | None:
    x, y = i
    if y + 1 < height:
        return (x, y + 1)
    return (x + 1, 0) if x + 1 < width else None


def _after_diagonal_down(i: Index, width: int, height: int) -> Index | None:
    # Diagonals of x - y from -height+1 up; along one, x ascending.
    x, y = i
    if x + 1 < width and y + 1 < height:
        return (x + 1, y + 1)
    difference = x - y + 1
    first_x = max(0, difference)
    return (first_x, first_x - difference) if first_x < width else None


def _after_diagonal_up(i: Index, width: int, height: int) -> Index | None:
    # Diagonals of x + y from 0 up; along one, x ascending.
    x, y = i
    if x + 1 < width and y - 1 >= 0:
        return (x + 1, y - 1)
    total = x + y + 1
    first_x = max(0, total - (height - 1))
    return (first_x, total - first_x) if first_x < width and total <= width + height - 2 else None


_LEFT_RIGHT = _Walk(lambda i: (i[1], i[0]), _after_left_right)
_UP_DOWN = _Walk(lambda i: (i[0], i[1]), _after_up_down)
_DIAGONAL_DOWN = _Walk(lambda i: (i[0] - i[1], i[0]), _after_diagonal_down)
_DIAGONAL_UP = _Walk(lambda i: (i[0] + i[1], i[0]), _after_diagonal_up)


def _in_order(cells: Iterable[Index], walk: _Walk) -> list[Index]:
    return sorted(cells, key=walk.key)


# ---- what goat draws ----------------------------------------------------------------------------------------
@dataclass
class _Line:
    """A straight segment between two cells (canvas.go Line)."""

    orientation: _Orientation
    start: Index = (0, 0)
    stop: Index = (0, 0)
    started: bool = False
    nudge_down: bool = False
    nudge_left: bool = False
    nudge_right: bool = False
    tiny_nudge_left: bool = False
    tiny_nudge_right: bool = False
    lonely: bool = False       # a segment all by itself, centred on the midline
    chop: _Orientation = NONE  # for a half step, the half that is cut off

    def set_start(self, i: Index) -> None:
        if not self.started:
            self.start = i
            self.stop = i
            self.started = True

    def set_stop(self, i: Index) -> None:
        if self.started:
            self.stop = i

    def goes_somewhere(self) -> bool:
        return self.start != self.stop

    def draw(self) -> str:
        start_x, start_y = self.start[0] * 8, self.start[1] * 16
        stop_x, stop_y = self.stop[0] * 8, self.stop[1] * 16
        if self.lonely:
            if self.orientation == NE:
                start_x, stop_x, start_y, stop_y = start_x - 4, stop_x - 4, start_y + 8, stop_y + 8
            elif self.orientation == SE:
                start_x, stop_x, start_y, stop_y = start_x - 4, stop_x - 4, start_y - 8, stop_y - 8
            elif self.orientation == S:
                start_y, stop_y = start_y - 8, stop_y - 8
            if self.chop == N:
                stop_y -= 8
            elif self.chop == S:
                start_y += 8
        if self.nudge_down:
            stop_y += 8
            if self.orientation in (E, W):
                start_y += 8
        if self.nudge_left:
            start_x -= 8
        if self.nudge_right:
            stop_x += 8
        if self.tiny_nudge_left:
            start_x -= 4
            if self.orientation == NE:
                start_y += 8
            elif self.orientation == SE:
                start_y -= 8
        if self.tiny_nudge_right:
            stop_x += 4
            if self.orientation == NE:
                stop_y -= 8
            elif self.orientation == SE:
                stop_y += 8
        return f"<path d='M {start_x},{start_y} L {stop_x},{stop_y}' fill='none' stroke='currentColor'></path>\n"


def _half_step(i: Index, chop: _Orientation) -> _Line:
    return _Line(S, start=i, stop=_south(i), started=True, lonely=True, chop=chop)


def _float32(value: float) -> float:
    """value rounded to a Go float32."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


_TRIANGLE_HALF_HEIGHT = _float32(0.35 * 16)
# A triangle's turn and whether it sits 4 pixels right of its cell's centre (the diagonal ones).
_TRIANGLE_TURNS = {N: (270.0, False), NE: (300.0, True), NW: (240.0, True), W: (180.0, False), E: (0.0, False),
                   S: (90.0, False), SW: (120.0, True), SE: (60.0, True), NONE: (0.0, False)}


@dataclass(frozen=True)
class _Triangle:
    """An arrow head: ^, v, < or > (canvas.go Triangle)."""

    start: Index
    orientation: _Orientation
    nudge: bool

    def draw(self) -> str:
        x, y = float(self.start[0] * 8), float(self.start[1] * 16)
        x0, y0 = x + 8, y
        x1, y1 = x - 4, _float32(y - _TRIANGLE_HALF_HEIGHT)
        x2, y2 = x - 4, _float32(y + _TRIANGLE_HALF_HEIGHT)
        turn, diagonal = _TRIANGLE_TURNS[self.orientation]
        shift = 0
        if diagonal:
            shift = 4 + (6 if self.nudge else 0)
        elif self.nudge:
            shift = -8 if self.orientation in (W, E) else 8
        x0, x1, x2 = x0 + shift, x1 + shift, x2 + shift
        return (f"<polygon points='{x0:f},{y0:f} {x1:f},{y1:f} {x2:f},{y2:f}' fill='currentColor' "
                f"transform='rotate({turn:f}, {x:f}, {y:f})'></polygon>\n")


def _circle(i: Index, bold: bool) -> str:
    fill = "currentColor" if bold else "#fff"
    return f"<circle cx='{i[0] * 8}' cy='{i[1] * 16}' r='6' stroke='currentColor' fill='{fill}'></circle>\n"


def _rounded_corner(i: Index, orientation: _Orientation) -> str:
    x, y = i[0] * 8, i[1] * 16
    sweep = 0
    start_x = start_y = end_x = end_y = 0
    if orientation == NW:
        start_x, start_y, end_x, end_y = x + 8, y, x - 8, y + 16
    elif orientation == NE:
        sweep, start_x, start_y, end_x, end_y = 1, x - 8, y, x + 8, y + 16
    elif orientation == SE:
        sweep, start_x, start_y, end_x, end_y = 1, x + 8, y - 16, x - 8, y
    elif orientation == SW:
        start_x, start_y, end_x, end_y = x - 8, y - 16, x + 8, y
    return f"<path d='M {start_x},{start_y} A 16,16 0 0,{sweep} {end_x},{end_y}' fill='none' stroke='currentColor'></path>\n"


def _bridge(i: Index, orientation: _Orientation) -> str:
    x, y = i[0] * 8, i[1] * 16
    sweep = 0 if orientation == W else 1
    return f"<path d='M {x},{y - 8} A 9,9 0 0,{sweep} {x},{y + 8}' fill='none' stroke='currentColor'></path>\n"


# Markdeep's shading characters, drawn as grey cells (0 opacity: an ordinary character).
_SHADES = {"▉": -64, "▓": 64, "▒": 128, "░": 191}
_XML_ESCAPES = {"&": "&amp;", ">": "&gt;", "<": "&lt;"}


def _text(i: Index, rune: str) -> str:
    x, y = i[0] * 8, i[1] * 16
    opacity = _SHADES.get(rune, 0)
    if opacity:
        fill = f"rgb({opacity},{opacity},{opacity})" if opacity > 0 else "currentColor"
        return f"<rect x='{x - 4}' y='{y - 8}' width='8' height='16' fill='{fill}'></rect>"
    shown = _XML_ESCAPES.get(rune, rune)
    return f"<text text-anchor='middle' x='{x}' y='{y + 4}' fill='currentColor' style='font-size:1em'>{shown}</text>\n"


# ---- the canvas ---------------------------------------------------------------------------------------------
class _Cells:
    """What a cell of the canvas is part of (canvas.go's tests of a cell): a corner, a line, text."""

    data: dict[Index, str]
    text: dict[Index, str]

    def rune_at(self, i: Index) -> str:
        return self.data.get(i, " ")

    # ---- what a cell is part of ----
    def _rounded_corner(self, i: Index) -> _Orientation:
        """For a joint, the corner it rounds off (NONE when it is not one)."""
        rune = self.rune_at(i)
        if not _is_joint(rune):
            return NONE
        rune_at = self.rune_at
        opens_up = rune in ("'", "+")
        opens_down = rune in (".", "+")
        right, left = rune_at(_east(i)), rune_at(_west(i))
        dash_right = right in ("-", "+", "_") or rune_at(_north_east(i)) == "_"
        dash_left = left in ("-", "+", "_") or rune_at(_north_west(i)) == "_"

        def vertical(j: Index) -> bool:
            found = rune_at(j)
            return found in ("|", "+", ")", "(") or _is_dot(found)

        if opens_down and dash_right and vertical(_south_west(i)):
            return NW
        if opens_down and dash_left and vertical(_south_east(i)):
            return NE
        if opens_up and dash_left and vertical(_north_east(i)):
            return SE
        if opens_up and dash_right and vertical(_north_west(i)):
            return SW
        return NONE

    def _is_text(self, i: Index) -> bool:
        """Whether a cell reads as text: a character goat does not draw, or one it draws among letters."""
        if i in self.text:
            return True
        rune = self.rune_at(i)
        if rune == " ":
            return False
        if rune not in _RESERVED:
            return True
        # A reserved character on a line across it is drawn.
        if self._line_above_or_below(i):
            return False
        # Reserved characters next to text are probably part of it ("foo----bar").
        west, east = _west(i), _east(i)
        if west in self.text or self.rune_at(east) not in _RESERVED:
            return True
        if not (self.rune_at(west) == " " and self.rune_at(east) == " "):
            return False
        if rune in ("o", "*"):   # a circle among spaces is drawn
            return False
        return self.rune_at(_west(west)) not in _RESERVED or self.rune_at(_east(east)) not in _RESERVED

    def _line_above_or_below(self, i: Index) -> bool:
        rune = self.rune_at(i)
        if rune in ("*", "o", "+", "v", "^"):
            return self._on_diagonal_line(i) or self._on_vertical_line(i)
        if rune == "|":
            return self._on_vertical_line(i) or self._on_rounded_corner(i)
        if rune in ("/", "\\"):
            return self._on_diagonal_line(i)
        if rune == "-":
            return self._on_rounded_corner(i)
        if rune in ("(", ")"):
            return self._on_vertical_line(i)
        return False

    def _on_vertical_line(self, i: Index) -> bool:
        this, north, south = self.rune_at(i), self.rune_at(_north(i)), self.rune_at(_south(i))
        if north == "|" or (this == "|" and _is_joint(north)):
            return True
        return south == "|" or (this == "|" and _is_joint(south))

    def _on_diagonal_line(self, i: Index) -> bool:
        rune_at = self.rune_at
        rune = rune_at(i)
        north, south = rune_at(_north(i)), rune_at(_south(i))
        north_west, south_east = rune_at(_north_west(i)), rune_at(_south_east(i))
        north_east, south_west = rune_at(_north_east(i)), rune_at(_south_west(i))
        if rune == "/":
            return (north_east == rune or south_west == rune or _is_joint(north_east) or _is_joint(south_west)
                    or north == "\\" or south == "\\")
        if rune == "\\":
            return (north_west == rune or south_east == rune or _is_joint(north_west) or _is_joint(south_east)
                    or north == "/" or south == "/")
        return north_west == "\\" or north_east == "/" or south_west == "/" or south_east == "\\"

    def _on_rounded_corner(self, i: Index) -> bool:
        """For - and |, whether they could be part of a rounded corner."""
        rune_at = self.rune_at
        rune = rune_at(i)
        if rune == "-":
            return rune_at(_west(i)) in (".", "'") or rune_at(_east(i)) in (".", "'")
        if rune == "|":
            return (rune_at(_north_west(i)) == "." or rune_at(_north_east(i)) == "."
                    or rune_at(_south_west(i)) == "'" or rune_at(_south_east(i)) == "'")
        return False

    def _half_step(self, i: Index) -> _Orientation:
        """For ', . and |, the half of a cell a line ends in (partOfHalfStep)."""
        rune = self.rune_at(i)
        if rune not in ("'", ".", "|"):
            return NONE
        if self._rounded_corner(i) != NONE:
            return NONE
        rune_at = self.rune_at
        west, east = rune_at(_west(i)), rune_at(_east(i))
        north, south = rune_at(_north(i)), rune_at(_south(i))
        north_west, north_east = rune_at(_north_west(i)), rune_at(_north_east(i))
        if rune == "'":
            if (north_west == "_" and east == "-") or (west == "-" and north_east == "_"):
                return N
        elif rune == ".":
            if (west == "-" and east == "_") or (west == "_" and east == "-"):
                return S
        else:
            if north != "|" and (north_east == "_" or north_west == "_"):
                return N
            if north == "-":
                return N
            if south != "|" and (west == "_" or east == "_"):
                return S
            if south == "-":
                return S
        return NONE


class _Canvas(_Cells):
    """A diagram's characters on a grid (canvas.go Canvas): those read as text apart from those drawn."""

    def __init__(self, lines: list[str]) -> None:
        self.width = max((len(line) for line in lines), default=0)
        self.height = len(lines)
        self.data: dict[Index, str] = {}
        for y, line in enumerate(lines):
            for x, rune in enumerate(line):
                self.data[(x, y)] = rune
        self.text: dict[Index, str] = {}
        # Everything read as text is taken out of the drawing first, which makes the drawing simpler to read.
        for i in _in_order(self._drawn(), _LEFT_RIGHT):
            if self._is_text(i):
                self.text[i] = self.rune_at(i)
        for i in self.text:
            del self.data[i]

    def _drawn(self) -> list[Index]:
        """The cells holding something other than a space."""
        return [i for i, rune in self.data.items() if rune != " "]

    def svg_body(self) -> str:
        drawn = self._drawn()
        up_down = _in_order(drawn, _UP_DOWN)
        left_right = _in_order(drawn, _LEFT_RIGHT)
        out = ["<g transform='translate(8,16)'>\n"]
        out.extend(line.draw() for line in self._lines(drawn, up_down))
        out.extend(shape.draw() for shape in self._triangles(up_down))
        out.extend(_rounded_corner(i, orientation) for i in left_right
                   if (orientation := self._rounded_corner(i)) != NONE)
        out.extend(_circle(i, self.rune_at(i) == "*") for i in up_down if self.rune_at(i) in ("o", "*"))
        out.extend(self._bridges(left_right))
        out.extend(self._texts())
        out.append("</g>\n")
        return "".join(out)

    # ---- lines ----
    def _lines(self, drawn: list[Index], up_down: list[Index]) -> list[_Line]:
        rune_at = self.rune_at
        horizontal_midlines = self._segment_lines(drawn, "-")

        diagonal_up = self._segment_lines(drawn, "/")
        for line in diagonal_up:
            if rune_at(_east(line.start)) == "_":
                line.tiny_nudge_left = True
            if rune_at(_north(line.stop)) == "_":
                line.tiny_nudge_right = True
            if not line.lonely and rune_at(_north_east(line.stop)) == "_":
                line.tiny_nudge_right = True
            if not line.lonely and rune_at(_west(line.start)) == "_":
                line.tiny_nudge_left = True
            if not line.lonely and rune_at(_north(line.stop)) == "\\":
                line.tiny_nudge_right = True
            if not line.lonely and rune_at(_south(line.start)) == "\\":
                line.tiny_nudge_left = True

        diagonal_down = self._segment_lines(drawn, "\\")
        for line in diagonal_down:
            if rune_at(_west(line.stop)) == "_":
                line.tiny_nudge_right = True
            if rune_at(_north(line.start)) == "_":
                line.tiny_nudge_left = True
            if not line.lonely and rune_at(_north_west(line.start)) == "_":
                line.tiny_nudge_left = True
            if not line.lonely and rune_at(_east(line.stop)) == "_":
                line.tiny_nudge_right = True
            if not line.lonely and rune_at(_south(line.stop)) == "/":
                line.tiny_nudge_right = True
            if not line.lonely and rune_at(_north(line.start)) == "/":
                line.tiny_nudge_left = True

        baselines = self._segment_lines(drawn, "_")
        for line in baselines:
            line.nudge_down = True
            start, stop = line.start, line.stop
            if rune_at(_south_east(stop)) == "|" or rune_at(_north_east(stop)) == "|":
                line.nudge_right = True
            if rune_at(_south_west(start)) == "|" or rune_at(_north_west(start)) == "|":
                line.nudge_left = True
            if rune_at(_east(stop)) == "/" or rune_at(_south_east(stop)) == "\\":
                line.tiny_nudge_right = True
            if rune_at(_west(start)) == "\\" or rune_at(_south_west(start)) == "/":
                line.tiny_nudge_left = True
            if rune_at(_east(stop)) == "\\":
                line.nudge_right = True
                line.tiny_nudge_right = True
            if rune_at(_west(start)) == "/":
                line.nudge_left = True
                line.tiny_nudge_left = True
            if rune_at(_south(stop)) == "/":
                line.tiny_nudge_right = True
            if rune_at(_south(start)) == "\\":
                line.tiny_nudge_left = True
            if rune_at(_south_west(start)) == "'":
                line.nudge_left = True
            if rune_at(_south_east(stop)) == "'":
                line.nudge_right = True

        vertical = self._segment_lines(drawn, "|")
        half_steps = [_half_step(i, chop) for i in up_down if (chop := self._half_step(i)) != NONE]
        return horizontal_midlines + baselines + vertical + diagonal_up + diagonal_down + half_steps

    def _segment_lines(self, drawn: list[Index], segment: str) -> list[_Line]:
        """The lines drawn with one segment character, in the order goat walks for it (getLinesForSegment)."""
        if segment == "-":
            walk, orientation, through = _LEFT_RIGHT, E, _JOINTS | set("<>()")
        elif segment == "_":
            walk, orientation, through = _LEFT_RIGHT, E, _JOINTS | {"|"}
        elif segment == "|":
            walk, orientation, through = _UP_DOWN, S, _JOINTS | {"^", "v"}
        elif segment == "/":
            walk, orientation, through = _DIAGONAL_UP, NE, _JOINTS | set("<>^v|")
        else:
            walk, orientation, through = _DIAGONAL_DOWN, SE, _JOINTS | set("<>^v|")
        return self._follow(self._walked(drawn, walk), segment, frozenset(through), orientation)

    def _walked(self, drawn: list[Index], walk: _Walk) -> Iterator[Index]:
        """The cells of a (width+1) × (height+1) walk that can change a line being followed: each drawn cell and
        the cell after it."""
        width, height = self.width + 1, self.height + 1
        cells = _in_order(drawn, walk)
        for position, i in enumerate(cells):
            yield i
            following = walk.after(i, width, height)
            if following is not None and (position + 1 == len(cells) or cells[position + 1] != following):
                yield following

    def _follow(self, cells: Iterable[Index], segment: str, through: frozenset[str],
                orientation: _Orientation) -> list[_Line]:
        """canvas.go getLines: follow runs of segment (and the characters it passes under) along the walk."""
        lines: list[_Line] = []

        def snip(line: _Line) -> _Line:
            if line.goes_somewhere():
                lines.append(line)
            return _Line(orientation)

        current = _Line(orientation)
        last_seen = " "
        for i in cells:
            rune = self.rune_at(i)
            is_segment = rune == segment
            is_through = rune in through
            corner = self._rounded_corner(i)
            just_passed_through = last_seen in through
            keep = (is_segment or is_through) and corner == NONE
            # A rounded corner that is also a joint on a line across it ('+-- over a |) carries the line on.
            if corner != NONE and orientation != E and (self._on_vertical_line(i) or self._on_diagonal_line(i)):
                keep = True
            # | does not join > on a diagonal, nor ) ) on a horizontal.
            if is_through and just_passed_through and orientation != S:
                current = snip(current)
            # o does not join o, nor + join o, though this cell may start a line of its own.
            if just_passed_through and (_is_dot(rune) or _is_triangle(rune)):
                current = snip(current)
            if not current.started:
                if keep:
                    current.set_start(i)
            elif not keep:
                # A segment all by itself is kept, one cell long, and marked (the / and \ cases move it).
                if not current.goes_somewhere() and last_seen == segment and not self._on_rounded_corner(current.start):
                    current.set_stop(i)
                    current.lonely = True
                current = snip(current)
            elif is_through:
                # The line ends under this character and may go on from it.
                current.set_stop(i)
                current = snip(current)
                current.set_start(i)
            else:
                current.set_stop(i)
            last_seen = rune
        return lines

    # ---- shapes ----
    def _triangles(self, up_down: list[Index]) -> list[_Line | _Triangle]:
        """Arrow heads, each after the tail it grows to meet a line it points at."""
        rune_at = self.rune_at
        shapes: list[_Line | _Triangle] = []

        def tail_to(i: Index) -> bool:
            rune = rune_at(i)
            return rune == "-" or (_is_joint(rune) and not _is_dot(rune))

        for start in up_down:
            rune = rune_at(start)
            if not _is_triangle(rune):
                continue
            if rune == "^":
                orientation = N
                if rune_at(_south_west(start)) == "/":
                    orientation = NE
                elif rune_at(_south_east(start)) == "\\":
                    orientation = NW
            elif rune == "v":
                orientation = S
                if rune_at(_north_east(start)) == "/":
                    orientation = SW
                elif rune_at(_north_west(start)) == "\\":
                    orientation = SE
            else:
                orientation = W if rune == "<" else E
            nudge = False
            if orientation == N and tail_to(_north(start)):
                nudge = True
                shapes.append(_half_step(start, N))
            elif orientation == NW and tail_to(_north_west(start)):
                nudge = True
                shapes.append(_Line(SE, start=_north_west(start), stop=start, started=True))
            elif orientation == NE and tail_to(_north_east(start)):
                nudge = True
                shapes.append(_Line(NE, start=start, stop=_north_east(start), started=True))
            elif orientation == S and tail_to(_south(start)):
                nudge = True
                shapes.append(_half_step(start, S))
            elif orientation == SE and tail_to(_south_east(start)):
                nudge = True
                shapes.append(_Line(SE, start=start, stop=_south_east(start), started=True))
            elif orientation == SW and tail_to(_south_west(start)):
                nudge = True
                shapes.append(_Line(NE, start=_south_west(start), stop=start, started=True))
            elif orientation == W and _is_dot(rune_at(_west(start))):
                nudge = True
            elif orientation == E and _is_dot(rune_at(_east(start))):
                nudge = True
            shapes.append(_Triangle(start, orientation, nudge))
        return shapes

    def _bridges(self, left_right: list[Index]) -> Iterator[str]:
        """-)- and -(-: a vertical line hopping over a horizontal one."""
        for i in left_right:
            rune = self.rune_at(i)
            if rune not in ("(", ")") or self.rune_at(_west(i)) != "-" or self.rune_at(_east(i)) != "-":
                continue
            yield _half_step(_north(i), S).draw()
            yield _half_step(_south(i), N).draw()
            yield _bridge(i, W if rune == "(" else E)

    def _texts(self) -> Iterator[str]:
        """The text characters by column, then row; ╱ ╲ ╳ drawn as short lines, as markdeep does."""
        for i in sorted(self.text):
            rune = self.text[i]
            if rune in ("╱", "╳"):
                yield _Line(NE, start=i, stop=_north_east(i), started=True, lonely=True).draw()
            elif rune == "╲":
                yield _Line(SE, start=i, stop=_south_east(i), started=True, lonely=True).draw()
            else:
                yield _text(i, rune)

