"""Numbers as Hugo's templates cast them and Hugo's `+` (math.DoArithmetic), shared by the functions and by
`.Scratch.Add`; HugoFunctionError (function_error.py), the error of a function given what it cannot use."""
from __future__ import annotations

import re
from typing import Any

from .function_error import HugoFunctionError

__all__ = ["HugoFunctionError", "add_values", "number"]


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
