"""People named by the names they go by, in one window: the display names of the logins a
window is about to show are read in the background (``core/account/people.py``), and once they
are in, the window says everything that names someone again."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from modu_desktop.core.account.people import People
from modu_desktop.ui.kit.operation import Operations


class WindowNames:
    def __init__(
        self,
        people: People,
        client: object,
        ops: Operations,
        *,
        closing: Callable[[], bool],
        said_again: Callable[[], None],
    ) -> None:
        self.people = people
        self.client = client
        self.ops = ops
        self.closing = closing
        people.subscribe(lambda: None if closing() else said_again())

    async def learn_now(self, logins: Iterable[str | None]) -> None:
        """The same, awaited (the list's refresh: its badges are said by name when it ends)."""
        if not self.closing():
            await self.people.learn(self.client, logins)

    def learn(self, logins: Iterable[str | None]) -> None:
        """Read the names of ``logins`` not known yet (one request each, then a week on disk)."""
        wanted = self.people.wanted(logins)
        if wanted and not self.closing():
            self.ops.run(self.people.learn(self.client, wanted), name="names")
