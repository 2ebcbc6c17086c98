"""The admin CLI, in-process against the sandbox (and once as a real subprocess)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from modu_desktop.cli import main
from modu_desktop.core.locks.wire import lock_path
from tests.helpers.cli import cli_args, lock_as

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_docs_list_text_and_json(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    lock_as(sb, "editor2", "02-programs")
    assert main(cli_args(sb, "docs", "list")) == 0
    out = capsys.readouterr().out
    assert "01-welcome" in out and "@editor2 (held)" in out and "document(s)" in out
    assert main(cli_args(sb, "docs", "list", "--json")) == 0
    docs = json.loads(capsys.readouterr().out)
    ids = [d["docId"] for d in docs]
    assert ids[0] == "01-welcome" and "99-template" in ids
    locked = {d["docId"]: d["lockedBy"] for d in docs if d["lockedBy"]}
    assert locked == {"02-programs": "editor2"}


def test_locks_list(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "locks", "list", "--json")) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(cli_args(sb, "locks", "list")) == 0
    assert "No locks" in capsys.readouterr().out

    lock_as(sb, "editor2", "01-welcome")
    lock_as(
        sb,
        "editor2",
        "02-programs",
        body=b'{"docId": "02-programs", "editingBy": "x", '
        b'"startedAt": 1779179716000, "lastHeartbeat": 1779179716000}',
    )
    assert main(cli_args(sb, "locks", "list", "--json")) == 0
    rows = {r["docId"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["01-welcome"]["holder"] == "editor2"
    assert rows["01-welcome"]["stale"] is False and rows["01-welcome"]["malformed"] is False
    assert rows["01-welcome"]["ageSeconds"] < 60
    assert rows["02-programs"]["holder"] == "unknown" and rows["02-programs"]["malformed"]
    assert "milliseconds" in rows["02-programs"]["malformedReason"]

    assert main(cli_args(sb, "locks", "list")) == 0
    out = capsys.readouterr().out
    assert "HOLDER" in out and "LAST HEARTBEAT" in out
    assert "fresh" in out and "malformed: " in out and "(names @x)" in out

    sb.faults.clock_offset_seconds = 1000
    assert main(cli_args(sb, "locks", "list", "--json")) == 0
    rows = {r["docId"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["01-welcome"]["stale"] is True and rows["01-welcome"]["status"] == "stale"


def test_locks_release(cli_env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    sb = cli_env
    assert main(cli_args(sb, "locks", "release", "01-welcome")) == 0
    assert "not locked" in capsys.readouterr().out

    lock_as(sb, "editor2", "01-welcome")
    assert main(cli_args(sb, "locks", "release", "01-welcome")) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "@editor2" in err and "--force" in err
    assert sb.read_file(lock_path("01-welcome")) is not None

    assert main(cli_args(sb, "locks", "release", "01-welcome", "--force")) == 0
    assert "Released the lock on “01-welcome” that @editor2 held." in capsys.readouterr().out
    assert sb.read_file(lock_path("01-welcome")) is None
    assert sb.commits(lock_path("01-welcome"))[0]["message"] == (
        "system: release lock for 01-welcome [skip ci]"
    )

    # stale and unreadable locks need no --force
    lock_as(sb, "editor2", "02-programs")
    lock_as(sb, "editor2", "03-strategy", body=b"{garbage")
    assert main(cli_args(sb, "locks", "release", "03-strategy")) == 0
    sb.faults.clock_offset_seconds = 905
    assert main(cli_args(sb, "locks", "release", "02-programs")) == 0
    assert sb.read_file(lock_path("02-programs")) is None


def test_locks_release_speaks_korean_and_gives_its_code(
    cli_env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lock manager's result is a code and its fields: the CLI words it in ``--lang`` and
    gives the code in ``--json`` (the sentence in both languages beside it)."""
    sb = cli_env
    lock_as(sb, "editor2", "01-welcome")
    assert main(["--lang", "ko", *cli_args(sb, "locks", "release", "01-welcome")]) == 1
    err = capsys.readouterr().err
    assert "editor2 님이 “01-welcome” 문서를" in err and "--force를 붙이세요" in err
    argv = cli_args(sb, "locks", "release", "01-welcome", "--force", "--json")
    assert main(["--lang", "ko", *argv]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["outcome"] == "released" and out["code"] == "released_from"
    assert out["message"] == "Released the lock on “01-welcome” that @editor2 held."
    assert out["messageKo"] == "editor2 님이 가지고 있던 “01-welcome” 편집 권한을 해제했습니다."
    assert main(["--lang", "ko", *cli_args(sb, "locks", "release", "01-welcome")]) == 0
    assert capsys.readouterr().out == "지금 “01-welcome” 문서를 편집하는 사람이 없습니다.\n"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["locks"],
        ["locks", "frobnicate"],
        ["locks", "release"],
        ["locks", "release", "../etc/passwd"],
        ["locks", "release", "a\\b"],
        ["images"],
        ["docs", "list", "--bogus"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["locks", "--help"]) == 0
    assert "release" in capsys.readouterr().out


@pytest.mark.usefixtures("no_keyring")
def test_failures_are_one_line_without_token(
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    assert main(cli_args(sandbox, "locks", "list")) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: no GitHub token") and err.count("\n") == 1

    monkeypatch.setenv("MODU_TOKEN", "ghp_secret-wrong-token")
    assert main(cli_args(sandbox, "locks", "list")) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert "ghp_secret" not in captured.err + captured.out

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    assert main(["locks", "list", "--api-url", f"http://127.0.0.1:{port}"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reach" in err.lower()

    assert main(cli_args(sandbox, "locks", "list", "--repo", "nonsense")) == 1
    assert "OWNER/NAME" in capsys.readouterr().err

    assert main(cli_args(sandbox, "locks", "list", "--branch", "no-such-branch")) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_token_from_keyring(
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    memory_keyring: dict[tuple[str, str], str],
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("MODU_TOKEN", raising=False)
    monkeypatch.setenv("MODU_DATA_DIR", str(tmp_path))
    host = sandbox.api_url.split("://", 1)[1]
    memory_keyring[("modu-desktop", host)] = "tok-editor1"
    assert main(cli_args(sandbox, "locks", "list", "--json")) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_cli_as_a_subprocess(sandbox: Any, tmp_path: Path) -> None:
    lock_as(sandbox, "editor2", "01-welcome")
    env = dict(os.environ, MODU_TOKEN="tok-editor1", MODU_DATA_DIR=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "modu_desktop", "locks", "list", "--json",
         "--api-url", sandbox.api_url],
        capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [(r["docId"], r["holder"]) for r in rows] == [("01-welcome", "editor2")]

    proc = subprocess.run(
        [sys.executable, "-m", "modu_desktop", "locks", "release", "01-welcome",
         "--api-url", sandbox.api_url],
        capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: @editor2 is editing “01-welcome” since ")
    assert "The lock is fresh: use --force" in proc.stderr
    assert "Traceback" not in proc.stderr and "tok-editor1" not in proc.stderr


def test_data_dir_flag_and_lock_blobs_from_the_disk_cache(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sb = sandbox
    monkeypatch.setenv("MODU_TOKEN", "tok-editor1")
    monkeypatch.delenv("MODU_DATA_DIR", raising=False)
    data = tmp_path / "flag-data"
    lock_as(sb, "editor2", "02-programs")
    assert main(cli_args(sb, "docs", "list", "--json", "--data-dir", str(data))) == 0
    capsys.readouterr()
    assert "MODU_DATA_DIR" not in os.environ  # the flag does not leak past the command
    blobs = data / "cache" / "blobs"
    assert blobs.is_dir() and any(blobs.rglob("*"))
    sb.reset_stats()
    assert main(cli_args(sb, "docs", "list", "--json", "--data-dir", str(data))) == 0
    docs = json.loads(capsys.readouterr().out)
    assert {d["docId"]: d["lockedBy"] for d in docs if d["lockedBy"]} == {"02-programs": "editor2"}
    blob_reads = sb.stats()["by_route"].get("GET /repos/{owner}/{repo}/git/blobs/{file_sha}", 0)
    assert blob_reads == 0  # documents and the lock both came from the disk cache
