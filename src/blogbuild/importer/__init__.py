"""The dump importer (`blogbuild import`, commands/import_.py): recover posts from flattened listing dumps into markdown files.

The pipeline: read dumps -> split into posts (dump.split_dump) -> read headers and restore
bodies (dump.py, mermaid.py) -> merge copies of the same post across dumps -> render one file per post ->
plan what to write against the output folder -> write (or only report, with --dry-run).

The importer only overwrites files it wrote itself and nobody edited since: it keeps the SHA-256
of every file it wrote in a hidden manifest in the output folder. A file not in the manifest, or
changed since, is the user's; --force overwrites it and keeps a .bak copy beside it.
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..core.atomic import write_atomically
from ..core.names import TEMPORARY_SUFFIX
from ..core.urls import ascii_slug
from ..core.records import dataclass
from .dump import (DumpPost, FlatHeader, RestoredBody, comparable_text, derive_title, read_flat_header,
                   restore_body, split_dump)

MANIFEST_NAME = ".blogbuild-import.json"
# The fields a post of this blog normally carries; the report lists the ones a post lacks.
EXPECTED_FIELDS = ("title", "date", "tags", "series")
# Front matter key order: the usual reading order first, then other keys by name, then what the
# import adds. Stable order keeps re-imports byte-identical and diffs small.
_KEY_ORDER = ("title", "date", "lastmod", "draft", "tags", "categories", "series", "description", "hero",
              "menu", "weight")
_IMPORT_KEYS = ("excerpt", "needs_review", "import_sources")
_DATE_KEYS = frozenset({"date", "lastmod", "publishDate", "expiryDate"})
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")


@dataclass(frozen=True)
class ParsedCopy:
    """One copy of a post from one dump: its header (if any) and its flattened body."""

    source: DumpPost
    header: FlatHeader

    @property
    def comparable(self) -> str:
        return comparable_text(self.header.body)


@dataclass(frozen=True)
class ImportedPost:
    """One post after merging its copies: metadata, restored body, and what the report says."""

    slug: str
    metadata: Mapping[str, Any]
    body: RestoredBody
    sources: tuple[str, ...]
    has_header: bool
    title_derived: bool
    notes: tuple[str, ...]

    @property
    def needs_review(self) -> bool:
        return not self.has_header or bool(self.notes) or bool(self.body.notes)

    @property
    def file_name(self) -> str:
        return f"{self.slug}.md"


@dataclass(frozen=True)
class PlannedFile:
    """What the import will do with one output file."""

    post: ImportedPost
    path: Path
    content: str
    action: str        # "new" | "unchanged" | "update" | "overwrite" (forced) | "refuse"
    reason: str = ""


# ---- merging --------------------------------------------------------------------------------

def parse_copies(posts: Iterable[DumpPost]) -> tuple[ParsedCopy, ...]:
    """Read the header of every post copy."""
    return tuple(ParsedCopy(post, read_flat_header(post.text)) for post in posts)


def same_post(first: ParsedCopy, second: ParsedCopy) -> bool:
    """Whether two copies are the same post: one text begins the other (cut at different lengths)."""
    if first.header.found and second.header.found:
        title = first.header.data.get("title")
        if title and title == second.header.data.get("title"):
            return True
    left, right = first.comparable, second.comparable
    shorter = min(len(left), len(right))
    if shorter < 20:
        return bool(left) and left == right
    common = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        common += 1
    # A listing cut may end mid-word; 90% of the shorter copy in common is the same post.
    return common >= shorter * 0.9


def merge_copies(copies: Iterable[ParsedCopy]) -> tuple[tuple[ParsedCopy, ...], ...]:
    """Group copies of the same post, in order of first appearance."""
    groups: list[list[ParsedCopy]] = []
    for copy in copies:
        matches = [group for group in groups if any(same_post(copy, member) for member in group)]
        if not matches:
            groups.append([copy])
            continue
        target = matches[0]
        target.append(copy)
        for other in matches[1:]:        # the copy bridges two groups: they are one post
            target.extend(other)
            groups.remove(other)
    return tuple(tuple(group) for group in groups)


def _best_text(group: tuple[ParsedCopy, ...]) -> ParsedCopy:
    """The longest text; on a tie, a copy with a header (it keeps the `—math: true` rule marks)."""
    order = {id(copy): index for index, copy in enumerate(group)}
    return max(group, key=lambda copy: (len(copy.comparable), copy.header.found, -order[id(copy)]))


def _source_name(post: DumpPost) -> str:
    return f"{post.dump} ({post.listing})" if post.listing else post.dump


def build_post(group: tuple[ParsedCopy, ...]) -> ImportedPost:
    """One post from its copies: the longest text, the header from whichever copy has it."""
    text_copy = _best_text(group)
    headers = [copy for copy in group if copy.header.found]
    notes: list[str] = []
    metadata: dict[str, Any] = {}
    if headers:
        metadata = dict(headers[0].header.data)
        for other in headers[1:]:
            if dict(other.header.data) != metadata:
                notes.append(f"headers differ between {_source_name(headers[0].source)} and "
                             f"{_source_name(other.source)}; the first was kept")
        for copy in headers:
            notes.extend(copy.header.notes)
    metadata.pop("math", None)   # the damage's `math: true`; the build detects math itself
    body = restore_body(text_copy.header.body)
    title_derived = "title" not in metadata or not str(metadata.get("title", "")).strip()
    if title_derived:
        metadata["title"] = derive_title(text_copy.header.body)
    if body.truncated:
        metadata["excerpt"] = True
    notes = list(dict.fromkeys(notes))
    if not headers or notes or body.notes:
        metadata["needs_review"] = True
    sources = tuple(dict.fromkeys(_source_name(copy.source) for copy in group))
    metadata["import_sources"] = list(sources)
    return ImportedPost("", metadata, body, sources, bool(headers), title_derived, tuple(notes))


def import_dumps(dumps: Iterable[tuple[str, str]]) -> tuple[ImportedPost, ...]:
    """Every distinct post of the dumps (name, text), merged, with unique ASCII slugs."""
    posts: list[DumpPost] = []
    for name, text in dumps:
        posts.extend(split_dump(text, name=name))
    merged = [build_post(group) for group in merge_copies(parse_copies(posts))]
    return assign_slugs(merged)


# ---- slugs and files ------------------------------------------------------------------------

def assign_slugs(posts: Iterable[ImportedPost]) -> tuple[ImportedPost, ...]:
    """Give every post a unique slug; a title with no Latin words gets a short hash of itself."""
    result: list[ImportedPost] = []
    used: set[str] = set()
    for post in posts:
        title = str(post.metadata.get("title", ""))
        base = ascii_slug(title) or "post-" + hashlib.sha256(title.encode("utf-8")).hexdigest()[:8]
        slug, number = base, 2
        while slug in used:
            slug, number = f"{base}-{number}", number + 1
        used.add(slug)
        result.append(ImportedPost(slug, post.metadata, post.body, post.sources, post.has_header,
                                   post.title_derived, post.notes))
    return tuple(result)


def _yaml_string(value: str) -> str:
    # JSON strings are YAML double-quoted scalars; characters YAML refuses are escaped too.
    text = json.dumps(value, ensure_ascii=False)
    return "".join(_yaml_escape(char) if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")
                   or char in "\ufeff\u0085" else char for char in text)


def _yaml_escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _yaml_scalar(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value is None:
        return "null"
    text = str(value)
    if key in _DATE_KEYS and _ISO_DATE.fullmatch(text):
        return text          # the date exactly as the dump had it, offset included
    return _yaml_string(text)


def _yaml_lines(data: Mapping[str, Any], indent: int = 0) -> list[str]:
    lines: list[str] = []
    pad = "  " * indent
    for key, value in data.items():
        name = key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", key) else _yaml_string(key)
        if isinstance(value, Mapping):
            if value:
                lines.append(f"{pad}{name}:")
                lines.extend(_yaml_lines(value, indent + 1))
            else:
                lines.append(f"{pad}{name}: {{}}")
        elif isinstance(value, (list, tuple)):
            items = ", ".join(_yaml_scalar(key, item) for item in value)
            lines.append(f"{pad}{name}: [{items}]")
        else:
            lines.append(f"{pad}{name}: {_yaml_scalar(key, value)}")
    return lines


def ordered_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Metadata in the stable key order of written files."""
    known = [key for key in _KEY_ORDER if key in metadata]
    added = [key for key in _IMPORT_KEYS if key in metadata]
    others = sorted(key for key in metadata if key not in _KEY_ORDER and key not in _IMPORT_KEYS)
    return {key: metadata[key] for key in [*known, *others, *added]}


def front_matter_text(metadata: Mapping[str, Any]) -> str:
    """YAML front matter between `---` lines, keys in a stable order, every string double-quoted."""
    header = "\n".join(_yaml_lines(ordered_metadata(metadata)))
    return f"---\n{header}\n---\n"


def render_post_file(post: ImportedPost) -> str:
    """The markdown file of one post: YAML front matter in a stable order, then the body."""
    return f"{front_matter_text(post.metadata)}\n{post.body.markdown}"


# ---- planning and writing -------------------------------------------------------------------

def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(folder: Path) -> dict[str, str]:
    """File name -> SHA-256 of what the importer last wrote there; {} when missing or unreadable."""
    try:
        data = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        files = data.get("files", {})
        return {str(name): str(digest) for name, digest in files.items()}
    except (OSError, ValueError, AttributeError):
        return {}


def plan_files(posts: Iterable[ImportedPost], folder: Path, *, force: bool) -> tuple[PlannedFile, ...]:
    """Decide per post: new, unchanged, update (ours, untouched), overwrite (--force) or refuse."""
    manifest = read_manifest(folder)
    planned: list[PlannedFile] = []
    for post in posts:
        path = folder / post.file_name
        content = render_post_file(post)
        encoded = content.encode("utf-8")
        if not path.exists():
            planned.append(PlannedFile(post, path, content, "new"))
            continue
        try:
            existing = path.read_bytes()
        except OSError as error:
            planned.append(PlannedFile(post, path, content, "refuse", f"cannot read it ({error.strerror})"))
            continue
        if existing == encoded:
            planned.append(PlannedFile(post, path, content, "unchanged"))
        elif manifest.get(post.file_name) == _digest(existing):
            planned.append(PlannedFile(post, path, content, "update"))
        else:
            reason = ("edited since the import wrote it" if post.file_name in manifest
                      else "not written by blogbuild import")
            planned.append(PlannedFile(post, path, content, "overwrite" if force else "refuse", reason))
    return tuple(planned)


def _backup_path(path: Path, data: bytes) -> Path | None:
    """Where to keep the user's version before --force overwrites it (None: an identical backup exists)."""
    candidate = path.with_name(path.name + ".bak")
    number = 2
    while candidate.exists():
        if candidate.read_bytes() == data:
            return None
        candidate = path.with_name(f"{path.name}.bak{number}")
        number += 1
    return candidate


def write_plan(planned: Iterable[PlannedFile], folder: Path) -> list[str]:
    """Write the planned files (temp file + rename each), then the manifest; returns backup notes."""
    folder.mkdir(parents=True, exist_ok=True)
    # An import killed between a temporary file and its rename leaves that file behind (atomic.py's name
    # rule: hidden, with the temporary suffix); the next import into the folder removes them.
    for stale in folder.glob(f".*{TEMPORARY_SUFFIX}"):
        stale.unlink(missing_ok=True)
    manifest = read_manifest(folder)
    notes: list[str] = []
    for item in planned:
        encoded = item.content.encode("utf-8")
        if item.action in ("new", "update", "overwrite"):
            if item.action == "overwrite":
                existing = item.path.read_bytes()
                backup = _backup_path(item.path, existing)
                if backup is not None:
                    write_atomically(backup, existing)
                    notes.append(f"{item.path}: your version is kept in {backup}")
            write_atomically(item.path, encoded)
        if item.action != "refuse":
            manifest[item.path.name] = _digest(encoded)
    manifest_text = json.dumps({"written_by": "blogbuild import", "files": dict(sorted(manifest.items()))},
                               indent=2, ensure_ascii=False) + "\n"
    manifest_path = folder / MANIFEST_NAME
    if not manifest_path.exists() or manifest_path.read_text(encoding="utf-8") != manifest_text:
        write_atomically(manifest_path, manifest_text.encode("utf-8"))
    return notes


# ---- report ---------------------------------------------------------------------------------

_ACTION_WORDS = {
    ("new", False): "written", ("new", True): "would write",
    ("update", False): "updated", ("update", True): "would update",
    ("overwrite", False): "overwritten (--force)", ("overwrite", True): "would overwrite (--force)",
    ("unchanged", False): "unchanged", ("unchanged", True): "unchanged",
    ("refuse", False): "NOT written", ("refuse", True): "would NOT write",
}


def _field_names(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    names: list[str] = []
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            names.extend(_field_names(value, f"{prefix}{key}."))
        else:
            names.append(f"{prefix}{key}")
    return names


def report_lines(planned: Iterable[PlannedFile], *, dry_run: bool) -> list[str]:
    """The import report: per post its sources, fields, restorations and what happened to the file."""
    lines: list[str] = []
    for item in planned:
        post = item.post
        header_fields = [name for name in _field_names(post.metadata) if name.split(".")[0] not in _IMPORT_KEYS]
        recovered = [name for name in header_fields if not (name == "title" and post.title_derived)]
        missing = [name for name in EXPECTED_FIELDS if name not in post.metadata
                   or (name == "title" and post.title_derived)]
        lines.append(f"{item.path}: {_ACTION_WORDS[(item.action, dry_run)]}"
                     + (f" ({item.reason}; use --force to overwrite)" if item.action == "refuse" else ""))
        lines.append(f"  title: {post.metadata.get('title', '')}" + ("  [derived from the opening words]"
                                                                       if post.title_derived else ""))
        lines.append(f"  sources: {', '.join(post.sources)}")
        lines.append(f"  fields recovered: {', '.join(recovered) if recovered else 'none (no header)'}")
        lines.append(f"  fields missing: {', '.join(missing) if missing else 'none'}")
        lines.append(f"  diagrams restored: {len(post.body.diagrams)}; display math blocks: "
                     f"{len(post.body.display_math)}; rules restored: {post.body.rules}")
        lines.append(f"  truncated: {'yes (kept the final ..., marked excerpt: true)' if post.body.truncated else 'no'}")
        reasons = ([] if post.has_header else ["no header: check the title, add a date, tags, series"])
        reasons += list(post.notes) + list(post.body.notes)
        lines.append(f"  needs review: {'yes: ' + '; '.join(reasons) if reasons else 'no'}")
    return lines
