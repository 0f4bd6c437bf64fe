"""Numbers as Hugo's templates cast them and Hugo's `+` (math.DoArithmetic), shared by the functions and by
`.Scratch.Add`; HugoFunctionError (function_error.py), the error of a function given what it cannot use."""
from __future__ import annotations

import re
from typing import Any

from .function_error import HugoFunctionError

__all__ = ["HugoFunctionError", "add_values", "go_ge", "go_gt", "go_le", "go_lt", "number"]


def number(value: Any) -> int | float:
    """A value as a number, as Hugo casts one for arithmetic: a string of digits an int, of a decimal a float."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    try:
        text = str(value).strip()
        return int(text) if re.fullmatch(r"[-+]?\d+", text) else float(text)
    except ValueError:
        raise HugoFunctionError(f"unable to cast {value!r} to a number") from None


def add_values(left: Any, right: Any) -> Any:
    """Hugo's `+` (math.DoArithmetic): two strings are joined, numbers added (int while both are)."""
    if isinstance(left, str) and isinstance(right, str):
        return left + right
    return number(left) + number(right)


# Go's strconv.ParseFloat syntax (decimal, with an exponent, or hexadecimal; underscores only after a base prefix).
_GO_FLOAT = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|0[xX][0-9a-fA-F_.]+(?:[pP][-+]?\d+)?)")


def _ordered(value: Any) -> tuple[float, str | None]:
    """A value as Hugo's lt/le/gt/ge weigh it (compareGet): a number, a string of a number as that number, a string
    of anything else as the string (a number then against 0), a list or map as its length, true as 1, a time as its
    Unix seconds, nil and anything else as 0."""
    if isinstance(value, bool):
        return float(value), None
    if isinstance(value, (int, float)):
        return float(value), None
    if isinstance(value, str):
        if _GO_FLOAT.fullmatch(value):
            try:
                parsed = float.fromhex(value) if value.lower().lstrip("+-").startswith("0x") else float(value)
                return parsed, None
            except (ValueError, OverflowError):
                pass
        return 0.0, str(value)
    if isinstance(value, (list, tuple, dict)) or (hasattr(type(value), "__len__") and hasattr(type(value), "__iter__")):
        return float(len(value)), None
    unix = getattr(value, "Unix", None) if hasattr(type(value), "Unix") else None   # a time (GoTime)
    return (float(unix), None) if isinstance(unix, int) else (0.0, None)


def _compared(left: Any, right: Any) -> tuple[Any, Any]:
    """The two sides of Hugo's lt, le, gt and ge as they are compared: a value that orders itself (hugo.Version)
    by its own rule, two strings as strings, else as _ordered weighs them (two strings of no number as strings)."""
    kind = type(left)
    if kind is type(right) and kind in (int, float, str):
        return left, right
    if getattr(type(left), "go_comparer", False) or getattr(type(right), "go_comparer", False):
        return left, right
    if isinstance(left, str) and isinstance(right, str):
        return str(left), str(right)
    (left_number, left_text), (right_number, right_text) = _ordered(left), _ordered(right)
    if left_text is not None and right_text is not None:
        return left_text, right_text
    return left_number, right_number


def go_lt(left: Any, right: Any) -> bool:
    first, second = _compared(left, right)
    return bool(first < second)


def go_le(left: Any, right: Any) -> bool:
    first, second = _compared(left, right)
    return bool(first <= second)


def go_gt(left: Any, right: Any) -> bool:
    first, second = _compared(left, right)
    return bool(first > second)


def go_ge(left: Any, right: Any) -> bool:
    first, second = _compared(left, right)
    return bool(first >= second)

