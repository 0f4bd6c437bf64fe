"""The images stage: intrinsic sizes, resized variants with srcset, the content-hash cache, warnings."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageOps

from blogbuild.config import config_from_mapping
from blogbuild.config.images import ImageOptions, parse_image_options
from blogbuild.media.images import (
    ImageCache,
    PostImages,
    column_width,
    process_images,
    variant_targets,
)
from blogbuild.media.svg_size import MAX_SVG_BYTES, svg_size, svg_size_of

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "images"

BODY = """\
---
title: Pictures
---
A photo:

![photo](/images/photo.jpg)

A diagram ![diagram](diagram.png) inline, a logo ![logo](/images/logo.svg),
a remote one ![remote](https://example.org/x.jpg) and a small one ![small](/images/small.png).

![gone](missing.png)

![turned](turned.jpg)
"""


def attributes(tag: str) -> dict[str, str]:
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))


@pytest.fixture
def published(tmp_path: Path) -> dict[str, str]:
    """Output path -> source file, as the build would publish the fixture images."""
    files = {"images/photo.jpg": "photo.jpg", "images/small.png": "small.png", "images/logo.svg": "logo.svg",
             "posts/pictures/diagram.png": "diagram.png", "posts/pictures/turned.jpg": "turned.jpg"}
    result = {}
    for output, name in files.items():
        target = tmp_path / "site" / output
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / name, target)
        result[output] = str(target)
    return result


def run(published: dict[str, str], cache_folder: Path, html: str, options: ImageOptions | None = None,
        base_path: str = "/", url: str = "/posts/pictures/"):
    cache = ImageCache(cache_folder, options or ImageOptions())
    post = PostImages("posts/pictures/index.md", html, url, "content/posts/pictures/index.md", BODY)
    return process_images([post], published, cache, base_path=base_path, jobs=2), cache


HTML = ('<p><img src="/images/photo.jpg" alt="photo" /></p>\n<p>A diagram <img src="diagram.png" alt="diagram" /> '
        'inline, a logo <img src="/images/logo.svg" alt="logo" />, a remote one '
        '<img src="https://example.org/x.jpg" alt="remote" /> and a small one <img src="/images/small.png" '
        'alt="small" />.</p>\n<p><img src="missing.png" alt="gone" /></p>\n<p><img src="turned.jpg" alt="turned" /></p>\n')


def test_every_local_image_gets_its_size(published, tmp_path):
    """width/height are the file's (as displayed: EXIF-turned), on JPEG, PNG, SVG and bundle images."""
    result, _ = run(published, tmp_path / "cache", HTML)
    html = result.html["posts/pictures/index.md"]
    sizes = {attributes(tag)["alt"]: (attributes(tag).get("width"), attributes(tag).get("height"))
             for tag in re.findall(r"<img [^>]*>", html)}
    assert sizes["photo"] == ("2000", "1333") and sizes["diagram"] == ("1200", "800")
    assert sizes["small"] == ("300", "200") and sizes["turned"] == ("800", "1200")
    assert sizes["logo"] == ("64", "64") and sizes["remote"] == (None, None) and sizes["gone"] == (None, None)
    assert '<img src="/images/logo.svg" alt="logo" width="64" height="64" loading="lazy" decoding="async" />' in html
    assert '<img src="https://example.org/x.jpg" alt="remote" />' in html


def test_large_images_get_variants_that_decode_at_their_srcset_width(published, tmp_path):
    """Each srcset candidate is a published file whose decoded width is the width it claims; WebP in a
    <source>, the original format in the <img>, the original itself as the largest entry."""
    result, _ = run(published, tmp_path / "cache", HTML)
    html = result.html["posts/pictures/index.md"]
    photo = re.search(r'<picture><source type="image/webp" srcset="([^"]+)" sizes="([^"]+)"><img ([^>]*)></picture>',
                      html)
    assert photo, html
    webp = [candidate.split() for candidate in photo.group(1).split(", ")]
    # No 2000 px WebP: the 1600 px one already fills the 46rem (736 px) column on a 2x screen.
    assert [width for _, width in webp] == ["480w", "960w", "1600w"]
    image = attributes(photo.group(3))
    jpeg = [candidate.split() for candidate in image["srcset"].split(", ")]
    assert jpeg[-1] == ["/images/photo.jpg", "2000w"] and [width for _, width in jpeg] == ["480w", "960w", "1600w", "2000w"]
    assert image["sizes"] == photo.group(2) == ImageOptions().sizes and image["src"] == "/images/photo.jpg"
    for url, width in webp + jpeg[:-1]:
        output = url.lstrip("/")
        assert output in result.files, output
        with Image.open(result.files[output]) as decoded:
            decoded.load()
            assert decoded.width == int(width[:-1])
            assert decoded.format == ("WEBP" if url.endswith(".webp") else "JPEG")
            assert abs(decoded.height - round(1333 * decoded.width / 2000)) <= 1
    # A relative src (the bundle's diagram) gets relative variants beside it.
    diagram = re.search(r'<img src="diagram.png"[^>]*>', html).group(0)
    assert attributes(diagram)["srcset"].startswith("diagram-480w.")
    assert any(path.startswith("posts/pictures/diagram-480w.") and path.endswith(".png") for path in result.files)
    # Below the smallest width: size only.
    assert "srcset" not in re.search(r'<img src="/images/small.png"[^>]*>', html).group(0)


def test_images_no_wider_than_the_column_get_no_variants(published, tmp_path):
    """A 700 px image in a 736 px column is never shown smaller but on a phone: size only;
    the diagram (1200 px) gets its smaller widths and a WebP at its own width (no smaller one fills 2x)."""
    Image.new("RGB", (700, 400), (9, 9, 9)).save(published["images/small.png"])
    result, _ = run(published, tmp_path / "cache", HTML)
    html = result.html["posts/pictures/index.md"]
    small = re.search(r'<img src="/images/small.png"[^>]*>', html).group(0)
    assert 'width="700" height="400"' in small and "srcset" not in small
    assert not any(name.startswith(("images/small", "posts/pictures/small")) for name in result.files)
    diagram = re.search(r'<source type="image/webp" srcset="([^"]+)"[^>]*><img src="diagram.png"', html)
    assert diagram and [candidate.split()[1] for candidate in diagram.group(1).split(", ")] == ["480w", "960w", "1200w"]


@pytest.mark.parametrize("sizes, column", [("(max-width: 46rem) 100vw, 46rem", 736), ("720px", 720),
                                           ("(max-width: 40em) 100vw, 40em", 640), ("100vw", None),
                                           ("calc(100vw - 2rem)", None)])
def test_the_column_width_comes_from_the_sizes_attribute(sizes, column):
    assert column_width(sizes) == column


def test_an_unknown_column_gives_every_smaller_width():
    """sizes in vw: the column is not known, so every width below the image's, and a WebP at its own."""
    options = ImageOptions(sizes="100vw")
    assert variant_targets(700, "png", options) == [(480, "png"), (480, "webp"), (700, "webp")]
    assert variant_targets(400, "png", options) == []
    assert variant_targets(700, "png", ImageOptions()) == []
    assert variant_targets(2000, "jpg", ImageOptions(webp=False)) == [(480, "jpg"), (960, "jpg"), (1600, "jpg")]


def test_forked_workers_make_the_same_images_as_this_process(published, tmp_path):
    """Images read in a forked pool (each worker started as the build starts it) give the same HTML,
    the same variant bytes and the same counts as images read in this process."""
    from blogbuild.pipeline.pools import can_fork, die_with_parent
    if not can_fork():
        pytest.skip("no fork here: images are read in this process")
    alone, _ = run(published, tmp_path / "alone", HTML)
    post = PostImages("posts/pictures/index.md", HTML, "/posts/pictures/", "content/posts/pictures/index.md", BODY)
    forked = process_images([post], published, ImageCache(tmp_path / "forked", ImageOptions()), jobs=2,
                            worker_start=die_with_parent)
    assert forked.html == alone.html and forked.warnings == alone.warnings
    assert (forked.stats.decoded, forked.stats.written) == (alone.stats.decoded, alone.stats.written) == (5, 14)
    assert {path: Path(file).read_bytes() for path, file in forked.files.items()} == \
        {path: Path(file).read_bytes() for path, file in alone.files.items()}


def test_missing_image_is_a_warning_at_its_line(published, tmp_path):
    result, _ = run(published, tmp_path / "cache", HTML)
    assert [(warning.path, warning.line) for warning in result.warnings] == [("content/posts/pictures/index.md", 11)]
    assert "missing.png" in result.warnings[0].message and "not found" in result.warnings[0].message


def test_unreadable_image_is_a_warning_and_stays(published, tmp_path):
    Path(published["images/small.png"]).write_bytes(b"\x89PNG\r\n\x1a\nnot an image")
    result, _ = run(published, tmp_path / "cache", HTML)
    assert any("cannot be read as an image" in warning.message and warning.line == 9 for warning in result.warnings)
    assert '<img src="/images/small.png" alt="small" />' in result.html["posts/pictures/index.md"]


def test_warm_run_decodes_nothing_and_gives_the_same_output(published, tmp_path):
    """A second run with a fresh cache object (a new process) reads facts and variants from disk: no image
    is decoded, no variant written, the HTML and the variants' bytes identical."""
    first, _ = run(published, tmp_path / "cache", HTML)
    assert first.stats.decoded == 5 and first.stats.written > 0
    before = {path: Path(file).read_bytes() for path, file in first.files.items()}
    second, _ = run(published, tmp_path / "cache", HTML)
    assert (second.stats.decoded, second.stats.written, second.stats.cached) == (0, 0, 5)
    assert second.html == first.html
    assert {path: Path(file).read_bytes() for path, file in second.files.items()} == before


def test_a_changed_image_is_decoded_again(published, tmp_path):
    run(published, tmp_path / "cache", HTML)
    Image.new("RGB", (640, 480), (1, 2, 3)).save(published["images/small.png"])
    result, _ = run(published, tmp_path / "cache", HTML)
    assert result.stats.decoded == 1
    assert 'width="640" height="480"' in result.html["posts/pictures/index.md"]


def test_base_path_and_settings(published, tmp_path):
    """Under a base path, /blog/images/... resolves; widths and webp follow the options."""
    html = '<img src="/blog/images/photo.jpg" alt="p">'
    result, _ = run(published, tmp_path / "cache", html, ImageOptions(widths=(1000,), webp=False), base_path="/blog/")
    tag = result.html["posts/pictures/index.md"]
    assert "<picture>" not in tag
    srcset = attributes(tag)["srcset"].split(", ")
    assert srcset[0].startswith("/blog/images/photo-1000w.") and srcset[1] == "/blog/images/photo.jpg 2000w"


def test_an_authors_own_srcset_is_kept(published, tmp_path):
    html = '<img src="/images/photo.jpg" srcset="/images/photo.jpg 2x" alt="p">'
    result, _ = run(published, tmp_path / "cache", html)
    assert result.html["posts/pictures/index.md"] == html and not result.files


@pytest.mark.parametrize("value, message", [
    ({"widths": [0]}, "images.widths must be a list"),
    ({"quality": 101}, "images.quality must be a whole number from 1 to 100"),
    ({"format": "avif"}, "images: unknown setting 'format'"),
])
def test_bad_options(value, message):
    with pytest.raises(Exception) as raised:
        parse_image_options(value, lambda text: ValueError(text))
    assert message in str(raised.value)


def test_options_from_config():
    assert config_from_mapping({"images": False}).images.enabled is False
    assert config_from_mapping({"images": {"widths": [800, 400]}}).images.widths == (400, 800)


SITE_CONFIG = "title: Pictures\nbase_url: https://example.org/\ncards: false\n"


def picture_site(make_site) -> Path:
    """A site with JPEG and PNG in static/, an SVG, a bundle image (EXIF-turned JPEG) and a missing image."""
    return make_site({
        "blogbuild.yaml": SITE_CONFIG,
        "content/posts/pictures/index.md": BODY,
        "content/posts/pictures/diagram.png": (FIXTURES / "diagram.png").read_bytes(),
        "content/posts/pictures/turned.jpg": (FIXTURES / "turned.jpg").read_bytes(),
        "static/images/photo.jpg": (FIXTURES / "photo.jpg").read_bytes(),
        "static/images/small.png": (FIXTURES / "small.png").read_bytes(),
        "static/images/logo.svg": (FIXTURES / "logo.svg").read_bytes(),
    })


def srcset_files(page: str, public: Path, page_folder: Path) -> list[tuple[Path, int]]:
    """Every srcset candidate of the page as (published file, claimed width)."""
    found = []
    for srcset in re.findall(r'srcset="([^"]+)"', page):
        for candidate in srcset.split(", "):
            url, width = candidate.rsplit(" ", 1)
            path = public / url.lstrip("/") if url.startswith("/") else page_folder / url
            found.append((path, int(width[:-1])))
    return found


def test_build_sizes_images_and_publishes_variants(make_site, capsys):
    """Through the whole build: sizes on the page, every srcset file published and decoding at its width,
    the originals published too, and the missing image a warning at the post's line."""
    from blogbuild.cli import main
    root = picture_site(make_site)
    assert main(["build", "--root", str(root)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "content/posts/pictures/index.md:11: warning: image 'missing.png' not found" \
        in warnings[0]
    public = root / "public"
    page = (public / "posts" / "pictures" / "index.html").read_text(encoding="utf-8")
    assert 'width="2000" height="1333"' in page and 'width="800" height="1200"' in page
    candidates = srcset_files(page, public, public / "posts" / "pictures")
    assert len(candidates) >= 12
    for path, width in candidates:
        with Image.open(path) as image:
            # As a browser lays it out: turned by its EXIF orientation (the variants carry none).
            assert ImageOps.exif_transpose(image).width == width, path
    for original in ("images/photo.jpg", "images/logo.svg", "posts/pictures/diagram.png", "posts/pictures/turned.jpg"):
        source = root / ("static" if original.startswith("images") else "content") / original
        assert (public / original).read_bytes() == source.read_bytes()


def test_second_build_takes_everything_from_the_cache(make_site):
    """A new builder (a new process) over the same site: no image decoded, identical output."""
    from blogbuild.pipeline import Builder
    from blogbuild.config import load_config
    root = picture_site(make_site)
    first_builder = Builder(load_config(root=root), use_cache=True)
    first = first_builder.build()
    second_builder = Builder(load_config(root=root), use_cache=True)
    second = second_builder.build()
    assert first.ok and second.ok
    assert first_builder.image_stats.decoded == 5 and second_builder.image_stats.decoded == 0
    assert second_builder.image_stats.cached == 5

    def content(item) -> bytes:
        return item.data if not item.source else Path(item.source).read_bytes()
    assert first.files.keys() == second.files.keys()
    assert {path: content(item) for path, item in first.files.items()} == \
        {path: content(item) for path, item in second.files.items()}


def test_images_off(make_site):
    root = make_site({"blogbuild.yaml": SITE_CONFIG + "images: false\n", "content/posts/a.md":
                      "---\ntitle: A\n---\n![p](/images/photo.jpg)\n",
                      "static/images/photo.jpg": (FIXTURES / "photo.jpg").read_bytes()})
    from blogbuild.cli import main
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    assert '<img src="/images/photo.jpg" alt="p" />' in (root / "public/posts/a/index.html").read_text(encoding="utf-8")
    assert not list((root / "public" / "images").glob("photo-*"))


SVG_FIXTURES = FIXTURES / "svg"


@pytest.mark.parametrize("name, size", [
    ("pixels.svg", (120, 80)),                    # width="120px" height="80px"
    ("unitless.svg", (72, 36)),                   # no unit is px; 36.4 rounds to 36
    ("points.svg", (96, 48)),                     # 72pt x 36pt, after an XML declaration and a comment
    ("centimetres.svg", (96, 96)),                # 2.54cm x 25.4mm
    ("inches.svg", (96, 96)),                     # 1in x 6pc
    ("viewbox.svg", (640, 360)),                  # only a viewBox
    ("percent.svg", (411, 100)),                  # 100% is left out: the viewBox's 410.5 x 100, half up
    ("width-and-viewbox.svg", (200, 50)),         # one length, the other from the viewBox's ratio
    ("doctype-and-prefix.svg", (48, 24)),         # an external DTD (not fetched), <svg:svg>
    ("entity-bomb.svg", (60, 30)),                # width="&lol9;" is not expanded: height and viewBox give it
    ("relative.svg", None),                       # em: depends on the page, no intrinsic size
    ("no-size.svg", None),
    ("entity-bomb-large.svg", None),              # the root start tag lies past what is read
])
def test_svg_size_from_the_root_element(name, size):
    assert svg_size(SVG_FIXTURES / name) == size


def test_svg_size_reads_only_the_start_of_the_file():
    """A billion-laughs SVG is read as any other: entities never expanded, at most MAX_SVG_BYTES read."""
    large = SVG_FIXTURES / "entity-bomb-large.svg"
    assert large.stat().st_size > MAX_SVG_BYTES
    head = large.read_bytes()[:MAX_SVG_BYTES].decode()
    assert "<svg" not in head and svg_size_of(large.read_text(encoding="utf-8")) == (10, 10)
    assert svg_size_of("<svg width='5' height='5'") is None   # a start tag cut off: no size


def test_svg_figures_get_sizes_in_a_build_and_the_cache(make_site):
    """A bundle of SVG figures: each sized from its file (cached by content), none without a size touched,
    no variants, .svgz left alone; a second build reads no SVG."""
    from blogbuild.pipeline import Builder
    from blogbuild.config import load_config
    names = ("pixels.svg", "points.svg", "viewbox.svg", "no-size.svg", "entity-bomb.svg", "compressed.svgz")
    files: dict[str, str | bytes] = {"blogbuild.yaml": SITE_CONFIG, "content/posts/figures/index.md":
                                     "---\ntitle: Figures\n---\n" + "".join(f"![{name}]({name})\n\n" for name in names)}
    files.update({f"content/posts/figures/{name}": (SVG_FIXTURES / name).read_bytes() for name in names})
    root = make_site(files)
    first_builder = Builder(load_config(root=root), use_cache=True)
    first = first_builder.build()
    assert first.ok and [str(warning) for warning in first.warnings] == []
    page = first.files["posts/figures/index.html"].data.decode()
    tags = {attributes(tag)["alt"]: tag for tag in re.findall(r"<img [^>]*>", page)}
    assert 'width="120" height="80"' in tags["pixels.svg"] and 'width="96" height="48"' in tags["points.svg"]
    assert 'width="640" height="360"' in tags["viewbox.svg"] and 'width="60" height="30"' in tags["entity-bomb.svg"]
    assert tags["no-size.svg"] == '<img src="/posts/figures/no-size.svg" alt="no-size.svg" />'
    assert tags["compressed.svgz"] == '<img src="/posts/figures/compressed.svgz" alt="compressed.svgz" />'
    assert "srcset" not in page and not [path for path in first.files if "-480w." in path]
    second_builder = Builder(load_config(root=root), use_cache=True)
    assert second_builder.build().ok and second_builder.image_stats.decoded == 0


def test_image_warnings_name_the_line_the_image_is_written_on(make_site):
    """The line of the image itself, not of an earlier mention of its name (in the front matter, in the
    text, in a longer file name) nor of the first of two images of one file."""
    from blogbuild.pipeline import build
    from blogbuild.config import load_config
    root = make_site({"blogbuild.yaml": SITE_CONFIG, "content/posts/p/index.md": (
        "---\ntitle: P\ncover: gone.png\n---\n"        # lines 1-4: the name in the front matter
        "See gone.png and big-gone.png below.\n\n"        # 5
        "![big](big-gone.png)\n\n"                        # 7
        "![first](gone.png)\n\n"                          # 9
        "Text, then the same file again:\n\n"             # 11
        "![second](gone.png)\n")})                         # 13
    result = build(load_config(root=root), jobs=1)
    assert [(warning.path, warning.line, warning.message.split("'")[1]) for warning in result.warnings] == [
        ("content/posts/p/index.md", 7, "big-gone.png"), ("content/posts/p/index.md", 9, "gone.png"),
        ("content/posts/p/index.md", 13, "gone.png")]
