"""Contended open in one round trip (issue 18).

When the list already knows the document's lock (its blob sha, with the bytes in the blob
cache), the "someone is editing" dialog opens at once from it, while one fresh read (tree, and
the blob only if the sha moved) checks it. The fresh answer then wins:

- the same lock: nothing changes (the dialog was right);
- another holder (or the same one again, with a new lock file): the dialog shows them in place;
- no blocking lock any more (released, stale, ours): the dialog closes and the open looks again.

A take-over is never sent from the cached view: it waits for the fresh one, and when that names
another lock the dialog asks again with it (a steal carries the sha it saw, so a stale one would
only be refused by GitHub anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from modu_desktop.ui.locks.lock_dialog import (
    LockChoice,
    LockDialog,
    LockHolderInfo,
    choose_lock_action,
)

log = logging.getLogger(__name__)

BLOCKING = ("held", "mine_other_session", "malformed")


def _blocking(view: Any) -> bool:
    status = getattr(view, "status", None)
    return getattr(status, "value", status) in BLOCKING


def cached_then_fresh(ctx: Any, doc_id: str) -> tuple[Any, asyncio.Task[Any] | None]:
    """(the lock as the list saw it, classified now, and a fresh read under way), or
    (None, None) when the list saw no lock, its bytes are not cached, or it does not block."""
    snap = getattr(ctx.store, "snapshot", None)
    entry = (getattr(snap, "locks", None) or {}).get(doc_id)
    sha = getattr(entry, "sha", None)
    cached_view = getattr(ctx.locks, "cached_view", None)
    if sha is None or not callable(cached_view):
        return None, None
    try:
        view = cached_view(doc_id, sha)
    except Exception:
        log.debug("no cached lock view for %s", doc_id, exc_info=True)
        return None, None
    if view is None or not _blocking(view):
        return None, None
    fresh = asyncio.ensure_future(ctx.locks.inspect(doc_id))
    fresh.add_done_callback(lambda t: t.cancelled() or t.exception())
    return view, fresh


def _open_dialog(parent: QWidget | None) -> LockDialog | None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, LockDialog) and w.isVisible() and w.parent() is parent:
            return w
    return None


async def choose_with_fresh_check(
    parent: QWidget | None,
    view: Any,
    fresh: asyncio.Task[Any],
    info_of: Callable[[Any], LockHolderInfo],
) -> tuple[LockChoice | None, Any]:
    """Ask with the cached `view` while `fresh` runs. Returns (choice, the view it applies to);
    choice None: the lock changed so that the open must look again (with that view)."""
    current = {"view": view, "retry": False}
    asking = asyncio.ensure_future(choose_lock_action(parent, info_of(view)))

    def apply(result: asyncio.Task[Any]) -> None:
        if result.cancelled() or result.exception() is not None or asking.done():
            return
        new = result.result()
        if getattr(new, "sha", None) == getattr(view, "sha", None):
            current["view"] = new  # confirmed (with a fresh clock)
            return
        current["view"] = new
        dlg = _open_dialog(parent)
        if _blocking(new):
            if dlg is not None:
                dlg.update_info(info_of(new))
            return
        current["retry"] = True  # free, stale or ours now: close the question, look again
        if dlg is not None:
            dlg.reject()

    fresh.add_done_callback(apply)
    try:
        choice = await asking
    except BaseException:
        fresh.cancel()
        raise
    if current["retry"]:
        return None, current["view"]
    if choice is LockChoice.STEAL:
        try:
            new = await fresh
        except Exception as exc:  # the fresh read failed: the take-over will check by itself
            log.info("fresh lock read failed before a take-over: %s", exc)
            return choice, current["view"]
        if getattr(new, "sha", None) != getattr(view, "sha", None):
            return None, new  # someone else now: ask again about them
        return choice, new
    with contextlib.suppress(BaseException):
        if not fresh.done():
            fresh.cancel()
    return choice, current["view"]
