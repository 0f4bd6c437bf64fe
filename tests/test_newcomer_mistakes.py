"""The mistakes a newcomer makes, each through the real command line: the message, its file:line, the fix it
suggests, the exit code, printed once; and the fix, applied as the message says, removes the message."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.files import write_files

GOOD = "---\ntitle: Good\ndate: 2024-01-01T10:00:00+08:00\n---\n## Setup\n\nGood words.\n"


@dataclass(frozen=True)
class Mistake:
    name: str
    files: dict[str, str]                 # the site as the newcomer wrote it
    command: tuple[str, ...]              # blogbuild's arguments
    exit: int                             # its exit code
    message: str                          # the one line that names the mistake (starts so)
    fix_words: str                        # what the message tells the writer to do (a part of that line)
    fixed: dict[str, str] = field(default_factory=dict)   # the files after applying that fix
    fixed_command: tuple[str, ...] = ()   # the command after the fix (default: the same)


def _site(extra: dict[str, str]) -> dict[str, str]:
    return {"blogbuild.yaml": "title: Newcomer\nlanguage_code: en\n", "content/posts/good.md": GOOD, **extra}


def _post(front: str, body: str = "Words.\n") -> str:
    return f"---\n{front}\n---\n{body}"


MISTAKES = [
    Mistake("future post", _site({"content/posts/later.md": _post("title: Later\ndate: 2099-01-01")}),
            ("build",), 0, "1 future post not published", "`--future` to include it",
            fixed_command=("build", "--future")),
    Mistake("broken link", _site({"content/posts/a.md": _post("title: A", "Intro.\n\nSee [setup](/posts/setup/).\n")}),
            ("build",), 0, "content/posts/a.md:6: warning: link '/posts/setup/' does not exist in the built site",
            "link to the page's file (other.md)",
            fixed={"content/posts/a.md": _post("title: A", "Intro.\n\nSee [setup](good.md).\n")}),
    Mistake("broken anchor", _site({"content/posts/a.md": _post("title: A", "Intro.\n\n[up](#no-such-heading)\n")}),
            ("build",), 0, "content/posts/a.md:6: warning: link '#no-such-heading' has no element with id",
            "check the heading's id",
            fixed={"content/posts/a.md": _post("title: A", "## No such heading\n\n[up](#no-such-heading)\n")}),
    Mistake("broken link under --strict", _site({"content/posts/a.md": _post("title: A", "[s](/posts/setup/)\n")}),
            ("build", "--strict"), 1, "content/posts/a.md:4: strict: link '/posts/setup/' does not exist",
            "link to the page's file (other.md)",
            fixed={"content/posts/a.md": _post("title: A", "[s](good.md)\n")}),
    Mistake("comma tags", _site({"content/posts/a.md": _post('title: A\ntags: "k8s, ops"')}),
            ("build",), 0, "content/posts/a.md:3: warning: tags is one text with commas: read as 2 terms",
            'write tags: ["k8s", "ops"]', fixed={"content/posts/a.md": _post('title: A\ntags: ["k8s", "ops"]')}),
    Mistake("unclosed fence", _site({"content/posts/a.md": _post("title: A", "```python\nx = 1\n")}),
            ("check",), 1, "content/posts/a.md:4: warning: code fence '```' is never closed", "add a closing '```'",
            fixed={"content/posts/a.md": _post("title: A", "```python\nx = 1\n```\n")}),
    Mistake("unclosed quote", _site({"content/posts/a.md": _post('title: "Unclosed')}),
            ("build",), 1, "content/posts/a.md:2: front matter: invalid YAML", "a quote opened on this line is never "
            "closed; add the closing quote", fixed={"content/posts/a.md": _post('title: "Unclosed"')}),
    Mistake("unclosed list", _site({"content/posts/a.md": _post("title: A\ntags: [a, b")}),
            ("build",), 1, "content/posts/a.md:3: front matter: invalid YAML", "a '[' opened on this line is never "
            "closed; add ']'", fixed={"content/posts/a.md": _post("title: A\ntags: [a, b]")}),
    Mistake("tab in YAML", _site({"content/posts/a.md": _post("title: A\n\tdate: 2024-01-01")}),
            ("build",), 1, "content/posts/a.md:3: front matter: invalid YAML", "remove the tab",
            fixed={"content/posts/a.md": _post("title: A\ndate: 2024-01-01")}),
    Mistake("colon in a value", _site({"content/posts/a.md": _post("title: Kubernetes: a primer")}),
            ("build",), 1, "content/posts/a.md:2: front matter: invalid YAML", "put the value in quotes",
            fixed={"content/posts/a.md": _post('title: "Kubernetes: a primer"')}),
    Mistake("wrong flag", _site({}), ("build", "--draft"), 2, "blogbuild build: error: unrecognized arguments: "
            "--draft", "did you mean --drafts?", fixed_command=("build", "--drafts")),
    Mistake("not a site folder", {"notes.txt": "not a site\n"}, ("build",), 1, "Error: ",
            "run `blogbuild init` to make a site here", fixed_command=("init",)),
]


def _run(site: Path, command: tuple[str, ...]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "blogbuild", *command, *(("--root", str(site)) if command[0] in
                           ("build", "check") else ())], cwd=site, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("mistake", MISTAKES, ids=[mistake.name for mistake in MISTAKES])
def test_a_newcomer_mistake_is_named_once_with_its_fix(mistake: Mistake, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    write_files(site, mistake.files)
    completed = _run(site, mistake.command)
    output = completed.stdout + completed.stderr
    assert "Traceback" not in output
    assert completed.returncode == mistake.exit, output
    named = [line for line in output.splitlines() if line.startswith(mistake.message)]
    assert len(named) == 1, output             # printed once
    assert mistake.fix_words in named[0], named[0]
    # The fix, applied as the line says, removes the line.
    write_files(site, mistake.fixed)
    again = _run(site, mistake.fixed_command or mistake.command)
    after = again.stdout + again.stderr
    assert again.returncode == 0, after
    assert not any(line.startswith(mistake.message) for line in after.splitlines()), after
