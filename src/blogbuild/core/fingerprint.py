"""One stable hash of text parts: the cache keys, page dependency keys and template closures are made with it."""
from __future__ import annotations

import hashlib


def fingerprint_of(*parts: str) -> str:
    """A short stable hash of text parts, for caches and page dependency keys."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()
