"""What a template reads from the site's folder with `os.ReadFile`, `os.FileExists`, `os.Stat`, `os.ReadDir`
(and `readFile`, `fileExists`, `readDir`): a path under the site, else under content/, as Hugo looks; nothing
outside the site is read (`..`, an absolute path, a symlink out of it), a file up to 10 MB, a folder of up
to 10,000 entries. `os.Getenv` reads HUGO_* and CI only, Hugo's default policy. OS_FUNCTIONS by member name;
IMAGE_CONFIG is images.Config (imageConfig), an image file's size by the same lookup."""
from __future__ import annotations

from typing import Any, Callable

import jinja2

from .arithmetic import HugoFunctionError
from .escape import go_string
from .objects import GoObject, GoTime, UnsupportedField, site_config


def _site_file(context: jinja2.runtime.Context, name: Any, what: str) -> Any:
    """A path under the site folder (or its content folder), as os.ReadFile and os.FileExists find it; None
    when there is none. Nothing outside the site is read, through a symlink neither."""
    import os
    from pathlib import Path

    from ...core.names import is_inside
    site = context["_state"].site
    config = site_config(site)
    root = str(config.root) if config is not None else site.root
    if not root:
        raise UnsupportedField(f"{what} needs the site's folder, which this render does not know")
    relative = go_string(name)
    if relative == "":
        raise HugoFunctionError(f"{what} needs a file name")
    real_root = os.path.realpath(root)
    for base in (Path(root), Path(root) / "content"):
        candidate = base / relative.lstrip("/")
        real = os.path.realpath(candidate)
        if not is_inside(real, (real_root,)):
            raise HugoFunctionError(f"{what}: {relative} is outside the site folder; a build reads only the site's "
                                    "own files")
        if os.path.exists(real):
            return Path(real)
    return None


def _file_exists(context: jinja2.runtime.Context, name: Any) -> bool:
    return _site_file(context, name, "os.FileExists") is not None


_MAX_READ = 10 * 1024 * 1024


def _read_file(context: jinja2.runtime.Context, name: Any) -> str:
    path = _site_file(context, name, "os.ReadFile")
    if path is None:
        raise HugoFunctionError(f"file {go_string(name)} does not exist")
    if path.is_dir():
        raise HugoFunctionError(f"{go_string(name)} is a directory")
    if path.stat().st_size > _MAX_READ:
        raise HugoFunctionError(f"{go_string(name)} is larger than 10 MB; os.ReadFile reads files up to that size")
    return path.read_text(encoding="utf-8", errors="replace")


def _getenv(name: Any) -> str:
    """os.Getenv under Hugo's default security policy: only HUGO_* variables and CI are read."""
    import os
    variable = go_string(name)
    if not (variable.startswith("HUGO_") or variable == "CI"):
        raise HugoFunctionError(f'access denied: "{variable}" is not whitelisted in policy "security.funcs.getenv"; '
                                "the environment variable(s) you can read are HUGO_* and CI")
    return os.environ.get(variable, "")


class FileInfo(GoObject):
    """os.Stat and os.ReadDir's entries: `.Name`, `.Size`, `.IsDir`, `.ModTime`."""

    kind = "FileInfo"

    def __init__(self, path: Any) -> None:
        from datetime import datetime, timezone
        status = path.stat()
        self.Name = path.name
        self.Size = 0 if path.is_dir() else status.st_size
        self.IsDir = path.is_dir()
        self.ModTime = GoTime(datetime.fromtimestamp(status.st_mtime, timezone.utc))


def _stat(context: jinja2.runtime.Context, name: Any) -> FileInfo:
    path = _site_file(context, name, "os.Stat")
    if path is None:
        raise HugoFunctionError(f"os.Stat: {go_string(name)} does not exist")
    return FileInfo(path)


_MAX_DIR_ENTRIES = 10_000


def _read_dir(context: jinja2.runtime.Context, name: Any) -> list[FileInfo]:
    import os
    path = _site_file(context, name, "os.ReadDir")
    if path is None or not path.is_dir():
        raise HugoFunctionError(f"os.ReadDir: {go_string(name)} is not a folder of the site")
    entries = sorted(path.iterdir(), key=lambda entry: entry.name)
    if len(entries) > _MAX_DIR_ENTRIES:
        raise HugoFunctionError(f"os.ReadDir: {go_string(name)} holds more than {_MAX_DIR_ENTRIES} entries")
    root = os.path.realpath(path)
    return [FileInfo(entry) for entry in entries if os.path.realpath(entry).startswith(root)]


class ImageConfig(GoObject):
    """images.Config's answer: the image's `.Width` and `.Height` (its header read, the pixels not decoded)."""

    kind = "image.Config"

    def __init__(self, width: int, height: int) -> None:
        self.Width = width
        self.Height = height


def _image_config(context: jinja2.runtime.Context, name: Any) -> ImageConfig:
    """images.Config (imageConfig): the size of an image file of the site, by its path from the site folder."""
    path = _site_file(context, name, "images.Config")
    if path is None or path.is_dir():
        raise HugoFunctionError(f"images.Config: {go_string(name)} does not exist")
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(path) as image:
            width, height = image.size
    except (OSError, UnidentifiedImageError, ValueError) as error:
        raise HugoFunctionError(f"images.Config: {go_string(name)} is not an image blogbuild reads ({error})") from None
    return ImageConfig(width, height)


IMAGE_CONFIG = jinja2.pass_context(_image_config)

OS_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "FileExists": jinja2.pass_context(_file_exists), "ReadFile": jinja2.pass_context(_read_file),
    "ReadDir": jinja2.pass_context(_read_dir), "Stat": jinja2.pass_context(_stat), "Getenv": _getenv,
}
