"""The command line: parse argv into a command's options (commands/), run it, turn errors into exit codes."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .version import __version__


def _add_site_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", "-s", metavar="DIR", help="content folder (default: content/)")
    parser.add_argument("--config", "-c", metavar="FILE", help="config file (default: blogbuild.yaml)")
    parser.add_argument("--root", default=".", metavar="DIR",
                        help="site folder holding content/, templates/, static/ (default: .)")
    parser.add_argument("--future", "-F", action="store_true", help="include posts dated in the future")
    parser.add_argument("--quiet", "-q", action="store_true", help="print errors only")


def make_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="blogbuild", description="A static blog generator for math, "
                                     "mermaid and CJK prose.")
    parser.add_argument("--version", action="version", version=f"blogbuild {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    build = commands.add_parser("build", help="publish content/ to public/")
    _add_site_options(build)
    build.add_argument("--output", "-o", metavar="DIR", help="output folder (default: public/)")
    build.add_argument("--drafts", "-D", action="store_true", help="include drafts")
    build.add_argument("--base-url", "-b", metavar="URL", help="override base_url, e.g. for GitHub Pages")
    build.add_argument("--strict", action="store_true", help="treat warnings as errors")
    build.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="worker processes for markdown (default: all cores)")
    build.add_argument("--no-cache", action="store_true", help="ignore and do not write .blogbuild-cache/")

    serve = commands.add_parser("serve", help="drafting server with live reload")
    _add_site_options(serve)
    serve.add_argument("--port", "-p", type=int, default=1313)
    serve.add_argument("--bind", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--no-drafts", action="store_true", help="hide drafts (shown by default)")
    serve.add_argument("--open", action="store_true", help="open the site in a browser")
    serve.add_argument("--output", "-o", metavar="DIR", help="where to write the served build")

    import_ = commands.add_parser("import", help="recover posts from flattened listing dumps")
    import_.add_argument("dumps", nargs="+", metavar="DUMP")
    import_.add_argument("--out", required=True, metavar="DIR", help="folder to write markdown files into")
    import_.add_argument("--force", action="store_true", help="overwrite files this importer did not write")
    import_.add_argument("--dry-run", action="store_true", help="print the report, write nothing")
    import_.add_argument("--quiet", "-q", action="store_true")

    fix = commands.add_parser("fix", help="rewrite files with damaged front matter in place")
    fix.add_argument("paths", nargs="+", metavar="PATH")
    fix.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")

    check = commands.add_parser("check", help="check links, anchors, math, mermaid and repairs")
    _add_site_options(check)
    check.add_argument("--drafts", "-D", action="store_true", help="include drafts")

    init = commands.add_parser("init", help="write blogbuild.yaml from a Hugo site's config")
    init.add_argument("--from-hugo", action="store_true", help="read hugo.toml / config.yml / config/_default/")
    init.add_argument("--root", default=".", metavar="DIR", help="site folder (default: .)")
    init.add_argument("--force", action="store_true", help="replace an existing blogbuild.yaml")
    init.add_argument("--quiet", "-q", action="store_true", help="list only templates that content uses")
    new = commands.add_parser("new", help="write a new draft post")
    new.add_argument("title")
    new.add_argument("--series", metavar="NAME")
    new.add_argument("--tags", metavar="A,B", default="")
    new.add_argument("--section", default="posts")
    new.add_argument("--source", "-s", metavar="DIR", default="content")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run blogbuild with argv; returns the exit code (0 ok, 1 content errors, 2 usage)."""
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    from .errors import BlogbuildError, describe_chain
    try:
        return _dispatch(args)
    except BlogbuildError as error:
        print(f"Error: {describe_chain(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    """Fill the command's options from the parsed arguments and run it (commands load lazily: fast start)."""
    if args.command == "build":
        from .commands import build
        return build.run(build.BuildOptions(
            root=args.root, source=args.source, output=args.output, config=args.config, drafts=args.drafts,
            future=args.future, base_url=args.base_url, strict=args.strict, quiet=args.quiet, jobs=args.jobs,
            no_cache=args.no_cache))
    if args.command == "serve":
        from .commands import serve
        return serve.run(serve.ServeOptions(
            root=args.root, source=args.source, config=args.config, output=args.output, port=args.port,
            bind=args.bind, drafts=not args.no_drafts, future=args.future, open_browser=args.open,
            quiet=args.quiet))
    if args.command == "import":
        from .commands import import_
        return import_.run(import_.ImportOptions(dumps=tuple(args.dumps), out=args.out, force=args.force,
                                                 dry_run=args.dry_run, quiet=args.quiet))
    if args.command == "fix":
        from .commands import fix
        return fix.run(fix.FixOptions(paths=tuple(args.paths), dry_run=args.dry_run))
    if args.command == "check":
        from .commands import check
        return check.run(check.CheckOptions(root=args.root, source=args.source, config=args.config,
                                            drafts=args.drafts, future=args.future, quiet=args.quiet))
    if args.command == "init":
        from .commands import init
        return init.run(init.InitOptions(root=args.root, from_hugo=args.from_hugo, force=args.force,
                                         quiet=args.quiet))
    if args.command == "new":
        from .commands import new
        tags = tuple(tag.strip() for tag in args.tags.split(",") if tag.strip())
        return new.run(new.NewOptions(title=args.title, series=args.series, tags=tags, section=args.section,
                                      source=args.source))
    raise AssertionError(args.command)
