"""Social cards: Chinese, English and mixed titles drawn with real glyphs (checked pixel by pixel against the
boxes a font without CJK draws), wrapping with an ellipsis, the font chain, the cache."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from blogbuild.config.cards import CardOptions, parse_card_options
from blogbuild.media.cards import (
    HEIGHT,
    PADDING,
    WIDTH,
    CardMaker,
    CardText,
    DrawnCard,
    FontFace,
    draw_card,
    font_chain,
    load_face,
    wrap,
)

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"

if not (os.path.isfile(DEJAVU) and os.path.isfile(CJK_FONT)):
    from support.tools import missing_tool
    missing_tool("fonts-noto-cjk and fonts-dejavu-core are needed (.ci/setup installs them)")

CHINESE = CardText("分页注意力：显存为什么是推理的瓶颈", "推理系列 · 第 2 篇，共 5 篇", "AI 基础设施笔记", "2025-03-02")
ENGLISH = CardText("Ring attention notes", "", "Test Blog", "2025-06-01")
MIXED = CardText("vLLM 的 PagedAttention：KV cache 分页管理", "Serving · Part 1 of 3", "Notes", "2025-01-01")


def is_cjk(character: str) -> bool:
    return "\u3000" <= character <= "\u9fff" or "\uff00" <= character <= "\uffef"


def ink(image: Image.Image, box: tuple[int, int, int, int], background: tuple[int, int, int]) -> set[tuple[int, int]]:
    """The pixels of box (relative to its corner) that differ clearly from the background."""
    region = image.crop(box).convert("RGB")
    width, data = region.width, region.tobytes()
    return {(index % width, index // width) for index in range(region.width * region.height)
            if sum(abs(channel - base) for channel, base in zip(data[index * 3:index * 3 + 3], background, strict=True)) > 120}


def boxes_in(card: DrawnCard, background: tuple[int, int, int]) -> list[tuple[str, float]]:
    """(character, overlap) for every CJK character on the card whose ink matches the box a font without
    CJK draws for it (DejaVu Sans's .notdef) at the same place and size: Jaccard overlap above 0.6."""
    found = []
    for run in card.runs:
        font = ImageFont.truetype(run.face.path, run.size, index=run.face.index)
        reference = ImageFont.truetype(DEJAVU, run.size)
        for position, character in enumerate(run.text):
            if not is_cjk(character):
                continue
            left = run.x + font.getlength(run.text[:position])
            box = (int(left), int(run.baseline - run.size * 1.1), int(left + font.getlength(character)),
                   int(run.baseline + run.size * 0.3))
            tofu = Image.new("RGB", card.image.size, background)
            ImageDraw.Draw(tofu).text((left, run.baseline), character, font=reference, fill="white", anchor="ls")
            drawn, box_ink = ink(card.image, box, background), ink(tofu, box, background)
            overlap = len(drawn & box_ink) / max(1, len(drawn | box_ink))
            if overlap > 0.6:
                found.append((character, round(overlap, 2)))
    return found


BACKGROUND = (0x1d, 0x23, 0x30)


def chains(language: str = "zh-CN", site_font: str = "") -> tuple[tuple[FontFace, ...], tuple[FontFace, ...]]:
    return font_chain(language, True, site_font), font_chain(language, False, site_font)


@pytest.mark.parametrize("text", [CHINESE, ENGLISH, MIXED], ids=["chinese", "english", "mixed"])
def test_every_character_is_drawn_with_a_font_that_has_it(text):
    """Each run's font maps every one of its characters in its cmap; nothing is left out; no CJK glyph
    on the card looks like the box a font without CJK draws."""
    card = draw_card(text, CardOptions(), *chains())
    assert card.image.size == (WIDTH, HEIGHT) and card.missing == ""
    drawn = "".join(run.text for run in card.runs)
    for character in text.title.replace(" ", ""):
        assert character in drawn
    for run in card.runs:
        assert all(run.face.covers(character) for character in run.text), run
    assert boxes_in(card, BACKGROUND) == []


def test_the_box_check_fails_on_a_card_drawn_in_a_font_without_cjk():
    """The same Chinese card drawn with DejaVu Sans claimed to cover everything (what a generator without a
    cmap check does): the check above finds the boxes, for every CJK character of the title."""
    claimed = frozenset(ord(character) for character in CHINESE.title + CHINESE.site + CHINESE.series)
    liar = FontFace(DEJAVU, 0, claimed | load_face(DEJAVU).characters)
    broken = draw_card(CHINESE, CardOptions(), (liar,), (liar,))
    found = boxes_in(broken, BACKGROUND)
    title_cjk = [character for character in CHINESE.title if is_cjk(character)]
    assert [character for character, _ in found if character in title_cjk][:len(title_cjk)] == title_cjk


def test_pixels_differ_from_the_same_text_in_a_font_lacking_cjk():
    """Whole title area: the real card and a DejaVu rendering of the same lines differ on most ink pixels."""
    card = draw_card(CHINESE, CardOptions(), *chains())
    tofu = Image.new("RGB", card.image.size, BACKGROUND)
    draw = ImageDraw.Draw(tofu)
    title_runs = [run for run in card.runs if run.size >= 52]
    for run in title_runs:
        draw.text((run.x, run.baseline), run.text, font=ImageFont.truetype(DEJAVU, run.size), fill="white", anchor="ls")
    top = int(min(run.baseline for run in title_runs) - 90)
    bottom = int(max(run.baseline for run in title_runs) + 30)
    area = (PADDING, top, WIDTH - PADDING, bottom)
    real, boxes = ink(card.image, area, BACKGROUND), ink(tofu, area, BACKGROUND)
    assert len(real & boxes) / len(real | boxes) < 0.3


def test_long_titles_wrap_and_end_with_an_ellipsis():
    faces = font_chain("zh-CN", True)
    title = "一个非常长的标题" * 12 + " with some English words at the end"
    lines = wrap(title, faces, 60, WIDTH - 2 * PADDING, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    card = draw_card(CardText(title, "", "Site", ""), CardOptions(), faces, font_chain("zh-CN", False))
    title_runs = [run for run in card.runs if run.size >= 52]
    assert len({run.baseline for run in title_runs}) <= 4
    assert "…" in "".join(run.text for run in title_runs)
    for run in title_runs:
        font = ImageFont.truetype(run.face.path, run.size, index=run.face.index)
        assert run.x + font.getlength(run.text) <= WIDTH - PADDING + 1
    latin = wrap("Understanding paged attention in large language model serving systems", faces, 76, 700, 5)
    assert all(not line.startswith(" ") for line in latin) and " ".join(latin).split() == \
        ["Understanding", "paged", "attention", "in", "large", "language", "model", "serving", "systems"]


def test_closing_punctuation_never_starts_a_line():
    faces = font_chain("zh-CN", True)
    for width in range(300, 900, 37):
        for line in wrap("显存是瓶颈，然后是带宽。接着，我们看调度。", faces, 60, width, 10)[1:]:
            assert line[0] not in "，。", (width, line)


def test_a_character_no_font_has_is_left_out_and_reported():
    card = draw_card(CardText("Title \U000F0001 end", "", "S", ""), CardOptions(), *chains())
    assert card.missing == "\U000F0001"
    assert "\U000F0001" not in "".join(run.text for run in card.runs)


def test_a_site_font_comes_first_and_cjk_falls_back():
    """A site naming its own (Latin-only) font: Latin in it, Chinese in Noto Sans CJK."""
    title_faces, body_faces = chains(site_font=DEJAVU_SERIF)
    card = draw_card(MIXED, CardOptions(), title_faces, body_faces)
    faces = {run.text.strip(): run.face.path for run in card.runs if run.size >= 52}
    assert any(path == DEJAVU_SERIF for path in faces.values())
    assert any(path.endswith(".ttc") for path in faces.values())
    assert boxes_in(card, BACKGROUND) == []


def test_language_picks_the_collection_face():
    assert font_chain("zh-CN", True)[0].index == 2 and font_chain("ja", True)[0].index == 0
    assert font_chain("zh-TW", True)[0].index == 3 and font_chain("en", True)[0].index == 2


def test_cards_are_cached_by_content(tmp_path):
    """The same text is drawn once; a new maker (a new process) finds it; another title gets another file."""
    maker = CardMaker(CardOptions(), "zh-CN", str(tmp_path), tmp_path / "cards")
    first, _ = maker.png(CHINESE)
    again, _ = CardMaker(CardOptions(), "zh-CN", str(tmp_path), tmp_path / "cards").png(CHINESE)
    assert first == again and maker.drawn == 1
    other, _ = maker.png(ENGLISH)
    assert other != first and maker.drawn == 2
    with Image.open(first) as image:
        assert image.format == "PNG" and image.size == (1200, 630)


def test_a_maker_whose_cards_are_all_cached_reads_no_font(tmp_path):
    """Finding a cached card states the font files but reads none (Noto Sans CJK's cmap costs 0.3 s): a rebuild
    whose cards are all cached, like a deploy that restored the cache, pays nothing for fonts."""
    def fonts_asked_for() -> int:   # load_face's calls, read from the cache or not (clearing it would leave
        info = load_face.cache_info()   # the characters' memo holding faces equal to, but not, the new ones)
        return info.hits + info.misses

    CardMaker(CardOptions(), "zh-CN", str(tmp_path), tmp_path / "cards").png(CHINESE)
    before = fonts_asked_for()
    maker = CardMaker(CardOptions(), "zh-CN", str(tmp_path), tmp_path / "cards")
    assert maker.is_cached(CHINESE) and not maker.is_cached(ENGLISH)
    maker.png(CHINESE)
    assert fonts_asked_for() == before and maker.drawn == 0
    maker.png(ENGLISH)   # a card to draw reads the chains
    assert fonts_asked_for() > before and maker.drawn == 1


LONG_LATIN = CardText("Understanding paged attention in large language model serving systems: AVAWAY, Tokyo, "
                      "Te Yo and the kerning pairs", "Serving · Part 12 of 30", "Test Blog", "2025-01-01")


def rgb_drawing(card: DrawnCard, options: CardOptions) -> Image.Image:
    """The card as blogbuild first drew it, straight onto an RGB image: the bar, then each run in its ink."""
    image = Image.new("RGB", (WIDTH, HEIGHT), options.background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 18, HEIGHT), fill=options.accent)
    for run in card.runs:
        font = ImageFont.truetype(run.face.path, run.size, index=run.face.index)
        draw.text((run.x, run.baseline), run.text, font=font, fill=options.accent if run.accent else options.color,
                  anchor="ls")
    return image


@pytest.mark.parametrize("text", [CHINESE, ENGLISH, MIXED, LONG_LATIN], ids=["chinese", "english", "mixed", "latin"])
@pytest.mark.parametrize("options", [CardOptions(), CardOptions(background="#ffffff", color="#101010",
                                                                 accent="#c0392b")], ids=["dark", "light"])
def test_the_indexed_card_looks_like_the_rgb_drawing_of_its_runs(text, options, tmp_path):
    """The published PNG (8-bit indexed, two inks blended over the background) against the same runs drawn
    in RGB: every pixel within 3 per channel, and thousands of pixels of ink in both colours."""
    from PIL import ImageChops
    card = draw_card(text, options, *chains())
    assert card.image.mode == "P"
    expected = rgb_drawing(card, options)
    difference = ImageChops.difference(card.image.convert("RGB"), expected)
    assert max(high for _, high in difference.getextrema()) <= 3
    colors = {color: count for count, color in expected.getcolors(1 << 16)}
    assert colors[tuple(bytes.fromhex(options.color[1:]))] > 2000
    assert colors[tuple(bytes.fromhex(options.accent[1:]))] > 18 * HEIGHT
    path, _ = CardMaker(options, "zh-CN", str(tmp_path), tmp_path / "cards").png(text)
    with Image.open(path) as published:
        assert published.format == "PNG" and published.mode == "P"
        assert ImageChops.difference(published.convert("RGB"), card.image.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("site_font", ["", DEJAVU_SERIF], ids=["chain", "site-font"])
def test_spaces_between_ideographs_in_the_accent_lines(site_font):
    """A space alone (between ideographs, or a run of its own in the site's font) has an empty mask."""
    text = CardText("推理 引擎 拆解", "推理 系列 · 第 2 篇", "基础 设施 笔记", "2025-01-01")
    card = draw_card(text, CardOptions(), *chains(site_font=site_font))
    assert "".join(run.text for run in card.runs if run.accent).replace(" ", "") == "基础设施笔记推理系列·第2篇"
    from PIL import ImageChops
    assert ImageChops.difference(card.image.convert("RGB"), rgb_drawing(card, CardOptions())).getextrema()[0][1] <= 3


def test_the_published_png_keeps_ink_far_above_and_below_the_line(tmp_path):
    """Stacked combining marks reach far outside a line's usual height: the PNG (which takes rows without ink
    from one shared segment) still has every pixel the drawing has."""
    from PIL import ImageChops
    tall = CardText("Z\u0301\u0301\u0301\u0301\u0301a\u0316\u0316\u0316\u0316\u0316lgo 标题", "S\u0301\u0301\u0301\u0301 · Part 1 of 2",
                    "Site\u0316\u0316\u0316\u0316", "2025-01-01")
    card = draw_card(tall, CardOptions(), *chains())
    path, _ = CardMaker(CardOptions(), "zh-CN", str(tmp_path), tmp_path / "cards").png(tall)
    with Image.open(path) as published:
        assert ImageChops.difference(published.convert("RGB"), card.image.convert("RGB")).getbbox() is None
    assert ImageChops.difference(card.image.convert("RGB"), rgb_drawing(card, CardOptions())).getextrema()[0][1] <= 3


@pytest.mark.parametrize("value, message", [
    ({"background": "blue"}, "cards.background must be a colour like #1d2330"),
    ({"size": 3}, "cards: unknown setting 'size'"),
    ("yes", "cards must be false or a mapping"),
])
def test_bad_options(value, message):
    with pytest.raises(ValueError) as raised:
        parse_card_options(value, lambda text: ValueError(text))
    assert message in str(raised.value)


CARD_SITE = {
    "blogbuild.yaml": "title: AI 基础设施笔记\nbase_url: https://example.org/blog/\nimages: false\n",
    "content/posts/one.md": ("---\ntitle: 分页注意力：显存为什么是瓶颈\ndate: 2025-03-02\nseries: [推理]\n"
                             "series_order: 1\n---\nBody.\n"),
    "content/posts/two.md": "---\ntitle: Ring attention\ndate: 2025-03-03\nseries: [推理]\nseries_order: 2\n---\nB.\n",
    "content/posts/own.md": "---\ntitle: Own image\ndate: 2025-03-04\nimage: /images/own.png\n---\nB.\n",
    "content/posts/cover.md": "---\ntitle: Cover\ndate: 2025-03-05\ncover: {image: /images/c.png}\n---\nB.\n",
}


def og_image(page: str) -> str:
    import re
    match = re.search(r'<meta property="og:image" content="([^"]+)">', page)
    assert match, "no og:image"
    assert f'<meta name="twitter:image" content="{match.group(1)}">' in page
    return match.group(1)


def test_build_publishes_a_card_per_post_named_by_og_image(make_site):
    """og:image and twitter:image point at the published 1200x630 PNG; the series part is on the card's
    hash (another part number, another card); a front-matter image or cover wins."""
    from blogbuild.cli import main
    root = make_site(CARD_SITE)
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    public = root / "public"
    cards = {}
    for name in ("one", "two"):
        page = (public / "posts" / name / "index.html").read_text(encoding="utf-8")
        url = og_image(page)
        assert url.startswith(f"https://example.org/blog/posts/{name}/card-") and url.endswith(".png")
        with Image.open(public / url.removeprefix("https://example.org/blog/")) as image:
            assert image.size == (1200, 630) and image.format == "PNG"
        assert '<meta name="twitter:card" content="summary_large_image">' in page
        cards[name] = url
    assert cards["one"] != cards["two"]
    assert og_image((public / "posts/own/index.html").read_text(encoding="utf-8")) == \
        "https://example.org/blog/images/own.png"
    assert og_image((public / "posts/cover/index.html").read_text(encoding="utf-8")) == \
        "https://example.org/blog/images/c.png"
    assert not list((public / "posts" / "own").glob("card-*")) and not list((public / "posts" / "cover").glob("card-*"))


def test_warm_build_draws_no_card_and_gives_the_same_bytes(make_site):
    from blogbuild.pipeline import Builder
    from blogbuild.config import load_config
    root = make_site(CARD_SITE)
    first_builder, second_builder = Builder(load_config(root=root), use_cache=True), None
    first = first_builder.build()
    second_builder = Builder(load_config(root=root), use_cache=True)
    second = second_builder.build()
    assert first_builder.cards_drawn == 2 and second_builder.cards_drawn == 0
    cards = sorted(path for path in first.files if "/card-" in path)
    assert len(cards) == 2 and cards == sorted(path for path in second.files if "/card-" in path)
    for path in cards:
        assert Path(first.files[path].source).read_bytes() == Path(second.files[path].source).read_bytes()


def test_published_cards_are_links_of_the_cached_files_and_site_files_are_copies(make_site):
    """A cold build links each card from the cache into the tree (no second inode per card); the site's own
    files (static/) are copied, never linked: a tool writing into public/ must not reach them. A warm build
    keeps the card's inode, and both equal a --no-cache build byte for byte."""
    from blogbuild.cli import main
    from support.files import read_tree
    root = make_site({**CARD_SITE, "static/images/own.png": b"\x89PNG own", "static/images/c.png": b"\x89PNG c"})
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    public = root / "public"
    cards = sorted(public.rglob("card-*.png"))
    cached = {path.read_bytes(): path.stat().st_ino for path in (root / ".blogbuild-cache").rglob("*.png")
              if "spare-" not in str(path)}
    assert len(cards) == 2 and all(cached.get(card.read_bytes()) == card.stat().st_ino for card in cards)
    own = public / "images" / "own.png"
    assert own.stat().st_ino != (root / "static" / "images" / "own.png").stat().st_ino
    inodes = {card: card.stat().st_ino for card in cards}
    (root / "content/posts/one.md").write_text(CARD_SITE["content/posts/one.md"] + "More.\n", encoding="utf-8")
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    assert {card: card.stat().st_ino for card in sorted(public.rglob("card-*.png"))} == inodes
    assert main(["build", "--root", str(root), "--quiet", "--no-cache", "--output", str(root / "fresh")]) == 0
    assert read_tree(public) == read_tree(root / "fresh")


def test_cards_off(make_site):
    from blogbuild.cli import main
    root = make_site({**CARD_SITE, "blogbuild.yaml": CARD_SITE["blogbuild.yaml"] + "cards: false\n"})
    assert main(["build", "--root", str(root), "--quiet"]) == 0
    page = (root / "public" / "posts" / "one" / "index.html").read_text(encoding="utf-8")
    assert "og:image" not in page and not list((root / "public").rglob("card-*.png"))


def test_a_character_no_font_has_is_a_warning_at_the_title_line(make_site, capsys):
    from blogbuild.cli import main
    root = make_site({"blogbuild.yaml": "title: S\nimages: false\n",
                      "content/posts/odd.md": "---\ndate: 2025-01-01\ntitle: \"Odd \\U000F0001 title\"\n---\nB.\n"})
    assert main(["build", "--root", str(root)]) == 0
    # The character is shown as Python writes it (an unassigned or private character is invisible otherwise).
    assert "content/posts/odd.md:3: warning: social card: no font has '\\U000f0001'" in capsys.readouterr().err


def test_cards_drawn_in_the_background_equal_cards_drawn_in_the_build(make_site):
    """With more than one job the cards are drawn in a forked process while pages render: the same files,
    bytes, warnings (at the title's line) and count as a build that draws them itself."""
    from blogbuild.pipeline import Builder
    from blogbuild.config import load_config
    site = {**CARD_SITE, "content/posts/odd.md": "---\ndate: 2025-01-01\ntitle: \"Odd \\U000F0001 title\"\n---\nB.\n"}
    outcomes = []
    for jobs in (1, 2):
        root = make_site(site)
        builder = Builder(load_config(root=root), jobs=jobs, use_cache=True)
        result = builder.build()
        assert result.ok, result.errors
        cards = {path: Path(result.files[path].source).read_bytes() for path in result.files if "/card-" in path}
        warnings = [(Path(warning.path).name, warning.line, warning.message) for warning in result.warnings]
        outcomes.append((cards, warnings, builder.cards_drawn))
    assert len(outcomes[0][0]) == 3 and outcomes[0][2] == 3
    assert outcomes[0] == outcomes[1]


def _site_font_build(make_site, capsys, font: str, files: dict[str, str | bytes],
                     link: tuple[str, str] | None = None) -> tuple[int, str, Path]:
    """(exit code, standard error, site folder) of a build of a one-post site with cards.font set to font."""
    from blogbuild.cli import main
    root = make_site({"blogbuild.yaml": f"title: S\nimages: false\ncards:\n  font: {font}\n",
                      "content/posts/a.md": "---\ndate: 2025-01-01\ntitle: A card\n---\nB.\n", **files})
    if link is not None:
        (root / link[0]).parent.mkdir(parents=True, exist_ok=True)
        (root / link[0]).symlink_to(link[1])
    code = main(["build", "--root", str(root)])
    return code, capsys.readouterr().err, root


@pytest.mark.parametrize("font, files, link, message", [
    ("fonts/none.ttf", {}, None, "cards.font: there is no file 'fonts/none.ttf' in the site folder"),
    ("fonts/notes.ttf", {"fonts/notes.ttf": "these are notes, not a font\n"}, None,
     "cards.font: 'fonts/notes.ttf' is not a TrueType or OpenType font file"),
    ("fonts/web.woff2", {"fonts/web.woff2": b"wOF2\x00\x01\x00\x00" + bytes(64)}, None,
     "cards.font: 'fonts/web.woff2' is a WOFF web font; name the font's .ttf or .otf file instead"),
    ("../outside.ttf", {}, None, "cards.font must name a font file inside the site folder"),
    (DEJAVU_SERIF, {}, None, "cards.font must name a font file inside the site folder"),
    ("fonts/linked.ttf", {}, ("fonts/linked.ttf", DEJAVU_SERIF), "cards.font must name a font file inside the site folder"),
], ids=["missing", "not-a-font", "woff", "dotdot", "absolute", "link-out"])
def test_a_site_font_that_cannot_be_used_is_an_error_at_its_config_line(make_site, capsys, font, files, link, message,
                                                                        tmp_path):
    """Named at blogbuild.yaml's font: line, before anything is built; a font outside the site folder (through a
    link too) is never read, even when it is a good font."""
    (tmp_path / "outside.ttf").write_bytes(Path(DEJAVU_SERIF).read_bytes())   # what ../outside.ttf finds
    code, err, root = _site_font_build(make_site, capsys, font, files, link)
    assert code == 1 and f"blogbuild.yaml:4: config: {message}" in err, err
    assert "Traceback" not in err and not (root / "public").exists()


def test_a_damaged_site_font_is_an_error_at_its_config_line_and_the_last_output_stays(make_site, capsys):
    font = Path(DEJAVU_SERIF).read_bytes()
    code, err, root = _site_font_build(make_site, capsys, "fonts/site.ttf", {"fonts/site.ttf": font})
    assert code == 0, err
    published = sorted(path.relative_to(root / "public") for path in (root / "public").rglob("*"))
    (root / "fonts" / "site.ttf").write_bytes(font[:2000])   # the signature is right, the tables are cut off
    (root / "content" / "posts" / "b.md").write_text("---\ndate: 2025-01-02\ntitle: B card\n---\nB.\n")
    from blogbuild.cli import main
    code = main(["build", "--root", str(root)])
    err = capsys.readouterr().err
    assert code == 1 and "blogbuild.yaml:4: config: cards.font: 'fonts/site.ttf' cannot be read as a font (" in err
    assert "replace it with an undamaged .ttf or .otf" in err and "Traceback" not in err, err
    assert sorted(path.relative_to(root / "public") for path in (root / "public").rglob("*")) == published


def test_a_new_site_font_redraws_the_cards_on_the_next_build(make_site, capsys):
    """The font is an input of the build record like the content: replacing it is not 'up to date'."""
    from blogbuild.cli import main
    code, err, root = _site_font_build(make_site, capsys, "fonts/site.ttf", {"fonts/site.ttf": Path(DEJAVU_SERIF).read_bytes()})
    assert code == 0, err

    def age_everything() -> None:   # older than the record's racy window: an unchanged file's stat then matches
        old = os.stat(root / "blogbuild.yaml").st_mtime - 60
        for path in (root / "fonts", root / "content", root / "blogbuild.yaml"):
            for item in [path, *path.rglob("*")]:
                os.utime(item, (old, old))

    age_everything()
    assert main(["build", "--root", str(root)]) == 0   # records the aged stats
    assert main(["build", "--root", str(root)]) == 0
    captured = capsys.readouterr()
    assert "Up to date" in captured.out + captured.err   # the record matches the disk
    [card] = (root / "public").rglob("card-*.png")
    before = card.read_bytes()
    (root / "fonts" / "site.ttf").write_bytes(Path(DEJAVU).read_bytes())
    assert main(["build", "--root", str(root)]) == 0
    captured = capsys.readouterr()
    assert "Up to date" not in captured.out + captured.err
    [card] = (root / "public").rglob("card-*.png")
    assert card.read_bytes() != before
