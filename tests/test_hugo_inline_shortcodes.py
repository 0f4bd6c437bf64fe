"""Hugo's inline shortcodes: `{{< name.inline >}}TEMPLATE{{< /name.inline >}}` in a post runs its inner text as the
shortcode's Go template (`.Get`, `.Page`, `site`), `{{< name.inline />}}` runs it again, with
`enableInlineShortcodes = true`; without it (Hugo's default) nothing is written, as in Hugo, and blogbuild says so
at each one. tests/hugo_sites/inline_shortcodes built by the hugo binary and by blogbuild with each setting: every
page the same DOM. A use before its template is an error at its line, in Hugo as in blogbuild."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import built_by_both, copy_site

from blogbuild.config import load_config
from blogbuild.pipeline import Builder

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "inline_shortcodes"
ON = "enableInlineShortcodes = true\n"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')


@pytest.mark.parametrize("setting", ["", ON], ids=["hugo-default", "enabled"])
def test_inline_shortcodes_run_as_in_hugo(tmp_path: Path, setting: str) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path, lambda text: text + setting)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    post = ours["posts/a/index.html"].decode()
    said = [warning.line for warning in warnings if "enableInlineShortcodes" in warning.message]
    if setting:
        assert '<p class="count">three of Counting on Inline: 2 tags</p>' in post
        assert '<p class="count">four of Counting on Inline: 2 tags</p>' in post and said == []
    else:
        assert 'class="count"' not in post and said == [8, 12, 14]


def test_a_use_before_its_template_is_an_error_at_its_line(tmp_path: Path) -> None:
    site = copy_site(FIXTURE, tmp_path / "site")
    (site / "hugo.toml").write_text((site / "hugo.toml").read_text() + ON)
    post = site / "content" / "posts" / "a.md"
    post.write_text(post.read_text() + "\n{{< later.inline />}}\n")
    result = Builder(load_config(None, root=site)).build()
    assert not result.ok
    assert [(error.path, error.line) for error in result.errors] == [("content/posts/a.md", 19)]
    assert "used before its template" in str(result.errors[0])
