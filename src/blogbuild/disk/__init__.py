"""The disk's ends: reading sources and front matter, the cache format and manifest, the lock, the writer."""
