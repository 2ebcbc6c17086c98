"""Single instance: the second process forwards "open DOC" to the first over a QLocalSocket."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtNetwork import QLocalSocket

from modu_desktop.ui.recovery import single_instance
from modu_desktop.ui.recovery.single_instance import SingleInstance, bring_to_front, forward_request

ROOT = Path(__file__).resolve().parents[3]

SECOND = """
import sys
from PySide6.QtCore import QCoreApplication
app = QCoreApplication([])
from modu_desktop.ui.recovery.single_instance import SingleInstance
s = SingleInstance(sys.argv[1])
if s.acquire():
    sys.exit(4)
sys.exit(0 if s.forward("open", doc_id=sys.argv[2]) else 3)
"""


@pytest.fixture
def first(tmp_path: Path) -> Iterator[SingleInstance]:
    inst = SingleInstance(tmp_path / "data")
    assert inst.acquire()
    assert inst.listen()
    yield inst
    inst.close()


def _run_second(qtbot: Any, data: Path, doc: str) -> int:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-c", SECOND, str(data), doc],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=20000)
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=5)
    assert proc.returncode is not None
    if proc.returncode != 0:
        print(err.decode(errors="replace"))
    return proc.returncode


def test_second_instance_forwards_open(first: SingleInstance, qtbot: Any, tmp_path: Path) -> None:
    got: list[str] = []
    first.openRequested.connect(got.append)
    assert _run_second(qtbot, tmp_path / "data", "bootcamp/한글 문서") == 0
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    assert got == ["bootcamp/한글 문서"]
    log = (tmp_path / "data" / "instance.log").read_text("utf-8")
    assert "open bootcamp/한글 문서" in log


def test_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    a = SingleInstance(tmp_path / "d")
    b = SingleInstance(tmp_path / "d")
    other = SingleInstance(tmp_path / "elsewhere")
    try:
        assert a.acquire()
        assert not b.acquire()
        assert other.acquire()  # another data dir is another instance
        assert a.name != other.name
        a.close()
        assert b.acquire()
    finally:
        for x in (a, b, other):
            x.close()


def test_garbage_is_ignored_and_activate(first: SingleInstance, qtbot: Any, tmp_path: Path) -> None:
    activated: list[bool] = []
    first.activateRequested.connect(lambda: activated.append(True))
    sock = QLocalSocket()
    sock.connectToServer(first.name)
    qtbot.waitUntil(lambda: sock.state() == QLocalSocket.LocalSocketState.ConnectedState)
    sock.write(b"\xff\xfenot json\n")
    sock.flush()
    log = tmp_path / "data" / "instance.log"
    qtbot.waitUntil(lambda: log.exists() and "malformed" in log.read_text("utf-8"), timeout=5000)
    sock.abort()
    first.handle({"action": "activate"})
    first.handle({"action": "open", "doc_id": ""})
    first.handle({"action": "format-disk"})
    assert activated == [True, True]
    assert "ignored action 'format-disk'" in log.read_text("utf-8")


@pytest.mark.expect_log("modu_desktop.ui.recovery.single_instance")
def test_forward_without_server_gives_up_at_its_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Clock:
        """The module's ``time``: a sleep moves it, nothing else does."""

        now = 0.0

        def monotonic(self) -> float:
            return self.now

        def sleep(self, seconds: float) -> None:
            self.now += seconds

    clock = Clock()
    monkeypatch.setattr(single_instance, "time", clock)
    assert not forward_request(
        "modu-desktop-nobody-listens", b'{"action":"open"}\n', timeout_ms=300
    )
    assert clock.now == pytest.approx(0.3)  # retried until its 300 ms were up, then gave up


def test_bring_to_front(qtbot: Any) -> None:
    from PySide6.QtWidgets import QWidget

    w = QWidget()
    qtbot.addWidget(w)
    w.showMinimized()
    bring_to_front(w)
    assert w.isVisible() and not w.isMinimized()
