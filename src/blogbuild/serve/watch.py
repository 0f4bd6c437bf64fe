"""File watching for `blogbuild serve`: classify changes (Zola's ChangeKind) and coalesce bursts."""
from __future__ import annotations

import enum
import os
import stat
import threading
import time
from pathlib import Path
from typing import Callable, Iterable

from ..core.names import is_config_path, is_inside, is_skipped, is_skipped_static
from ..core.records import dataclass


class ChangeKind(enum.Enum):
    """What a changed file is, which decides what a rebuild must redo."""

    CONTENT = "content"
    TEMPLATE = "template"
    STATIC = "static"
    CONFIG = "config"


@dataclass(frozen=True)
class WatchPlan:
    """The folders and files a server watches, and the folders it ignores (absolute paths)."""

    root: str
    content_dir: str
    templates_dir: str
    static_dir: str
    config_path: str
    ignored_dirs: tuple[str, ...] = ()
    go_template_dirs: tuple[str, ...] = ()    # a Hugo site's layouts/ and i18n/ (templates too)
    # The folders of the site's own CSS (theme.extended_css), read by every build, whether they exist yet or not.
    stylesheet_dirs: tuple[str, ...] = ()
    # A Hugo site's data/ folders (read by its templates, whether there yet or not) and its themes' static/.
    data_dirs: tuple[str, ...] = ()
    theme_static_dirs: tuple[str, ...] = ()
    # Files whose change changes the config: the vendor list and the themes' own config files.
    config_files: tuple[str, ...] = ()

    def planned(self) -> tuple[str, ...]:
        """Every folder a build reads from, existing or not."""
        return (self.content_dir, self.templates_dir, self.static_dir, *self.go_template_dirs, *self.stylesheet_dirs,
                *self.data_dirs, *self.theme_static_dirs)

    def folders(self) -> tuple[str, ...]:
        """The existing folders to watch recursively."""
        return tuple(folder for folder in self.planned() if os.path.isdir(folder))

    def missing(self) -> tuple[str, ...]:
        """The folders a build would read that do not exist (yet) inside the site: a server watches for them."""
        return tuple(folder for folder in self.planned()
                     if not os.path.isdir(folder) and is_inside(folder, (self.root,)) and folder != self.root)


def _absolute(base: str | Path, path: str | Path) -> str:
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = Path(base) / candidate
    return os.path.abspath(candidate)


def plan_for(config, *, ignored: Iterable[str | Path] = ()) -> WatchPlan:
    """The watch plan of a SiteConfig: content, templates, static and the config file."""
    root = os.path.abspath(config.root)
    config_path = _absolute(os.getcwd(), config.config_path) if config.config_path else ""
    # The build cache and the output folder are written by blogbuild itself: never rebuild for them.
    ignored_dirs = [_absolute(root, config.output_dir), _absolute(root, ".blogbuild-cache")]
    ignored_dirs += [os.path.abspath(path) for path in ignored]
    from ..core.names import data_folders
    from ..disk.sources import go_template_folders, stylesheet_folders, theme_config_files, theme_static_dirs
    return WatchPlan(root=root, content_dir=_absolute(root, config.source_dir),
                     templates_dir=_absolute(root, config.templates_dir),
                     static_dir=_absolute(root, config.static_dir), config_path=config_path,
                     ignored_dirs=tuple(ignored_dirs),
                     go_template_dirs=tuple(os.path.abspath(folder) for folder in go_template_folders(config)),
                     stylesheet_dirs=tuple(os.path.abspath(folder)
                                           for folder in stylesheet_folders(config, existing=False)),
                     data_dirs=tuple(os.path.abspath(folder) for folder in data_folders(Path(root), existing=False)),
                     theme_static_dirs=tuple(os.path.abspath(folder) for folder in theme_static_dirs(config)),
                     config_files=tuple(os.path.abspath(path) for path in theme_config_files(config)))


def is_ignored_name(path: str) -> bool:
    """True for files the build never reads (names.is_skipped): editor temp files must not trigger a rebuild."""
    return is_skipped(os.path.basename(path))


def _identity(folder: str) -> tuple[int, int] | None:
    """Which folder is at a path (None when none is): a folder removed and made again is another folder, and its
    old watch sees nothing of the new one."""
    try:
        status = os.stat(folder)
    except OSError:
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISDIR(status.st_mode) else None


def classify(path: str, plan: WatchPlan) -> ChangeKind | None:
    """The kind of a changed absolute path, or None when the change does not matter."""
    path = os.path.abspath(path)
    static = is_inside(path, (plan.static_dir, *plan.theme_static_dirs))   # whose hidden files are published
    ignored = is_skipped_static(os.path.basename(path)) if static else is_ignored_name(path)
    if ignored or any(is_inside(path, (folder,)) for folder in plan.ignored_dirs):
        return None
    if plan.config_path and path == plan.config_path or path in plan.config_files:
        return ChangeKind.CONFIG
    # A config file appearing (or vanishing) at the root, Hugo's included, changes which config applies.
    if is_config_path(path, plan.root):
        return ChangeKind.CONFIG
    # Most specific folder first, so a templates/ inside content/ (odd, but possible) is a template.
    folders = [(plan.templates_dir, ChangeKind.TEMPLATE), (plan.static_dir, ChangeKind.STATIC),
               (plan.content_dir, ChangeKind.CONTENT), *((folder, ChangeKind.TEMPLATE) for folder in plan.go_template_dirs),
               *((folder, ChangeKind.STATIC) for folder in plan.stylesheet_dirs),
               *((folder, ChangeKind.TEMPLATE) for folder in plan.data_dirs),
               *((folder, ChangeKind.STATIC) for folder in plan.theme_static_dirs)]
    for folder, kind in sorted(folders, key=lambda item: -len(item[0])):
        if is_inside(path, (folder,)):
            return kind
    return None


class ChangeBatcher:
    """Collects changed paths and hands them out after a quiet period, so a burst is one rebuild.

    A path whose writer has closed it (inotify's close-after-write, a rename, a delete) is settled: the
    save is complete. When every path in the batch is settled, a short quiet period is enough to catch
    the rest of a burst; while some file is still being written, wait the full quiet period.
    """

    def __init__(self, quiet_seconds: float = 0.1, settled_quiet_seconds: float | None = None) -> None:
        self.quiet_seconds = quiet_seconds
        self.settled_quiet_seconds = (min(quiet_seconds, 0.03) if settled_quiet_seconds is None
                                      else settled_quiet_seconds)
        self._condition = threading.Condition()
        self._paths: set[str] = set()
        self._unsettled: set[str] = set()
        self._last_event = 0.0
        self._closed = False

    def add(self, path: str, *, settled: bool = False) -> None:
        """Record one changed path and restart the quiet period."""
        with self._condition:
            self._paths.add(path)
            if settled:
                self._unsettled.discard(path)
            else:
                self._unsettled.add(path)
            self._last_event = time.monotonic()
            self._condition.notify_all()

    def close(self) -> None:
        """Wake the waiting take() so its thread can end."""
        with self._condition:
            self._closed = True
            self._condition.notify_all()

    def take(self) -> set[str] | None:
        """Block until paths arrived and nothing new came for the quiet period; None once closed."""
        with self._condition:
            while True:
                if self._closed:
                    return None
                if not self._paths:
                    self._condition.wait()
                    continue
                quiet = self.quiet_seconds if self._unsettled else self.settled_quiet_seconds
                remaining = self._last_event + quiet - time.monotonic()
                if remaining > 0:
                    self._condition.wait(remaining)
                    continue
                paths, self._paths, self._unsettled = self._paths, set(), set()
                return paths


# inotify also reports files being opened and read (the build reads every source): those are not changes.
_CHANGE_EVENTS = frozenset({"created", "deleted", "modified", "moved", "closed", "attrib"})


_SETTLED_EVENTS = frozenset({"closed", "deleted", "moved", "attrib"})


def make_event_handler(on_path: Callable[[str, bool], None]):
    """A watchdog event handler that passes every changed path (both ends of a move) to on_path(path, settled)."""
    from watchdog.events import FileSystemEventHandler

    class _Handler(FileSystemEventHandler):
        def on_any_event(self, event) -> None:
            if event.event_type not in _CHANGE_EVENTS:
                return
            # A folder's own "modified" only says its listing changed; the files inside report themselves.
            if event.is_directory and event.event_type == "modified":
                return
            settled = event.event_type in _SETTLED_EVENTS
            for path in (event.src_path, getattr(event, "dest_path", "")):
                if path:
                    on_path(os.fsdecode(path), settled)

    return _Handler()


# How often the server looks for a planned folder that appeared or went away without an event it saw (a folder made
# inside another in the moment before that one's watch began), and how long after a folder's watch began it is swept
# again: watchdog adds a watch from its emitter's own thread, so a file written in that moment is in neither the
# first sweep nor the watch (twice: soon for the usual moment, later for a machine under load).
_LOOK_SECONDS = 0.25
_SWEEP_AGAIN_SECONDS = (0.3, 1.5)


class Watcher:
    """A watchdog Observer over a WatchPlan that feeds relevant paths to a ChangeBatcher."""

    def __init__(self, plan: WatchPlan, batcher: ChangeBatcher) -> None:
        from watchdog.observers import Observer

        self.plan = plan
        self._batcher = batcher
        self._observer = Observer()
        self._handler = make_event_handler(self._on_path)
        self._lock = threading.RLock()
        # folder -> (recursively, watchdog's watch, the folder's identity when its watch began)
        self._watched: dict[str, tuple[bool, object, tuple[int, int] | None]] = {}
        self._sweep_again: dict[str, list[float]] = {}       # folder -> when to sweep it again
        # Watched folders an event said were made, removed or moved (their watch may watch nothing now): a set the
        # handler thread adds to under its own small lock, never while the observer is called.
        self._doubtful: set[str] = set()
        self._doubtful_lock = threading.Lock()
        self._stopped = threading.Event()
        self._wake = threading.Event()
        self._looker = threading.Thread(target=self._keep_looking, name="blogbuild-watch-look", daemon=True)
        self._schedule(plan)

    def _schedule(self, plan: WatchPlan) -> None:
        for folder in plan.folders():
            self._watch(folder, recursive=True)
        # The root itself, not recursively: for the config file (and a config file being created).
        if os.path.isdir(plan.root):
            self._watch(plan.root, recursive=False)
        # The folders of the files that make the config besides it (a theme's own config, the vendor list).
        for folder in dict.fromkeys(os.path.dirname(path) for path in plan.config_files):
            if os.path.isdir(folder) and is_inside(folder, (plan.root,)):
                self._watch(folder, recursive=False)
        self._watch_for_missing(plan)

    def _is_watched(self, folder: str) -> bool:
        entry = self._watched.get(folder)   # one lookup: the handler thread reads while the looker may write
        return entry is not None and entry[0]

    def _watch(self, folder: str, *, recursive: bool) -> None:
        if folder in self._watched and self._watched[folder][0] in (recursive, True):
            return
        try:
            watch = self._observer.schedule(self._handler, folder, recursive=recursive)
        except OSError:
            return   # gone again (or unreadable): the looker tries again
        self._watched[folder] = (recursive, watch, _identity(folder))

    def _watch_for_missing(self, plan: WatchPlan) -> None:
        """For each folder the build would read that does not exist yet (assets/css/extended/ of an author who has
        not written their CSS yet), watch its nearest existing folder, so that creating it is seen."""
        for folder in plan.missing():
            parent = os.path.dirname(folder)
            while not os.path.isdir(parent) and is_inside(parent, (plan.root,)) and parent != plan.root:
                parent = os.path.dirname(parent)
            if os.path.isdir(parent) and is_inside(parent, (plan.root,)):
                self._watch(parent, recursive=False)

    def _look_again(self) -> None:
        """Watch and sweep every planned folder that exists and is not watched yet (made after the server started,
        or made again after it was removed), and forget the watches of folders that are gone."""
        with self._lock:
            with self._doubtful_lock:
                doubtful, self._doubtful = self._doubtful, set()
            for folder in [folder for folder, (_, _, seen) in self._watched.items()
                           if folder in doubtful or _identity(folder) != seen]:
                _, watch, _ = self._watched.pop(folder)
                try:
                    self._observer.unschedule(watch)   # type: ignore[arg-type]
                except (KeyError, OSError):
                    pass   # its emitter already ended
            appeared = []
            for folder in self.plan.folders():
                if not self._is_watched(folder):
                    self._watch(folder, recursive=True)
                    if self._is_watched(folder):
                        appeared.append(folder)
                        self._sweep_again[folder] = [time.monotonic() + delay for delay in _SWEEP_AGAIN_SECONDS]
            self._watch_for_missing(self.plan)
        self._sweep(appeared)

    def _keep_looking(self) -> None:
        """The looker thread, the one place watches change while the server runs (the observer calls handlers
        holding its own lock, so a handler only wakes the looker). A planned folder that appears or goes away is
        seen at once when an event tells of it, else within _LOOK_SECONDS; a folder that appeared is swept again
        after its watch has surely begun."""
        while True:
            self._wake.wait(_LOOK_SECONDS)
            self._wake.clear()
            if self._stopped.is_set():
                return
            with self._lock:
                changed = bool(self._doubtful) or any(
                    _identity(folder) != (self._watched[folder][2] if self._is_watched(folder) else None)
                    for folder in self.plan.planned())
                now = time.monotonic()
                due = [folder for folder, times in self._sweep_again.items() if times[0] <= now]
                for folder in due:
                    times = self._sweep_again[folder]
                    while times and times[0] <= now:
                        times.pop(0)
                    if not times:
                        del self._sweep_again[folder]
            if changed:
                self._look_again()
            self._sweep(due)

    def _sweep(self, folders: list[str]) -> None:
        """Report every file in folders as changed (a rebuild reads them again; unchanged files cost little)."""
        for folder in folders:
            for parent, _, names in os.walk(folder):
                for name in names:
                    self._on_path(os.path.join(parent, name), True)

    def _on_path(self, path: str, settled: bool) -> None:
        if classify(path, self.plan) is not None:
            self._batcher.add(os.path.abspath(path), settled=settled)
        # A watched planned folder itself (or a folder on the way to it) was made, removed or moved.
        doubtful = [folder for folder in self.plan.planned() if self._is_watched(folder) and is_inside(folder, (path,))]
        if doubtful:
            with self._doubtful_lock:
                self._doubtful.update(doubtful)
            self._wake.set()
        # A planned folder not watched yet, or a folder on the way to one, appeared.
        if any(is_inside(folder, (path,)) for folder in self.plan.planned() if not self._is_watched(folder)) \
                and os.path.isdir(path):
            self._wake.set()

    def replan(self, plan: WatchPlan) -> None:
        """Watch other folders after a config change moved them."""
        with self._lock:
            if plan == self.plan:
                return
            self._observer.unschedule_all()
            self._watched = {}
            self._sweep_again = {}
            self.plan = plan
            self._schedule(plan)

    def start(self) -> None:
        """Start the observer thread, and the looker."""
        self._observer.start()
        self._looker.start()

    def stop(self) -> None:
        """Stop the observer thread and the looker, and wait for them."""
        self._stopped.set()
        self._wake.set()
        if self._looker.is_alive():
            self._looker.join(timeout=5)
        self._observer.stop()
        self._observer.join(timeout=5)
