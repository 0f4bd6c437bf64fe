"""The command line: parse argv into a command's options (commands/), run it, turn errors into exit codes."""
from __future__ import annotations

import argparse
import sys
from typing import NoReturn, Sequence

from .core.version import __version__


class _Parser(argparse.ArgumentParser):
    """argparse, with a "did you mean" for a misspelt command (the one usage error it leaves without a hint)."""

    def error(self, message: str) -> NoReturn:
        """Print this parser's usage and the message (with a suggestion when one fits), exit 2."""
        if message.startswith("argument COMMAND: invalid choice: "):
            typed = message.split("'")[1]
            import difflib
            match = difflib.get_close_matches(typed, COMMANDS, n=1)
            message = (f"no command {typed!r}" + (f"; did you mean {match[0]!r}?" if match else "")
                       + f" (commands: {', '.join(COMMANDS)})")
        super().error(message)


def _add_site_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", "-s", metavar="DIR", help="content folder (default: content/)")
    parser.add_argument("--config", "-c", metavar="FILE",
                        help="config file (default: blogbuild.yaml, else a Hugo config)")
    parser.add_argument("--root", default=".", metavar="DIR",
                        help="site folder holding content/, templates/, static/ (default: .)")
    parser.add_argument("--future", "-F", action="store_true",
                        help="include posts dated in the future (default: off)")
    parser.add_argument("--expired", "-E", action="store_true",
                        help="include posts past their expiryDate (default: off)")
    parser.add_argument("--quiet", "-q", action="store_true", help="print errors only (default: off)")


def _command(commands: argparse._SubParsersAction, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand with its one line for `blogbuild --help` and its description for `blogbuild NAME --help`."""
    return commands.add_parser(name, help=summary, description=description, allow_abbrev=False)


def _add_build(commands: argparse._SubParsersAction) -> None:
    build = _command(commands, "build", "publish content/ to public/",
                     "Build the site and replace the output folder with it, only when the whole build succeeded. "
                     "Exit 0, 1 on content or config errors (each listed as path:line), 2 on usage errors.")
    _add_site_options(build)
    build.add_argument("--output", "-o", metavar="DIR", help="output folder (default: public/)")
    build.add_argument("--drafts", "-D", action="store_true", help="include drafts (default: off)")
    build.add_argument("--base-url", "-b", metavar="URL",
                       help="override base_url, e.g. for GitHub Pages (default: the config's base_url)")
    build.add_argument("--strict", action="store_true", help="treat warnings as errors (default: off)")
    build.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="worker processes for markdown (default: all cores)")
    build.add_argument("--no-cache", action="store_true",
                       help="ignore the cache in .blogbuild-cache/ and write none; the build lock there is still taken "
                            "(default: off, the cache is used)")


def _add_serve(commands: argparse._SubParsersAction) -> None:
    serve = _command(commands, "serve", "drafting server with live reload",
                     "Build the site in memory and serve it with live reload, partial rebuilds and an error overlay; "
                     "drafts are shown. Ctrl-C stops it.")
    _add_site_options(serve)
    serve.add_argument("--port", "-p", type=int, default=1313, metavar="PORT",
                       help="port to listen on; the next free one if taken (default: 1313)")
    serve.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                       help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--drafts", action=argparse.BooleanOptionalAction, default=True,
                       help="show drafts; --no-drafts hides them (default: shown)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME", dest="allowed_hosts",
                       help="also answer requests for this host name (repeatable; a leading dot allows its "
                            "subdomains); IP addresses and localhost are always answered, other names refused "
                            "(default: none)")
    serve.add_argument("--open", action="store_true", help="open the site in a browser (default: off)")
    serve.add_argument("--output", "-o", metavar="DIR",
                       help="also write each good build to DIR; pages are served from memory either way "
                            "(default: none)")


def _add_import_and_fix(commands: argparse._SubParsersAction) -> None:
    import_ = _command(commands, "import", "turn text dumps of old posts into markdown posts",
                       "Read text files that hold many posts one after another (an export or a copy of a blog "
                       "whose headers were run together onto single lines), split them into posts, repair their "
                       "front matter, merge copies of one post found in several files, restore diagrams and math, "
                       "and write one markdown file per post with a report. Files it did not write are never "
                       "overwritten without --force. A blog already in markdown needs no import: copy it into "
                       "content/.")
    import_.add_argument("dumps", nargs="+", metavar="DUMP", help="listing dump files to read (UTF-8 text)")
    import_.add_argument("--out", required=True, metavar="DIR",
                         help="folder to write markdown files into (required; no default)")
    import_.add_argument("--force", action="store_true",
                         help="overwrite files this importer did not write, keeping .bak copies (default: off)")
    import_.add_argument("--dry-run", action="store_true", help="print the report, write nothing (default: off)")
    import_.add_argument("--quiet", "-q", action="store_true", help="print errors only (default: off)")

    fix = _command(commands, "fix", "rewrite files with damaged front matter in place",
                   "Repair the known header damages in place (the original kept as PATH.bak): the `math: true` "
                   "damage undone byte for byte, a header flattened onto one line written as YAML.")
    fix.add_argument("paths", nargs="+", metavar="PATH", help="markdown files, or folders to search for *.md")
    fix.add_argument("--dry-run", action="store_true", help="show the diff, write nothing (default: off)")


def _add_check(commands: argparse._SubParsersAction) -> None:
    check = _command(commands, "check", "check links, anchors, math, mermaid and repairs",
                     "Build in memory and check internal links, anchors, resources, duplicate URLs, math, "
                     "mermaid syntax and repaired headers, drafts included; exit 1 when there is a problem.")
    _add_site_options(check)
    drafts = check.add_mutually_exclusive_group()
    drafts.add_argument("--drafts", "-D", dest="drafts", action="store_true", default=True,
                        help="check drafts too, they are what is being written (default: checked)")
    drafts.add_argument("--no-drafts", dest="drafts", action="store_false", help="leave drafts unchecked (default: off)")


def _add_init_and_new(commands: argparse._SubParsersAction) -> None:
    init = _command(commands, "init", "start a new site (--from-hugo: from a Hugo site's config)",
                    "With no flag: write a new site into the folder (blogbuild.yaml, a first post, templates/ "
                    "and static/) that builds and serves at once. With --from-hugo: write the blogbuild.yaml "
                    "equivalent to a Hugo site's config and list the Go templates to port.")
    init.add_argument("--from-hugo", action="store_true",
                      help="read hugo.toml / config.yml / config/_default/ instead (default: off, a new site)")
    init.add_argument("--root", default=".", metavar="DIR", help="site folder (default: .)")
    init.add_argument("--lang", metavar="CODE",
                      help="the new site's language, e.g. en or zh-CN: its <html lang>, menu and the theme's words "
                           "(default: Chinese when your locale is, else en)")
    init.add_argument("--force", action="store_true", help="replace files that exist (default: off)")
    init.add_argument("--used-only", action="store_true",
                      help="with --from-hugo, list only the templates content uses (default: off, all)")
    init.add_argument("--quiet", "-q", action="store_true", help="print errors only (default: off)")

    new = _command(commands, "new", "write a new draft post",
                   "Write content/SECTION/SLUG.md as a draft with front matter and a starter body, never over "
                   "an existing file; print its path.")
    new.add_argument("title", help="the post's title, in quotes")
    new.add_argument("--series", metavar="NAME", help="series the post is a part of, as the next part (default: none)")
    new.add_argument("--tags", metavar="A,B", default="", help="comma-separated tags (default: none)")
    new.add_argument("--section", metavar="DIR", default="posts",
                     help="section folder inside the content folder (default: posts)")
    new.add_argument("--source", "-s", metavar="DIR", default="content",
                     help="content folder, inside the site folder (default: content)")
    new.add_argument("--root", default=".", metavar="DIR", help="site folder (default: .)")
    new.add_argument("--ascii", action="store_true",
                     help="an ASCII slug: Latin letters and digits, accents folded, a short hash for the rest "
                          "(default: off, the title's characters kept as Hugo's urlize keeps them: 第一篇)")


COMMANDS = ("build", "serve", "check", "new", "init", "import", "fix")


def make_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(prog="blogbuild", description="A static blog generator for math, mermaid and CJK prose. "
                     "`blogbuild COMMAND --help` describes each command.", allow_abbrev=False)
    parser.add_argument("--version", action="version", version=f"blogbuild {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=argparse.ArgumentParser)
    _add_build(commands)
    _add_serve(commands)
    _add_check(commands)
    _add_init_and_new(commands)
    _add_import_and_fix(commands)
    return parser


def _typing_distance(typed: str, name: str) -> int:
    """Edits from typed to name, a swap of two neighbours counting one (`--prot` is one from `--port`)."""
    rows = [list(range(len(name) + 1))]
    for i, typed_char in enumerate(typed, 1):
        row = [i]
        for j, name_char in enumerate(name, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (typed_char != name_char))
            if i > 1 and j > 1 and typed_char == name[j - 2] and typed[i - 2] == name_char:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


def _closest(flag: str, flags: list[str]) -> list[str]:
    """The flag meant by a misspelt one: the fewest edits among difflib's close matches (none when not close)."""
    import difflib
    close = difflib.get_close_matches(flag, flags, n=5, cutoff=0.7)
    return sorted(close, key=lambda name: _typing_distance(flag, name))[:1]


def _unknown_arguments(parser: argparse.ArgumentParser, command: str, extras: list[str]) -> NoReturn:
    """Answer arguments the command does not take with its usage, a close flag, or the command that has it."""
    subparsers = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    own: argparse.ArgumentParser = subparsers.choices[command]
    message = f"unrecognized arguments: {' '.join(extras)}"
    flag = next((extra.split("=", 1)[0] for extra in extras if extra.startswith("-")), None)
    if flag is not None:
        flags = [name for action in own._actions for name in action.option_strings if name.startswith("--")]
        others = [name for name, sub in subparsers.choices.items() if name != command
                  and any(flag in action.option_strings for action in sub._actions)]
        match = _closest(flag, flags)
        if others:
            message += f"; {flag} is an option of {' and '.join(others)}, not of {command}"
        if match and (flag == f"--no-{match[0][2:]}" or match[0] == f"--no-{flag[2:]}"):
            # `build --no-drafts`: the opposite of build's --drafts is what build does without it.
            message += f"; {match[0]} is the opposite, and off by default"
        elif match:
            message += f"; did you mean {match[0]}?"
        message += f" (`blogbuild {command} --help` lists its options)"
    own.error(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run blogbuild with argv; returns the exit code (0 ok, 1 content errors, 2 usage)."""
    parser = make_parser()
    args, extras = parser.parse_known_args(argv)
    if args.command is None:
        if extras:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
        parser.print_help(sys.stderr)
        return 2
    if extras:
        _unknown_arguments(parser, args.command, extras)
    from .core.errors import BlogbuildError, describe_chain
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
            future=args.future, expired=args.expired, base_url=args.base_url, strict=args.strict, quiet=args.quiet, jobs=args.jobs,
            no_cache=args.no_cache))
    if args.command == "serve":
        from .commands import serve
        return serve.run(serve.ServeOptions(
            root=args.root, source=args.source, config=args.config, output=args.output, port=args.port,
            bind=args.bind, drafts=args.drafts, future=args.future, expired=args.expired, open_browser=args.open,
            quiet=args.quiet, allowed_hosts=tuple(args.allowed_hosts)))
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
                                            drafts=args.drafts, future=args.future, expired=args.expired,
                                            quiet=args.quiet))
    if args.command == "init":
        from .commands import init
        return init.run(init.InitOptions(root=args.root, from_hugo=args.from_hugo, force=args.force,
                                         used_only=args.used_only, quiet=args.quiet, language=args.lang))
    if args.command == "new":
        from .commands import new
        tags = tuple(tag.strip() for tag in args.tags.split(",") if tag.strip())
        return new.run(new.NewOptions(title=args.title, series=args.series, tags=tags, section=args.section,
                                      source=args.source, ascii_slug=args.ascii, root=args.root))
    raise AssertionError(args.command)
