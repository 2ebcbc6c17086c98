"""Guards against a toolchain regression that kills long editing sessions.

PySide6/shiboken6 6.12.0 on CPython 3.11 handed back None/True from void methods and signal emits
without taking a reference; after a few thousand calls the interpreter aborted with
"Fatal Python error: none_dealloc". pyproject.toml excludes that release; this test fails if a
locked Qt build has the bug again. It runs in a subprocess because the failure is an abort.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication([])

    class Emitter(QObject):
        changed = Signal(int)

    emitter, label = Emitter(), QLabel()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(20000):
        label.setText("x")
        emitter.changed.emit(1)
        label.parent()
    print(sys.getrefcount(None) - none_before, sys.getrefcount(True) - true_before)
    """
)


def test_void_calls_keep_singleton_refcounts() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    none_delta, true_delta = (int(x) for x in done.stdout.split())
    # 60,000 Qt calls: a per-call leak would show as a loss of tens of thousands.
    assert none_delta > -100 and true_delta > -100, done.stdout
