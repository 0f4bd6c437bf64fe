"""What a build saves of its state for the next process (pipeline/state.py): the posts cache's renders are
named, not copied, and the output by its paths alone, so a deploy that edits one post encodes and reads back
little beyond what changed. A build of a copy of tests/sites/basic, in this process."""
from __future__ import annotations

import shutil
from pathlib import Path

from support.files import REPO

BASIC = REPO / "tests" / "sites" / "basic"


def test_a_saved_state_names_the_posts_caches_renders_and_the_outputs_paths(tmp_path: Path) -> None:
    from blogbuild.config import load_config
    from blogbuild.pipeline.builder import Builder
    root = tmp_path / "site"
    shutil.copytree(BASIC, root)
    config = load_config(root / "blogbuild.yaml")
    builder = Builder(config, jobs=1, use_cache=True, keep_state=True, output_dir=root / "public")
    result = builder.build()
    assert result.ok, result.errors
    builder.save_cache("the-build")

    loaded = Builder.disk_cache_for(config).load()
    assert loaded.state is not None and loaded.state.build_id == "the-build"
    assert loaded.state.outputs == tuple(result.files)
    assert loaded.state.state.previous == {}
    remembered = loaded.state.state.remembered
    assert remembered and all(render.outcome is loaded.rendered[render.outcome.post.fingerprint]
                              for render in remembered.values() if render.outcome.post is not None)

    # A builder resuming that state publishes the same paths, read from the published tree.
    again = Builder(config, jobs=1, use_cache=True, keep_state=True, output_dir=root / "public", resume="the-build")
    assert again.resumed
    assert {path: item.source for path, item in again.state.previous.items()} == {
        path: f"{root / 'public'}/{path}" for path in result.files}


def test_a_source_already_without_its_text_is_kept_as_it_is() -> None:
    from blogbuild.core.model import SourceFile
    from blogbuild.pipeline.state import BuilderState, SourceEntry
    hollow = SourceEntry(10, 20, SourceFile("content/a.md", "a.md", "", has_text=False))
    full = SourceEntry(10, 20, SourceFile("content/b.md", "b.md", "text"))
    thinned = BuilderState(sources={"a.md": hollow, "b.md": full}).without_texts()
    assert thinned.sources["a.md"] is hollow
    assert thinned.sources["b.md"].item.text == "" and not thinned.sources["b.md"].item.has_text


def test_a_moved_state_keeps_what_names_no_path_of_the_old_folder() -> None:
    """A fresh clone in another folder: absolute paths in the old folder follow the site; a state whose paths
    are relative (a site built in the working folder) keeps its tree as it is, and its known files are its tree's."""
    import os
    from blogbuild.disk.sources import ContentTree, FoundFile
    from blogbuild.pipeline.state import BuilderState, KnownSource
    relative = FoundFile("content/a.md", "a.md", 1, 2)
    state = BuilderState(tree=ContentTree(((relative, "page", ()),), ()),
                         known={os.path.abspath(relative.path): KnownSource(relative, "page", ())})
    moved = state.relocated("/old/site", "/new/site")
    assert moved.tree is state.tree
    assert moved.known == state.known and next(iter(moved.known.values())).found is relative

    absolute = FoundFile("/old/site/content/b.md", "b.md", 1, 2)
    state = BuilderState(tree=ContentTree(((absolute, "page", ()),), (relative,)),
                         known={absolute.path: KnownSource(absolute, "page", ())})
    moved = state.relocated("/old/site", "/new/site")
    assert moved.tree is not None and moved.tree.pages[0][0].path == "/new/site/content/b.md"
    assert moved.tree.files == (relative,) and list(moved.known) == ["/new/site/content/b.md"]
    assert moved.known["/new/site/content/b.md"].found is moved.tree.pages[0][0]


def test_the_posts_cache_keeps_a_posts_marks_packed_and_they_read_back_alike(tmp_path: Path) -> None:
    """A post's marks (where its links, formulas and diagrams are in its file) are read by the few posts check,
    KaTeX or the images stage look at: the posts cache keeps them as one packed value a post, no record each."""
    import json
    from blogbuild.config import load_config
    from blogbuild.pipeline.builder import Builder
    root = tmp_path / "site"
    shutil.copytree(BASIC, root)
    config = load_config(root / "blogbuild.yaml")
    builder = Builder(config, jobs=1, use_cache=True)
    built = builder.build()
    assert built.ok, built.errors
    builder.save_cache()
    posts_file = next(path for path in (root / ".blogbuild-cache").glob("posts-*.cache") if ".delta." not in path.name)
    header = json.loads(posts_file.read_bytes().split(b"\n")[1])
    assert "Post" in header["classes"] and "SourceMark" not in header["classes"]

    loaded = Builder.disk_cache_for(config).load()
    posts = {outcome.post.rel_path: outcome.post for outcome in loaded.rendered.values() if outcome.post is not None}
    marked = [post for post in built.site.pages if post.marks]
    assert marked and all(posts[post.rel_path].marks == post.marks for post in marked)
    assert any(mark.kind == "url" and mark.line > 1 for post in marked for mark in post.marks)
