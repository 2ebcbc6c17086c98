"""`modu-desktop --self-test` as a real process: the same command the release bundles run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from modu_desktop import selftest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^(ok  |warn|FAIL) (?P<name>[\w-]+): (?P<detail>.*)$")


def _clean_env() -> dict[str, str]:
    """No display and no QT_QPA_PLATFORM: the self-test must choose offscreen by itself."""
    env = dict(os.environ)
    for key in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "MODU_TOKEN"):
        env.pop(key, None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _run(*args: str, timeout: float = 100) -> subprocess.CompletedProcess[str]:
    """The self-test in a fresh process (``timeout`` only guards against a hang: the self-test
    has its own watchdog, ``--timeout``, and prints how long it took)."""
    return subprocess.run(
        [sys.executable, "-m", "modu_desktop", "--self-test", "--lang", "en", *args],
        cwd=ROOT,
        env=_clean_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )


def _check_lines(output: str) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for line in output.splitlines():
        m = LINE.match(line)
        if m:
            found[m.group("name")] = (m.group(1).strip(), m.group("detail"))
    return found


def test_self_test_passes_with_one_line_per_check(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    proc = _run("--report", str(report))
    out = proc.stdout
    assert proc.returncode == 0, f"self-test failed:\n{out}\n{proc.stderr}"
    lines = _check_lines(out)
    assert list(lines) == list(selftest.CHECK_NAMES), out
    for name, (status, detail) in lines.items():
        assert status in ("ok", "warn"), f"{name}: {status} {detail}"
    # The headline checks say what they proved.
    assert "offscreen window painted" in lines["qt"][1]
    assert "svg" in lines["qt"][1] and "webp" in lines["qt"][1]
    assert "http://127.0.0.1:" in lines["sandbox"][1]
    assert "documents listed through the core" in lines["documents"][1]
    assert re.search(r"acquired and released \.locks/\S+\.lock\.json", lines["lock"][1])
    assert "Windows and macOS backends importable" in lines["keyring"][1]
    assert "active backend keyring.backends." in lines["keyring"][1]
    assert "source tree" in lines["resources"][1]
    assert re.search(r"self-test passed: \d+ ok", out)
    # The report file carries the same lines (what CI reads from the windowed Windows bundle).
    assert report.read_text(encoding="utf-8").splitlines() == out.splitlines()


def test_self_test_reports_a_broken_installation(tmp_path: Path) -> None:
    """A CA bundle path that does not exist breaks httpx: the self-test must say FAIL and exit 1."""
    env_bad = {"SSL_CERT_FILE": str(tmp_path / "missing-ca.pem")}
    proc = subprocess.run(
        [sys.executable, "-m", "modu_desktop", "--self-test", "--lang", "en"],
        cwd=ROOT,
        env={**_clean_env(), **env_bad},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=100,
    )
    lines = _check_lines(proc.stdout)
    assert proc.returncode == 1, proc.stdout
    assert any(status == "FAIL" for status, _ in lines.values()), proc.stdout
    assert "self-test FAILED" in proc.stdout
    assert lines["qt"][0] == "ok"  # unrelated checks still run and pass


def test_exit_code_and_line_format(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """In-process, with stand-in checks: ok/warn pass, one FAIL makes the exit code 1."""

    def good(state: dict[str, Any]) -> str:
        return "fine"

    def meh(state: dict[str, Any]) -> str:
        raise selftest.CheckWarning("looks odd")

    def bad(state: dict[str, Any]) -> str:
        raise OSError("disk on fire")

    report = tmp_path / "r.txt"
    monkeypatch.setattr(selftest, "CHECKS", (("alpha", good), ("beta", meh)))
    assert selftest.main(["--report", str(report), "--lang", "en"]) == 0
    text = report.read_text(encoding="utf-8")
    assert "ok   alpha: fine" in text and "warn beta: looks odd" in text
    assert "self-test passed: 1 ok, 1 warnings, 0 failed" in text

    monkeypatch.setattr(selftest, "CHECKS", (("alpha", good), ("gamma", bad)))
    assert selftest.main(["--report", str(report), "--lang", "en"]) == 1
    text = report.read_text(encoding="utf-8")
    assert "FAIL gamma: OSError: disk on fire" in text
    assert "self-test FAILED" in text and "(gamma)" in text


def test_speaks_the_interface_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Korean when asked, or when the app's settings say so; the check names stay."""

    def good(state: dict[str, Any]) -> str:
        return "fine"

    def bad(state: dict[str, Any]) -> str:
        raise OSError("disk on fire")

    report = tmp_path / "r.txt"
    monkeypatch.setattr(selftest, "CHECKS", (("alpha", good), ("gamma", bad)))
    assert selftest.main(["--report", str(report), "--lang", "ko"]) == 1
    text = report.read_text(encoding="utf-8")
    assert "모두 데스크톱" in text.splitlines()[0] and "자체 점검" in text.splitlines()[0]
    assert "정상 alpha: fine" in text and "실패 gamma: OSError: disk on fire" in text
    assert "자체 점검 실패: 정상 1개, 경고 0개, 실패 1개" in text
    # no --lang: the language chosen in the app (its settings in --data-dir)
    data = tmp_path / "data"
    (data / "config").mkdir(parents=True)
    (data / "config" / "settings.json").write_text('{"language": "ko"}', "utf-8")
    monkeypatch.setattr(selftest, "CHECKS", (("alpha", good),))
    assert selftest.main(["--report", str(report), "--data-dir", str(data)]) == 0
    assert "자체 점검 통과: 정상 1개" in report.read_text(encoding="utf-8")


def test_resources_dir_prefers_the_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "resources").mkdir()
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert selftest.resources_dir() == tmp_path / "resources"
    monkeypatch.delattr(sys, "_MEIPASS")
    assert selftest.resources_dir() == ROOT / "resources"
