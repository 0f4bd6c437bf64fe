"""The search index in pieces (search_index.py, search.js): Python reads text as search.js does, the sharded
search answers exactly as the whole-text search did, a first query downloads little, an edit rewrites
only its shards."""
from __future__ import annotations

import gzip
import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from blogbuild.publish import search_index
from blogbuild.pipeline import Builder
from blogbuild.cli import main
from blogbuild.config import load_config
from blogbuild.publish.search_index import CHUNK, SearchIndex, chunk_file, chunk_paths, fold, postings, postings_by_walk, shard_path
from support.posts import post_from_text, site_config

REPO = Path(__file__).resolve().parent.parent
SEARCH_JS = REPO / "src" / "blogbuild" / "theme" / "static" / "js" / "search.js"
AGREEMENT_JS = Path(__file__).resolve().parent / "support" / "search_agreement.js"

# Text where folding, word starts and chunk boundaries are hard: astral letters and ideographs, emoji,
# ligatures and compatibility characters that fold to several, full-width Latin, Turkish dotted I.
TRICKY = ("a😀bc 𐐨abc ﬁle ㎏ x²y İstanbul ΣΑΣ 𠀀𠀁字 显存显存显 aé ｖｅｒｌ VeRL_2 under_score "
          "½ café CAFÉ 𝐀𝐁c ﾊﾝｶｸ 한국어 ひらがな カタカナ ⅻ 〇々")


def _load_synth():
    spec = importlib.util.spec_from_file_location("bench_synth", REPO / "bench" / "synth.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def _bundled_texts() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((REPO / "content").rglob("*.md"))]


def _sharded(root: Path) -> Path:
    """The site with `search_index: sharded` in its blogbuild.yaml (the default is the whole-text index.json)."""
    config = root / "blogbuild.yaml"
    text = config.read_text(encoding="utf-8") if config.is_file() else ""
    config.write_text(text + ("" if not text or text.endswith("\n") else "\n") + "search_index: sharded\n",
                      encoding="utf-8")
    return root


def _build(root: Path) -> Path:
    _sharded(root)
    assert main(["build", "--root", str(root), "--no-cache", "--jobs", "1", "--quiet"]) == 0
    return root / "public"


def _agreement(public: Path, queries: list[str], sharded_only: bool = False) -> dict:
    completed = subprocess.run(
        [_node(), str(AGREEMENT_JS), str(SEARCH_JS), str(public), json.dumps(queries, ensure_ascii=False),
         "sharded-only" if sharded_only else ""],
        capture_output=True, text=True, encoding="utf-8", timeout=600, check=True)
    return json.loads(completed.stdout)


def _queries_from(texts: list[str], seed: int, count: int = 40) -> list[str]:
    """Queries cut from the texts: CJK pairs and runs, Latin words and their 1-, 2- and 3-character
    prefixes, in other case and full width, mixed and several terms, and some that match nothing."""
    rng = random.Random(seed)
    cjk = [run for text in texts for run in re.findall(r"[\u4e00-\u9fff]{2,6}", text)]
    latin = [word for text in texts for word in re.findall(r"[A-Za-z][A-Za-z0-9_]{2,}", text)]
    queries = ["显存", "训", "a", "th", "the", "x", "verl", "VERL", "ｖｅｒｌ", "GPU 显存", "模型 训练 推理",
               "lang", "不存在的词语", "zzzzqx", "2025", "-", "rl4llm", "attention 的"]
    for _ in range(count):
        word, run = rng.choice(latin), rng.choice(cjk)
        queries += [run, run[:2], run[rng.randrange(len(run))], word, word[:1], word[:2], word[:3],
                    word.upper(), f"{word[:4]} {run[:2]}", f"{run}{word}", f"{rng.choice(latin)} {word[:3]}"]
    return list(dict.fromkeys(queries))


def _synth_site(tmp_path: Path, posts: int, parts: int = 1) -> Path:
    """bench/synth.py's blog; with parts > 1, each post is that many synthetic posts long (the real blog
    of the measurement has 94 posts of ~36,000 characters: 3.4 MB of index.json, 1.2 MB gzipped)."""
    synth = _load_synth()
    made = synth.generate(posts * parts, 1)
    joined = [replace(made[number], body="\n\n".join(post.body for post in made[number::posts]))
              for number in range(posts)]
    return synth.write_blogbuild(joined, tmp_path / f"synth{posts}x{parts}")


def _gzipped(public: Path, files: list[str]) -> int:
    return sum(len(gzip.compress((public / name).read_bytes(), 9)) for name in dict.fromkeys(files))


# ---- Python reads text as search.js does ---------------------------------------------------------

def test_postings_by_whole_string_operations_are_the_walk_by_characters() -> None:
    texts = [TRICKY, "ab" * 3000 + "😀" + "c d" * 1000, "𐐨𐐨a😀😀ｖｅｒｌ", "", "　", *_bundled_texts()]
    for text in texts:
        assert postings(text) == postings_by_walk(text), text[:60]
    found = postings("显存管理显存 VeRL verl Verification 𐐨abc")
    assert found["c"]["显存"] == [2, 0] and found["c"]["管"] == [1, 2]
    assert found["w"]["verl"] == [2, 7] and found["w"]["verification"] == [1, 17]
    assert found["p"]["v"] == [3, 7] and found["p"]["ve"] == [3, 7]
    # After an astral letter JavaScript sees a word start (two surrogates are not word characters).
    assert found["w"]["𐐨abc"] == [1, 30] and found["w"]["abc"] == [1, 32]


def test_a_post_s_postings_as_columns_are_postings() -> None:
    """post_postings() (what an edit splices in) is postings() of the post's text as (key, hits, first)
    columns, with text whose folds hold spaces (ﷺ folds to four words, ¨ to a space and a mark) and NULs."""
    config = site_config(Path("/tmp"))
    model, _ = post_from_text("posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nx\n", config)
    for text in (TRICKY + " ﷺ a¨b c\x00d　e", "显存 VeRL", ""):
        keys, hits, firsts = search_index.post_postings(replace(model, plain_text=text, summary_text=""))
        columns: dict[str, dict[str, list[int]]] = {"c": {}, "p": {}, "w": {}}
        for key, hit, first in zip(keys, hits, firsts, strict=True):
            columns[key[0]][key[1:]] = [hit, first]
        assert columns == postings(text) == postings_by_walk(text), text[:60]


# Texts whose pieces the range builder must make as Python defines them: plain CJK and Latin, each kind of
# character that folds out of place (ligatures, full-width, astral letters and CJK, emoji, a sigma, a dotted
# capital I), pieces that sort differently by UTF-16 unit and by code point, digits and underscores, a piece
# met more than ten times, words longer than their three-character shard key, and the empty text.
RANGE_TEXTS = [
    "显存管理显存 VeRL verl Verification", TRICKY, "ab" * 300 + "😀" + "c d" * 100, "𐐨𐐨a😀😀ｖｅｒｌ", "",
    "　", "ﬁle ﬂow ㎏ ½ ⅻ", "ΣΑΣ σας İİ", "\U00020000\U00020001字 字\U00020000 \uffe6\U0002a6d6", "\ue000\uffe5 𝐀𝐁 abc",
    "模型训练 " * 40, "x_1 x_2 42 4200 _under ___", "ﷺ a¨b c\x00d e\u2028f", "kernel kernels kerneled kern",
]


@pytest.mark.parametrize("count", [64, 1024, 4096])
def test_the_range_builder_makes_the_parts_python_defines(count: int) -> None:
    """search_engine's script (V8) gives a range's parts and each post's shard numbers byte for byte as
    _whole_in_python(), the definition: ranges of plainly folded posts, of posts whose pieces Python makes
    (a character folds out of place), and of both, over the bundled posts and the texts above."""
    config = site_config(Path("/tmp"))
    model, _ = post_from_text("posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nx\n", config)
    # An astral CJK character in the shard of U+FA0E (a CJK character after U+E000 that folds to itself): the
    # two keys sort one way by UTF-16 unit and the other by code point.
    astral = next(chr(code) for code in range(0x20000, 0x2A6E0)
                  if search_index.shard_of("c" + chr(code), 4096) == search_index.shard_of("c\ufa0e", 4096))
    texts = RANGE_TEXTS + [f"{astral} \ufa0e 﨏{astral}", "\ufa0e\ufa0f"] + _bundled_texts()[:30]
    ranges = [texts, [text for text in texts if text.isascii()], RANGE_TEXTS[1:4], [RANGE_TEXTS[0]] * 3]
    for texts_of_range in ranges:
        posts = [replace(model, plain_text=text, summary_text="") for text in texts_of_range]
        made = search_index._whole(posts, count)
        assert made == search_index._whole_in_python(posts, count), texts_of_range[:2]


def test_a_post_s_text_chunks_join_back_to_its_text() -> None:
    config = site_config(Path("/tmp"))
    post, _ = post_from_text("posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nx\n", config)
    text = "a" * (CHUNK - 1) + "😀" + "字" * (CHUNK + 952) + "😀"   # the pair at the first boundary cut
    post = replace(post, plain_text=text)
    paths = chunk_paths(post)
    assert paths == ["search/text/posts/a/0.json", "search/text/posts/a/1.json", "search/text/posts/a/2.json"]
    parts = [chunk_file(post, number) for number in range(len(paths))]
    assert b"\\ud83d\"" in parts[0] and parts[1].startswith(b"\"\\ude00")   # the pair cut, escaped
    joined = json.loads("[" + ",".join(part.decode("utf-8") for part in parts) + "]")
    assert "".join(joined).encode("utf-16-le", "surrogatepass").decode("utf-16-le") == text


NODE_CLASSES = r"""
const search = require(process.argv[2]);
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
let classes = "";
const folds = {};
for (let code = 0; code < 0x110000; code++) {
  if (code >= 0xD800 && code <= 0xDFFF) { classes += "-"; continue; }
  const character = String.fromCodePoint(code);
  classes += search.isCjk(character) ? "c" : search.isWordCharacter(character) ? "w" : " ";
  const folded = search.fold(character).text;
  if (folded !== character) folds[code] = folded;
}
const folded = texts.map(text => { const result = search.fold(text); return [result.text, result.map]; });
process.stdout.write(JSON.stringify({classes, folds, folded}));
"""


@pytest.mark.node
def test_python_folds_and_classifies_every_character_as_node_does(tmp_path: Path) -> None:
    import unicodedata
    script = tmp_path / "classes.js"
    script.write_text(NODE_CLASSES, encoding="utf-8")
    texts = [TRICKY, *_bundled_texts()]
    completed = subprocess.run([_node(), str(script), str(SEARCH_JS)], input=json.dumps(texts), capture_output=True,
                               text=True, encoding="utf-8", timeout=300, check=True)
    node = json.loads(completed.stdout)
    differ = []
    for code in range(0x110000):
        character = chr(code)
        if 0xD800 <= code <= 0xDFFF or unicodedata.category(character) == "Cn":
            continue   # Python's Unicode (14) has not assigned it: no blog text holds it yet
        ours = "c" if search_index.is_cjk(character) else "w" if search_index.is_word(character) else " "
        node_fold = node["folds"].get(str(code), character)
        if ours != node["classes"][code] or fold(character)[0] != node_fold:
            differ.append(f"U+{code:04X} {ours!r}/{node['classes'][code]!r} {fold(character)[0]!r}/{node_fold!r}")
    assert not differ, f"{len(differ)} characters differ, e.g. {differ[:20]}"
    for text, (folded, offsets) in zip(texts, node["folded"], strict=True):
        ours_folded, ours_offsets = fold(text)
        # search.js maps each folded UTF-16 unit, fold() each folded character: compare at characters.
        starts, unit = [], 0
        for character in folded:
            starts.append(unit)
            unit += 2 if ord(character) > 0xFFFF else 1
        assert ours_folded == folded and ours_offsets == [offsets[start] for start in starts]
    for key in ("c显存", "wthe", "pv", "w𐐨ab", "c𠀀"):
        assert search_index.fnv1a(key) == int(subprocess.run(
            [_node(), "-e", f"process.stdout.write(String(require({str(SEARCH_JS)!r}).fnv1a({json.dumps(key)})))"],
            capture_output=True, text=True, check=True).stdout)


# ---- the same answers as the whole-text search --------------------------------------------------

def _tricky_site(make_site) -> Path:
    """Long posts whose hits sit at chunk boundaries, astral text, a summary-only case."""
    files = {"blogbuild.yaml": "title: T\nbase_url: https://example.org/blog/\n"}
    filler = "填充文字" * ((CHUNK - 26) // 4) + "ab"   # CHUNK - 26 units: the next words straddle the boundary
    bodies = [filler + " verl 显存 𐐨abc 😀verl " * 3, "😀" * (CHUNK // 2 - 1) + "显存 verl" + "x" * 3000 + " verl",
              TRICKY * 80, "Verification of VeRL " * 400 + "显存管理", "短。", "ﬁle ﬁle ﬁle " + "字" * (2 * CHUNK + 4) + " ﬁ"]
    for number, body in enumerate(bodies):
        files[f"content/posts/p{number}.md"] = (f"---\ntitle: Post {number} verl\ndate: 2024-01-0{number + 1}\n"
                                                f"tags: [tag{number}, 显存]\n---\n{body}\n")
    return make_site(files)


@pytest.mark.node
def test_sharded_search_answers_as_the_whole_text_search_did(tmp_path: Path, make_site) -> None:
    sites = [(_build(_synth_site(tmp_path, 94)), 94), (_build(_tricky_site(make_site)), 6)]
    bundled = tmp_path / "bundled"
    for name in ("content", "blogbuild.yaml", "templates", "static"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, bundled / name)
        elif source.is_file():
            bundled.mkdir(exist_ok=True)
            shutil.copyfile(source, bundled / name)
    sites.append((_build(bundled), 8))
    for public, posts in sites:
        entries = json.loads((public / "index.json").read_text(encoding="utf-8"))
        assert len(entries) == posts
        texts = [entry["content"] for entry in entries] + [TRICKY, "ﬁ verl 𐐨ab 𐐨abc abc 😀verl"]
        queries = _queries_from(texts, posts)
        answers = _agreement(public, queries)
        differ = [query for query, answer in answers.items() if answer["today"] != answer["sharded"]]
        assert not differ, f"{public}: {differ[:10]}: {answers[differ[0]]}"
        found = [query for query, answer in answers.items() if answer["today"]]
        assert len(found) > len(queries) // 2, "most queries should find something"
        assert any(part["hit"] for answer in answers.values() for result in answer["sharded"]
                   for part in result["snippet"])


@pytest.mark.node
def test_sharded_search_over_many_ranges_answers_as_the_whole_text_search(tmp_path: Path, make_site,
                                                                          monkeypatch) -> None:
    """Ranges of 16 and 5 posts (a site of 94, and one of 6 hard posts): every range's part of a shard is
    read, ids count from the oldest within a range, a partial newest range included."""
    for size, site, posts in ((16, _synth_site(tmp_path, 94), 94), (5, _tricky_site(make_site), 6)):
        monkeypatch.setattr(search_index, "RANGE", size)
        public = _build(site)
        meta = json.loads((public / "search" / "meta.json").read_text(encoding="utf-8"))
        assert meta["range"] == size
        assert len(json.loads((public / "search" / "s-0.json").read_text(encoding="utf-8"))) == -(-posts // size)
        entries = json.loads((public / "index.json").read_text(encoding="utf-8"))
        queries = _queries_from([entry["content"] for entry in entries], posts, count=25)
        answers = _agreement(public, queries)
        differ = [query for query, answer in answers.items() if answer["today"] != answer["sharded"]]
        assert not differ, f"{public}: {differ[:10]}: {answers[differ[0]]}"
        assert sum(bool(answer["today"]) for answer in answers.values()) > len(queries) // 2


def test_an_index_from_the_last_one_equals_a_fresh_one(monkeypatch) -> None:
    """Body edits in some ranges, a post added (the newest range changes), a post removed: the index
    carried on from the last build's is the index made afresh, byte for byte; unchanged ranges are reused."""
    monkeypatch.setattr(search_index, "RANGE", 8)
    config = site_config(Path("/tmp"), base_url="https://example.org/")
    model, _ = post_from_text("posts/model.md", "---\ntitle: M\ndate: 2024-01-01\n---\nx\n", config)
    synth = _load_synth()
    posts = [replace(model, title=post.title, url=f"/posts/{post.slug}/", plain_text=post.body, fingerprint=post.slug)
             for post in synth.generate(30, 3)]
    first = SearchIndex.of(posts, config)
    edited = list(posts)
    for at in (2, 3, 17):   # newest first: ranges (oldest first) 3, 3 and 1
        edited[at] = replace(edited[at], plain_text=edited[at].plain_text + " 新写的 rewritten " + TRICKY,
                             fingerprint=edited[at].fingerprint + "'")
    carried = SearchIndex.of(edited, config, first)
    assert carried == SearchIndex.of(edited, config)
    assert carried.ranges[0] is first.ranges[0] and carried.ranges[2] is first.ranges[2]
    assert carried.ranges[1] is not first.ranges[1] and carried.ranges[3] is not first.ranges[3]
    kept = [number for number in range(len(carried.versions))
            if all(now.parts[number] is then.parts[number] for now, then in zip(carried.ranges, first.ranges, strict=True))]
    assert kept and len(kept) < len(carried.versions)   # a shard none of whose parts changed is not hashed again
    added = [replace(posts[0], url="/posts/new/", fingerprint="new", plain_text="新的 post")] + edited
    grown = SearchIndex.of(added, config, carried)
    assert grown == SearchIndex.of(added, config)
    assert all(grown.ranges[number] is carried.ranges[number] for number in range(3))
    fewer = edited[:10] + edited[11:]
    assert SearchIndex.of(fewer, config, carried) == SearchIndex.of(fewer, config)


def test_a_range_builder_that_fails_leaves_the_parts_to_python(monkeypatch) -> None:
    """When V8 cannot make a range's parts (here its script does not load), the build makes them with the
    Python definition: the same parts, no error; and the characters taught to the failed isolate are
    taught again to the next."""
    from blogbuild.publish import search_engine
    config = site_config(Path("/tmp"))
    model, _ = post_from_text("posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\nx\n", config)
    posts = [replace(model, plain_text=text, summary_text="") for text in RANGE_TEXTS]
    expected = search_index._whole_in_python(posts, 64)
    with monkeypatch.context() as patch:
        patch.setattr(search_engine, "_function", None)
        patch.setattr(search_engine, "_SCRIPT", "throw new Error('no script');")
        assert search_index._whole(posts, 64) == expected
        assert not search_engine._taught
    assert search_index._whole(posts, 64) == expected


def test_edits_spliced_into_the_last_index_equal_an_index_made_afresh(monkeypatch) -> None:
    """Rounds of random edits to random posts (words added and cut, a text emptied, pieces no other post of
    the range has, astral and out-of-place characters, a piece met more than ten times, the only post of a
    piece losing it): each time the index carried on from the last one (its parts' lists spliced) is the
    index made afresh, byte for byte."""
    monkeypatch.setattr(search_index, "RANGE", 8)
    config = site_config(Path("/tmp"), base_url="https://example.org/")
    model, _ = post_from_text("posts/model.md", "---\ntitle: M\ndate: 2024-01-01\n---\nx\n", config)
    posts = [replace(model, title=post.title, url=f"/posts/{post.slug}/", plain_text=post.body, fingerprint=post.slug)
             for post in _load_synth().generate(24, 5)]
    extras = [*RANGE_TEXTS, "独一无二的词 zyxwvut", "显存" * 12, "qqqq", "😀 𠀀 ﬁ"]
    rng = random.Random(7)
    index = SearchIndex.of(posts, config)
    for round_number in range(40):
        for at in rng.sample(range(len(posts)), rng.choice([1, 1, 2, 3])):
            text = posts[at].plain_text
            cut = rng.randrange(len(text) + 1)
            text = rng.choice([text + " " + rng.choice(extras), text[:cut], rng.choice(extras), "",
                               text[:cut] + rng.choice(extras) + text[cut:], text.replace("的", "")])
            posts[at] = replace(posts[at], plain_text=text, fingerprint=f"{posts[at].url}{round_number}")
        carried = SearchIndex.of(posts, config, index)
        assert carried == SearchIndex.of(posts, config), round_number
        index = carried


# ---- what a first query downloads -----------------------------------------------------------------

FIRST_QUERIES = ["显存", "模型 训练", "the", "a", "kernel", "GPU 显存 带宽", "调度器", "sched 流水线并行", "attention"]


@pytest.mark.node
def test_a_first_query_downloads_at_most_150_kb_at_94_posts(tmp_path: Path) -> None:
    public = _build(_synth_site(tmp_path, 94, parts=6))
    answers = _agreement(public, FIRST_QUERIES, sharded_only=True)
    whole = len(gzip.compress((public / "index.json").read_bytes(), 9))
    for query, answer in answers.items():
        transfer = _gzipped(public, answer["fetched"])
        print(f"94 posts: {query!r}: {len(answer['sharded'])} found, {transfer:,} bytes gzipped "
              f"(meta {_gzipped(public, answer['fetched'][:1]):,}, "
              f"shards {_gzipped(public, [name for name in answer['fetched'] if '/s-' in name]):,}; "
              f"index.json: {whole:,})")
        assert answer["sharded"], query
        assert transfer <= 150_000 and transfer < whole / 4, (query, transfer, whole)
    assert whole > 500_000, "the site's text should weigh as much as the real blog's"


@pytest.mark.node
def test_a_first_query_downloads_at_most_500_kb_at_10000_posts(tmp_path: Path) -> None:
    synth = _load_synth()
    config = site_config(tmp_path, base_url="https://example.org/")
    model, _ = post_from_text("posts/model.md", "---\ntitle: M\ndate: 2024-01-01\n---\nx\n", config)
    posts = [replace(model, title=post.title, url=f"/posts/{post.slug}/", plain_text=post.body,
                     tags=tuple(post.tags), categories=tuple(post.categories),
                     series=(post.series,) if post.series else (), fingerprint=post.slug)
             for post in synth.generate(10_000, 1)]
    index = SearchIndex.of(posts, config)
    public = tmp_path / "public"
    files = {"search/meta.json": index.meta, **{shard_path(number): shard for number, shard in enumerate(index.shards)}}
    for post in posts:
        files.update({path: chunk_file(post, number) for number, path in enumerate(chunk_paths(post))})
    for name, data in files.items():
        (public / name).parent.mkdir(parents=True, exist_ok=True)
        (public / name).write_bytes(data)
    answers = _agreement(public, FIRST_QUERIES, sharded_only=True)
    for query, answer in answers.items():
        transfer = _gzipped(public, answer["fetched"])
        print(f"10,000 posts: {query!r}: {len(answer['sharded'])} shown, {transfer:,} bytes gzipped")
        assert answer["sharded"], query
        assert transfer <= 500_000, (query, transfer)


# ---- an edit rewrites only its shards -------------------------------------------------------------

def test_a_body_edit_rewrites_the_meta_its_chunks_and_only_its_shards(make_site) -> None:
    files = {"blogbuild.yaml": "title: T\nbase_url: https://example.org/\nsearch_index: sharded\n"}
    for number in range(40):
        files[f"content/posts/p{number:02d}.md"] = (f"---\ntitle: P{number}\ndate: 2024-01-{number % 28 + 1:02d}\n---\n"
                                                    f"正文{number} words{number} 共同的话 shared text\n")
    root = make_site(files)
    builder = Builder(load_config(None, root=root))
    before = builder.build()
    assert before.ok
    path = root / "content/posts/p07.md"
    path.write_text(path.read_text(encoding="utf-8").replace("正文7 words7", "新写的 rewritten"), encoding="utf-8")
    after = builder.build([str(path)])
    assert after.ok
    changed = {name for name in after.files if name.startswith("search/")
               and (name not in before.files or after.files[name].data != before.files[name].data)}
    count = len([name for name in after.files if re.fullmatch(r"search/s-\d+\.json", name)])
    touched = {shard_path(search_index.shard_of(kind + piece, count))
               for text in ("正文7 words7 共同的话 shared text", "新写的 rewritten 共同的话 shared text") for kind, found in postings(text).items()
               for piece in found}
    shards = {name for name in changed if name.startswith("search/s-")}
    assert shards and shards <= touched and len(touched) < count
    assert changed - shards == {"search/meta.json", "search/text/posts/p07/0.json"}
