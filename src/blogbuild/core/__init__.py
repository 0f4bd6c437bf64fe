"""Leaf modules every layer may use: errors, the data model, names, URLs, dates, the version."""
