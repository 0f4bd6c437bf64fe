"""`init --from-hugo`'s half of the translator: the site's own Go shortcodes written to templates/shortcodes/
as Jinja for the author to own (each file's first line names the Go file it came from), never over a file
that is there without --force."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .gotemplate import load_go_templates, translated_file


@dataclass(frozen=True)
class Exported:
    """What writing the translations did: files written, files kept (templates the translator cannot take
    are hugo/config.py's templates_to_port's, with the reason)."""

    written: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()


def export_translations(root: Path, templates_dir: str = "templates", *, force: bool = False) -> Exported:
    """Translate the site's layouts/shortcodes/ (not a theme's) into templates_dir/shortcodes/."""
    from ..core.atomic import write_atomically
    templates = load_go_templates(root)
    written: list[str] = []
    kept: list[str] = []
    target = root / templates_dir / "shortcodes"
    for name, source in sorted(templates.shortcodes.items()):
        if not source.path.startswith("layouts/"):
            continue
        translation = source.translation
        if not isinstance(translation, str):
            continue
        path = target / f"{name}.html"
        shown = path.relative_to(root).as_posix()
        if path.exists() and not force:
            kept.append(shown)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, translated_file(translation, source.path).encode("utf-8"))
        written.append(shown)
    return Exported(tuple(written), tuple(kept))
