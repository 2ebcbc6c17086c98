"""PySide6 widgets (thin): they call the core and render its state.

Toolchain workaround, measured here with PySide6/shiboken6 6.12.0 on CPython 3.11: several Qt
method paths hand a singleton back to Python without taking a reference — every ``void`` method
(``QLabel.setText``, ``QSyntaxHighlighter.setCurrentBlockState`` …) and ``parent()`` returning
nothing give back ``None``; ``Signal.emit``/``connect`` give back ``True``. Each call drops that
object's reference count by one; after a few thousand calls it reaches zero and the process aborts
("Fatal Python error: none_dealloc" / "bool_dealloc") — at run time in a long editing session, or
at exit. CPython 3.12+ makes these objects immortal, which hides the bug. On older CPythons we pin
None, True and False with a huge extra count, once, as soon as any UI module is imported.
Reproduce: ``for _ in range(10000): QLabel().setText("x")`` on 3.11 aborts without the pin.
"""

from __future__ import annotations

import sys


def _pin_singletons() -> None:
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    for obj in (None, True, False):
        refcnt = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is the first field
        if refcnt.value < (1 << 40):
            refcnt.value += 1 << 41


_pin_singletons()
