"""Hugo's built-in embed shortcodes and PaperMod's collapse and inTextImg (markdown/embeds.py): Hugo's
parameters, nothing loaded from another host until the reader clicks (the browser half is in
test_browser_embeds.py), param from the page then the site, qr drawn at build time, comment hidden."""
from __future__ import annotations

import base64
import io
import re

import pytest

from blogbuild.core.errors import SourceError
from blogbuild.hugo.gotemplate.objects import PageInfo, Params
from blogbuild.markdown import render_markdown
from blogbuild.markdown.shortcodes import ShortcodeSet

PAGE = PageInfo(Title="P", Params=Params.of({"mood": "sunny", "nested": {"Inner": {"deep": "value"}}}))
SITE = ShortcodeSet(site_params={"mood": "site mood", "owner": "Ada"})


def render(body: str) -> str:
    return render_markdown(body, path="content/posts/p.md", shortcodes=SITE, page=PAGE).html


def test_youtube_is_a_click_to_load_box_on_the_privacy_enhanced_host() -> None:
    html = render('{{< youtube id="0RKpf3rK57I" title="A talk" start="30" mute=true >}}')
    assert 'class="embed embed-youtube"' in html
    assert 'data-embed-src="https://www.youtube-nocookie.com/embed/0RKpf3rK57I?autoplay=1&amp;start=30&amp;mute=1"' in html
    assert '<a href="https://www.youtube.com/watch?v=0RKpf3rK57I&amp;t=30">A talk</a>' in html
    assert "<iframe" not in html and "<script" not in html
    assert render("{{< youtube 0RKpf3rK57I >}}").count("youtube-nocookie.com/embed/0RKpf3rK57I") == 1


@pytest.mark.parametrize("body, fragments", [
    ("{{< vimeo 146022717 >}}", ['data-embed-src="https://player.vimeo.com/video/146022717?dnt=1&amp;autoplay=1"',
                                 'href="https://vimeo.com/146022717"']),
    ("{{< gist spf13 7896402 img.html >}}", ['data-embed-script="https://gist.github.com/spf13/7896402.js?file=img.html"',
                                             'href="https://gist.github.com/spf13/7896402"']),
    ('{{< x user="SanDiegoZoo" id="1453110110599868418" >}}',
     ['href="https://x.com/SanDiegoZoo/status/1453110110599868418"', "Tweet.html?id=1453110110599868418&amp;dnt=true"]),
    ('{{< twitter user="a" id="12" >}}', ['href="https://x.com/a/status/12"']),
    ('{{< tweet user="a" id="12" >}}', ['href="https://x.com/a/status/12"']),
    ("{{< instagram CxOWiQNP2MO >}}", ['data-embed-src="https://www.instagram.com/p/CxOWiQNP2MO/embed/"']),
])
def test_every_embed_is_a_placeholder_with_a_link(body: str, fragments: list[str]) -> None:
    html = render(body)
    assert "<iframe" not in html and "<script" not in html and 'class="embed-load"' in html
    for fragment in fragments:
        assert fragment in html


def test_an_id_that_could_leave_the_url_is_an_error_at_its_line() -> None:
    with pytest.raises(SourceError) as caught:
        render('Intro.\n\n{{< youtube id="x\\" onload=\\"alert(1)" >}}')
    assert caught.value.line == 3 and "needs a video id" in caught.value.message


def test_param_reads_the_page_then_the_site_with_dotted_keys() -> None:
    result = render_markdown("{{< param mood >}} {{< param owner >}} {{< param nested.inner.deep >}} "
                             "{{< param nope >}}", path="p.md", shortcodes=SITE, page=PAGE)
    assert result.html == "<p>sunny Ada value </p>\n"
    assert [warning.message for warning in result.warnings] == [
        "shortcode 'param': no parameter 'nope' in the front matter or the site's params"]


def test_qr_is_drawn_at_build_time_and_decodes_to_its_text() -> None:
    from PIL import Image
    html = render('{{< qr text="https://gohugo.io/" level="high" scale=3 alt="QR" />}}')
    match = re.search(r'<img src="data:image/png;base64,([^"]+)" width="(\d+)" height="(\d+)" alt="QR">', html)
    assert match, html
    image = Image.open(io.BytesIO(base64.b64decode(match.group(1))))
    assert image.size == (int(match.group(2)), int(match.group(3)))
    import segno
    expected = segno.make("https://gohugo.io/", error="H", micro=False, boost_error=False)
    assert image.size[0] == expected.symbol_size(scale=3, border=4)[0]
    inner = render("{{< qr >}}\nhello\n{{< /qr >}}")
    assert 'src="data:image/png;base64,' in inner


def test_qr_text_too_long_for_a_code_is_an_error_at_its_line() -> None:
    with pytest.raises(SourceError) as caught:
        render("Intro.\n\n{{< qr text=\"" + "x" * 5000 + "\" />}}")
    assert caught.value.line == 3 and "do not fit in a QR code" in caught.value.message


def test_comment_hides_its_inner_text() -> None:
    assert "secret" not in render("Before {{< comment >}}secret{{< /comment >}} after.")


def test_collapse_and_in_text_image_are_papermods() -> None:
    html = render('{{< collapse summary="More **details**" openByDefault=true >}}\nInside *collapse*.\n'
                  "{{< /collapse >}}")
    assert html.startswith('<p><details open=true >\n  <summary markdown="span">More <strong>details</strong>')
    assert "Inside <em>collapse</em>." in html
    assert render('Text {{< inTextImg url="/i.png" height="20" >}}.') == \
        '<p>Text <img class="in-text" height="20" src="/i.png" alt="">.</p>\n'


@pytest.mark.parametrize("language, words", [
    ("zh-CN", ["从 youtube-nocookie.com 加载", ">YouTube 视频</a>", ">@a 在 X 上的帖子</a>", ">Instagram 帖子</a>",
               ">Vimeo 视频</a>"]),
    ("en", ["Load from youtube-nocookie.com", ">YouTube video</a>", ">Post by @a</a>", ">Instagram post</a>",
            ">Vimeo video</a>"]),
])
def test_an_embeds_words_are_in_the_sites_language(language: str, words: list[str]) -> None:
    body = ("{{< youtube 0RKpf3rK57I >}}\n\n{{< x user=\"a\" id=\"12\" >}}\n\n{{< instagram CxOWiQNP2MO >}}\n\n"
            "{{< vimeo 146022717 >}}\n\n{{< youtube id=\"0RKpf3rK57I\" title=\"My own\" >}}")
    html = render_markdown(body, path="p.md", shortcodes=ShortcodeSet(language=language), page=PAGE).html
    for word in words:
        assert word in html, (word, html)
    assert ">My own</a>" in html   # the author's title wins in every language


def test_a_builds_embeds_speak_the_config_language(make_site) -> None:
    from blogbuild.cli import main
    post = "---\ntitle: P\ndate: 2024-01-01\n---\n{{< youtube 0RKpf3rK57I >}}\n"
    for language, expected in (("zh-CN", "从 youtube-nocookie.com 加载"), ("en-US", "Load from youtube-nocookie.com")):
        site = make_site({"blogbuild.yaml": f"title: T\nlanguage_code: {language}\n", "content/posts/p.md": post})
        assert main(["build", "--root", str(site), "--quiet", "--no-cache", "--jobs", "1"]) == 0
        assert expected in (site / "public/posts/p/index.html").read_text(encoding="utf-8")
