"""The only writer: build the new tree beside public/, then swap it in whole."""
from __future__ import annotations

import contextlib
import os
import shutil
import stat as stat_module
from dataclasses import field
from pathlib import Path
from typing import Mapping

from ..core.errors import BlogbuildError
from ..core.model import OutputFile
from ..core.records import dataclass

MARKER = ".blogbuild-output"
_TEMP_PREFIX = ".blogbuild-tmp-"
_TRASH_PREFIX = ".blogbuild-trash-"   # a tree no longer wanted, being removed in the background
_STAGE_PREFIX = ".blogbuild-stage-"   # build.py's spool of rendered pages
_SPARE_PREFIX = ".blogbuild-spare-"   # the tree the last swap replaced, kept to start the next one from


def check_output_path(path: str) -> str:
    """An output path must stay inside the output folder: no absolute paths, '..', NUL or backslashes."""
    if not path or path.startswith("/") or "\\" in path or "\x00" in path:
        raise BlogbuildError(f"output: refusing to write '{path}': not a relative path inside the output folder")
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise BlogbuildError(f"output: refusing to write '{path}': it would leave the output folder")
    return path


def _shown(folder: Path) -> str:
    """A folder as messages show it: relative to the working folder when inside it."""
    relative = os.path.relpath(folder)
    return folder.as_posix() if relative.startswith("..") else Path(relative).as_posix()


def check_output_dir(output_dir: Path, protected: list[Path]) -> None:
    """Refuse an output folder that is, or holds, the site's own sources, or a folder of someone else's files."""
    resolved = output_dir.resolve()
    folders = [folder.resolve() for folder in protected]
    for folder in folders:
        if resolved == folder or resolved in folder.parents:
            raise BlogbuildError(f"output: '{output_dir}' is or contains '{_shown(folder)}'; choose another --output, "
                                 "the build replaces the whole output folder")
        # Inside content/, templates/ or static/ the output would be read back as input by the next build.
        # A protected folder that holds another one is the site folder itself, where public/ belongs.
        holds_another = any(folder in other.parents for other in folders)
        if folder in resolved.parents and not holds_another:
            raise BlogbuildError(f"output: '{output_dir}' is inside '{_shown(folder)}', so the next build would read "
                                 "its own output; choose a folder outside it, such as public/")
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        raise BlogbuildError(f"output: refusing to replace '{output_dir}'; choose a folder such as public/")
    if output_dir.is_dir() and not (output_dir / MARKER).exists():
        if any(output_dir.iterdir()):
            if (resolved.parent / ".hugo_build.lock").exists():   # Hugo leaves its lock in the site folder
                raise BlogbuildError(f"output: '{output_dir}' holds Hugo's build (a .hugo_build.lock is beside it), "
                                     f"not files blogbuild wrote; move it away (`mv {output_dir} {output_dir}-hugo`) "
                                     "or delete it, or choose another --output (the build replaces the whole folder)")
            raise BlogbuildError(f"output: '{output_dir}' holds files blogbuild did not write; empty it or choose "
                                 "another --output (the build replaces the whole folder)")


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders atomically with renameat2(RENAME_EXCHANGE) where the kernel has it."""
    import ctypes   # here, and no ctypes.util (it imports subprocess): 10 ms of every build's start
    try:
        # The symbols the process already has, libc's among them: no library to look for.
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):   # no renameat2 (or no dlopen(NULL), as on Windows)
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange)
    return result == 0


def _same_bytes(path: Path, item: OutputFile) -> bool:
    try:
        if not stat_module.S_ISREG(os.lstat(path).st_mode):
            return False   # a link (or anything else) placed in the output is replaced by the build's file
        if item.source:
            source_stat, target_stat = os.stat(item.source), os.stat(path)
            if (source_stat.st_ino, source_stat.st_dev) == (target_stat.st_ino, target_stat.st_dev):
                return True   # one file (a card linked from the cache)
            if source_stat.st_size != target_stat.st_size:
                return False
            return Path(item.source).read_bytes() == path.read_bytes()
        if path.stat().st_size != len(item.data):
            return False
        return path.read_bytes() == item.data
    except OSError:
        return False


def _already_published(files: Mapping[str, OutputFile], output_dir: Path) -> bool:
    """Whether output_dir holds exactly these files with these bytes (a no-op build then writes nothing)."""
    if not (output_dir / MARKER).is_file():
        return False
    prefix = str(output_dir) + os.sep
    absolute = os.path.abspath(output_dir) + os.sep
    # Files rendered afresh first: one of them differing (the usual case) settles it without a walk.
    for path, item in files.items():
        previous = prefix + path
        if item.source and (item.source == previous or os.path.abspath(item.source) == absolute + path):
            continue
        if not _same_bytes(Path(previous), item):
            return False
    found, _ = _files_below(str(output_dir))
    found.discard(MARKER)
    return found == set(files)


def remove_later(folder: Path) -> None:
    """Delete a tree in a detached process, so the build does not wait (at 10,000 posts removing 15,000
    folders takes about a second). It is first renamed to a unique trash name: nothing can then be
    written under the name being removed, and a remover killed half-way leaves a folder the next build
    recognises and removes. A small tree (the stage of an edit, a few pages) is removed here: starting a
    process costs more than that."""
    if _entries_at_most(folder, SMALL_TREE):
        shutil.rmtree(folder, ignore_errors=True)
        return
    import subprocess
    trash = folder
    if not folder.name.startswith(_TRASH_PREFIX):
        rest = folder.name
        for prefix in (_TEMP_PREFIX, _SPARE_PREFIX, _STAGE_PREFIX):
            if rest.startswith(prefix):
                rest = rest[len(prefix):]
        trash = folder.with_name(f"{_TRASH_PREFIX}{rest}-{os.urandom(4).hex()}")
    try:
        if trash != folder:
            os.rename(folder, trash)
        subprocess.Popen(["rm", "-rf", "--", str(trash)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
    except OSError:
        shutil.rmtree(trash if trash.exists() else folder, ignore_errors=True)


# A tree of at most this many files and folders is removed in the build's process (remove_later).
SMALL_TREE = 64


def _entries_at_most(folder: Path, limit: int) -> bool:
    """Whether folder holds at most limit files and folders (not counted further than that)."""
    count = 0
    stack = [str(folder)]
    try:
        while stack:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    count += 1
                    if count > limit:
                        return False
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
    except OSError:
        return False   # let the remover deal with it
    return True


def _files_below(folder: str) -> tuple[set[str], set[str]]:
    """Relative paths of every file and every folder below folder."""
    files: set[str] = set()
    folders: set[str] = set()
    stack = [(folder, "")]
    while stack:
        current, relative = stack.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                name = relative + entry.name
                if entry.is_dir(follow_symlinks=False):
                    folders.add(name)
                    stack.append((entry.path, name + "/"))
                else:
                    files.add(name)
    return files, folders


def _same_inode(first: str, second: str) -> bool:
    try:
        one, other = os.stat(first), os.stat(second)
    except OSError:
        return False
    return (one.st_ino, one.st_dev) == (other.st_ino, other.st_dev)


def _replace_with_link(source: str, target: str, exists: bool) -> None:
    """Make target a hard link to source (nothing to do when it is one already); an existing target is
    replaced by rename, never written into (in the spare tree it may be a link to a live file)."""
    if not exists:
        try:
            os.link(source, target)
            return
        except FileExistsError:
            pass   # a file the tree was not known to hold (a page staged by an abandoned render): replaced
    if _same_inode(source, target):
        return   # already that file: rename() between two links of one file would leave the temp behind
    temp = f"{target}.blogbuild-new"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp)
    os.link(source, temp)
    os.replace(temp, target)


def _replace_with_bytes(item: OutputFile, target: str) -> None:
    temp = f"{target}.blogbuild-new"
    if item.source:
        shutil.copyfile(item.source, temp)
    else:
        with open(temp, "wb") as handle:
            handle.write(item.data)
    os.replace(temp, target)


@dataclass
class _Tree:
    """The new tree being prepared beside the output (a private, short-lived record of write_output)."""

    path: Path
    existing: set[str] = field(default_factory=set)        # files it already holds (a claimed spare's)
    existing_dirs: set[str] = field(default_factory=set)
    in_place: str = ""   # files whose source is this prefix + their path are already where they belong


def write_output(files: Mapping[str, OutputFile], output_dir: Path, *, protected: list[Path] | None = None,
                 prepared: Path | None = None, spare_dir: Path | None = None) -> int:
    """Write files as the new output folder, atomically; unchanged files keep their inode and mtime.

    The new tree is prepared beside the output and swapped in whole. It starts from the tree the last
    swap replaced (the "spare", kept beside the output): making that match costs a stat per file and a
    write per changed file, where a tree from nothing costs a folder per page (at 10,000 posts, 15,000
    mkdirs, about 2 s). Nothing in the spare is trusted: every file is checked against the live tree by
    inode or bytes, strays are removed, and a spare half-updated by a killed build is discarded.

    prepared: a folder (the build's stage, beside the output) already holding freshly rendered pages at
    their paths. With no spare at hand it becomes the new tree itself: the pages are not linked again.

    spare_dir: where the spare is kept, on the output's file system (the build keeps it in its cache folder,
    so that a deploy restoring that folder restores the spare too, and a fresh checkout does not make a
    folder per page again); by default beside the output. A spare in the other place is taken up as well.

    Returns the number of files whose bytes changed."""
    check_output_dir(output_dir, protected or [])
    parent = output_dir.resolve().parent
    beside = parent / f"{_SPARE_PREFIX}{output_dir.name}"
    spare = spare_dir if spare_dir is not None else beside
    # The spare to start from: the one where it is kept, else one left in the other place (by an older
    # version, or by a --no-cache build, which keeps it beside the output).
    found = spare if spare.is_dir() or not beside.is_dir() else beside
    if _already_published(files, output_dir):
        # Nothing to change: leave the folder (and every inode and mtime) as it is. Pages rendered into the
        # stage anyway (a --no-cache build) make a good spare for the next build: their folders exist.
        if prepared is not None and prepared.is_dir() and prepared.resolve().parent == parent and \
                not found.exists():
            spare.parent.mkdir(parents=True, exist_ok=True)
            os.rename(prepared, spare)
        return 0
    parent.mkdir(parents=True, exist_ok=True)
    for stale in parent.glob(f"{_TEMP_PREFIX}{output_dir.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)   # a killed build's half-written tree
    trash = [*parent.glob(f"{_TRASH_PREFIX}{output_dir.name}-*")]
    if spare.parent != parent:   # a spare kept elsewhere is trashed beside itself
        trash += spare.parent.glob(f"{_TRASH_PREFIX}{spare.name}-*")
    for stale in trash:
        remove_later(stale)   # a remover that was killed (one still running makes this a no-op)
    tree = _start_tree(parent, output_dir, found, prepared)
    try:
        changed = _fill_tree(files, tree, output_dir)
        _remove_strays(files, tree)
        (tree.path / MARKER).write_text("This folder is written by blogbuild; it replaces it whole on each build.\n")
        for other in {spare, beside}:
            if other.exists():   # a spare not taken up (the one in the other place): it would go stale
                remove_later(other)
        spare.parent.mkdir(parents=True, exist_ok=True)
        _swap_in(tree.path, output_dir, parent, spare)
    except BaseException:
        shutil.rmtree(tree.path, ignore_errors=True)
        raise
    return changed


def _start_tree(parent: Path, output_dir: Path, spare: Path, prepared: Path | None) -> _Tree:
    """The folder the new tree is made in: the spare when it can be claimed, else the build's stage, else a
    new empty folder."""
    temp = parent / f"{_TEMP_PREFIX}{output_dir.name}-{os.urandom(4).hex()}"
    if spare.is_dir() and output_dir.is_dir():
        try:
            os.rename(spare, temp)   # claimed: killed from here on, it is a stale temp folder, removed next time
        except FileNotFoundError:
            pass   # taken meanwhile (another build in this folder): start from nothing
        else:
            existing, existing_dirs = _files_below(str(temp))
            return _Tree(temp, existing, existing_dirs)
    if spare.exists():
        remove_later(spare)
    if prepared is not None and prepared.is_dir() and prepared.resolve().parent == parent:
        return _Tree(prepared, in_place=str(prepared) + os.sep)
    temp.mkdir()
    return _Tree(temp)


def _fill_tree(files: Mapping[str, OutputFile], tree: _Tree, output_dir: Path) -> int:
    """Make every file of the build present in the tree, linking unchanged ones to the live tree's inode;
    returns the number of files whose bytes changed. A file a render staged in the tree at another path than its
    own (a language's robots.txt, published at the top) is not left at that path."""
    changed = 0
    moved: set[str] = set()
    made_dirs = set(tree.existing_dirs)
    existing, in_place = tree.existing, tree.in_place
    # Plain strings, not Path objects or abspath: this loop runs once per output file.
    temp_prefix = str(tree.path) + os.sep
    output_prefix = str(output_dir) + os.sep
    output_absolute = os.path.abspath(output_dir) + os.sep
    for path in sorted(files):
        item = files[path]
        check_output_path(path)
        if in_place and item.staged and item.source == in_place + path:
            previous = output_prefix + path
            if os.path.isfile(previous) and _same_bytes(Path(previous), item):
                _replace_with_link(previous, item.source, True)   # unchanged: keep its inode and mtime
            else:
                changed += 1
            continue
        if in_place and item.staged and item.source.startswith(in_place):
            moved.add(item.source[len(in_place):])
        folder = path.rpartition("/")[0]
        if folder and folder not in made_dirs:
            os.makedirs(temp_prefix + folder, exist_ok=True)
            made_dirs.add(folder)
        target = temp_prefix + path
        previous = output_prefix + path
        exists = path in existing
        if item.source and (item.source == previous or os.path.abspath(item.source) == output_absolute + path):
            # a warm build found this published file still current
            _replace_with_link(previous, target, exists)   # nothing to do when target is that file already
            continue
        if os.path.isfile(previous) and _same_bytes(Path(previous), item):
            try:
                _replace_with_link(previous, target, exists)
                continue
            except OSError:
                pass
        changed += 1
        if item.staged or item.from_cache:
            try:
                _replace_with_link(item.source, target, exists)
                continue
            except OSError:
                pass   # another file system: copy below
        _replace_with_bytes(item, target)
    for path in moved - set(files):
        os.unlink(in_place + path)
    return changed


def _remove_strays(files: Mapping[str, OutputFile], tree: _Tree) -> None:
    """Remove what a claimed spare had and this build does not: files, then folders left empty."""
    temp_prefix = str(tree.path) + os.sep
    for path in tree.existing - set(files) - {MARKER}:
        os.unlink(temp_prefix + path)
    if tree.existing_dirs:   # and its folders that hold none of this build's files (a deleted post's)
        needed: set[str] = set()
        for path in files:
            folder = path.rpartition("/")[0]
            while folder and folder not in needed:
                needed.add(folder)
                folder = folder.rpartition("/")[0]
        for folder in sorted(tree.existing_dirs - needed, key=len, reverse=True):
            with contextlib.suppress(OSError):
                os.rmdir(temp_prefix + folder)


def _swap_in(temp: Path, output_dir: Path, parent: Path, spare: Path) -> None:
    """Put the new tree in the output's place in one step; the replaced tree becomes the next spare."""
    if not output_dir.exists():
        os.rename(temp, output_dir)
        return
    if _exchange(temp, output_dir):
        os.rename(temp, spare)   # temp now holds the replaced tree: the next build starts from it
        return
    old = parent / f"{_TEMP_PREFIX}{output_dir.name}-old-{os.urandom(4).hex()}"
    os.rename(output_dir, old)
    os.rename(temp, output_dir)
    try:
        os.rename(old, spare)
    except BaseException:
        shutil.rmtree(old, ignore_errors=True)
        raise
