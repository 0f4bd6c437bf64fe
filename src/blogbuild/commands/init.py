"""`blogbuild init`: write a new site, or (--from-hugo) the blogbuild.yaml equivalent to a Hugo site's config and
what to port."""
from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BlogbuildError
from ..core.records import dataclass

if TYPE_CHECKING:
    from ..hugo.config import TemplateToPort


@dataclass(frozen=True)
class InitOptions:
    """Options of `blogbuild init`."""

    root: str = "."
    from_hugo: bool = False
    force: bool = False
    used_only: bool = False   # --from-hugo: list only the templates content uses
    quiet: bool = False       # print errors only, as every command's --quiet
    language: str | None = None   # the new site's language (en, zh-CN...); None: the writer's locale, else en


def run(options: InitOptions) -> int:
    """Write the new site's files, or blogbuild.yaml from a Hugo config; never over a file without --force."""
    if options.from_hugo:
        return _from_hugo(options)
    return _new_site(options)


def _new_site(options: InitOptions) -> int:
    """Write scaffold.site_files() into the folder: all of them, or none when one exists (without --force)."""
    from ..core.atomic import write_atomically
    from ..disk.scaffold import site_files
    from ..core.names import HUGO_CONFIG_NAMES
    root = Path(options.root)
    hugo = next((name for name in HUGO_CONFIG_NAMES if (root / name).is_file()), None)
    if hugo is not None and not options.force:
        raise BlogbuildError(f"{(root / hugo).as_posix()}: this folder holds a Hugo site; `blogbuild init "
                             "--from-hugo` writes its blogbuild.yaml (or pass --force to write a new site here)")
    from ..disk.scaffold import language_from_locale
    language = options.language or language_from_locale(os.environ)
    files = site_files(datetime.now().astimezone().replace(microsecond=0), language)
    existing = [name for name in files if (root / name).exists()]
    if existing and not options.force:
        raise BlogbuildError(f"{', '.join((root / name).as_posix() for name in existing)} already "
                             f"exist{'s' if len(existing) == 1 else ''}; nothing was written. Run init in an "
                             "empty folder (or --root DIR), or pass --force to replace them")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text.encode("utf-8"))
    ignored = _write_gitignore(root)
    if not options.quiet:
        shown = "" if options.root == "." else f" in {root.as_posix()}"
        for name in files:
            print(f"wrote {(root / name).as_posix()}")
        print(ignored)
        where = "" if options.root == "." else f" --root {options.root}"
        print(f"a new site{shown}: `blogbuild serve{where}` to draft (http://localhost:1313/), "
              f"`blogbuild new \"Title\"` for a post, `blogbuild build{where}` to publish to public/")
    return 0


def _write_gitignore(root: Path) -> str:
    """Make the folder's .gitignore ignore scaffold.IGNORED: written when there is none, the missing lines
    added at the end of one there is (never replaced); what was done, as a line to print."""
    from ..core.atomic import write_atomically
    from ..disk.scaffold import IGNORED, missing_ignores, with_ignores
    path = root / ".gitignore"
    try:
        existing: str | None = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = None
    except (OSError, UnicodeDecodeError) as error:
        return (f"left {path.as_posix()} as it is ({error.__class__.__name__}); add {', '.join(IGNORED)} "
                "to it yourself")
    missing = missing_ignores(existing or "")
    if not missing:
        return f"kept {path.as_posix()}: it ignores {', '.join(IGNORED)} already"
    write_atomically(path, with_ignores(existing).encode("utf-8"))
    if existing is None:
        return f"wrote {path.as_posix()} ({', '.join(IGNORED)})"
    return f"added {', '.join(missing)} to {path.as_posix()}"


def _from_hugo(options: InitOptions) -> int:
    """Write <root>/blogbuild.yaml from the Hugo config and report what did not carry over and what to port."""
    import yaml

    from ..hugo.config import ignored_message, read_hugo_config, templates_to_port
    from ..config.markup import markup_from_mapping
    root = Path(options.root)
    hugo = read_hugo_config(root, shown_root=options.root if options.root != "." else "")
    if hugo is None:
        raise BlogbuildError(f"no Hugo config in {root}/ (hugo.toml, hugo.yaml, config.toml, config.yml, "
                             "config/_default/); run init in the Hugo site's folder or pass --root DIR "
                             "(without --from-hugo, init writes a new site)")
    target = root / "blogbuild.yaml"
    if target.exists() and not options.force:
        raise BlogbuildError(f"{target} already exists; keep it, or pass --force to replace it")
    text = (f"# Written by `blogbuild init --from-hugo` from {hugo.path}.\n"
            + yaml.safe_dump(dict(hugo.values), sort_keys=False, allow_unicode=True, default_flow_style=False))
    target.write_text(text, encoding="utf-8")
    if options.quiet:
        return 0
    print(f"wrote {target.as_posix()} from {hugo.path}")
    ignored = hugo.unused(markup_from_mapping(hugo.values.get("markup")).ignored)
    if ignored:
        print(ignored_message(ignored, hugo.where))   # the same line the build warns with
    _report_translations(root, options.force)
    from ..markdown.shortcodes import BUILTIN_NAMES
    _report_templates(templates_to_port(root, str(hugo.values.get("source_dir", "content")), built_in=BUILTIN_NAMES),
                      options.used_only)
    advice = _hugo_output_advice(root, str(hugo.values.get("output_dir", "public")))
    if advice:
        print(advice)
    return 0


def _report_templates(found: "list[TemplateToPort]", used_only: bool) -> None:
    """The site's Go templates as the build will treat them: those that run as they are (with what else they
    load), those blogbuild replaces by its own work, and those to port (with their uses in content)."""
    shown = [item for item in found if not used_only or item.uses]
    running = [item for item in shown if item.instead and not item.problem]
    to_port = [item for item in shown if item not in running]
    if running:
        print(f"Go templates blogbuild runs or does itself ({len(running)}):")
        for item in running:
            listed = [use for use in item.uses if not use.startswith("every page")]
            uses = f" (used: {', '.join(listed[:3])}{' …' if len(listed) > 3 else ''})" if listed else ""
            print(f"  {item.kind} {item.path}: {item.instead}{uses}" + (f"; {item.note}" if item.note else ""))
    if to_port:
        print(f"Go templates blogbuild cannot run ({len(to_port)}); port the ones you need to Jinja in templates/ "
              "(shortcodes in templates/shortcodes/):")
        for item in to_port:
            uses = ", ".join(item.uses) if item.uses else "no use in content"
            problem = f" (line {item.problem})" if item.problem else ""
            print(f"  {item.kind} {item.path}{problem}: {uses}" + (f"; {item.note}" if item.note else ""))
    elif used_only and len(shown) < len(found):
        print(f"Go templates content uses that blogbuild cannot run: none ({len(found) - len(shown)} unused, "
              "listed without --used-only)")


def _report_translations(root: Path, force: bool) -> None:
    """Write the site's Go shortcodes as Jinja into templates/shortcodes/ (hugo/export.py) and say so."""
    from ..hugo.export import export_translations
    exported = export_translations(root, force=force)
    if exported.written:
        print(f"translated {len(exported.written)} Go shortcode{'s' if len(exported.written) != 1 else ''} into "
              "templates/shortcodes/ (yours to edit; they win over layouts/shortcodes/): "
              + ", ".join(Path(path).stem for path in exported.written))
    if exported.kept:
        print("kept (already in templates/shortcodes/; --force writes the translation over them): "
              + ", ".join(Path(path).stem for path in exported.kept))


def _hugo_output_advice(root: Path, output_dir: str) -> str:
    """What to do with the output folder when Hugo's build is in it: blogbuild replaces the whole folder, so it
    refuses one holding files it did not write, which a Hugo site's public/ is the first time."""
    from ..disk.output import MARKER
    output = root / output_dir
    try:
        if not output.is_dir() or (output / MARKER).exists() or not any(output.iterdir()):
            return ""
    except OSError:
        return ""
    shown = output.as_posix().removeprefix("./")
    return (f"{shown}/ holds Hugo's output: `blogbuild build` replaces the whole folder and will not delete files "
            f"it did not write, so move it away (`mv {shown} {shown}-hugo`, to compare) or delete it, or build "
            "elsewhere with `blogbuild build --output DIR`")
