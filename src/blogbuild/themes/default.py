"""The default theme (PaperMod's look, shipped in blogbuild/theme/): one template per page kind, named after
it, base.html as the layout they extend, and its options (options.py) as template globals."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import PAGE_KINDS, Theme

if TYPE_CHECKING:
    from ..config import SiteConfig

THEME_DIR = Path(__file__).parent.parent / "theme"


def default_globals(config: SiteConfig) -> Mapping[str, Any]:
    """What the default theme's templates read of the `theme:` options: each option, the edit link, the share
    buttons and the cover image of a post."""
    from .options import cover_for, edit_link_for, share_targets_for
    theme = config.theme
    return {"theme_option": theme.option_for,
            "edit_link": lambda post: edit_link_for(theme, post.params, post.rel_path),
            "share_targets": lambda post: share_targets_for(theme, post.params),
            "post_cover": lambda post, single=True: cover_for(theme, post.params, post.rel_path, post.resources,
                                                              post.url, single)}


DEFAULT_THEME = Theme("default", THEME_DIR, {kind: f"{kind}.html" for kind in PAGE_KINDS}, default_globals,
                      layouts=frozenset({"base.html"}))
