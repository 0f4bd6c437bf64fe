"""`blogbuild init --from-hugo`: write the blogbuild.yaml equivalent to a Hugo site's config, and say what to port."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import BlogbuildError


@dataclass(frozen=True)
class InitOptions:
    """Options of `blogbuild init`."""

    root: str = "."
    from_hugo: bool = False
    force: bool = False
    quiet: bool = False


def run(options: InitOptions) -> int:
    """Write <root>/blogbuild.yaml from the Hugo config (never over an existing one without --force); report."""
    import yaml

    from ..hugo_config import ignored_message, read_hugo_config, templates_to_port
    from ..markup_config import markup_from_mapping
    if not options.from_hugo:
        raise BlogbuildError("blogbuild init needs a source: --from-hugo (reads hugo.toml, config.yml, "
                             "config/_default/ in the site folder)")
    root = Path(options.root)
    hugo = read_hugo_config(root, shown_root=options.root if options.root != "." else "")
    if hugo is None:
        raise BlogbuildError(f"no Hugo config in {root}/ (hugo.toml, hugo.yaml, config.toml, config.yml, "
                             "config/_default/); run init in the Hugo site's folder or pass --root DIR")
    target = root / "blogbuild.yaml"
    if target.exists() and not options.force:
        raise BlogbuildError(f"{target} already exists; keep it, or pass --force to replace it")
    text = (f"# Written by `blogbuild init --from-hugo` from {hugo.path}.\n"
            + yaml.safe_dump(dict(hugo.values), sort_keys=False, allow_unicode=True, default_flow_style=False))
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.as_posix()} from {hugo.path}")
    ignored = hugo.unused(markup_from_mapping(hugo.values.get("markup")).ignored)
    if ignored:
        print(ignored_message(ignored))   # the same line the build warns with
    to_port = templates_to_port(root, str(hugo.values.get("source_dir", "content")))
    if to_port:
        print(f"Go templates blogbuild cannot run ({len(to_port)}); port the ones you need to Jinja in templates/ "
              "(shortcodes in templates/shortcodes/):")
    for item in to_port:
        uses = ", ".join(item.uses) if item.uses else "no use in content"
        if not options.quiet or item.uses:
            print(f"  {item.kind} {item.path}: {uses}")
    return 0
