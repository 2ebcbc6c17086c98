"""A picture's description changed on a page that is not open in the window (Qt-free).

Like the web admin's other operations on a page (``ops.py``): take the page's lock, read the
page, change the one place (``core/pictures/alt_text.change_alt``: found again the same way and
refused when its description is no longer the one the person saw), save over the version read,
and let the lock go whatever happened. A page someone else holds is refused, and the sentence
says who and since when; nothing is written then.
"""

from __future__ import annotations

import contextlib
from typing import Any

from modu_desktop.core.docops.ops import lock_holder_text
from modu_desktop.core.documents.store import SaveConflict
from modu_desktop.core.github.errors import GitHubError, NotFound
from modu_desktop.core.locks.model import AcquireOutcome
from modu_desktop.core.pictures.alt_text import (
    AltChange,
    AltCode,
    AltResult,
    change_alt,
    changed_meanwhile,
)
from modu_desktop.core.text import Text

__all__ = ["save_alt_text"]


async def save_alt_text(store: Any, locks: Any, login: str, change: AltChange) -> AltResult:
    """Change one description on a page that is not open here: take the page's lock (refused,
    with who and since when, while someone else edits it), read the page, change the place,
    save over the version read, and let the lock go whatever happened."""
    acq = await locks.acquire(change.doc_id)
    if acq.outcome is AcquireOutcome.REUSED:  # open in this window: its editor changes it
        return AltResult(
            AltCode.LOCKED,
            Text(
                "“{title}” is open in this window; the description is changed there.",
                title=change.title,
            ),
        )
    if acq.held is None:
        if acq.view is not None and acq.outcome in (
            AcquireOutcome.BLOCKED,
            AcquireOutcome.LOST_RACE,
        ):
            return AltResult(
                AltCode.LOCKED,
                Text(
                    "The description was not changed: {holder}",
                    holder=lock_holder_text(acq.view, change.title),
                ),
            )
        return _failed(change, acq.error)
    try:
        try:
            loaded = await store.load(change.doc_id)
        except GitHubError as exc:
            return _failed(change, exc)
        res = change_alt(loaded.text, change)
        if res.code is not AltCode.SAVED or res.new_text is None:
            return res
        try:
            saved = await store.save(loaded, res.new_text, loaded.sha, login)
        except GitHubError as exc:
            return _failed(change, exc)
        if isinstance(saved, SaveConflict):
            return AltResult(
                AltCode.CHANGED,
                changed_meanwhile(change),
            )
        return AltResult(res.code, res.text, res.new_text, saved.commit_sha)
    finally:
        await _release_quietly(locks, acq.held)


async def _release_quietly(locks: Any, held: Any) -> None:
    # The change's own result matters more than the release's: a lock that could not be let go
    # goes stale by itself, and the next list shows it as nobody's.
    with contextlib.suppress(Exception):
        await locks.release(held)


def _failed(change: AltChange, exc: BaseException | None) -> AltResult:
    if isinstance(exc, NotFound):
        reason: Text = Text("the page is no longer on the site")
    elif exc is not None:
        reason = Text("{error}", error=exc)
    else:
        reason = Text("GitHub did not answer as expected")
    return AltResult(
        AltCode.FAILED,
        Text(
            "The description on “{title}” was not changed: {reason}",
            title=change.title,
            reason=reason,
        ),
    )
