"""PySide6 widgets (thin): they call the core and render its state.

Toolchain workaround, measured here with PySide6/shiboken6 6.12.0 on CPython 3.11: every call of
a Qt method that returns ``void`` (``QLabel.setText``, ``QSyntaxHighlighter.setCurrentBlockState``
…) gives back ``None`` without taking a reference, so each call drops None's reference count by
one. After a few thousand calls it reaches zero and the process aborts with "Fatal Python error:
none_dealloc" (at run time during long editing sessions, or at exit). CPython 3.12+ makes None
immortal, which hides the bug. On older CPythons we pin None with a huge extra count, once, as
soon as any UI module is imported.
"""

from __future__ import annotations

import sys


def _pin_none() -> None:
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    refcnt = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is the first field
    if refcnt.value < (1 << 40):
        refcnt.value += 1 << 41


_pin_none()
