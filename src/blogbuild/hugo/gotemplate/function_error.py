"""HugoFunctionError: a function of Hugo's given arguments it cannot use, the one error every module of the
functions raises (Hugo fails the build the same way)."""
from __future__ import annotations


class HugoFunctionError(Exception):
    """A function given arguments it cannot use (Hugo would fail the build the same way)."""
