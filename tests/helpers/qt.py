"""Finding a dialog's parts by object name, as the tests click them."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QObject

QtObject = TypeVar("QtObject", bound=QObject)


def child(parent: QObject, kind: type[QtObject], name: str) -> QtObject:
    """The ``kind`` named ``name`` under ``parent``; the test fails here when there is none."""
    found = parent.findChild(kind, name)
    assert found is not None, f"no {kind.__name__} named {name!r}"
    return found


def settle() -> None:
    """Deliver what Qt has already posted — layout requests, resizes, repaints and what they post
    in turn — without waiting for any time to pass (a layout is settled, not waited for)."""
    from PySide6.QtCore import QCoreApplication

    for _ in range(5):
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents()
