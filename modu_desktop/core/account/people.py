"""People by the name they go by (Qt-free): a GitHub login shown with the account's display
name, "김민지 (kim)", wherever a person is named — the lock question, the list's badges, the
banners, the conflict screen, the history, the notices.

    people = People(cache_dir / "people-api.github.com.json")
    use_people(people)                   # what :func:`person` reads from now on
    await people.learn(client, {"kim"})  # GET /users/kim once, kept on disk for a week
    person("kim")                        # "김민지 (kim)"; "kim" while its name is not known

A name is read from ``GET /users/{login}`` (``name``; None when the account set none) and kept
on disk with the time it was read, so a restart asks nothing and a changed name is seen within
:data:`NAME_TTL_S`. A login GitHub does not know, or a read that failed, is asked again later
(after :data:`RETRY_S`), never in a loop. This module imports no HTTP client: the words
(``core/locks/words.py``) use it at the start window's first paint.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modu_desktop.core.atomic import read_json_safely, write_json_atomic
from modu_desktop.core.text import Text

log = logging.getLogger(__name__)

NAME_TTL_S = 7 * 86400.0  # a name read is shown this long before it is read again
RETRY_S = 600.0  # a read that failed is not tried again before this
VERSION = 1


@dataclass(frozen=True)
class Known:
    login: str
    name: str | None  # None: the account has no display name
    read_at: float  # Unix seconds of the read


class People:
    """Display names by login, from GitHub, kept in ``path`` (None: in memory only)."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        ttl_s: float = NAME_TTL_S,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.ttl_s = ttl_s
        self.now = now
        self._known: dict[str, Known] = {}
        self._failed: dict[str, float] = {}  # login → when a read failed
        self._listeners: list[Callable[[], None]] = []
        self._load()

    # -- reading ---------------------------------------------------------------------------------

    def name_of(self, login: str | None) -> str | None:
        """The display name of ``login`` (an old one too, until it is read again), or None."""
        if not login:
            return None
        known = self._known.get(login.casefold())
        return known.name if known is not None else None

    def person(self, login: str | None, *, at: bool = False, name: str | None = None) -> str:
        """``"김민지 (kim)"`` ("김민지(kim)" in Korean); the login alone when no display name
        is known (or it is the login itself); ``"?"`` for nobody. ``at``: the login as
        ``@kim`` when no name is known (the command line's way). ``name``: a name to use when
        GitHub's is not known (the name on a commit)."""
        if not login:
            return (name or "").strip() or "?"
        known = (self.name_of(login) or name or "").strip()
        if not known or known.casefold() == login.casefold():
            return f"@{login}" if at else login
        return Text("{name} ({login})", name=known, login=login)()

    def wanted(self, logins: Iterable[str | None]) -> list[str]:
        """The logins whose name is not known or is due to be read again."""
        now = self.now()
        out: list[str] = []
        for login in logins:
            if not login or login in out or login == "?":
                continue
            key = login.casefold()
            known = self._known.get(key)
            if known is not None and now - known.read_at < self.ttl_s:
                continue
            if now - self._failed.get(key, -RETRY_S) < RETRY_S:
                continue
            out.append(login)
        return out

    # -- learning --------------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        """``listener()`` after names were learnt (the screens say them again)."""
        self._listeners.append(listener)

    def remember(self, login: str, name: str | None) -> bool:
        """Keep ``name`` for ``login``; True when what is shown changes."""
        key = login.casefold()
        before = self.person(login)
        self._known[key] = Known(login, (name or "").strip() or None, self.now())
        self._failed.pop(key, None)
        return self.person(login) != before

    async def learn(self, client: Any, logins: Iterable[str | None]) -> bool:
        """Read the names of ``logins`` that are not known yet (``client.get_account``), keep
        them on disk and tell the listeners. True when a name shown changed. Never raises: a
        name that cannot be read leaves the login as it is."""
        changed = False
        read = False
        for login in self.wanted(logins):
            try:
                account = await client.get_account(login)
            except Exception as exc:  # offline, unknown login, rate limit: the login stays
                log.info("the name of %s could not be read: %s", login, type(exc).__name__)
                self._failed[login.casefold()] = self.now()
                continue
            read = True
            changed = self.remember(login, getattr(account, "name", None)) or changed
        if read:
            self._save()
        if changed:
            for listener in list(self._listeners):
                listener()
        return changed

    # -- the file --------------------------------------------------------------------------------

    def _load(self) -> None:
        if self.path is None:
            return
        data, _problem = read_json_safely(self.path)
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return
        for entry in data.get("people") or []:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                login = str(entry["login"])
                name = entry.get("name")
                self._known[login.casefold()] = Known(
                    login, str(name) if name else None, float(entry["read_at"])
                )

    def _save(self) -> None:
        if self.path is None:
            return
        people = [
            {"login": k.login, "name": k.name, "read_at": k.read_at} for k in self._known.values()
        ]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_json_atomic(self.path, {"version": VERSION, "people": people})
        except OSError as exc:
            log.info("the names could not be kept: %s", exc)


_current = People()


def use_people(people: People) -> None:
    """The names every screen says from now on (the signed-in window's)."""
    global _current
    _current = people


def current() -> People:
    return _current


def person(login: str | None, *, at: bool = False, name: str | None = None) -> str:
    """``login`` as people call them: "김민지 (kim)", or the login alone (see :class:`People`)."""
    return _current.person(login, at=at, name=name)
