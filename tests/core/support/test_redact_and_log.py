"""Secrets and personal paths never reach the log file, and logging needs no console."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from modu_desktop.core.github.types import Secret
from modu_desktop.core.support import logfile
from modu_desktop.core.support.redact import redact

CLASSIC = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
FINE = "github_pat_11ABCDEFG0" + "x" * 60


def test_tokens_credentials_and_home_are_taken_out() -> None:
    home = "/home/kim"
    text = (
        f"token {CLASSIC} and {FINE}\n"
        "Authorization: Bearer sekrit-value-123456\n"
        "https://kim:hunter2@example.com/x\n"
        f"opened {home}/문서/brochure.md and {home.upper()}/x\n"
        "the session-token practice-token\n"
    )
    out = redact(text, secrets=["practice-token"], home=home)
    for gone in (CLASSIC, FINE, "sekrit-value-123456", "hunter2", home, home.upper()):
        assert gone not in out
    assert "practice-token" not in out
    assert "~/문서/brochure.md" in out
    assert redact("/home/kimberly", home=home) == "/home/kimberly"  # another person's folder


def test_windows_home_in_either_slash() -> None:
    home = r"C:\Users\Kim"
    out = redact(r"C:\Users\Kim\AppData\x and c:/users/kim/Desktop", home=home)
    assert out == r"~\AppData\x and ~/Desktop"


@pytest.fixture
def clean_root() -> Iterator[logging.Logger]:
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    yield root
    for h in list(root.handlers):
        if h not in before:
            root.removeHandler(h)
            h.close()
    root.setLevel(level)


@pytest.mark.expect_log("boom")
def test_log_file_rotates_and_hides_the_token(
    tmp_path: Path, clean_root: logging.Logger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(logfile, "MAX_BYTES", 20_000)
    Secret("an-odd-shaped-secret")  # a token the app holds
    path = logfile.start_logging(tmp_path / "logs", console=None)
    assert path == tmp_path / "logs" / logfile.LOG_NAME
    log = logging.getLogger("modu_desktop.test")
    log.info("signed in with %s", CLASSIC)
    log.info("the keyring gave an-odd-shaped-secret")
    try:
        raise RuntimeError(f"failed with {CLASSIC}")
    except RuntimeError:
        log.exception("boom")  # the traceback goes through the redaction too
    for h in clean_root.handlers:
        h.flush()
    text = path.read_text("utf-8")
    assert "signed in with ***" in text and "Traceback" in text
    assert CLASSIC not in text and "an-odd-shaped-secret" not in text
    for _ in range(100):  # > MAX_BYTES: rotates
        log.info("x" * 500)
    names = [p.name for p in logfile.log_files(tmp_path / "logs")]
    assert names[0] == logfile.LOG_NAME and logfile.LOG_NAME + ".1" in names
    assert len(names) <= 1 + logfile.BACKUPS


@pytest.mark.expect_log("lost before")
def test_no_console_no_problem(
    tmp_path: Path, clean_root: logging.Logger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The windowed Windows build: ``sys.stderr`` is None; warnings still reach the file."""
    monkeypatch.setattr("sys.stderr", None)
    path = logfile.start_logging(tmp_path / "logs")
    assert path is not None
    logging.getLogger("modu_desktop.x").warning("lost before, kept now")
    for h in clean_root.handlers:
        h.flush()
    assert "lost before, kept now" in path.read_text("utf-8")
    assert not [
        h
        for h in clean_root.handlers
        if type(h) is logging.StreamHandler and getattr(h, "stream", 0) is None
    ]
