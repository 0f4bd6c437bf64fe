"""`blogbuild build`, the whole flow: one build of a site at a time (the lock), nothing to do after a stat pass
(the manifest), else build, report every error and warning, publish atomically and record the build."""
from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.options import BuildOptions

if TYPE_CHECKING:
    from ..config import SiteConfig
    from ..disk.manifest import Entry, Examination
    from ..pipeline.result import BuildResult

__all__ = ["BuildOptions", "closing_notes", "run"]


def run(options: BuildOptions) -> int:
    """Build and publish; exit code 0 on success, 1 when any content error was reported or another build
    of the site is running (one line, site_lock.py)."""
    from ..core.names import CONFIG_NAMES, HUGO_CONFIG_NAMES
    from ..disk.site_lock import SiteBusy, site_lock
    root = Path(options.root or ".")
    if not (options.config or options.source or (root / "content").is_dir()
            or any((root / name).is_file() for name in (*CONFIG_NAMES, *HUGO_CONFIG_NAMES))):
        return _run(options)   # no site here: the build says so, and no lock file is left behind
    try:
        with site_lock(root):
            return _run(options)
    except SiteBusy as busy:
        print(f"error: {busy}", file=sys.stderr)
        return 1


def _run(options: BuildOptions) -> int:
    # Nothing changed since the last build: say so after a stat pass, before importing the pipeline.
    done, examination = _up_to_date(options)
    if done is not None:
        return done
    return _build(options, examination)


def _up_to_date(options: BuildOptions) -> tuple[int | None, Examination | None]:
    """When nothing changed since the last build with these options: print its warnings and a one-line note,
    exit 0. Otherwise (None, what the manifest found) for the real build."""
    from ..disk import manifest
    if options.no_cache:
        return None, None
    started = time.perf_counter()
    found = manifest.examine(options.location)
    if found is None or found.changed_inputs:
        return None, found
    if found.verified:
        manifest.refresh(options.location, found)
    record = found.record
    if not options.quiet:   # --quiet prints errors only
        for warning in record["warnings"]:
            print(str(warning), file=sys.stderr)
        checked = len(record["inputs"]) + len(record["outputs"])
        print(f"Up to date: nothing changed since the last build ({record['summary']}); checked {checked} files "
              f"and folders in {(time.perf_counter() - started) * 1000:.0f} ms -> {record['output_dir']}/")
        for note in record.get("notes", ()):   # what that build's last lines said (drafts left out)
            print(note)
    return 0, found


def _summary(result: BuildResult, output: Path) -> str:
    stats = result.stats
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(stats.pages_by_kind.items()))
    total = sum(stats.pages_by_kind.values())
    warnings = len(result.warnings)
    posts = stats.markdown_rendered + stats.markdown_reused
    # How many posts' markdown was rendered: the rest came from the posts cache (or the saved state).
    tail = (f"{stats.markdown_rendered} of {posts} post{'s' if posts != 1 else ''} rendered, "
            f"{warnings} warning{'s' if warnings != 1 else ''} in {stats.seconds * 1000:.0f} ms -> {output}/")
    if stats.partial:
        edited = stats.edited_posts
        return (f"Updated {total} pages ({kinds}) for {edited} edited post{'s' if edited != 1 else ''}, "
                f"the rest as published, {tail}")
    return f"Built {total} pages ({kinds}), {stats.static_files} static files, {tail}"


def closing_notes(result: BuildResult) -> list[str]:
    """What the build's last lines say beyond its counts: the drafts, future posts and expired pages it left
    out and how to include them."""
    site = result.site
    lines = []
    for left_out, name, flag in ((site.drafts_left_out if site else (), "draft", "--drafts"),
                                 (site.future_left_out if site else (), "future post", "--future"),
                                 (site.expired_left_out if site else (), "expired page", "--expired")):
        count = len(left_out)
        if count:
            lines.append(f"{count} {name}{'s' if count != 1 else ''} not published "
                         f"(`{flag}` to include {'them' if count != 1 else 'it'})")
    return lines


def _build(options: BuildOptions, examination: Examination | None = None) -> int:
    """Build, report every error and warning, publish atomically, record the build; exit code.

    examination: what manifest.examine() found against the last build's record; when only known posts
    changed since, the build carries on from the state that build saved instead of reading every source."""
    from ..disk import manifest
    from ..pipeline.pools import forget_spool_folders, tune_collector
    from ..pipeline.session import load_site_config
    started_ns = time.time_ns()
    tune_collector()
    # Stat the config before reading it and the input folders before the build reads them (manifest.py).
    config_files = manifest.stat_files(manifest.config_candidates(options))
    config = load_site_config(options, manifest.examined_config(options, config_files))
    output = Path(config.root) / config.output_dir
    inputs = None
    if not options.no_cache:
        inputs = manifest.snapshot_site(config, config_files, started_ns)
    # Unique per build: a stage given to a detached remover must never be the next build's stage.
    stage = output.resolve().parent / f".blogbuild-stage-{output.name}-{os.getpid()}-{os.urandom(4).hex()}"
    forget_spool_folders()
    for stale in stage.parent.glob(f".blogbuild-stage-{output.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    code = 1
    try:
        stage.mkdir(parents=True)
        code = _build_and_publish(options, config, output, str(stage), inputs, examination)
        return code
    finally:
        if stage.exists():   # not taken as the new tree
            if code == 0:   # its pages are linked into the new tree: the build need not wait for the rest
                from ..disk.output import remove_later
                remove_later(stage)
            else:   # a failed build leaves nothing behind, not even for a moment
                shutil.rmtree(stage, ignore_errors=True)


FRAMED_ERRORS = 10   # errors printed with the source lines around them (serve's overlay shows the same frame)


def _report_errors(result: BuildResult, output: Path, root: str) -> None:
    from ..serve.reports import error_report
    for index, error in enumerate(result.errors):
        print(f"{error}", file=sys.stderr)
        if index < FRAMED_ERRORS:
            report = error_report(error, root)
            for number, text in report.excerpt:
                print(f"  {'>' if number == report.line else ' '} {number:4d} | {text}", file=sys.stderr)
    count = len(result.errors)
    print(f"Error: build failed with {count} error{'s' if count != 1 else ''}; {output}/ was left as it was",
          file=sys.stderr)


def _build_and_publish(options: BuildOptions, config: SiteConfig, output: Path, stage: str,
                       inputs: dict[str, Entry | None] | None = None,
                       examination: Examination | None = None) -> int:
    from ..core import progress
    progress.start(options.quiet)
    try:
        return _build_and_write(options, config, output, stage, inputs, examination)
    finally:
        progress.stop()   # a failed build: the line is cleared, its stages not printed


def _build_and_write(options: BuildOptions, config: SiteConfig, output: Path, stage: str,
                     inputs: dict[str, Entry | None] | None, examination: Examination | None) -> int:
    from ..core import progress
    from ..core.errors import in_file_order
    from ..disk import manifest
    from ..disk.output import MARKER, write_output
    from ..pipeline.builder import Builder
    from ..pipeline.incremental import edited_posts
    from ..pipeline.session import next_due
    from ..pipeline.state import site_warnings
    edited = edited_posts(examination.changed_inputs if examination is not None else None, config)
    builder = Builder(config, jobs=options.jobs, use_cache=not options.no_cache,
                      stage_dir=stage, keep_state=True, output_dir=output,
                      resume=examination.record["build_id"] if edited is not None and examination else None)
    result = builder.build(edited if builder.resumed else None)
    progress.clear()
    # --quiet prints errors only; under --strict every warning comes back as an error: printed once, as that.
    if not options.quiet and not config.strict:
        for warning in in_file_order(result.warnings):
            print(str(warning), file=sys.stderr)
    if result.errors:
        _report_errors(result, output, str(config.root))
        return 1
    protected: list[Path] = [Path(config.root) / config.source_dir, Path(config.root) / config.templates_dir,
                 Path(config.root) / config.static_dir, Path(config.root)]
    progress.stage("write")
    write_output(result.files, output, protected=protected, prepared=Path(stage),
                 spare_dir=None if options.no_cache else _spare_in_cache(config, output))
    outputs = manifest.snapshot_outputs(output, [*result.files, MARKER]) if inputs is not None else None
    builder.record_published(output, outputs)
    result = replace(result, files={})   # the summary needs only the counts
    notes = closing_notes(result)
    builder.published(output)
    if inputs is not None and outputs is not None:
        build_id = os.urandom(16).hex()
        builder.save_cache(build_id)   # the state first: a record always names a state that exists
        stats = result.stats
        summary = f"{sum(stats.pages_by_kind.values())} pages, {stats.static_files} static files"
        if stats.partial and examination is not None:   # the counts of the last full build, not of this one
            summary = examination.record["summary"]
        manifest.write_record(options.location, config, inputs=inputs, outputs=outputs, summary=summary,
                              warnings=[str(warning) for warning in site_warnings(result.warnings)], notes=notes,
                              valid_until=next_due(builder, config), output_dir=str(output), build_id=build_id)
    else:
        builder.save_cache()
    stages = progress.stop()
    if not options.quiet:
        print(_summary(result, output))
        if stages:
            print(stages)
        for note in notes:
            print(note)
    return 0


def _spare_in_cache(config: SiteConfig, output: Path) -> Path | None:
    """Where the build keeps the spare tree: in its cache folder (a deploy that restores the cache then
    restores the spare, and the first build on a fresh checkout need not make a folder per page), when that
    folder is on the output's file system (the spare is swapped in by rename); else None (beside the output)."""
    from ..core.cache_keys import CACHE_DIR
    try:
        same_device = os.stat(config.root).st_dev == os.stat(output.resolve().parent).st_dev
    except OSError:
        return None
    return Path(config.root) / CACHE_DIR / f"spare-{output.name}" if same_device else None
