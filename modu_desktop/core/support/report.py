"""The problem report: one zip a non-programmer can attach to an e-mail.

``write_report`` puts in it the recent log files, the self-test's result and a few facts about
this installation (version, system, which repository), every text passed through
:func:`~modu_desktop.core.support.redact.redact` on the way in — also lines an older version
may have written before redaction existed — so the zip holds no token and no home-folder path.
``run_self_test`` runs ``modu-desktop --self-test`` as a separate process (a frozen bundle runs
itself), so a broken check cannot take the window down with it.
"""

from __future__ import annotations

import subprocess
import sys
import time
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from modu_desktop.core.support.logfile import log_files
from modu_desktop.core.support.redact import redact

LOG_TAIL_BYTES = 1024 * 1024  # of each log file, the newest part
SELF_TEST_TIMEOUT_S = 120.0
README = """Modu Desktop problem report / 모두 데스크톱 문제 보고

이 파일을 담당자에게 보내 주세요. 토큰과 개인 폴더 경로는 지웠습니다.
Send this file to the person who helps you. Tokens and personal folder paths are removed.

about.txt      version, system, repository / 버전, 시스템, 저장소
self-test.txt  the self-test's result / 자체 점검 결과
logs/          the app's recent log / 최근 기록
"""


def report_name(now: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"modu-desktop-report-{stamp}.zip"


def _tail(path: Path, limit: int = LOG_TAIL_BYTES) -> str:
    with path.open("rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - limit))
        data = fh.read()
    text = data.decode("utf-8", errors="replace")
    if size > limit:  # start at a whole line
        text = text.split("\n", 1)[-1]
    return text


def write_report(
    folder: Path,
    *,
    log_dir: Path,
    self_test: str,
    about: Mapping[str, str],
    secrets: Iterable[str] = (),
    home: str | Path | None = None,
    now: float | None = None,
) -> Path:
    """Write the report zip into ``folder`` (created if needed) and return its path."""
    hidden = [s for s in secrets if s]

    def clean(text: str) -> str:
        return redact(text, secrets=hidden, home=home)

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / report_name(now)
    tmp = target.with_suffix(".part")
    about_text = "".join(f"{k}: {v}\n" for k, v in about.items())
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("README.txt", README)
        z.writestr("about.txt", clean(about_text))
        z.writestr("self-test.txt", clean(self_test))
        for path in log_files(log_dir):
            try:
                z.writestr(f"logs/{path.name}", clean(_tail(path)))
            except OSError as exc:
                z.writestr(f"logs/{path.name}.unreadable", f"{type(exc).__name__}\n")
    tmp.replace(target)
    return target


def self_test_command(lang: str | None = None) -> list[str]:
    """The command that runs this installation's self-test."""
    frozen = bool(getattr(sys, "frozen", False))
    cmd = [sys.executable, "--self-test"] if frozen else [sys.executable, "-m", "modu_desktop"]
    if not frozen:
        cmd.append("--self-test")
    if lang:
        cmd += ["--lang", lang]
    return cmd


def run_self_test(lang: str | None = None, *, timeout: float = SELF_TEST_TIMEOUT_S) -> str:
    """The self-test's lines (run in a separate process; blocking: call it from a thread)."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory(prefix="modu-report-") as tmp:
        out = Path(tmp) / "self-test.txt"
        env = dict(os.environ, PYTHONIOENCODING="utf-8")
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console flashing up on Windows
        try:
            done = subprocess.run(
                [*self_test_command(lang), "--report", str(out)],
                capture_output=True,
                timeout=timeout,
                env=env,
                creationflags=flags,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"self-test could not run: {type(exc).__name__}: {exc}\n"
        if out.is_file():
            text = out.read_text("utf-8", errors="replace")
        else:
            text = done.stdout.decode("utf-8", errors="replace")
        if done.returncode != 0 and done.stderr:
            text += "\n--- stderr ---\n" + done.stderr.decode("utf-8", errors="replace")[-4000:]
        return text
