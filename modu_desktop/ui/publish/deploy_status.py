"""Following publishing for one window, into its ``PublishBoard`` (``core.publish.status``).

:meth:`DeployStatus.watch` follows the deploy of one save (its commit's runs, polled until a
final state). A failed build is explained once (``explain(run)`` reads the log: which pages,
who saved them last) and becomes the board's stop; from then on the branch's latest runs are
polled too, until a later build succeeds — the one that ends the stop for every save before it,
in every window, whoever made it. Nothing here words anything: the widgets render the board.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from modu_desktop.core.github import errors
from modu_desktop.core.github.client import GitHubClient
from modu_desktop.core.github.types import WorkflowRun
from modu_desktop.core.publish.deploy import DeployState
from modu_desktop.core.publish.status import PublishBoard, SiteStop
from modu_desktop.ui.kit.operation import Operations

log = logging.getLogger(__name__)

NO_RUN_AFTER_S = 180.0

Explain = Callable[[WorkflowRun], Awaitable[SiteStop]]


class DeployStatus:
    def __init__(
        self,
        board: PublishBoard,
        client: GitHubClient,
        ops: Operations,
        *,
        poll_s: float,
        stopped: Callable[[], bool],
        explain: Explain,
        server_now: Callable[[], float] = time.time,
    ) -> None:
        self.board = board
        self.client = client
        self.ops = ops
        self.poll_s = poll_s
        self.stopped = stopped
        self.explain = explain
        self.server_now = server_now
        self._follow: dict[str, asyncio.Task[None]] = {}  # commit sha → its build's follower
        self._commit_of: dict[str, str] = {}  # doc id → the commit of its last save here
        self._site: asyncio.Task[None] | None = None
        self._looking = False

    def watch(self, doc_id: str, commit_sha: str, page_url: str | None = None) -> None:
        """Follow the Deploy run of ``commit_sha``, a save of ``doc_id`` (``page_url``: where
        the page is published). The pages of one commit (a change of many pages) are followed
        together, by one follower: one build, asked about once per look."""
        before = self._commit_of.get(doc_id)
        self._commit_of[doc_id] = commit_sha
        if before not in (None, commit_sha) and before not in self._commit_of.values():
            old = self._follow.pop(str(before), None)
            if old is not None and not old.done():
                old.cancel()  # no page of it is shown any more: a later save is followed
        tracker = self.board.saved(
            doc_id,
            commit_sha,
            at=self.server_now(),
            page_url=page_url,
            give_up_after_s=NO_RUN_AFTER_S,
        )
        self._follow = {c: t for c, t in self._follow.items() if not t.done()}
        if commit_sha not in self._follow and not tracker.state.final:
            self._follow[commit_sha] = self.ops.run(self._loop(commit_sha), name="deploy-status")

    def following(self) -> bool:
        """Whether the build of a save is still being followed (its runs polled)."""
        return any(not task.done() for task in self._follow.values())

    async def _loop(self, commit_sha: str) -> None:
        board = self.board
        started = time.monotonic()
        while not self.stopped():
            try:
                runs: list[WorkflowRun] | None = await self.client.workflow_runs(commit_sha)
            except (errors.PermissionDenied, errors.NotFound):
                board.unavailable(commit_sha)
                return
            except Exception:
                runs = None
            state = board.observe(commit_sha, runs, time.monotonic() - started)
            if state is None:
                return  # a later save of the document is followed instead
            if state is DeployState.FAILED:
                tracker = board.tracker_of(commit_sha)
                if tracker is not None and tracker.run is not None:
                    await self._stopped_by(tracker.run)
                return
            if state.final:
                return
            await asyncio.sleep(self.poll_s)

    async def _stopped_by(self, run: WorkflowRun) -> None:
        stop = self.board.stop
        if stop is None or stop.run_id < run.id or stop.failure is None:
            self.board.site_stopped(await self._explained(run))
        self._watch_site()

    async def _explained(self, run: WorkflowRun) -> SiteStop:
        """Why ``run`` failed; when that cannot be read now, a stop without its log, which the
        site's watch reads again at its next look (never a follower that dies quietly and
        leaves "finding out why" on screen for good)."""
        try:
            return await self.explain(run)
        except Exception as exc:
            log.info("why run %s failed could not be read: %s", run.id, exc)
            return SiteStop(run.id, run.html_url, (), None, run)

    async def look_at_site(self) -> None:
        """One read of the branch's newest builds, for a window that followed none of them —
        just started, the list refreshed by hand, or a failure of ours not explained yet: a
        failed build becomes the board's stop (which page, who saved it: the one who broke it
        gets 고치기 and 되돌리기 whatever this window saw before), a good one ends it."""
        if self._looking:
            return
        self._looking = True
        try:
            await self._look()
        finally:
            self._looking = False

    async def _look(self) -> None:
        try:
            runs = await self.client.branch_runs(per_page=10)
        except Exception as exc:  # no access, offline: the followers keep going
            log.info("the site's builds could not be read: %s", exc)
            return
        done = sorted((r for r in runs if r.status == "completed"), key=lambda r: r.id)
        for r in done:  # a save of ours among them is told at once
            if r.head_sha:
                self.board.observe(r.head_sha, [r])
        newest = next((r for r in reversed(done) if r.conclusion in ("success", "failure")), None)
        if newest is None:
            return
        if newest.conclusion == "success":
            self.board.site_built(newest.id)
            return
        stop = self.board.stop
        if stop is None or stop.run_id < newest.id or stop.failure is None:
            self.board.site_stopped(await self._explained(newest))
        self._watch_site()

    def _watch_site(self) -> None:
        if self._site is None or self._site.done():
            self._site = self.ops.run(self._site_loop(), name="site-builds")

    async def _site_loop(self) -> None:
        """While the site is stopped: the branch's newest runs, until one after the stop
        succeeds (a newer failure is explained again: it may name another page)."""
        board = self.board
        polls = 0
        while not self.stopped() and board.stop is not None:
            polls += 1  # a stop can last hours: after the first minutes, look less often
            await asyncio.sleep(self.poll_s if polls <= 24 else max(self.poll_s, 30.0))
            stop = board.stop
            if stop is None:
                return
            if stop.failure is None and stop.run is not None:  # its log could not be read
                board.site_stopped(await self._explained(stop.run))
            try:
                runs = await self.client.branch_runs(per_page=10)
            except (errors.PermissionDenied, errors.NotFound):
                return
            except Exception:
                continue
            later = sorted(
                (r for r in runs if r.id > stop.run_id and r.status == "completed"),
                key=lambda r: r.id,
            )
            for r in later:  # a save of ours among them is told at once, not at its next look
                if r.head_sha:
                    board.observe(r.head_sha, [r])
            built = [r for r in later if r.conclusion == "success"]
            if built:
                board.site_built(built[-1].id)
                continue
            failed = [r for r in later if r.conclusion == "failure"]
            if failed:
                board.site_stopped(await self._explained(failed[-1]))
