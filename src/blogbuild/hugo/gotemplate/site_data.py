"""`hugo.Data` (and `.Site.Data`): the site's data files, data/ and then each theme's, as one map. A file
`data/a/b.toml` is `hugo.Data.a.b`; a name the site has hides the same name in a theme. JSON, YAML and TOML
files are read (CSV and XML are not), each only where its real path is inside the site, up to 10 MB."""
from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path
from typing import Any

from ...core.names import data_folders, is_inside
from .arithmetic import HugoFunctionError

MAX_DATA_FILE = 10 * 1024 * 1024
_SUFFIXES = (".json", ".yaml", ".yml", ".toml")


def site_data(root: Path) -> dict[str, Any]:
    """Every data file under the site's and its themes' data/ folders as nested maps; HugoFunctionError for a
    file that cannot be read, naming it."""
    allowed = (os.path.realpath(root),)
    merged: dict[str, Any] = {}
    for folder in data_folders(root):
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() not in _SUFFIXES or not path.is_file():
                continue
            if not is_inside(os.path.realpath(path), allowed):
                continue
            keys = list(path.relative_to(folder).with_suffix("").parts)
            target = merged
            for key in keys[:-1]:
                target = target.setdefault(key, {})
                if not isinstance(target, dict):
                    break
            else:
                if keys[-1] not in target:
                    target[keys[-1]] = _read(path, root)
    return merged


def _read(path: Path, root: Path) -> Any:
    shown = path.relative_to(root).as_posix()
    if path.stat().st_size > MAX_DATA_FILE:
        raise HugoFunctionError(f"{shown} is larger than 10 MB; blogbuild reads data files up to that size")
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix.lower() == ".json":
            return json.loads(text)
        if path.suffix.lower() == ".toml":
            import tomllib
            return tomllib.loads(text)
        return yaml_1_2(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise HugoFunctionError(f"{shown}: the data file cannot be read ({error}); fix it or remove it") from None
    except Exception as error:  # noqa: BLE001 - YAML's own errors
        raise HugoFunctionError(f"{shown}: the data file cannot be read ({error}); fix it or remove it") from None


@functools.lru_cache(maxsize=1)
def _yaml_loader() -> Any:
    """The strict, bounded YAML loader with YAML 1.2's booleans (true and false only: yes, no, on and off
    stay strings), as Hugo's YAML reads them."""
    import yaml

    from ...disk.strict_yaml import StrictSafeLoader

    class Yaml12Loader(StrictSafeLoader):
        pass

    Yaml12Loader.yaml_implicit_resolvers = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
        for first, resolvers in StrictSafeLoader.yaml_implicit_resolvers.items()}
    Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                       list("tTfF"))
    return yaml, Yaml12Loader


def yaml_1_2(text: str) -> Any:
    """YAML as Hugo reads data: strict, bounded, YAML 1.2's booleans."""
    yaml, loader = _yaml_loader()
    return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader
