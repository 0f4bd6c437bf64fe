"""Hugo's own youtube, vimeo and instagram shortcodes on a site its own layouts render: the player's iframe and
Instagram's card as Hugo 0.168 writes them (its embedded templates, run by the translator), with the config's
privacy settings (privacy.youtube.privacyEnhanced, privacy.vimeo.enableDNT, a service's disable), and a site's
shortcode of the same name over Hugo's. tests/hugo_sites/hugo_embeds built by the hugo binary and by blogbuild
with each setting: every page the same DOM. Hugo's x shortcode fetches the post's HTML while it builds; a build
of blogbuild never downloads, and writes a box with the post's link (no button: the site's layouts load no
script of blogbuild's)."""
from __future__ import annotations

from pathlib import Path

import pytest
from support.dom import dom_tokens
from support.hugo_build import blogbuild_files, built_by_both, copy_site

FIXTURE = Path(__file__).resolve().parent / "hugo_sites" / "hugo_embeds"
_GENERATOR = ('<meta content="Hugo ', '<meta content="blogbuild ')
PRIVATE = """
[privacy.youtube]
privacyEnhanced = true
[privacy.vimeo]
enableDNT = true
[privacy.instagram]
disable = true
"""
SITE_YOUTUBE = '<div class="site-video">{{ .Get 0 }}</div>'


@pytest.mark.parametrize("setting", ["", PRIVATE], ids=["hugo-default", "private"])
def test_embeds_are_what_hugo_writes(tmp_path: Path, setting: str) -> None:
    hugo, ours, warnings = built_by_both(FIXTURE, tmp_path, lambda text: text + setting)
    pages = sorted(path for path in hugo if path.endswith(".html"))
    assert len(pages) >= 4
    assert [path for path in pages if dom_tokens(ours[path].decode(), drop=_GENERATOR)
            != dom_tokens(hugo[path].decode(), drop=_GENERATOR)] == []
    assert not [warning for warning in warnings if "shortcode" in warning.message]
    videos, photos = ours["posts/videos/index.html"].decode(), ours["posts/photos/index.html"].decode()
    host = "www.youtube-nocookie.com" if setting else "www.youtube.com"
    assert f'src="https://{host}/embed/w7Ft2ymGmfc?autoplay=0&amp;controls=1&amp;end=0&amp;loop=0&amp;mute=0' \
           '&amp;start=0"' in videos
    assert f'https://player.vimeo.com/video/146022717?dnt={1 if setting else 0}' in videos
    assert ('class="instagram-media"' in photos) == (not setting)
    assert 'class="embed' not in videos


def test_a_sites_shortcode_wins_over_hugos(tmp_path: Path) -> None:
    site = copy_site(FIXTURE, tmp_path / "site")
    (site / "layouts" / "_shortcodes" / "youtube.html").write_text(SITE_YOUTUBE)
    ours, _warnings = blogbuild_files(site)
    videos = ours["posts/videos/index.html"].decode()
    assert '<div class="site-video">w7Ft2ymGmfc</div>' in videos and "youtube.com/embed" not in videos
    assert "player.vimeo.com/video/146022717" in videos      # Hugo's vimeo still


def test_what_hugo_fetches_is_a_link_without_a_button(tmp_path: Path) -> None:
    """Hugo's x, and its vimeo with privacy.vimeo.simple, fetch their HTML from the service while building."""
    site = copy_site(FIXTURE, tmp_path / "site")
    post = site / "content" / "posts" / "videos.md"
    post.write_text(post.read_text() + '\n{{< x user="GoHugoIO" id="917359331535966209" >}}\n')
    (site / "hugo.toml").write_text((site / "hugo.toml").read_text() + "[privacy.vimeo]\nsimple = true\n")
    ours, warnings = blogbuild_files(site)
    videos = ours["posts/videos/index.html"].decode()
    assert '<div class="embed embed-x"><p class="embed-title"><a href="https://x.com/GoHugoIO/status/' \
           '917359331535966209">Post by @GoHugoIO</a></p></div>' in videos
    assert '<div class="embed embed-vimeo"><p class="embed-title"><a href="https://vimeo.com/146022717">' in videos
    assert "player.vimeo.com" not in videos and "<button" not in videos
    assert not [warning for warning in warnings if "shortcode" in warning.message]
