"""Moving a document up or down the menu: two documents swap ``sidebar_position`` in two
sha-checked commits, as the web admin does. A page without a position (listed last, after every
page that has one) takes the place it is listed at (:func:`listed_positions`), so a page made
without one moves like any other and has a position from then on. If the second write fails,
the first is undone with a compensating write (same commit message format, the original
position) over the sha it produced; if that fails too, the result says exactly which file has
which position now."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from modu_desktop.core.brochure import frontmatter
from modu_desktop.core.docops.result import OpCode, OpResult, failed
from modu_desktop.core.documents.store import (
    DocSummary,
    DocumentStore,
    LoadedDoc,
    SaveConflict,
    SaveResult,
    encode_text,
    swap_message,
)
from modu_desktop.core.github.blobcache import git_blob_sha
from modu_desktop.core.github.errors import GitHubError, WriteUncertain
from modu_desktop.core.text import Text, _err_text

Position = int | float


def listed_positions(ordered: Sequence[DocSummary]) -> dict[str, Position]:
    """Every page of one menu level (in list order) and its position: its own, or — for a page
    without one — the next after the last position given, in the order they are listed."""
    given = [d.position for d in ordered if d.position is not None]
    after = math.floor(max(given)) if given else 0
    out: dict[str, Position] = {}
    for d in ordered:
        if d.position is not None:
            out[d.doc_id] = d.position
        else:
            after += 1
            out[d.doc_id] = after
    return out


async def swap_in_menu(
    store: DocumentStore,
    login: str,
    da: LoadedDoc,
    db: LoadedDoc,
    listed: Mapping[str, Position] | None = None,
) -> OpResult:
    """Swap the ``sidebar_position`` of two loaded documents (``da`` is written first); a
    document without one has the place ``listed`` gives it."""
    fa, fb = frontmatter.parse(da.text), frontmatter.parse(db.text)
    pa, pb = fa.get_number("sidebar_position"), fb.get_number("sidebar_position")
    listed = listed or {}
    pa = pa if pa is not None else listed.get(da.doc_id)
    pb = pb if pb is not None else listed.get(db.doc_id)
    if pa is None or pb is None:
        missing = da if pa is None else db
        return OpResult(
            OpCode.NOTHING_TO_DO,
            Text("“{title}” has no place in the menu.", title=missing.title),
            doc_id=missing.doc_id,
            path=missing.path,
        )
    if pa == pb:
        return OpResult(
            OpCode.NOTHING_TO_DO,
            Text(
                "“{a}” and “{b}” both have position {pa}; swapping would change "
                "nothing. Give them different positions first.",
                a=da.title,
                b=db.title,
                pa=pa,
            ),
            doc_id=da.doc_id,
            path=da.path,
        )
    return await _Swap(store, login, da, pa, db, pb).run(fa, fb)


class _Swap:
    def __init__(
        self,
        store: DocumentStore,
        login: str,
        da: LoadedDoc,
        pa: Position,
        db: LoadedDoc,
        pb: Position,
    ) -> None:
        self.store, self.login = store, login
        self.da, self.pa = da, pa  # written first: it moves to pb
        self.db, self.pb = db, pb  # written second: it moves to pa

    async def run(self, fa: frontmatter.FrontMatter, fb: frontmatter.FrontMatter) -> OpResult:
        da, db, pa, pb = self.da, self.db, self.pa, self.pb
        fa.set("sidebar_position", pb)
        first = await self._write(da, fa.render(), swap_message(da.path, pb, self.login))
        if not isinstance(first, SaveResult):
            return self._first_failed(first)
        fb.set("sidebar_position", pa)
        second = await self._write(db, fb.render(), swap_message(db.path, pa, self.login))
        if isinstance(second, SaveResult):
            return self._swapped(first, second.sha, (first.commit_sha, second.commit_sha))
        return await self._roll_back(first, second)

    def _swapped(
        self, first: SaveResult, second_sha: str, commits: tuple[str | None, ...]
    ) -> OpResult:
        da, db = self.da, self.db
        return OpResult(
            OpCode.MOVED,
            Text("Swapped “{a}” and “{b}” in the menu.", a=da.title, b=db.title),
            doc_id=da.doc_id,
            path=da.path,
            commits=tuple(c for c in commits if c),
            details={
                "positions": {da.doc_id: self.pb, db.doc_id: self.pa},
                "shas": {da.path: first.sha, db.path: second_sha},
            },
        )

    async def _write(
        self, doc: LoadedDoc, text: str, message: str
    ) -> SaveResult | SaveConflict | GitHubError:
        try:
            return await self.store.save(doc, text, doc.sha, self.login, message=message)
        except GitHubError as exc:
            return exc

    def _first_failed(self, err: SaveConflict | GitHubError) -> OpResult:
        da = self.da
        if isinstance(err, SaveConflict):
            return OpResult(
                OpCode.CONFLICT,
                Text(
                    "Order not changed: “{title}” changed meanwhile. Refresh and try again.",
                    title=da.title,
                ),
                doc_id=da.doc_id,
                path=da.path,
            )
        if isinstance(err, WriteUncertain):
            return OpResult(
                OpCode.UNCERTAIN,
                Text(
                    "Could not confirm whether “{title}” was changed; refresh to check the order.",
                    title=da.title,
                ),
                doc_id=da.doc_id,
                path=da.path,
                error=err,
            )
        return failed(err, None, Text("change the order"))

    async def _roll_back(self, first: SaveResult, second: SaveConflict | GitHubError) -> OpResult:
        """The second write failed: did it land after all? Else undo the first."""
        da, db, pa = self.da, self.db, self.pa
        why = (
            Text("“{title}” changed meanwhile", title=db.title)
            if isinstance(second, SaveConflict)
            else _err_text(second)
        )
        if isinstance(second, WriteUncertain):
            # Did the second write land after all? Then the swap is complete. If we cannot
            # tell, undoing the first write could leave both documents at the same position,
            # so nothing more is written and the state is described instead.
            try:
                entry = await self.store.current_entry(db.path)
            except GitHubError as exc:
                return self._unknown_second(first, exc)
            fb = frontmatter.parse(db.text)
            fb.set("sidebar_position", pa)
            wanted = git_blob_sha(encode_text(fb.render()))
            if entry is not None and entry.sha == wanted:
                return self._swapped(first, wanted, (first.commit_sha,))
        undo: SaveResult | SaveConflict | GitHubError
        try:
            undo = await self.store.save(
                da.path,
                da.text,
                first.sha,
                self.login,
                message=swap_message(da.path, pa, self.login),
            )
        except GitHubError as exc:
            undo = exc
        return self._after_undo(first, second, why, undo)

    def _unknown_second(self, first: SaveResult, exc: GitHubError) -> OpResult:
        da, db, pa, pb = self.da, self.db, self.pa, self.pb
        return OpResult(
            OpCode.UNCERTAIN,
            Text(
                "The order may be only half changed: “{a}” now has position {pb}, but "
                "GitHub did not answer whether “{b}” was changed to {pa}. Refresh the list: "
                "if both show {pb}, move “{a}” back or set its position to {pa}.",
                a=da.title,
                pb=pb,
                b=db.title,
                pa=pa,
            ),
            doc_id=da.doc_id,
            path=da.path,
            commits=tuple(c for c in [first.commit_sha] if c),
            error=exc,
            details={"positions": {da.doc_id: pb}, "shas": {da.path: first.sha}},
        )

    def _after_undo(
        self,
        first: SaveResult,
        second: SaveConflict | GitHubError,
        why: Text,
        undo: SaveResult | SaveConflict | GitHubError,
    ) -> OpResult:
        da, db, pa, pb = self.da, self.db, self.pa, self.pb
        commits = tuple(c for c in [first.commit_sha] if c)
        if isinstance(undo, SaveResult):
            commits += tuple(c for c in [undo.commit_sha] if c)
            return OpResult(
                OpCode.ROLLED_BACK,
                Text(
                    "Order not changed: {why}. The first change was undone, so both pages "
                    "keep their places (“{a}” {pa}, “{b}” {pb}).",
                    why=why,
                    a=da.title,
                    pa=pa,
                    b=db.title,
                    pb=pb,
                ),
                doc_id=da.doc_id,
                path=da.path,
                commits=commits,
                error=second if isinstance(second, GitHubError) else None,
                details={"positions": {da.doc_id: pa, db.doc_id: pb}},
            )
        return OpResult(
            OpCode.PARTIAL,
            Text(
                "The order is only half changed: “{a}” now has position {pb}, but “{b}” "
                "could not be changed ({why}) and still has {pb}, and undoing the first "
                "change failed too. Set the position of “{a}” back to {pa} by hand.",
                a=da.title,
                pb=pb,
                b=db.title,
                why=why,
                pa=pa,
            ),
            doc_id=da.doc_id,
            path=da.path,
            commits=commits,
            error=undo if isinstance(undo, BaseException) else None,
            details={"positions": {da.doc_id: pb, db.doc_id: pb}},
        )
