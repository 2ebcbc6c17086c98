"""What every admin command shares: the connection flags, the token, the context, failures
and the lock manager of a CLI session."""

from __future__ import annotations

import argparse
import os
import tempfile
import unicodedata
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.locks.manager import LockManager
from modu_desktop.core.locks.wire import InvalidDocId, validate_doc_id
from modu_desktop.core.workspace import Workspace
from modu_desktop.core.workspace import lock_manager as workspace_lock_manager

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_REPO = "pnuai/PNU-Modu"
DEFAULT_BRANCH = "main"

Runner = Callable[[argparse.Namespace, "Context"], Awaitable[int]]


class CliFailure(Exception):
    """A failure to report as one line with exit status 1."""


class Parser(argparse.ArgumentParser):
    """argparse that exits 2 on usage errors (the default) and never prints a traceback."""


# --------------------------------------------------------------------------------------------
# Parsers


def conn_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    g = p.add_argument_group("connection")
    g.add_argument("--api-url", default=DEFAULT_API_URL, help=f"API base URL ({DEFAULT_API_URL})")
    g.add_argument("--repo", default=DEFAULT_REPO, help=f"OWNER/NAME ({DEFAULT_REPO})")
    g.add_argument("--branch", default=DEFAULT_BRANCH, help=f"branch ({DEFAULT_BRANCH})")
    g.add_argument(
        "--data-dir", help="the app's data folder (as the app's --data-dir; else MODU_DATA_DIR)"
    )
    # Also after the command (``docs list --lang ko``); before it, the top-level one is used.
    g.add_argument(
        "--lang", choices=("en", "ko"), default=argparse.SUPPRESS, help="language of the messages"
    )
    return p


@contextmanager
def blob_cache() -> Iterator[str]:
    """The app's blob cache (a command after the app listed the pages reads nothing twice), or
    a folder for this command when there is none."""
    from modu_desktop.core.account.paths import app_paths

    try:
        folder = str(app_paths().ensure().blob_cache_dir)
    except OSError:
        folder = ""
    if folder:
        yield folder  # outside the try: an OSError of the command itself is not ours to catch
        return
    with tempfile.TemporaryDirectory(prefix="modu-cli-") as tmp:
        yield tmp


@contextmanager
def data_dir(folder: str | None) -> Iterator[None]:
    """``--data-dir``: app_paths() reads the override from the environment, so it is set for
    the command and put back afterwards."""
    from modu_desktop.core.account.paths import DATA_DIR_ENV

    before = os.environ.get(DATA_DIR_ENV)
    if folder:
        os.environ[DATA_DIR_ENV] = folder
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DATA_DIR_ENV, None)
        else:
            os.environ[DATA_DIR_ENV] = before


def doc_id_arg(text: str) -> str:
    try:
        return validate_doc_id(text)
    except InvalidDocId as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


@dataclass
class Context:
    client: GitHubClient
    token: str
    out: TextIO

    @property
    def where(self) -> str:
        repo = self.client.repo
        return f"{repo.owner}/{repo.name}@{repo.branch}"

    async def login(self) -> str:
        user = await self.client.get_user()
        return str(user.login)


def load_token(api_url: str) -> str:
    from modu_desktop.core.account.auth import TokenStore
    from modu_desktop.core.account.settings import keyring_account

    store = TokenStore(keyring_account(api_url))
    token = store.load()
    if not token:
        extra = f" (keyring: {store.keyring_error})" if store.keyring_error else ""
        raise CliFailure(
            "no GitHub token: set MODU_TOKEN, or sign in once with the app so the token is in "
            f"the keyring (service modu-desktop, account {store.account}){extra}"
        )
    return token


CLIENT_NAME = "ModuDesktopCLI"


def _session_id() -> str:
    from modu_desktop.core.account.session import new_session_id

    return f"cli-{new_session_id()}"


def _install_id() -> str:
    from modu_desktop.core.account.paths import app_paths
    from modu_desktop.core.account.session import install_id

    return install_id(app_paths().data_dir)  # random, never the machine name


def lock_manager(ctx: Context, login: str, client: GitHubClient | None = None) -> LockManager:
    """The lock manager of one command; ``client`` may read blobs through a cache."""
    return workspace_lock_manager(
        client if client is not None else ctx.client,
        login,
        _session_id(),
        client_name=CLIENT_NAME,
        install_id=_install_id(),
    )


def workspace(ctx: Context, login: str, cache_dir: str | Path) -> Workspace:
    """The core for one command: store and locks (no drafts, queue or records on the CLI)."""
    return Workspace.build(
        ctx.client,
        login,
        _session_id(),
        cache_dir=cache_dir,
        client_name=CLIENT_NAME,
        install_id=_install_id(),
    )


def width(text: str) -> int:
    """Terminal columns: Hangul and other East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(rows: Sequence[Sequence[str]], out: TextIO) -> None:
    if not rows:
        return
    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        cells = [c + " " * (w - width(c)) for c, w in zip(r, widths, strict=True)]
        out.write("  ".join(cells).rstrip() + "\n")
