"""Filling a new sandbox repository: the sample brochure, nothing, or an existing folder."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from dulwich.object_store import iter_tree_contents
from dulwich.objects import Commit
from dulwich.repo import Repo

from modu_desktop.sandbox.repo.gitstore import EXEC_MODE, FILE_MODE, GitStore, Signature

SAMPLE_DIR = Path(__file__).resolve().parent / "seed_data"
SEED_AUTHOR = ("Modu Sandbox", "sandbox@modu-desktop.invalid")
# Never imported from a checkout: git internals and bulky build/tool output.
SKIP_DIRS = {".git", "node_modules", ".docusaurus", "__pycache__", ".venv"}


def collect_files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Regular files under root (symlinks skipped so nothing outside root can leak in)."""
    files: dict[str, tuple[bytes, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for filename in sorted(filenames):
            full = Path(dirpath) / filename
            info = full.lstat()
            if not stat.S_ISREG(info.st_mode):
                continue
            mode = EXEC_MODE if info.st_mode & stat.S_IXUSR else FILE_MODE
            rel = full.relative_to(root).as_posix()
            files[rel] = (full.read_bytes(), mode)
    return files


def is_bare_repository(root: Path) -> bool:
    return (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir()


def files_from_bare(root: Path) -> dict[str, tuple[bytes, int]]:
    """The files of HEAD's commit in a bare repository (it has no working files to copy)."""
    repo = Repo(str(root))
    try:
        commit = repo[repo.head()]
        assert isinstance(commit, Commit)
        files: dict[str, tuple[bytes, int]] = {}
        for entry in iter_tree_contents(repo.object_store, commit.tree):
            if entry.mode in (FILE_MODE, EXEC_MODE) and entry.path and entry.sha:
                blob = repo.object_store[entry.sha]
                files[entry.path.decode("utf-8", "surrogateescape")] = (
                    blob.as_raw_string(),
                    entry.mode,
                )
        return files
    finally:
        repo.close()


def seed_files(seed: str | Path) -> dict[str, tuple[bytes, int]]:
    if isinstance(seed, str) and seed == "empty":
        return {}
    if isinstance(seed, str) and seed == "sample":
        return collect_files(SAMPLE_DIR)
    root = Path(seed)
    if not root.is_dir():
        raise FileNotFoundError(f"seed folder not found: {root}")
    if is_bare_repository(root):
        return files_from_bare(root)
    return collect_files(root)


def seed_repository(store: GitStore, branch: str, seed: str | Path) -> None:
    files = seed_files(seed)
    if not files:
        return
    label = "practice brochure" if seed == "sample" else f"files from {Path(seed).name}"
    author = Signature(*SEED_AUTHOR, int(time.time()), 0)
    with store.lock:
        store.commit_files(branch, files, f"chore: seed {label}", author)
