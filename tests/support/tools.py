"""Missing external tools: a skip on a developer's machine, a failure in CI (where setup installs them)."""
from __future__ import annotations

import os

import pytest


def missing_tool(reason: str) -> None:
    """Skip the test for a missing tool, or fail it when CI=true so that a missing install step shows."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} (CI=true: .ci/setup should install it)", pytrace=False)
    pytest.skip(reason)
