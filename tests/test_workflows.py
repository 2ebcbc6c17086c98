"""The GitHub Actions workflows are valid (SchemaStore's workflow schema, vendored by
check-jsonschema, so no network) and CI covers our users' platforms with the README's commands."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _check(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    return subprocess.run(
        [exe, "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_workflow_matches_the_github_workflow_schema() -> None:
    assert WORKFLOWS, "no workflow found"
    done = _check(WORKFLOWS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("name: bad\non: push\njobs:\n  test:\n    steps: []\n", "utf-8")  # no runs-on
    assert _check([bad]).returncode != 0


def test_ci_runs_lint_types_and_the_readme_test_command_on_three_platforms() -> None:
    yaml = pytest.importorskip("ruamel.yaml")
    ci = yaml.YAML(typ="safe").load((ROOT / ".github/workflows/ci.yml").read_text("utf-8"))
    job = ci["jobs"]["test"]
    assert set(job["strategy"]["matrix"]["os"]) == {
        "ubuntu-latest",
        "windows-latest",
        "macos-latest",
    }
    runs = "\n".join(step.get("run", "") for step in job["steps"])
    for command in (
        "uv run ruff check .",
        "uv run ruff format --check .",
        "uv run mypy",
        "uv run vulture",
        "uv run pytest",
    ):
        assert command in runs
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "uv run pytest" in readme
    ci_run = (ROOT / ".ci" / "run").read_text("utf-8")
    assert ci_run.rstrip().endswith("uv run pytest")
    assert "uv run mypy\n" in ci_run
    assert "uv run vulture\n" in ci_run
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert {"modu_desktop", "bench", "tests"} <= set(mypy["files"])


def test_system_packages_are_one_list_that_readme_ci_and_workflow_install() -> None:
    listed = [
        line.strip()
        for line in (ROOT / ".ci" / "apt-packages.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(listed) == len(set(listed))
    # what the tests call on Linux: pdftotext (the PDF text test), Xvfb, xdotool and openbox
    # (real windows), a Korean font, the library Qt's xcb platform plugin refuses to start without
    assert {"poppler-utils", "xvfb", "xdotool", "openbox", "fonts-nanum", "libxcb-cursor0"} <= set(
        listed
    )
    readme = (ROOT / "README.md").read_text("utf-8")
    ci_run = (ROOT / ".ci" / "run").read_text("utf-8")
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text("utf-8")
    for text in (readme, ci_run, workflow):
        assert ".ci/apt-packages.txt" in text
        installs = re.findall(r"apt-get install[^\n]*", text)
        assert installs and not any(name in line for line in installs for name in listed)
