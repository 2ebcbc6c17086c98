"""The problem report zip: logs, self-test, facts — no token, no home-folder path."""

from __future__ import annotations

import logging
import zipfile
from pathlib import Path

from modu_desktop.core.support import logfile
from modu_desktop.core.support.report import self_test_command, write_report

TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def test_report_has_logs_self_test_and_version_but_no_secret(tmp_path: Path) -> None:
    home = tmp_path / "home" / "kim"
    logs = tmp_path / "logs"
    logs.mkdir()
    # Planted as an older version (or a careless handler) might have written it: raw.
    (logs / logfile.LOG_NAME).write_text(
        f"2026-01-01 INFO x: GET /user with Authorization: token {TOKEN}\n"
        f"2026-01-01 INFO x: draft kept in {home}/AppData/modu-desktop/drafts\n"
        f"2026-01-01 INFO x: a token in the open: {TOKEN}\n"
        "2026-01-01 INFO x: the keyring's own-shaped-secret-42\n",
        "utf-8",
    )
    (logs / (logfile.LOG_NAME + ".1")).write_text(f"older {TOKEN}\n", "utf-8")
    out = write_report(
        tmp_path / "reports",
        log_dir=logs,
        self_test=f"ok   qt: painted\nok   resources: source tree {home}/modu\n",
        about={"version": "0.1.0", "data folder": str(home / "data")},
        secrets=["own-shaped-secret-42"],
        home=home,
    )
    assert out.parent == tmp_path / "reports" and out.suffix == ".zip"
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        blob = "\n".join(z.read(n).decode("utf-8") for n in names)
    assert {"README.txt", "about.txt", "self-test.txt"} <= names
    assert {f"logs/{logfile.LOG_NAME}", f"logs/{logfile.LOG_NAME}.1"} <= names
    assert "version: 0.1.0" in blob and "ok   qt: painted" in blob
    assert TOKEN not in blob and "own-shaped-secret-42" not in blob
    assert str(home) not in blob and "~/AppData/modu-desktop/drafts" in blob
    assert not list((tmp_path / "reports").glob("*.part"))


def test_self_test_command_runs_this_installation() -> None:
    cmd = self_test_command("ko")
    assert cmd[-3:] == ["--self-test", "--lang", "ko"]
    assert cmd[1:3] == ["-m", "modu_desktop"]


def test_log_file_feeds_the_report(tmp_path: Path) -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        logfile.start_logging(tmp_path / "logs", console=None)
        logging.getLogger("modu_desktop.t").info("opened with %s", TOKEN)
        for h in root.handlers:
            h.flush()
    finally:
        for h in list(root.handlers):
            if h not in before:
                root.removeHandler(h)
                h.close()
    out = write_report(tmp_path, log_dir=tmp_path / "logs", self_test="", about={})
    with zipfile.ZipFile(out) as z:
        text = z.read(f"logs/{logfile.LOG_NAME}").decode()
    assert "opened with ***" in text
