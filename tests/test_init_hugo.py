"""`blogbuild init --from-hugo`: the equivalent blogbuild.yaml, never over an existing one, and what to port."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from blogbuild.cli import main
from blogbuild.config import load_config

PAPERMOD = Path(__file__).parent / "hugo_sites" / "papermod"


def test_writes_the_equivalent_blogbuild_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    shutil.copytree(PAPERMOD, site)
    from_hugo = load_config(root=site)
    assert main(["init", "--from-hugo", "--root", str(site)]) == 0
    written = yaml.safe_load((site / "blogbuild.yaml").read_text(encoding="utf-8"))
    assert written["title"] == "Paper Notes" and written["menu"][0]["children"][0]["name"] == "Machine learning"
    from_yaml = load_config(root=site)   # blogbuild.yaml now wins, and says the same
    assert from_yaml.config_path.endswith("blogbuild.yaml")
    for name in ("title", "base_url", "menu", "social", "taxonomies", "paginate", "markup", "theme", "feed_content", "aliases", "pagination_aliases"):
        assert getattr(from_yaml, name) == getattr(from_hugo, name), name
    assert from_yaml.theme.toc_open is False and from_yaml.pagination_aliases   # PaperMod's, not blogbuild's
    out = capsys.readouterr().out
    # The same inventory line the build warns with (test_hugo_config.py checks what it names).
    (notice,) = from_hugo.notices
    assert notice in out.splitlines()
    # Translated, it runs on every page: said so (among what blogbuild runs), never as something to port.
    assert "  partial layouts/partials/extend_head.html: runs as it is on every page" in out.splitlines()


def test_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hugo.toml").write_text('title = "New"\n', encoding="utf-8")
    (tmp_path / "blogbuild.yaml").write_text("title: Mine\n", encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "blogbuild.yaml").read_text(encoding="utf-8") == "title: Mine\n"
    assert main(["init", "--from-hugo", "--root", str(tmp_path), "--force"]) == 0
    assert "title: New" in (tmp_path / "blogbuild.yaml").read_text(encoding="utf-8")


def test_reports_templates_to_port_with_their_uses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "hugo.toml": 'title = "T"\ntheme = "PaperMod"\n',
        "layouts/shortcodes/notice.html": "<div class=\"notice\">{{ .Inner }}</div>\n",
        "layouts/shortcodes/gallery.html": "{{ range .Page.Resources }}{{ resources.PostCSS . }}{{ end }}\n",
        "themes/PaperMod/layouts/_default/archives.html": "{{ define \"main\" }}{{ end }}\n",
        "content/posts/a.md": "---\ntitle: A\n---\nText\n\n{{< notice >}}\nHi\n{{< /notice >}}\n\n{{< youtube abc >}}\n"
                              "{{< mystery >}}\n{{< gallery >}}\n",
        "content/archives.md": "---\ntitle: Archive\nlayout: \"archives\"\n---\n",
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "translated 1 Go shortcode into templates/shortcodes/ (yours to edit; they win over " \
           "layouts/shortcodes/): notice" in out
    written = (tmp_path / "templates/shortcodes/notice.html").read_text(encoding="utf-8")
    assert written.startswith("{#- blogbuild: translated from layouts/shortcodes/notice.html (a Go template).")
    assert "  shortcode layouts/shortcodes/gallery.html (line 1:31: function 'resources.PostCSS' is not supported by " \
           "the translator): content/posts/a.md:12" in out
    assert "layouts/shortcodes/notice.html:" not in out   # it runs
    assert "layout themes/PaperMod/layouts/_default/archives.html: content/archives.md:3" in out
    assert "{{< youtube >}}" not in out                     # a built-in blogbuild has
    assert "shortcode {{< mystery >}} (shortcode defined nowhere): content/posts/a.md:11" in out
    assert main(["init", "--from-hugo", "--root", str(tmp_path), "--force"]) == 0   # --force: blogbuild.yaml too
    assert "translated 1 Go shortcode" in capsys.readouterr().out


def test_without_a_hugo_config_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--from-hugo", "--root", str(tmp_path)]) == 1
    assert "no Hugo config" in capsys.readouterr().err


def test_says_what_to_do_with_hugo_public_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hugo.toml").write_text('title = "T"\n', encoding="utf-8")
    (tmp_path / "content").mkdir()
    assert main(["init", "--from-hugo", "--root", str(tmp_path)]) == 0
    assert "Hugo's output" not in capsys.readouterr().out   # no public/ yet: nothing to say
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "index.html").write_text("<p>Hugo</p>\n", encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(tmp_path), "--force"]) == 0
    out = capsys.readouterr().out
    public = (tmp_path / "public").as_posix()
    assert f"{public}/ holds Hugo's output" in out and f"`mv {public} {public}-hugo`" in out
    assert main(["build", "--root", str(tmp_path)]) == 1   # what the advice is about
    assert "did not write" in capsys.readouterr().err
    (tmp_path / ".hugo_build.lock").write_text("", encoding="utf-8")   # what `hugo` leaves beside public/
    assert main(["build", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "holds Hugo's build" in err and "-hugo`" in err
    (tmp_path / "public").rename(tmp_path / "public-hugo")
    assert main(["build", "--root", str(tmp_path), "--quiet"]) == 0


def test_papermod_options_round_trip_through_the_written_yaml(tmp_path: Path) -> None:
    """Every kind of value init writes for the default theme's options reads back the same."""
    (tmp_path / "hugo.yaml").write_text(
        "title: T\ntheme: PaperMod\nparams:\n  defaultTheme: dark\n  images: [/a.png]\n  keywords: [k]\n"
        "  label: {text: L, icon: /i.png, iconHeight: 20}\n  assets: {favicon: /f.ico}\n"
        "  editPost: {URL: 'https://e.example', appendFilePath: true}\n  footer: {text: F, hideCopyright: true}\n"
        "  profileMode: {enabled: true, title: Me, imageUrl: /me.png, buttons: [{name: B, url: /b/}]}\n",
        encoding="utf-8")
    from_hugo = load_config(root=tmp_path)
    assert main(["init", "--from-hugo", "--root", str(tmp_path), "--quiet"]) == 0
    from_yaml = load_config(root=tmp_path)
    assert from_yaml.config_path.endswith("blogbuild.yaml")
    assert from_yaml.theme == from_hugo.theme and from_yaml.theme.color_scheme == "dark"
    assert from_yaml.theme.intro.buttons == from_hugo.theme.intro.buttons == (("B", "/b/"),)
    assert (from_yaml.theme.intro.image, from_yaml.theme.intro.image_width) == (from_hugo.theme.intro.image, 150)


def test_the_inventory_is_what_the_build_will_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mermaid render hook is named with the fences that use it and what blogbuild does instead; both extension
    partials are named, with the second KaTeX one of them loads; --used-only lists what content uses, or says
    that nothing is."""
    site = tmp_path / "site"
    shutil.copytree(PAPERMOD, site)
    (site / "layouts/_default/_markup").mkdir(parents=True)
    (site / "layouts/_default/_markup/render-codeblock-mermaid.html").write_text(
        '<pre class="mermaid">{{ .Inner }}</pre>\n', encoding="utf-8")
    (site / "layouts/partials/extend_footer.html").write_text("<footer-note></footer-note>\n", encoding="utf-8")
    head = site / "layouts/partials/extend_head.html"
    head.write_text(head.read_text(encoding="utf-8") + '<link rel="stylesheet" '
                    'href="https://cdn.example.test/npm/katex@0.16.9/dist/katex.min.css">\n', encoding="utf-8")
    post = site / "content/posts/diagram.md"
    post.write_text("---\ntitle: D\ndate: 2024-01-01\n---\nText.\n\n```mermaid\nflowchart LR\n  A --> B\n```\n",
                    encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(site)]) == 0
    lines = capsys.readouterr().out.splitlines()
    hook = next(line for line in lines if "render-codeblock-mermaid.html" in line and line.startswith("  "))
    assert "blogbuild draws ```mermaid blocks itself" in hook and "content/posts/diagram.md:7" in hook
    assert "no use in content" not in hook
    assert "  partial layouts/partials/extend_footer.html: runs as it is on every page" in lines
    extend_head = next(line for line in lines if line.startswith("  partial layouts/partials/extend_head.html"))
    assert "loads KaTeX from another host as well" in extend_head and "remove those lines" in extend_head
    (site / "layouts/shortcodes").mkdir()
    (site / "layouts/shortcodes/unused.html").write_text('{{ resources.PostCSS "x" }}\n', encoding="utf-8")
    assert main(["init", "--from-hugo", "--root", str(site), "--force", "--used-only"]) == 0
    out = capsys.readouterr().out
    assert "cannot run (1)" not in out and "unused.html" not in out
    assert "Go templates content uses that blogbuild cannot run: none (1 unused, listed without --used-only)" in out
