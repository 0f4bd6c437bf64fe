"""From a source file to a Post: front matter checks, text measures, links, math typesetting."""
